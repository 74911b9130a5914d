/* Unit tests for what the MPI layer needs from the engine: extra metrics
 * added on the event path (also inside task instances, whose trees are kept,
 * drained and freed), a system tree of several processes and hosts, and a
 * process of a job that hands its unified tree over (pp_profile_job.h) and
 * writes its own profile when the job's common one never comes.  Files are
 * read back: anchor.xml text and the rows of the data members. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test/unit/stderr_capture.h"
#include "profile/pp_profile.h"
#include "profile/pp_profile_job.h"
#include "profile/pp_profile_test.h"

static char tmpdir[256];

static void setup(void)
{
    unsetenv("POMPPROF_ENABLE");
    unsetenv("POMPPROF_VERBOSE");
    unsetenv("POMPPROF_OUTPUT");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pp_test_job_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    pp_profile_test_reset();
}

static void teardown(void)
{
    pp_profile_test_reset();
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* ---- reading a .cubex back ------------------------------------------------------ */

typedef struct profile_file {
    unsigned char *buf;
    size_t size;
    char *anchor;
} profile_file;

static const unsigned char *member(const profile_file *p, const char *name, size_t *size)
{
    size_t pos = 0;
    while (pos + 512 <= p->size) {
        const unsigned char *h = p->buf + pos;
        if (!h[0]) {
            pos += 512;
            continue;
        }
        char sz[13];
        memcpy(sz, h + 124, 12);
        sz[12] = 0;
        size_t n = (size_t)strtoul(sz, NULL, 8);
        if (strncmp((const char *)h, name, 100) == 0) {
            *size = n;
            return h + 512;
        }
        pos += 512 + (n ? (n / 512 + 1) * 512 : 0);
    }
    return NULL;
}

static profile_file load(const char *path)
{
    profile_file p = {0};
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "no profile %s", path);
    fseek(f, 0, SEEK_END);
    p.size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    p.buf = malloc(p.size);
    ck_assert_uint_eq(fread(p.buf, 1, p.size, f), p.size);
    fclose(f);
    size_t n;
    const unsigned char *a = member(&p, "anchor.xml", &n);
    ck_assert_ptr_nonnull(a);
    p.anchor = strndup((const char *)a, n);
    return p;
}

static void unload(profile_file *p)
{
    free(p->buf);
    free(p->anchor);
}

/* The id of the metric with that unique name (-1: none). */
static int metric_id(const profile_file *p, const char *uniq)
{
    char want[128];
    snprintf(want, sizeof want, "<uniq_name>%s</uniq_name>", uniq);
    const char *u = strstr(p->anchor, want);
    if (!u)
        return -1;
    const char *m = u;
    while (m > p->anchor && strncmp(m, "<metric id=\"", 12) != 0)
        m--;
    return atoi(m + 12);
}

/* Value of an EXCLUSIVE UINT64 metric at (cnode, location): its rows are in
 * pre-order, which is cnode id order. */
static uint64_t exclusive_value(const profile_file *p, int metric, int cnode, int n_loc, int loc)
{
    char name[32];
    snprintf(name, sizeof name, "%d.data", metric);
    size_t n;
    const unsigned char *d = member(p, name, &n);
    ck_assert_ptr_nonnull(d);
    size_t at = 10 + ((size_t)cnode * n_loc + loc) * 8;
    ck_assert_uint_le(at + 8, n);
    uint64_t v;
    memcpy(&v, d + at, 8);
    return v;
}

/* ---- extra metrics on the event path ---------------------------------------------- */

START_TEST(test_extra_define)
{
    pp_profile_test_start_at(0);
    int sent = pp_profile_extra_define("bytes_sent", "Bytes sent", "bytes", "sent");
    int recv = pp_profile_extra_define("bytes_received", "Bytes received", "bytes", "received");
    ck_assert_int_eq(sent, 0);
    ck_assert_int_eq(recv, 1);
    ck_assert_int_eq(pp_profile_extra_define("bytes_sent", NULL, NULL, NULL), sent);
    ck_assert_int_eq(pp_profile_extra_define("x2", NULL, NULL, NULL), 2);
    ck_assert_int_eq(pp_profile_extra_define("x3", NULL, NULL, NULL), 3);
    ck_assert_int_eq(pp_profile_extra_define("x4", NULL, NULL, NULL), -1); /* full */
    ck_assert_int_eq(pp_profile_extra_define("", NULL, NULL, NULL), -1);
}
END_TEST

