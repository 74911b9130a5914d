/* Unit tests of the MPI layer's packed profiles (mpi/pp_mpi_pack.c,
 * mpi/pp_mpi_merge.c), which need no MPI: packs written by hand with
 * regions, metrics and locations that differ between the "ranks", merged
 * and read back as the engine's unified profile; an engine profile packed
 * and unpacked unchanged; merges in either grouping giving the same
 * profile; regions that look alike kept apart; parameter sets matched by
 * their names and values, whatever their order; damaged buffers refused,
 * never read out of bounds. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/pp_mpi_pack.h"
#include "profile/pp_profile.h"
#include "profile/pp_profile_test.h"

/* ---- writing a pack by hand ------------------------------------------------------- */

typedef struct hreg {
    const char *name, *file, *paradigm, *role;
    int begin, end;
} hreg;

typedef struct hnode {
    uint32_t parent, region;
    /* values per location: visits, time (min = max = time / visits);
     * counters[k], extras[k] = visits * (k + 1) * 10; at the task
     * construct, max active instances = visits + 1 */
    uint64_t visits[4];
    uint32_t pset; /* index into the pack's sets; 0: none */
} hnode;

/* A parameter set: up to two entries, already in name order as a pack
 * holds them (type 0 number, 1 string). */
typedef struct hparam {
    const char *name;
    uint32_t type;
    int64_t value;
    const char *str;
} hparam;
typedef struct hpset {
    uint32_t n;
    hparam e[2];
} hpset;

typedef struct hpack {
    uint32_t n_loc, rank0;
    const char *ctr[3];
    uint32_t n_ctr;
    const char *extra[3];
    uint32_t n_extra;
    const hreg *regions;
    uint32_t n_regions, tasks_region, task_region;
    const hnode *nodes;
    uint32_t n_nodes;
    const hpset *psets; /* the sets after the empty one */
    uint32_t n_psets;
} hpack;

static void put_str(pp_mpi_buf *b, const char *s)
{
    pp_mpi_buf_str(b, s, strlen(s));
}

static void write_pack(const hpack *p, pp_mpi_buf *b)
{
    *b = (pp_mpi_buf){0};
    pp_mpi_buf_put(b, "PPMPIv1", 8);
    uint32_t head[] = {p->n_loc,   p->n_ctr,        p->n_extra,     p->n_regions,
                       p->n_nodes, p->tasks_region, p->n_psets + 1};
    for (size_t i = 0; i < 7; i++)
        pp_mpi_buf_u32(b, head[i]);
    for (uint32_t k = 0; k < p->n_ctr; k++)
        put_str(b, p->ctr[k]);
    for (uint32_t k = 0; k < p->n_extra; k++)
        put_str(b, p->extra[k]);
    for (uint32_t k = 0; k < p->n_regions; k++) {
        const hreg *r = &p->regions[k];
        put_str(b, r->name), put_str(b, r->file), put_str(b, r->paradigm), put_str(b, r->role);
        put_str(b, "");
        pp_mpi_buf_u32(b, (uint32_t)r->begin);
        pp_mpi_buf_u32(b, (uint32_t)r->end);
    }
    for (uint32_t i = 0; i < p->n_loc; i++) {
        pp_mpi_buf_u32(b, p->rank0 + i / 2);
        pp_mpi_buf_u32(b, i % 2);
        put_str(b, p->rank0 ? "hostb" : "hosta");
        char proc[32];
        snprintf(proc, sizeof proc, "MPI Rank %u", p->rank0 + i / 2);
        put_str(b, proc);
        pp_mpi_buf_u64(b, 10 + p->rank0 + i);
    }
    pp_mpi_buf_u32(b, 0); /* the empty set */
    for (uint32_t k = 0; k < p->n_psets; k++) {
        pp_mpi_buf_u32(b, p->psets[k].n);
        for (uint32_t i = 0; i < p->psets[k].n; i++) {
            const hparam *e = &p->psets[k].e[i];
            put_str(b, e->name);
            pp_mpi_buf_u32(b, e->type);
            pp_mpi_buf_u64(b, (uint64_t)e->value);
            put_str(b, e->str ? e->str : "");
        }
    }
    for (uint32_t k = 0; k < p->n_nodes; k++) {
        const hnode *n = &p->nodes[k];
        pp_mpi_buf_u32(b, n->parent);
        pp_mpi_buf_u32(b, n->region);
        pp_mpi_buf_u32(b, n->pset);
        uint32_t entries = 0;
        for (uint32_t i = 0; i < p->n_loc; i++)
            entries += n->visits[i] != 0;
        pp_mpi_buf_u32(b, entries);
        for (uint32_t i = 0; i < p->n_loc; i++) {
            uint64_t v = n->visits[i];
            if (!v)
                continue;
            pp_mpi_buf_u32(b, i);
            pp_mpi_buf_u64(b, v);
            pp_mpi_buf_u64(b, 100 * v);
            pp_mpi_buf_u64(b, 100);
            pp_mpi_buf_u64(b, 100);
            pp_mpi_buf_u64(b, n->region == p->task_region ? v + 1 : 0); /* max active */
            for (uint32_t c = 0; c < p->n_ctr + p->n_extra; c++)
                pp_mpi_buf_u64(b, v * (c + 1) * 10);
        }
    }
    ck_assert(!b->failed);
}

