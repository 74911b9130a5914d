/* Finalize-time walks need no stack: a call tree 100,000 levels deep (in the
 * main tree, in a task instance's tree, and as the fork path of a worker's
 * team) is closed, unified and written on a thread with a 256 KiB stack, the
 * size of the signal flusher's (lib/pp_signals.c). */
#include "config.h"

#include <check.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/pp_profile.h"
#include "profile/pp_profile_test.h"

#define DEPTH 100000
#define SMALL_STACK (256 * 1024)

static char tmpdir[256];

static pp_region_id R(const char *name, const char *role)
{
    pp_region_def d = {.name = name, .file = "deep.c", .begin_line = 1, .end_line = 2,
                       .paradigm = "openmp", .role = role};
    pp_region_id id = pp_profile_region_define(&d);
    ck_assert_uint_ne(id, PP_REGION_INVALID);
    return id;
}

static void setup(void)
{
    unsetenv("POMPPROF_ENABLE");
    unsetenv("POMPPROF_MAX_DEPTH");
    unsetenv("POMPPROF_MEMORY");
    unsetenv("POMPPROF_METRICS");
    unsetenv("POMPPROF_VERBOSE");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pp_test_deep_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    pp_profile_test_reset();
    pp_profile_test_start_at(0);
}

static void teardown(void)
{
    pp_profile_test_reset();
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* What the small-stack thread does and finds. */
typedef struct finalize_job {
    uint64_t now;
    char file[PATH_MAX];
    pp_unified *u;
    int written;
} finalize_job;

static void *finalize_on_small_stack(void *arg)
{
    finalize_job *job = arg;
    job->u = pp_profile_unify_at(job->now);
    if (job->u)
        job->written = pp_profile_output_write(job->u, job->file, NULL, 0) == 0;
    return NULL;
}

/* The chain of `region` nodes below n, as deep as it goes; *bottom gets the
 * last one. */
static uint32_t chain_length(const pp_unode *n, pp_region_id region, const pp_unode **bottom)
{
    uint32_t k = 0;
    *bottom = n;
    for (const pp_unode *c = pp_unified_child(n, region); c; c = pp_unified_child(c, region)) {
        k++;
        *bottom = c;
    }
    return k;
}

START_TEST(test_deep_trees_on_a_small_stack)
{
    pp_region_id f = R("f", "function"), g = R("g", "function");
    pp_region_id par = R("!$omp parallel @deep.c:1", "parallel");
    pp_region_id task = R("!$omp task @deep.c:1", "task");
    uint64_t t = 1;

    /* main tree: f recursing DEPTH times, then a team forked at the bottom */
    pp_profile_test_use_location(0);
    for (uint32_t d = 0; d < DEPTH; d++)
        pp_profile_enter_at(f, t++);
    int64_t ctx = pp_profile_fork_at(par, 2, t);
    pp_profile_parallel_begin_at(par, ctx, t++);
    pp_profile_test_use_location(1);
    pp_profile_parallel_begin_at(par, ctx, t++);
    pp_profile_enter_at(g, t++);
    pp_profile_exit_at(g, t++);
    pp_profile_parallel_end_at(par, t++);

    /* an explicit task on the master with its own DEPTH-deep tree */
    pp_profile_test_use_location(0);
    pp_task_handle h = pp_profile_task_new_handle();
    pp_profile_task_begin_at(task, h, false, t++);
    for (uint32_t d = 0; d < DEPTH; d++)
        pp_profile_enter_at(f, t++);
    for (uint32_t d = 0; d < DEPTH; d++)
        pp_profile_exit_at(f, t++);
    pp_profile_task_end_at(task, t++);
    pp_profile_parallel_end_at(par, t++);
    pp_profile_join_at(par, pp_profile_task_current(), t++);
    uint64_t unwind_start = t;
    for (uint32_t d = 0; d < DEPTH; d++)
        pp_profile_exit_at(f, t++);

    finalize_job job = {.now = t};
    snprintf(job.file, sizeof job.file, "%s/deep.cubex", tmpdir);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    ck_assert_int_eq(pthread_attr_setstacksize(&attr, SMALL_STACK), 0);
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, &attr, finalize_on_small_stack, &job), 0);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    pthread_attr_destroy(&attr);

    pp_unified *u = job.u;
    ck_assert_ptr_nonnull(u);
    ck_assert_int_eq(job.written, 1);
    ck_assert_uint_eq(u->n_locations, 2);
    /* program, f chain, team, its g, the task's stub below the team, TASKS,
     * the task construct and its own f chain */
    ck_assert_uint_eq(u->n_nodes, 2 * DEPTH + 6);

    const pp_unode *bottom;
    ck_assert_uint_eq(chain_length(u->root, f, &bottom), DEPTH);
    /* the outermost f: entered at 1, left when the unwinding began */
    const pp_unode *top = pp_unified_child(u->root, f);
    ck_assert_uint_eq(top->visits[0], 1);
    ck_assert_uint_eq(top->time[0], t - 1 - 1);
    ck_assert_uint_eq(bottom->visits[0], 1);
    ck_assert_uint_eq(bottom->time[0], unwind_start - DEPTH);
    /* the worker's tree hangs below the fork path, DEPTH levels down; every
     * copied ancestor includes its time */
    const pp_unode *team = pp_unified_child(bottom, par);
    ck_assert_ptr_nonnull(team);
    ck_assert_uint_eq(team->visits[1], 1);
    const pp_unode *worker_g = pp_unified_child(team, g);
    ck_assert_ptr_nonnull(worker_g);
    ck_assert_uint_eq(worker_g->visits[1], 1);
    ck_assert_uint_eq(worker_g->time[1], 1);
    ck_assert_uint_eq(top->visits[1], 0);
    ck_assert_uint_eq(top->time[1], team->time[1]);
    ck_assert_uint_eq(u->root->time[1], team->time[1]);

    /* the task instance's deep tree, merged below TASKS */
    ck_assert_ptr_nonnull(u->tasks);
    const pp_unode *tnode = pp_unified_child(u->tasks, task);
    ck_assert_ptr_nonnull(tnode);
    ck_assert_uint_eq(tnode->visits[0], 1);
    ck_assert_uint_eq(tnode->time[0], 2 * DEPTH + 1);
    ck_assert_uint_eq(chain_length(tnode, f, &bottom), DEPTH);
    ck_assert_uint_eq(bottom->visits[0], 1);
    ck_assert_uint_eq(bottom->time[0], 1);

    /* the file holds every cnode (at least a few bytes of anchor.xml each) */
    struct stat st;
    ck_assert_int_eq(stat(job.file, &st), 0);
    ck_assert_int_gt(st.st_size, 2 * DEPTH * 8);
    pp_unified_free(u);
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("profile_deep");
    TCase *tc = tcase_create("deep");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_deep_trees_on_a_small_stack);
    suite_add_tcase(s, tc);
    return s;
}