/* Values land on the call path current at the add, per location, in the main
 * tree and in the merged tree of a task construct; a run of instances that
 * only reuse their tree and one that grows it (drained) both arrive whole. */
START_TEST(test_extra_values_per_call_path)
{
    pp_profile_test_start_at(0);
    int sent = pp_profile_extra_define("bytes_sent", "Bytes sent", "bytes", "sent");
    int recv = pp_profile_extra_define("bytes_received", "Bytes received", "bytes", "received");
    pp_region_def ds = {"MPI_Send", NULL, -1, -1, "mpi", "point2point", NULL, NULL};
    pp_region_def dr = {"MPI_Recv", NULL, -1, -1, "mpi", "point2point", NULL, NULL};
    pp_region_def dt = {"!$omp task @f.c:3", "f.c", 3, 4, "openmp", "task", NULL, NULL};
    pp_region_id rs = pp_profile_region_define(&ds), rr = pp_profile_region_define(&dr),
                 rt = pp_profile_region_define(&dt);
    pp_profile_test_use_location(0);
    uint64_t t = 10;
    for (int i = 0; i < 3; i++) {
        pp_profile_enter_at(rs, t++);
        pp_profile_extra_add(sent, 100);
        pp_profile_exit_at(rs, t++);
    }
    pp_profile_extra_add(recv, 0); /* nothing: no array for the root */
    /* 5 instances: the first creates the tree, the next reuse it */
    for (int i = 0; i < 5; i++) {
        pp_profile_task_begin_at(rt, pp_profile_task_new_handle(), false, t++);
        pp_profile_enter_at(rr, t++);
        pp_profile_extra_add(recv, 8);
        pp_profile_exit_at(rr, t++);
        if (i == 3) { /* grows the tree: drained */
            pp_profile_enter_at(rs, t++);
            pp_profile_extra_add(sent, 1000);
            pp_profile_exit_at(rs, t++);
        }
        pp_profile_task_end_at(rt, t++);
    }
    pp_profile_test_use_location(1);
    pp_profile_enter_at(rr, 5);
    pp_profile_extra_add(recv, 7);
    pp_profile_extra_add(recv, 7);
    pp_profile_exit_at(rr, 6);

    pp_unified *u = pp_profile_unify_at(t + 10);
    ck_assert_ptr_nonnull(u);
    ck_assert_uint_eq(u->n_extra, 2);
    pp_unode *send = pp_unified_child(u->root, rs), *recv_main = pp_unified_child(u->root, rr);
    ck_assert_ptr_nonnull(send);
    ck_assert_ptr_nonnull(recv_main);
    ck_assert_uint_eq(send->extra[sent * 2 + 0], 300);
    ck_assert_uint_eq(send->extra[sent * 2 + 1], 0);
    ck_assert_uint_eq(send->extra[recv * 2 + 0], 0);
    ck_assert_uint_eq(recv_main->extra[recv * 2 + 1], 14);
    ck_assert_uint_eq(u->root->extra[recv * 2 + 0], 0);
    pp_unode *task = pp_unified_child(u->tasks, rt);
    ck_assert_ptr_nonnull(task);
    pp_unode *trecv = pp_unified_child(task, rr), *tsend = pp_unified_child(task, rs);
    ck_assert_ptr_nonnull(trecv);
    ck_assert_ptr_nonnull(tsend);
    ck_assert_uint_eq(trecv->visits[0], 5);
    ck_assert_uint_eq(trecv->extra[recv * 2 + 0], 40);
    ck_assert_uint_eq(tsend->extra[sent * 2 + 0], 1000);
    /* exclusive: nothing on the construct itself or on TASKS */
    ck_assert_uint_eq(task->extra[recv * 2 + 0], 0);
    ck_assert_uint_eq(u->tasks->extra[recv * 2 + 0], 0);
    pp_unified_free(u);
}
END_TEST

/* Instance trees that are freed (each instance takes another path, so the
 * tree is mostly unused nodes) give their value arrays back: the arena does
 * not grow with the number of instances. */