/* macros, not const objects: C (and clang) takes only constant expressions in the
 * initializers of the arrays below */
#define R_PROG {"prog", "", "measurement", "artificial", -1, -1}
#define R_TASKS {"TASKS", "", "openmp", "artificial", -1, -1}
#define R_SEND {"MPI_Send", "", "mpi", "p2p", -1, -1}
#define R_LOOP {"!$omp for @a.c:3", "a.c", "openmp", "loop", 3, 9}
#define R_TASK {"!$omp task @a.c:5", "a.c", "openmp", "task", 5, 6}
#define R_ONLY_B {"MPI_Recv", "", "mpi", "p2p", -1, -1}

/* rank 0 (2 locations): prog -> { loop -> send, TASKS -> task } */
static const hreg A_REGIONS[] = {R_PROG, R_TASKS, R_LOOP, R_SEND, R_TASK};
static const hnode A_NODES[] = {
    {PP_MPI_NONE, 0, {1, 0}, 0}, {0, 2, {2, 2}, 0}, {2 - 1, 3, {3, 0}, 0},
    {0, 1, {0, 0}, 0},           {3, 4, {4, 1}, 0},
};
/* rank 1 (2 locations), other region order, one region of its own, a
 * counter and an extra metric in another order plus one each of its own:
 * prog -> { recv, TASKS -> task, loop -> send } */
static const hreg B_REGIONS[] = {R_ONLY_B, R_SEND, R_TASK, R_PROG, R_LOOP, R_TASKS};
static const hnode B_NODES[] = {
    {PP_MPI_NONE, 3, {1, 0}, 0}, {0, 0, {5, 0}, 0}, {0, 5, {0, 0}, 0}, {2, 2, {0, 6}, 0},
    {0, 4, {7, 7}, 0},           {4, 1, {8, 0}, 0},
};

static hpack pack_a(void)
{
    return (hpack){.n_loc = 2, .rank0 = 0, .ctr = {"PAPI_TOT_INS"}, .n_ctr = 1,
                   .extra = {"bytes_sent", "bytes_received"}, .n_extra = 2,
                   .regions = A_REGIONS, .n_regions = 5, .tasks_region = 1, .task_region = 4,
                   .nodes = A_NODES, .n_nodes = 5};
}

static hpack pack_b(void)
{
    return (hpack){.n_loc = 2, .rank0 = 1, .ctr = {"PAPI_L1_DCM", "PAPI_TOT_INS"}, .n_ctr = 2,
                   .extra = {"bytes_received", "bytes_sent"}, .n_extra = 2,
                   .regions = B_REGIONS, .n_regions = 6, .tasks_region = 5, .task_region = 2,
                   .nodes = B_NODES, .n_nodes = 6};
}

static pp_unode *child(const pp_unode *n, const char *name)
{
    for (pp_unode *c = n ? n->first_child : NULL; c; c = c->next_sibling) {
        pp_region_def d;
        if (pp_profile_region_describe(c->region, &d) == 0 && strcmp(d.name, name) == 0)
            return c;
    }
    return NULL;
}

static const char *region_name(const pp_unode *n)
{
    pp_region_def d;
    return pp_profile_region_describe(n->region, &d) == 0 ? d.name : "?";
}

static void setup(void)
{
    pp_profile_test_reset();
    pp_profile_test_start_at(0);
    ck_assert_int_eq(pp_profile_extra_define("bytes_sent", NULL, "bytes", NULL), 0);
    ck_assert_int_eq(pp_profile_extra_define("bytes_received", NULL, "bytes", NULL), 1);
}

static void teardown(void)
{
    pp_profile_test_reset();
}

