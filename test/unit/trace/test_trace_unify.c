/* Unit tests of a job's definitions (trace/pp_trace_rankdefs.h), which need
 * no MPI: a rank's definitions packed and unpacked unchanged; damaged packs
 * refused at every length, never read out of bounds; the ranks' definitions
 * unified exactly (regions by identity whatever their order, alike regions
 * paired in order, parameters by name with the string type winning, values
 * by text, each rank's teams a communicator of its own, MPI communicators
 * by key with their parents, locations numbered in rank order, the job's
 * first and last time); and the clock correction as OTF2's readers make it
 * (linear between two offsets, along the nearest interval beyond). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "trace/pp_trace_rankdefs.h"

static char *dup(const char *s)
{
    return s ? strdup(s) : NULL;
}

static char **strs(const char *const *v, uint32_t n)
{
    char **s = calloc(n ? n : 1, sizeof *s);
    for (uint32_t i = 0; i < n; i++)
        s[i] = dup(v[i]);
    return s;
}

typedef struct rdef {
    const char *name, *file;
    int begin;
} rdef;

/* A rank: regions (file "a.c", paradigm openmp but MPI_* mpi), params, values,
 * teams (region, members), comms (key, parent, members), locations. */
static void make_rank(pp_trace_rank *r, uint32_t rank, const rdef *regions, uint32_t n_regions,
                      uint32_t n_locations, uint64_t t_first, uint64_t t_last)
{
    memset(r, 0, sizeof *r);
    r->rank = rank;
    r->n_locations = n_locations;
    r->events = calloc(n_locations, sizeof *r->events);
    for (uint32_t i = 0; i < n_locations; i++)
        r->events[i] = 100 + i;
    r->pid = 1000 + rank;
    r->host = dup("node0");
    r->program = dup("prog");
    r->ticks_per_second = 1e9;
    r->wall_t0 = 1.5e9;
    r->t0 = t_first;
    r->t_first = t_first;
    r->t_last = t_last;
    r->n_regions = n_regions;
    r->regions = calloc(n_regions, sizeof *r->regions);
    for (uint32_t i = 0; i < n_regions; i++) {
        int mpi = !strncmp(regions[i].name, "MPI_", 4);
        r->regions[i] = (pp_trace_region){dup(regions[i].name), dup(regions[i].file),
                                          dup(mpi ? "mpi" : "openmp"), dup("user"), NULL,
                                          regions[i].begin, regions[i].begin + 1};
    }
    r->syncs = calloc(2, sizeof *r->syncs);
    r->n_syncs = 2;
    r->syncs[0] = (pp_trace_sync){t_first, 10 * (int64_t)rank, 1.5};
    r->syncs[1] = (pp_trace_sync){t_last, 20 * (int64_t)rank, 2.5};
}

static void add_team(pp_trace_rank *r, uint32_t region, uint32_t n)
{
    r->teams = realloc(r->teams, (r->n_teams + 1) * sizeof *r->teams);
    pp_trace_team_def *t = &r->teams[r->n_teams++];
    t->region = region;
    t->n = n;
    t->members = calloc(n, sizeof *t->members);
    for (uint32_t i = 0; i < n; i++)
        t->members[i] = i;
}

static void add_comm(pp_trace_rank *r, uint32_t index, uint32_t parent, uint64_t key,
                     const char *name, const uint32_t *world, uint32_t n)
{
    if (index >= r->n_comms) {
        r->comms = realloc(r->comms, (index + 1) * sizeof *r->comms);
        memset(r->comms + r->n_comms, 0, (index + 1 - r->n_comms) * sizeof *r->comms);
        r->n_comms = index + 1;
    }
    pp_trace_comm *c = &r->comms[index];
    *c = (pp_trace_comm){index, parent, key, dup(name), n, malloc(n * sizeof *world)};
    memcpy(c->world, world, n * sizeof *world);
}

static void set_params(pp_trace_rank *r, const char *const *names, const uint8_t *string,
                       uint32_t n, const char *const *values, uint32_t nv)
{
    r->n_params = n;
    r->param_names = strs(names, n);
    r->param_string = calloc(n ? n : 1, 1);
    memcpy(r->param_string, string, n);
    r->n_values = nv;
    r->values = strs(values, nv);
}

static const rdef R0[] = {{"main", "", 0},          {"!$omp parallel", "a.c", 1},
                          {"MPI_Send", "MPI", -1},  {"!$omp implicit barrier", "a.c", 5},
                          {"!$omp implicit barrier", "a.c", 5}, {"pompprof trace flush", "", 0},
                          {"pompprof trace start", "", 0}};
static const rdef R1[] = {{"main", "", 0},          {"MPI_Recv", "MPI", -1},
                          {"!$omp implicit barrier", "a.c", 5}, {"!$omp parallel", "a.c", 1},
                          {"!$omp implicit barrier", "a.c", 5}, {"pompprof trace flush", "", 0},
                          {"pompprof trace start", "", 0}};