START_TEST(test_extra_arrays_recycled)
{
    pp_profile_test_start_at(0);
    int sent = pp_profile_extra_define("bytes_sent", "Bytes sent", "bytes", "sent");
    pp_region_def dt = {"!$omp task @f.c:3", "f.c", 3, 4, "openmp", "task", NULL, NULL};
    pp_region_id rt = pp_profile_region_define(&dt);
    pp_region_id calls[40];
    for (int k = 0; k < 40; k++) {
        char name[32];
        snprintf(name, sizeof name, "MPI_Call%d", k);
        pp_region_def d = {name, NULL, -1, -1, "mpi", "function", NULL, NULL};
        calls[k] = pp_profile_region_define(&d);
    }
    pp_profile_test_use_location(0);
    uint64_t t = 1;
    size_t arena_after_first = 0;
    for (int i = 0; i < 4000; i++) {
        pp_profile_task_begin_at(rt, pp_profile_task_new_handle(), false, t++);
        pp_profile_enter_at(calls[i % 40], t++);
        pp_profile_extra_add(sent, 1);
        pp_profile_exit_at(calls[i % 40], t++);
        pp_profile_task_end_at(rt, t++);
        if (i == 100)
            arena_after_first = pp_profile_test_arena_bytes(0);
    }
    ck_assert_uint_eq(pp_profile_test_arena_bytes(0), arena_after_first);
    pp_unified *u = pp_profile_unify_at(t);
    pp_unode *task = pp_unified_child(u->tasks, rt);
    uint64_t total = 0;
    for (pp_unode *c = task->first_child; c; c = c->next_sibling)
        total += c->extra[sent];
    ck_assert_uint_eq(total, 4000);
    pp_unified_free(u);
}
END_TEST

/* ---- the written file: extra metrics and a system tree of several ranks ------------- */

START_TEST(test_job_profile_written)
{
    pp_profile_test_start_at(0);
    int sent = pp_profile_extra_define("bytes_sent", "Bytes sent", "bytes", "sent");
    pp_region_def ds = {"MPI_Send", NULL, -1, -1, "mpi", "point2point", NULL, NULL};
    pp_region_id rs = pp_profile_region_define(&ds);
    /* 5 locations: rank 0 (2 threads) and rank 2 (1) on host a, rank 1 (2)
     * on host b, columns interleaving the hosts */
    pp_unified *u = pp_unified_new(5, 0, 1, 0);
    ck_assert_ptr_nonnull(u);
    pp_unode *s = pp_unified_add_child(u, u->root, rs, 0);
    ck_assert_ptr_nonnull(s);
    const struct { const char *host, *process; int rank; unsigned thread; } locs[] = {
        {"a", "MPI Rank 0", 0, 0}, {"a", "MPI Rank 0", 0, 1}, {"b", "MPI Rank 1", 1, 0},
        {"b", "MPI Rank 1", 1, 1}, {"a", "MPI Rank 2", 2, 0},
    };
    for (uint32_t i = 0; i < 5; i++) {
        u->locations[i] = (pp_unified_location){locs[i].host, locs[i].process, locs[i].rank,
                                                locs[i].thread};
        s->visits[i] = i + 1;
        s->time[i] = 10;
        s->extra[sent * 5 + i] = 100 * (i + 1);
    }
    pp_unified_number(u);
    char setting[PATH_MAX], path[PATH_MAX];
    snprintf(setting, sizeof setting, "%s/job.cubex", tmpdir);
    ck_assert_int_eq(pp_profile_output_write(u, setting, path, sizeof path), 0);
    pp_unified_free(u);

    profile_file p = load(path);
    /* hosts once each, in order of first appearance; processes below them */
    const char *a = strstr(p.anchor, "<name>node a</name>");
    const char *b = strstr(p.anchor, "<name>node b</name>");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_null(strstr(a + 1, "<name>node a</name>"));
    const char *r0 = strstr(p.anchor, "<name>MPI Rank 0</name>");
    const char *r1 = strstr(p.anchor, "<name>MPI Rank 1</name>");
    const char *r2 = strstr(p.anchor, "<name>MPI Rank 2</name>");
    ck_assert(a < r0 && r0 < r2 && r2 < b && b < r1);
    ck_assert_ptr_nonnull(strstr(r1, "<rank>1</rank>"));
    /* the location ids are the columns, whatever the document order */
    ck_assert_ptr_nonnull(strstr(r2, "<location Id=\"4\">"));
    ck_assert_ptr_nonnull(strstr(r1, "<location Id=\"2\">"));
    int m = metric_id(&p, "bytes_sent");
    ck_assert_int_ge(m, 0);
    ck_assert_ptr_nonnull(strstr(p.anchor, "<uom>bytes</uom>"));
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_eq(exclusive_value(&p, m, 1, 5, i), 100 * (uint64_t)(i + 1));
        ck_assert_uint_eq(exclusive_value(&p, m, 0, 5, i), 0);
        ck_assert_uint_eq(exclusive_value(&p, metric_id(&p, "visits"), 1, 5, i), (uint64_t)i + 1);
    }
    unload(&p);
}
END_TEST