/* The counts of a merged pack (its view is gone when they are read). */
typedef struct merged_counts {
    uint32_t n_loc, n_regions, n_ctr, n_extra, n_psets;
} merged_counts;

/* ha's and hb's packs merged and unpacked (write_pack, pp_mpi_merge,
 * pp_mpi_unpack), the merged pack's counts in *c. */
static pp_unified *merged_of(const hpack *ha, const hpack *hb, merged_counts *c)
{
    pp_mpi_buf a, b, out;
    write_pack(ha, &a);
    write_pack(hb, &b);
    pp_mpi_view va, vb, vo;
    ck_assert_int_eq(pp_mpi_view_open(&va, a.data, a.size), 0);
    ck_assert_int_eq(pp_mpi_view_open(&vb, b.data, b.size), 0);
    ck_assert_int_eq(pp_mpi_merge(&va, &vb, &out), 0);
    ck_assert_int_eq(pp_mpi_view_open(&vo, out.data, out.size), 0);
    *c = (merged_counts){vo.n_loc, vo.n_regions, vo.n_ctr, vo.n_extra, vo.n_psets};
    pp_unified *u = pp_mpi_unpack(&vo, 1234);
    ck_assert_ptr_nonnull(u);
    pp_mpi_view_close(&va), pp_mpi_view_close(&vb), pp_mpi_view_close(&vo);
    pp_mpi_buf_free(&a), pp_mpi_buf_free(&b), pp_mpi_buf_free(&out);
    return u;
}

static pp_unified *merged_ab(void)
{
    hpack ha = pack_a(), hb = pack_b();
    merged_counts c;
    pp_unified *u = merged_of(&ha, &hb, &c);
    ck_assert_uint_eq(c.n_loc, 4);
    ck_assert_uint_eq(c.n_regions, 6); /* MPI_Recv added once */
    ck_assert_uint_eq(c.n_ctr, 2);
    ck_assert_uint_eq(c.n_extra, 2);
    return u;
}

START_TEST(test_merge_by_identity)
{
    pp_unified *u = merged_ab();
    ck_assert_uint_eq(u->n_locations, 4);
    ck_assert_uint_eq(u->t_finalize, 1234);
    ck_assert_str_eq(region_name(u->root), "prog");
    /* children: a's in a's order, then b's new one; TASKS last */
    const char *order[] = {"!$omp for @a.c:3", "MPI_Recv", "TASKS"};
    int k = 0;
    for (pp_unode *c = u->root->first_child; c; c = c->next_sibling, k++) {
        ck_assert_int_lt(k, 3);
        ck_assert_str_eq(region_name(c), order[k]);
    }
    ck_assert_int_eq(k, 3);
    ck_assert_ptr_nonnull(u->tasks);
    ck_assert_str_eq(region_name(u->tasks), "TASKS");
    ck_assert_uint_eq(u->n_nodes, 6);
    /* values: a's locations 0, 1, b's 2, 3 */
    pp_unode *loop = child(u->root, "!$omp for @a.c:3"), *send = child(loop, "MPI_Send");
    ck_assert_ptr_nonnull(send);
    uint64_t want_loop[] = {2, 2, 7, 7}, want_send[] = {3, 0, 8, 0};
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(loop->visits[i], want_loop[i]);
        ck_assert_uint_eq(loop->time[i], 100 * want_loop[i]);
        ck_assert_uint_eq(send->visits[i], want_send[i]);
    }
    ck_assert_uint_eq(send->min_time[1], UINT64_MAX); /* no entry: no visit */
    pp_unode *task = child(u->tasks, "!$omp task @a.c:5");
    ck_assert_uint_eq(task->visits[0] + task->visits[1] + task->visits[2] + task->visits[3], 11);
    /* the construct's most active instances, per location */
    ck_assert_ptr_nonnull(task->max_active);
    uint64_t want_active[] = {5, 2, 0, 7};
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(task->max_active[i], want_active[i]);
    ck_assert_ptr_null(loop->max_active);
    /* counters by name: a's PAPI_TOT_INS first (b's second column), then
     * b's PAPI_L1_DCM (b's first) */
    ck_assert_str_eq(u->counter_names[0], "PAPI_TOT_INS");
    ck_assert_str_eq(u->counter_names[1], "PAPI_L1_DCM");
    ck_assert_uint_eq(send->counters[0 * 4 + 0], 30);  /* a: column 0 */
    ck_assert_uint_eq(send->counters[0 * 4 + 2], 160); /* b: its column 1 */
    ck_assert_uint_eq(send->counters[1 * 4 + 2], 80);  /* b: its column 0 */
    ck_assert_uint_eq(send->counters[1 * 4 + 0], 0);
    /* extras at the engine's indexes (bytes_sent 0, bytes_received 1) */
    ck_assert_uint_eq(send->extra[0 * 4 + 0], 60);  /* a: sent = its extra 0 */
    ck_assert_uint_eq(send->extra[1 * 4 + 0], 90);
    ck_assert_uint_eq(send->extra[0 * 4 + 2], 320); /* b: sent = its extra 1 */
    ck_assert_uint_eq(send->extra[1 * 4 + 2], 240);
    /* locations */
    ck_assert_int_eq(u->locations[3].rank, 1);
    ck_assert_uint_eq(u->locations[3].thread, 1);
    ck_assert_str_eq(u->locations[3].host, "hostb");
    ck_assert_str_eq(u->locations[1].process, "MPI Rank 0");
    ck_assert_uint_eq(u->max_active_tasks[2], 11);
    /* the engine knows every region once: the new one is defined, the
     * others are found by identity */
    uint32_t n = pp_profile_region_count();
    pp_unified_free(u);
    u = merged_ab();
    ck_assert_uint_eq(pp_profile_region_count(), n);
    pp_unified_free(u);
}
END_TEST