static void make_job(pp_trace_rank *r)
{
    uint32_t world[2] = {0, 1}, self0 = 0, self1 = 1;
    make_rank(&r[0], 0, R0, 7, 2, 1000, 5000);
    make_rank(&r[1], 1, R1, 7, 3, 900, 5200);
    add_team(&r[0], 1, 2);
    add_team(&r[0], 1, 1);
    add_team(&r[1], 3, 3);
    add_comm(&r[0], 0, UINT32_MAX, 77, "MPI_COMM_WORLD", world, 2);
    add_comm(&r[0], 1, UINT32_MAX, 101, "MPI_COMM_SELF", &self0, 1);
    add_comm(&r[0], 2, 0, 555, "MPI_Comm_split #1 of MPI_COMM_WORLD", world, 2);
    add_comm(&r[1], 0, UINT32_MAX, 77, "MPI_COMM_WORLD", world, 2);
    add_comm(&r[1], 1, UINT32_MAX, 102, "MPI_COMM_SELF", &self1, 1);
    add_comm(&r[1], 3, 0, 555, "MPI_Comm_split #1 of MPI_COMM_WORLD", world, 2); /* 2: a gap */
    const char *p0[] = {"n"}, *v0[] = {"3", "4"};
    const char *p1[] = {"kind", "n"}, *v1[] = {"leaf", "4", "x"};
    uint8_t s0[] = {0}, s1[] = {1, 1};
    set_params(&r[0], p0, s0, 1, v0, 2);
    set_params(&r[1], p1, s1, 2, v1, 3);
    r[0].depend_max = 2;
    r[1].depend_max = 5;
    const char *m[] = {"PAPI_TOT_INS"};
    r[0].metrics = strs(m, 1);
    r[0].n_metrics = 1;
}

START_TEST(test_pack_round_trip)
{
    pp_trace_rank r[2], back;
    make_job(r);
    uint8_t *bytes;
    size_t n;
    ck_assert_int_eq(pp_trace_rank_pack(&r[1], &bytes, &n), 0);
    ck_assert_int_eq(pp_trace_rank_unpack(bytes, n, &back), 0);
    ck_assert_uint_eq(back.rank, 1);
    ck_assert_uint_eq(back.n_locations, 3);
    ck_assert_uint_eq(back.events[2], 102);
    ck_assert_str_eq(back.host, "node0");
    ck_assert_uint_eq(back.t_first, 900);
    ck_assert_uint_eq(back.t_last, 5200);
    ck_assert_uint_eq(back.n_regions, 7);
    ck_assert_str_eq(back.regions[1].name, "MPI_Recv");
    ck_assert_str_eq(back.regions[1].paradigm, "mpi");
    ck_assert_ptr_null(back.regions[1].description);
    ck_assert_int_eq(back.regions[3].begin_line, 1);
    ck_assert_int_eq(back.regions[1].begin_line, -1);
    ck_assert_uint_eq(back.n_params, 2);
    ck_assert_str_eq(back.param_names[0], "kind");
    ck_assert_uint_eq(back.param_string[1], 1);
    ck_assert_uint_eq(back.n_values, 3);
    ck_assert_str_eq(back.values[2], "x");
    ck_assert_uint_eq(back.n_teams, 1);
    ck_assert_uint_eq(back.teams[0].n, 3);
    ck_assert_uint_eq(back.teams[0].members[2], 2);
    ck_assert_uint_eq(back.n_comms, 4);
    ck_assert_uint_eq(back.comms[2].n, 0); /* the gap stays one */
    ck_assert_uint_eq(back.comms[3].key, 555);
    ck_assert_uint_eq(back.comms[3].parent, 0);
    ck_assert_uint_eq(back.comms[3].world[1], 1);
    ck_assert_uint_eq(back.n_syncs, 2);
    ck_assert_int_eq(back.syncs[1].offset, 20);
    ck_assert(back.syncs[1].sd == 2.5);
    ck_assert_uint_eq(back.depend_max, 5);
    pp_trace_rank_free(&back);
    /* every shorter buffer is refused */
    for (size_t k = 0; k < n; k++) {
        uint8_t *cut = malloc(k ? k : 1);
        memcpy(cut, bytes, k);
        ck_assert_int_eq(pp_trace_rank_unpack(cut, k, &back), -1);
        free(cut);
    }
    free(bytes);
    pp_trace_rank_free(&r[0]);
    pp_trace_rank_free(&r[1]);
}
END_TEST