/* ---- a process of a job ------------------------------------------------------------------ */


static void job_process(const char *own)
{
    pp_profile_test_start_at(0);
    pp_profile_set_process(3, "MPI Rank 3", own, "rank 3 ended before the ranks combined:");
    pp_region_def d = {"work", NULL, -1, -1, "user", "function", NULL, NULL};
    pp_region_id r = pp_profile_region_define(&d);
    pp_profile_test_use_location(0);
    pp_profile_enter_at(r, 1);
    pp_profile_exit_at(r, 2);
}

/* A held tree comes back as written: no file, no message, and a later
 * finalize (the exit) writes nothing either. */
START_TEST(test_hold_release_written)
{
    char own[PATH_MAX];
    snprintf(own, sizeof own, "%s/own.cubex", tmpdir);
    job_process(own);
    pp_unified *u = pp_profile_hold();
    ck_assert_ptr_nonnull(u);
    ck_assert_int_eq(u->locations[0].rank, 3);
    ck_assert_str_eq(u->locations[0].process, "MPI Rank 3");
    ck_assert_ptr_null(pp_profile_hold()); /* once */
    pp_test_capture_begin();
    pp_profile_release(u, 1);
    pp_profile_finalize();
    ck_assert_str_eq(pp_test_capture_end(), "");
    ck_assert_int_ne(access(own, F_OK), 0);
}
END_TEST

/* The end comes while the tree is held (exit, a signal): the process's own
 * profile, where the job said, with one line; the release then writes
 * nothing more. */
START_TEST(test_finalize_while_held)
{
    char own[PATH_MAX];
    snprintf(own, sizeof own, "%s/own.cubex", tmpdir);
    job_process(own);
    pp_unified *u = pp_profile_hold();
    ck_assert_ptr_nonnull(u);
    pp_test_capture_begin();
    pp_profile_finalize();
    pp_profile_finalize();
    pp_profile_release(u, 0);
    const char *err = pp_test_capture_end();
    ck_assert_int_eq(access(own, F_OK), 0);
    char want[PATH_MAX + 128];
    snprintf(want, sizeof want, "pompprof: rank 3 ended before the ranks combined: %s\n", own);
    ck_assert_str_eq(err, want);
    profile_file p = load(own);
    ck_assert_ptr_nonnull(strstr(p.anchor, "<name>MPI Rank 3</name>"));
    ck_assert_ptr_nonnull(strstr(p.anchor, "<rank>3</rank>"));
    unload(&p);
}
END_TEST

/* Released unwritten (the job's write failed): the own profile now. */
START_TEST(test_release_unwritten)
{
    char own[PATH_MAX];
    snprintf(own, sizeof own, "%s/own.cubex", tmpdir);
    job_process(own);
    pp_unified *u = pp_profile_hold();
    pp_test_capture_begin();
    pp_profile_release(u, 0);
    pp_profile_finalize();
    const char *err = pp_test_capture_end();
    ck_assert_int_eq(access(own, F_OK), 0);
    ck_assert_ptr_nonnull(strstr(err, "rank 3 ended before the ranks combined"));
    ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1);
}
END_TEST

/* Without hold (the rank exits before the job's end): finalize writes the
 * own profile with the note. */
START_TEST(test_finalize_own_profile)
{
    char own[PATH_MAX];
    snprintf(own, sizeof own, "%s/dir", tmpdir);
    job_process(own);
    pp_test_capture_begin();
    pp_profile_finalize();
    const char *err = pp_test_capture_end();
    char want[PATH_MAX + 32];
    snprintf(want, sizeof want, "%s/profile.cubex", own);
    ck_assert_int_eq(access(want, F_OK), 0);
    ck_assert_ptr_nonnull(strstr(err, want));
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("profile_job");
    TCase *tc = tcase_create("job");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_extra_define);
    tcase_add_test(tc, test_extra_values_per_call_path);
    tcase_add_test(tc, test_extra_arrays_recycled);
    tcase_add_test(tc, test_job_profile_written);
    tcase_add_test(tc, test_hold_release_written);
    tcase_add_test(tc, test_finalize_while_held);
    tcase_add_test(tc, test_release_unwritten);
    tcase_add_test(tc, test_finalize_own_profile);
    suite_add_tcase(s, tc);
    return s;
}