/* An engine profile packed and unpacked is unchanged. */
START_TEST(test_pack_round_trip)
{
    pp_region_def dl = {"!$omp parallel @r.c:1", "r.c", 1, 4, "openmp", "parallel", NULL, NULL};
    pp_region_def ds = {"MPI_Send", NULL, -1, -1, "mpi", "p2p", NULL, NULL};
    pp_region_def dt = {"!$omp task @r.c:2", "r.c", 2, 3, "openmp", "task", NULL, NULL};
    pp_region_id rl = pp_profile_region_define(&dl), rs = pp_profile_region_define(&ds),
                 rt = pp_profile_region_define(&dt);
    pp_profile_test_use_location(0);
    pp_task_handle serial = pp_profile_task_current();
    int64_t ctx = pp_profile_fork_at(rl, 2, 10);
    pp_profile_parallel_begin_at(rl, ctx, 10);
    pp_profile_enter_at(rs, 20);
    pp_profile_extra_add(0, 4096);
    pp_profile_exit_at(rs, 30);
    pp_profile_task_begin_at(rt, pp_profile_task_new_handle(), false, 40);
    pp_profile_task_end_at(rt, 50);
    pp_profile_parallel_end_at(rl, 60);
    pp_profile_join_at(rl, serial, 60);
    pp_profile_test_use_location(1);
    pp_profile_parallel_begin_at(rl, ctx, 12);
    pp_profile_enter_at(rs, 22);
    pp_profile_extra_add(1, 8);
    pp_profile_exit_at(rs, 27);
    pp_profile_parallel_end_at(rl, 58);
    pp_unified *u = pp_profile_unify_at(100);
    pp_mpi_buf b;
    ck_assert_int_eq(pp_mpi_pack(u, &b), 0);
    pp_mpi_view v;
    ck_assert_int_eq(pp_mpi_view_open(&v, b.data, b.size), 0);
    pp_unified *w = pp_mpi_unpack(&v, u->t_finalize);
    ck_assert_ptr_nonnull(w);
    ck_assert_uint_eq(w->n_nodes, u->n_nodes);
    ck_assert_uint_eq(w->n_locations, 2);
    ck_assert_uint_eq(w->n_extra, 2);
    for (pp_unode *x = u->root, *y = w->root; x || y; x = pp_unified_next(x), y = pp_unified_next(y)) {
        ck_assert_ptr_nonnull(x);
        ck_assert_ptr_nonnull(y);
        ck_assert_uint_eq(x->region, y->region);
        ck_assert_int_eq(x->id, y->id);
        ck_assert_int_eq(x == u->tasks, y == w->tasks);
        for (int i = 0; i < 2; i++) {
            ck_assert_uint_eq(x->visits[i], y->visits[i]);
            ck_assert_uint_eq(x->time[i], y->time[i]);
            ck_assert_uint_eq(x->min_time[i], y->min_time[i]);
            ck_assert_uint_eq(x->max_time[i], y->max_time[i]);
            ck_assert_uint_eq(x->extra[i], y->extra[i]);
            ck_assert_uint_eq(x->extra[2 + i], y->extra[2 + i]);
        }
    }
    pp_unode *par = pp_unified_child(w->root, rl);
    ck_assert_ptr_nonnull(par);
    ck_assert_ptr_nonnull(pp_unified_child(par, rs));
    ck_assert_uint_eq(pp_unified_child(par, rs)->extra[0], 4096);
    ck_assert_str_eq(w->locations[1].process, u->locations[1].process);
    ck_assert_str_eq(w->locations[1].host, u->locations[1].host);
    pp_unified_free(w);
    pp_unified_free(u);
    pp_mpi_view_close(&v);
    pp_mpi_buf_free(&b);
}
END_TEST