START_TEST(test_unify)
{
    pp_trace_rank r[2];
    make_job(r);
    pp_trace_jobdefs u;
    ck_assert_int_eq(pp_trace_unify(r, 2, 3, &u), 0);
    /* regions: rank 0's in order, then rank 1's MPI_Recv */
    ck_assert_uint_eq(u.n_regions, 8);
    const pp_trace_jobmap *m0 = &u.maps[0], *m1 = &u.maps[1];
    for (uint32_t i = 0; i < 7; i++)
        ck_assert_uint_eq(m0->region[i], i);
    uint32_t want1[] = {0, 7, 3, 1, 4, 5, 6}; /* the barriers paired in order */
    for (uint32_t i = 0; i < 7; i++)
        ck_assert_uint_eq(m1->region[i], want1[i]);
    ck_assert_str_eq(u.regions[7]->name, "MPI_Recv");
    /* parameters by name, n a string parameter since rank 1 says so */
    ck_assert_uint_eq(u.n_params, 2);
    ck_assert_str_eq(u.param_names[0], "n");
    ck_assert_str_eq(u.param_names[1], "kind");
    ck_assert_uint_eq(u.param_string[0], 1);
    ck_assert_uint_eq(m1->param[0], 1);
    ck_assert_uint_eq(m1->param[1], 0);
    /* values by text, global strings from 1 */
    ck_assert_uint_eq(u.n_values, 4);
    ck_assert_uint_eq(m0->value[0], 1);
    ck_assert_uint_eq(m0->value[1], 2);
    ck_assert_uint_eq(m1->value[0], 3);
    ck_assert_uint_eq(m1->value[1], 2); /* "4" */
    ck_assert_uint_eq(m1->value[2], 4);
    /* teams: 1, 2 rank 0's, 3 rank 1's; MPI communicators after them */
    ck_assert_uint_eq(u.n_teams, 3);
    ck_assert_uint_eq(m0->team[1], 2);
    ck_assert_uint_eq(m1->team[0], 3);
    ck_assert_uint_eq(u.n_mpi, 4); /* world, two selves, the split */
    ck_assert_uint_eq(m0->comm[0], 4);
    ck_assert_uint_eq(m1->comm[0], 4);
    ck_assert_uint_eq(m0->comm[1], 5);
    ck_assert_uint_eq(m1->comm[1], 7);
    ck_assert_uint_eq(m0->comm[2], 6);
    ck_assert_uint_eq(m1->comm[2], UINT32_MAX);
    ck_assert_uint_eq(m1->comm[3], 6);
    ck_assert_uint_eq(u.mpi[2].parent, 4); /* the split's parent: the world */
    ck_assert_uint_eq(u.mpi[0].parent, UINT32_MAX);
    /* locations in rank order, times, the rest */
    ck_assert_uint_eq(m0->loc_offset, 0);
    ck_assert_uint_eq(m1->loc_offset, 2);
    ck_assert_uint_eq(u.n_locations, 5);
    ck_assert_uint_eq(u.t_first, 900);
    ck_assert_uint_eq(u.t_last, 5200);
    ck_assert_uint_eq(u.depend_max, 5);
    ck_assert_uint_eq(u.job_size, 3);
    /* the maps travel as bytes */
    uint8_t *bytes;
    size_t n;
    pp_trace_jobmap back;
    ck_assert_int_eq(pp_trace_jobmap_pack(m1, &bytes, &n), 0);
    ck_assert_int_eq(pp_trace_jobmap_unpack(bytes, n, &back), 0);
    ck_assert_uint_eq(back.loc_offset, 2);
    ck_assert_uint_eq(back.n_comms, 4);
    ck_assert_uint_eq(back.comm[3], 6);
    ck_assert_uint_eq(back.region[1], 7);
    pp_trace_jobmap_free(&back);
    ck_assert_int_eq(pp_trace_jobmap_unpack(bytes, n - 1, &back), -1);
    free(bytes);
    pp_trace_jobdefs_free(&u);
    pp_trace_rank_free(&r[0]);
    pp_trace_rank_free(&r[1]);
}
END_TEST

START_TEST(test_corrected)
{
    pp_trace_sync s[3] = {{1000, 100, 0}, {2000, 300, 0}, {4000, 300, 0}};
    ck_assert_uint_eq(pp_trace_rank_corrected(s, 0, 1234), 1234);
    ck_assert_uint_eq(pp_trace_rank_corrected(s, 1, 1234), 1334);
    ck_assert_uint_eq(pp_trace_rank_corrected(s, 2, 1000), 1100);
    ck_assert_uint_eq(pp_trace_rank_corrected(s, 2, 1500), 1700);
    ck_assert_uint_eq(pp_trace_rank_corrected(s, 2, 500), 500);   /* the first interval's line */
    ck_assert_uint_eq(pp_trace_rank_corrected(s, 2, 3000), 3500); /* beyond: the last one's */
    ck_assert_uint_eq(pp_trace_rank_corrected(s, 3, 3000), 3300);
    ck_assert_uint_eq(pp_trace_rank_corrected(s, 3, 1500), 1700);
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("trace_unify");
    TCase *tc = tcase_create("unify");
    tcase_add_test(tc, test_pack_round_trip);
    tcase_add_test(tc, test_unify);
    tcase_add_test(tc, test_corrected);
    suite_add_tcase(s, tc);
    return s;
}
