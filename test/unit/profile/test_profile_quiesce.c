/* The end of measurement and the events in flight (profile/pp_profile_quiesce.c,
 * doc/engine.md "Finalize and the events in flight"), and the engine's
 * assertions.
 *
 * A helper thread stops inside an event (pp_profile_test_enter_paused:
 * after the event took its location, before it writes its tree) while the
 * main thread ends measurement: the end must wait until the event is done
 * and then count what it wrote; when the event does not end within the
 * bound (1 s), the end gives up, leaves that thread's trees out and names
 * it in the run facts.  The unit tests link the engine with its assertions
 * compiled in: a broken invariant stops the program. */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "profile/pp_profile_job.h"
#include "profile/pp_profile_runfacts.h"
#include "profile/pp_profile_source.h"
#include "test/unit/profile/engine_check.h"

typedef struct paused_event {
    pp_region_id region;
    long pause_ms;
    sem_t inside;
} paused_event;

static void pause_inside(void *arg)
{
    paused_event *e = arg;
    sem_post(&e->inside);
    struct timespec ts = {e->pause_ms / 1000, (e->pause_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void *helper(void *arg)
{
    paused_event *e = arg;
    pp_profile_test_enter_paused(e->region, 100, pause_inside, e);
    return NULL;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fact(void *user, const char *key, const char *value)
{
    char **want = user;
    if (strcmp(key, want[0]) == 0)
        want[1] = strdup(value);
    return 0;
}

/* The run fact key, or NULL when there is none (the caller frees it). */
static char *run_fact(const char *key)
{
    char *want[2] = {(char *)key, NULL};
    pp_profile_runfacts_each(fact, want);
    return want[1];
}

/* Start the helper's event and wait until it is inside; then end
 * measurement and take the unified tree. */
static pp_unified *end_during_event(paused_event *e, pthread_t *th, double *took)
{
    sem_init(&e->inside, 0, 0);
    ck_assert_int_eq(pthread_create(th, NULL, helper, e), 0);
    while (sem_wait(&e->inside) != 0)
        ;
    double t0 = seconds();
    pp_unified *u = pp_profile_hold();
    *took = seconds() - t0;
    return u;
}

START_TEST(test_end_waits_for_event_in_flight)
{
    paused_event e = {.region = R("in flight", "user"), .pause_ms = 200};
    pthread_t th;
    double took;
    pp_unified *u = end_during_event(&e, &th, &took);
    pthread_join(th, NULL);
    ck_assert_ptr_nonnull(u);
    /* the end waited for the event (a lower bound only) ... */
    ck_assert_msg(took >= 0.15, "the end took %.3f s: it did not wait for the event", took);
    /* ... and counts what it wrote: the region, open, closed at the end */
    ck_assert_uint_eq(u->n_locations, 2);
    pp_unode *n = pp_unified_child(u->root, e.region);
    ck_assert_msg(n != NULL, "the region the event entered is missing from the profile");
    ck_assert_uint_eq(n->visits[1], 1);
    ck_assert_uint_eq(n->visits[0], 0);
    ck_assert_ptr_null(run_fact("busy_threads"));
    char *barrier = run_fact("end_barrier");
    ck_assert_ptr_nonnull(barrier);
    free(barrier);
    pp_profile_release(u, 1);
}
END_TEST

/* An event source's callback in flight (pp_profile_source.h): the end waits
 * for it as for an event, and a callback that begins after the end has
 * begun is told to write nothing. */
static void *source_callback(void *arg)
{
    paused_event *e = arg;
    int on = pp_profile_source_begin();
    pause_inside(e);
    pp_profile_source_end();
    return (void *)(intptr_t)on;
}

START_TEST(test_end_waits_for_source_callback)
{
    paused_event e = {.pause_ms = 200};
    sem_init(&e.inside, 0, 0);
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, source_callback, &e), 0);
    while (sem_wait(&e.inside) != 0)
        ;
    double t0 = seconds();
    pp_unified *u = pp_profile_hold();
    double took = seconds() - t0;
    void *on;
    pthread_join(th, &on);
    ck_assert_ptr_nonnull(u);
    ck_assert_msg(took >= 0.15, "the end took %.3f s: it did not wait for the callback", took);
    ck_assert_int_eq((int)(intptr_t)on, 1);
    /* after the end: a callback is told not to write */
    ck_assert_int_eq(pp_profile_source_begin(), 0);
    pp_profile_source_end();
    pp_profile_release(u, 1);
}
END_TEST

START_TEST(test_end_gives_up_and_says_so)
{
    paused_event e = {.region = R("stuck", "user"), .pause_ms = 2500};
    pp_region_id mine = R("mine", "user");
    pp_profile_enter_at(mine, 10);
    pthread_t th;
    double took;
    pp_unified *u = end_during_event(&e, &th, &took);
    ck_assert_ptr_nonnull(u);
    /* the bound (1 s), not the 2.5 s of the event */
    ck_assert_msg(took >= 0.9, "gave up after %.3f s, before the bound", took);
    /* the stuck thread's trees are left out, the others' are whole */
    ck_assert_uint_eq(u->n_locations, 2);
    ck_assert_ptr_null(pp_unified_child(u->root, e.region));
    ck_assert_uint_eq(u->root->visits[1], 0);
    ck_assert_uint_eq(u->root->time[1], 0);
    CHECK_NODE(pp_unified_child(u->root, mine), 0, 1, u->t_finalize - 10, u->t_finalize - 10,
               u->t_finalize - 10);
    char *busy = run_fact("busy_threads");
    ck_assert_ptr_nonnull(busy);
    ck_assert_str_eq(busy, "1");
    free(busy);
    pp_profile_release(u, 1);
    pthread_join(th, NULL); /* it writes its tree after the end: nobody reads it */
}
END_TEST

/* A thread that crashed inside an event never leaves it: the end does not
 * wait for it (however long it may wait for others), leaves its trees out
 * and names it.  The helper stays inside until the test lets it go. */
typedef struct crashed_event {
    sem_t inside, release;
} crashed_event;

static void crash_inside(void *arg)
{
    crashed_event *e = arg;
    pp_profile_test_crashed_here();
    sem_post(&e->inside);
    while (sem_wait(&e->release) != 0)
        ;
}

static void *crashing_helper(void *arg)
{
    pp_profile_test_enter_paused(R("crashes", "user"), 100, crash_inside, arg);
    return NULL;
}

START_TEST(test_end_does_not_wait_for_crashed_thread)
{
    crashed_event e;
    sem_init(&e.inside, 0, 0);
    sem_init(&e.release, 0, 0);
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, crashing_helper, &e), 0);
    while (sem_wait(&e.inside) != 0)
        ;
    /* an hour's bound: only the crashed thread is inside, and it is not waited for (a
     * wait would hang the test until its timeout) */
    ck_assert_uint_eq(pp_profile_test_quiesce(3600ull * 1000000000ull), 0);
    char *busy = run_fact("busy_threads");
    ck_assert_ptr_nonnull(busy);
    ck_assert_str_eq(busy, "1");
    free(busy);
    sem_post(&e.release);
    pthread_join(th, NULL);
}
END_TEST

START_TEST(test_assertions_compiled_in)
{
    ck_assert_int_eq(pp_profile_test_assertions(), 1);
}
END_TEST

/* A task whose position left its tree (an engine bug): its end stops on
 * the assertion of the path from its position to its root (SIGABRT). */
START_TEST(test_assertion_stops_broken_tree)
{
    pp_region_id task = R("!$omp task @f.c:1", "task");
    pp_profile_task_begin_at(task, pp_profile_task_new_handle(), false, 10);
    pp_profile_test_misplace_current();
    pp_profile_task_end_at(task, 20);
}
END_TEST

static Suite *profile_quiesce_suite(void)
{
    Suite *s = suite_create("profile_quiesce");
    TCase *tc = tcase_create("end");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_end_waits_for_event_in_flight);
    tcase_add_test(tc, test_end_waits_for_source_callback);
    tcase_add_test(tc, test_end_gives_up_and_says_so);
    tcase_add_test(tc, test_end_does_not_wait_for_crashed_thread);
    tcase_add_test(tc, test_assertions_compiled_in);
    tcase_add_test_raise_signal(tc, test_assertion_stops_broken_tree, SIGABRT);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}

Suite *pp_check_suite(void)
{
    return profile_quiesce_suite();
}