/* ((a + b) + c) and (a + (b + c)) are the same profile, and an empty pack
 * (a rank that measured nothing) changes nothing. */
START_TEST(test_merge_grouping)
{
    hpack ha = pack_a(), hb = pack_b(), hc = pack_b();
    hc.rank0 = 2;
    pp_mpi_buf a, b, c, e, ab, abc, bc, abc2, ae;
    write_pack(&ha, &a), write_pack(&hb, &b), write_pack(&hc, &c);
    ck_assert_int_eq(pp_mpi_pack(NULL, &e), 0);
    pp_mpi_view va, vb, vc, ve, vab, vbc, v1, v2, vae;
    ck_assert_int_eq(pp_mpi_view_open(&va, a.data, a.size), 0);
    ck_assert_int_eq(pp_mpi_view_open(&vb, b.data, b.size), 0);
    ck_assert_int_eq(pp_mpi_view_open(&vc, c.data, c.size), 0);
    ck_assert_int_eq(pp_mpi_view_open(&ve, e.data, e.size), 0);
    ck_assert_int_eq(pp_mpi_merge(&va, &vb, &ab), 0);
    ck_assert_int_eq(pp_mpi_view_open(&vab, ab.data, ab.size), 0);
    ck_assert_int_eq(pp_mpi_merge(&vab, &vc, &abc), 0);
    ck_assert_int_eq(pp_mpi_merge(&vb, &vc, &bc), 0);
    ck_assert_int_eq(pp_mpi_view_open(&vbc, bc.data, bc.size), 0);
    ck_assert_int_eq(pp_mpi_merge(&va, &vbc, &abc2), 0);
    ck_assert_uint_eq(abc.size, abc2.size);
    ck_assert_int_eq(memcmp(abc.data, abc2.data, abc.size), 0);
    ck_assert_int_eq(pp_mpi_view_open(&v1, abc.data, abc.size), 0);
    ck_assert_uint_eq(v1.n_loc, 6);
    /* empty on either side */
    ck_assert_int_eq(pp_mpi_merge(&va, &ve, &ae), 0);
    ck_assert_uint_eq(ae.size, a.size);
    ck_assert_int_eq(memcmp(ae.data, a.data, a.size), 0);
    pp_mpi_buf_free(&ae);
    ck_assert_int_eq(pp_mpi_merge(&ve, &va, &ae), 0);
    ck_assert_int_eq(pp_mpi_view_open(&vae, ae.data, ae.size), 0);
    ck_assert_uint_eq(vae.n_nodes, 5);
    ck_assert_uint_eq(vae.n_loc, 2);
    pp_mpi_view_close(&vae);
    pp_mpi_buf_free(&ae);
    ck_assert_int_eq(pp_mpi_view_open(&v2, abc2.data, abc2.size), 0);
    pp_mpi_view *views[] = {&va, &vb, &vc, &ve, &vab, &vbc, &v1, &v2};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
        pp_mpi_view_close(views[i]);
    pp_mpi_buf *bufs[] = {&a, &b, &c, &e, &ab, &abc, &bc, &abc2};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        pp_mpi_buf_free(bufs[i]);
}
END_TEST

/* Regions that look alike: a `parallel` and the `single` inside it ending on
 * the same line have implicit barriers of one name, file and lines.  Each
 * rank lists them in the same order (POMP2 regions are defined at start-up
 * in source order), at other indexes here.  Merged over three "ranks" and
 * written, every node keeps every location's values, the two barriers stay
 * two nodes of two regions, and nothing is added. */
#define R_PAR {"!$omp parallel @h.c:5", "h.c", "openmp", "parallel", 5, 9}
#define R_SINGLE {"!$omp single @h.c:6", "h.c", "openmp", "single", 6, 9}
#define R_BARRIER {"!$omp implicit barrier @h.c:9", "h.c", "openmp", "implicit barrier", 9, 9}

START_TEST(test_regions_alike)
{
    /* prog -> parallel -> { single -> barrier (the single's), barrier } */
    static const hreg a_regions[] = {R_PROG, R_PAR, R_BARRIER, R_SINGLE, R_BARRIER};
    static const hnode a_nodes[] = {{PP_MPI_NONE, 0, {1, 0}, 0}, {0, 1, {1, 1}, 0},
                                    {1, 3, {1, 1}, 0},           {2, 4, {2, 3}, 0},
                                    {1, 2, {4, 5}, 0}};
    static const hreg b_regions[] = {R_PAR, R_BARRIER, R_SEND, R_SINGLE, R_BARRIER, R_PROG};
    static const hnode b_nodes[] = {{PP_MPI_NONE, 5, {1, 0}, 0}, {0, 0, {1, 1}, 0},
                                    {1, 1, {6, 7}, 0},           {1, 3, {1, 1}, 0},
                                    {3, 4, {8, 9}, 0}};
    hpack h[3] = {{.n_loc = 2, .regions = a_regions, .n_regions = 5, .tasks_region = PP_MPI_NONE,
                   .task_region = PP_MPI_NONE, .nodes = a_nodes, .n_nodes = 5},
                  {.n_loc = 2, .rank0 = 1, .regions = b_regions, .n_regions = 6,
                   .tasks_region = PP_MPI_NONE, .task_region = PP_MPI_NONE, .nodes = b_nodes,
                   .n_nodes = 5}};
    h[2] = h[1];
    h[2].rank0 = 2;
    pp_mpi_buf in[3], ab, abc;
    pp_mpi_view v[3], vab, vabc;
    for (int i = 0; i < 3; i++) {
        write_pack(&h[i], &in[i]);
        ck_assert_int_eq(pp_mpi_view_open(&v[i], in[i].data, in[i].size), 0);
    }
    /* rank 2 into rank 1's buffer first, as the binomial tree does */
    pp_mpi_buf bc;
    pp_mpi_view vbc;
    ck_assert_int_eq(pp_mpi_merge(&v[1], &v[2], &bc), 0);
    ck_assert_int_eq(pp_mpi_view_open(&vbc, bc.data, bc.size), 0);
    ck_assert_uint_eq(vbc.n_nodes, 5);
    ck_assert_int_eq(pp_mpi_merge(&v[0], &vbc, &abc), 0);
    ck_assert_int_eq(pp_mpi_view_open(&vabc, abc.data, abc.size), 0);
    ck_assert_uint_eq(vabc.n_nodes, 5);
    ck_assert_uint_eq(vabc.n_regions, 6); /* a's five and MPI_Send */
    /* and in the other grouping */
    ck_assert_int_eq(pp_mpi_merge(&v[0], &v[1], &ab), 0);
    ck_assert_int_eq(pp_mpi_view_open(&vab, ab.data, ab.size), 0);
    ck_assert_uint_eq(vab.n_nodes, 5);
    pp_mpi_buf abc2;
    ck_assert_int_eq(pp_mpi_merge(&vab, &v[2], &abc2), 0);
    ck_assert_uint_eq(abc2.size, abc.size);
    ck_assert_int_eq(memcmp(abc2.data, abc.data, abc.size), 0);

    pp_unified *u = pp_mpi_unpack(&vabc, 0);
    ck_assert_ptr_nonnull(u);
    ck_assert_uint_eq(u->n_nodes, 5);
    pp_unode *par = child(u->root, "!$omp parallel @h.c:5");
    pp_unode *single = child(par, "!$omp single @h.c:6");
    pp_unode *inner = child(single, "!$omp implicit barrier @h.c:9");
    pp_unode *outer = single ? single->next_sibling : NULL;
    ck_assert_ptr_nonnull(inner);
    ck_assert_ptr_nonnull(outer);
    ck_assert_ptr_null(outer->next_sibling);
    ck_assert_str_eq(region_name(outer), "!$omp implicit barrier @h.c:9");
    ck_assert_uint_ne(inner->region, outer->region);
    uint64_t want_inner[] = {2, 3, 8, 9, 8, 9}, want_outer[] = {4, 5, 6, 7, 6, 7};
    for (int i = 0; i < 6; i++) {
        ck_assert_uint_eq(inner->visits[i], want_inner[i]);
        ck_assert_uint_eq(outer->visits[i], want_outer[i]);
        ck_assert_uint_eq(single->visits[i], 1);
    }
    pp_unified_free(u);
    pp_mpi_view *views[] = {&v[0], &v[1], &v[2], &vbc, &vabc, &vab};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
        pp_mpi_view_close(views[i]);
    pp_mpi_buf *bufs[] = {&in[0], &in[1], &in[2], &bc, &abc, &ab, &abc2};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        pp_mpi_buf_free(bufs[i]);
}
END_TEST

/* Every prefix of a pack, and packs with a byte changed, are refused or read
 * within their bounds (valgrind and ASan runs of this test check the
 * latter). */
static void check_damage(const hpack *h)
{
    pp_mpi_buf a;
    write_pack(h, &a);
    pp_mpi_view v;
    for (size_t n = 0; n < a.size; n++) {
        unsigned char *copy = malloc(n ? n : 1);
        memcpy(copy, a.data, n);
        ck_assert_msg(pp_mpi_view_open(&v, copy, n) == -1, "a pack cut at %zu is read", n);
        free(copy);
    }
    int opened = 0;
    for (size_t at = 0; at < a.size; at++) {
        for (int bit = 0; bit < 8; bit += 3) {
            unsigned char *copy = malloc(a.size);
            memcpy(copy, a.data, a.size);
            copy[at] ^= (unsigned char)(1u << bit);
            if (pp_mpi_view_open(&v, copy, a.size) == 0) {
                opened++;
                pp_mpi_buf out;
                pp_mpi_view va;
                ck_assert_int_eq(pp_mpi_view_open(&va, a.data, a.size), 0);
                if (pp_mpi_merge(&va, &v, &out) == 0)
                    pp_mpi_buf_free(&out);
                pp_unified *u = pp_mpi_unpack(&v, 0);
                pp_unified_free(u);
                pp_mpi_view_close(&va);
                pp_mpi_view_close(&v);
            }
            free(copy);
        }
    }
    ck_assert_int_gt(opened, 0); /* values and names may change unnoticed */
    pp_mpi_buf_free(&a);
}

/* ---- parameter sets ------------------------------------------------------------------ */

/* rank 0: TASKS -> task split by depth 1 and 2; rank 1, with its regions
 * and sets in another order: depth 2, (depth 3, kind leaf), depth 1. */
static const hreg PA_REGIONS[] = {R_PROG, R_TASKS, R_TASK};
static const hpset PA_SETS[] = {{1, {{"depth", 0, 1, NULL}}}, {1, {{"depth", 0, 2, NULL}}}};
static const hnode PA_NODES[] = {
    {PP_MPI_NONE, 0, {1, 0}, 0}, {0, 1, {0, 0}, 0}, {1, 2, {2, 3}, 1}, {1, 2, {4, 0}, 2},
};
static const hreg PB_REGIONS[] = {R_TASK, R_PROG, R_TASKS};
static const hpset PB_SETS[] = {{2, {{"depth", 0, 3, NULL}, {"kind", 1, 0, "leaf"}}},
                                {1, {{"depth", 0, 2, NULL}}},
                                {1, {{"depth", 0, 1, NULL}}}};
static const hnode PB_NODES[] = {
    {PP_MPI_NONE, 1, {1, 0}, 0}, {0, 2, {0, 0}, 0}, {1, 0, {0, 5}, 2},
    {1, 0, {7, 0}, 1},           {1, 0, {1, 1}, 3},
};

static hpack pack_params_a(void)
{
    return (hpack){.n_loc = 2, .rank0 = 0, .regions = PA_REGIONS, .n_regions = 3,
                   .tasks_region = 1, .task_region = 2, .nodes = PA_NODES, .n_nodes = 4,
                   .psets = PA_SETS, .n_psets = 2};
}

static hpack pack_params_b(void)
{
    return (hpack){.n_loc = 2, .rank0 = 1, .regions = PB_REGIONS, .n_regions = 3,
                   .tasks_region = 2, .task_region = 0, .nodes = PB_NODES, .n_nodes = 5,
                   .psets = PB_SETS, .n_psets = 3};
}

/* The task construct's node below TASKS whose set reads as `want`
 * ("depth=1", "depth=3,kind=leaf": entries in name order). */
static pp_unode *task_with(const pp_unified *u, const char *want)
{
    for (pp_unode *c = u->tasks->first_child; c; c = c->next_sibling) {
        pp_param_item it[4];
        uint32_t n = pp_profile_pset_get(c->pset, it, 4);
        char got[128] = "";
        for (uint32_t i = 0; i < n && i < 4; i++) {
            size_t at = strlen(got);
            if (it[i].type == 0)
                snprintf(got + at, sizeof got - at, "%s%s=%lld", i ? "," : "", it[i].name,
                         (long long)it[i].value);
            else
                snprintf(got + at, sizeof got - at, "%s%s=%.*s", i ? "," : "", it[i].name,
                         (int)it[i].len, it[i].str);
        }
        if (strcmp(got, want) == 0)
            return c;
    }
    return NULL;
}

START_TEST(test_merge_parameters)
{
    hpack ha = pack_params_a(), hb = pack_params_b();
    merged_counts c;
    pp_unified *u = merged_of(&ha, &hb, &c);
    ck_assert_uint_eq(c.n_psets, 4); /* empty, depth 1, depth 2, (depth 3, leaf) */
    ck_assert_ptr_nonnull(u->tasks);
    int children = 0;
    for (pp_unode *ch = u->tasks->first_child; ch; ch = ch->next_sibling)
        children++;
    ck_assert_int_eq(children, 3);
    pp_unode *d1 = task_with(u, "depth=1"), *d2 = task_with(u, "depth=2"),
             *d3 = task_with(u, "depth=3,kind=leaf");
    ck_assert_ptr_nonnull(d1);
    ck_assert_ptr_nonnull(d2);
    ck_assert_ptr_nonnull(d3);
    uint64_t want1[4] = {2, 3, 1, 1}, want2[4] = {4, 0, 0, 5}, want3[4] = {0, 0, 7, 0};
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(d1->visits[i], want1[i]);
        ck_assert_uint_eq(d2->visits[i], want2[i]);
        ck_assert_uint_eq(d3->visits[i], want3[i]);
    }
    /* the same set on both sides is one engine set; distinct ones differ */
    ck_assert_uint_ne(d1->pset, d2->pset);
    ck_assert_uint_ne(d1->pset, 0);
    pp_unified_free(u);
}
END_TEST

/* An engine profile with parameters packs and unpacks to the same sets. */
START_TEST(test_pack_parameters)
{
    pp_region_def dt = {"!$omp task @p.c:2", "p.c", 2, 3, "openmp", "task", NULL, NULL};
    pp_region_id rt = pp_profile_region_define(&dt);
    pp_param_key depth = pp_profile_param_define("depth", 5), mode = pp_profile_param_define("mode", 4);
    pp_profile_test_use_location(0);
    for (int d = 0; d < 3; d++) {
        pp_profile_task_begin_at(rt, pp_profile_task_new_handle(), false, 10 * d + 1);
        pp_profile_parameter_int64(depth, d);
        if (d == 2)
            pp_profile_parameter_string(mode, "fast", 4);
        pp_profile_task_end_at(rt, 10 * d + 5);
    }
    pp_unified *u = pp_profile_unify_at(100);
    pp_mpi_buf b;
    ck_assert_int_eq(pp_mpi_pack(u, &b), 0);
    pp_mpi_view v;
    ck_assert_int_eq(pp_mpi_view_open(&v, b.data, b.size), 0);
    pp_unified *w = pp_mpi_unpack(&v, u->t_finalize);
    ck_assert_ptr_nonnull(w);
    ck_assert_uint_eq(w->n_nodes, u->n_nodes);
    for (pp_unode *x = u->root, *y = w->root; x || y; x = pp_unified_next(x), y = pp_unified_next(y)) {
        ck_assert_ptr_nonnull(x);
        ck_assert_ptr_nonnull(y);
        ck_assert_uint_eq(x->region, y->region);
        ck_assert_uint_eq(x->pset, y->pset); /* the same process: the same ids */
        ck_assert_uint_eq(x->visits[0], y->visits[0]);
    }
    ck_assert_ptr_nonnull(task_with(w, "depth=0"));
    ck_assert_ptr_nonnull(task_with(w, "depth=1"));
    ck_assert_ptr_nonnull(task_with(w, "depth=2,mode=fast"));
    ck_assert_uint_eq(task_with(w, "depth=1")->visits[0], 1);
    pp_unified_free(w);
    pp_unified_free(u);
    pp_mpi_view_close(&v);
    pp_mpi_buf_free(&b);
}
END_TEST

START_TEST(test_damaged_packs)
{
    hpack ha = pack_a(), hp = pack_params_b();
    check_damage(&ha);
    check_damage(&hp);
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("mpi_merge");
    TCase *tc = tcase_create("merge");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_merge_by_identity);
    tcase_add_test(tc, test_pack_round_trip);
    tcase_add_test(tc, test_merge_grouping);
    tcase_add_test(tc, test_regions_alike);
    tcase_add_test(tc, test_merge_parameters);
    tcase_add_test(tc, test_pack_parameters);
    tcase_add_test(tc, test_damaged_packs);
    suite_add_tcase(s, tc);
    return s;
}
