/* bench-profile: the cost of the event path (prints, never fails on timing).
 *
 *   make bench-profile
 *
 * Compares an enter+exit pair with two timer reads (the budget is ~2.5x),
 * and shows the pieces: the engine alone with a given timestamp, the
 * disabled path, a task begin+end pair, and what a parameter call adds to a
 * region visit and to a task (values changing from call to call, as a
 * recursion depth does; the budget is one region enter, half a pair). */
#include <stdio.h>
#include <time.h>

#include "lib/pp_config.h"
#include "lib/pp_timer.h"
#include "profile/pp_profile.h"
#include "profile/pp_profile_test.h"

#define N 20000000L

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static volatile uint64_t sink;

int main(void)
{
    pp_timer_init(pp_config_get()->timer);
    pp_profile_test_start_at(pp_timer_now());
    pp_region_def d = {"bench", "bench.c", 1, 2, "user", "function", NULL, NULL};
    pp_region_def d2 = {"bench2", "bench.c", 3, 4, "user", "function", NULL, NULL};
    pp_region_def dt = {"!$omp task @bench.c:5", "bench.c", 5, 6, "openmp", "task", NULL, NULL};
    pp_region_id r = pp_profile_region_define(&d), r2 = pp_profile_region_define(&d2);
    pp_region_id rt = pp_profile_region_define(&dt);

    /* warm up: creates the nodes */
    pp_profile_enter(r);
    pp_profile_exit(r);

    double t0 = now_ns();
    uint64_t acc = 0;
    for (long i = 0; i < N; i++) {
        acc += pp_timer_now();
        acc += pp_timer_now();
    }
    sink = acc;
    double timer2 = (now_ns() - t0) / N;

    t0 = now_ns();
    for (long i = 0; i < N; i++) {
        pp_profile_enter(r);
        pp_profile_exit(r);
    }
    double pair = (now_ns() - t0) / N;

    t0 = now_ns();
    for (long i = 0; i < N; i++) {
        pp_profile_enter(r);
        pp_profile_enter(r2);
        pp_profile_exit(r2);
        pp_profile_exit(r);
    }
    double nested = (now_ns() - t0) / N / 2;

    t0 = now_ns();
    for (long i = 0; i < N; i++) {
        pp_profile_enter_at(r, (uint64_t)i);
        pp_profile_exit_at(r, (uint64_t)i + 1);
    }
    double engine = (now_ns() - t0) / N;

    long nt = N / 10;
    t0 = now_ns();
    for (long i = 0; i < nt; i++) {
        pp_profile_task_begin(rt, pp_profile_task_new_handle(), false);
        pp_profile_enter(r);
        pp_profile_exit(r);
        pp_profile_task_end(rt);
    }
    double task = (now_ns() - t0) / nt;

    t0 = now_ns();
    for (long i = 0; i < nt; i++) {
        pp_profile_task_begin(rt, pp_profile_task_new_handle(), false);
        pp_profile_task_end(rt);
    }
    double task_plain = (now_ns() - t0) / nt;

    /* a task as the POMP2 adapter sends it: creation (a scheduling point
     * that names the new task), begin and end inside it, creation end */
    pp_region_def dc = {"!$omp create task @bench.c:5", "bench.c", 5, 6, "openmp", "task create",
                        NULL, NULL};
    pp_region_def dw = {"!$omp taskwait @bench.c:7", "bench.c", 7, 7, "openmp", "taskwait", NULL, NULL};
    pp_region_id rc = pp_profile_region_define(&dc), rw = pp_profile_region_define(&dw);
    t0 = now_ns();
    for (long i = 0; i < nt; i++) {
        pp_task_handle h = pp_profile_task_new_handle();
        pp_task_handle cur = pp_profile_task_current();
        pp_profile_task_create_enter(rc, h);
        pp_profile_task_begin(rt, h, false);
        pp_profile_task_end(rt);
        pp_profile_switch_exit(cur, rc);
    }
    double task_create = (now_ns() - t0) / nt;

    t0 = now_ns();
    for (long i = 0; i < nt; i++) {
        pp_task_handle cur = pp_profile_task_current();
        pp_profile_enter(rw);
        pp_profile_switch_exit(cur, rw);
    }
    double taskwait = (now_ns() - t0) / nt;

    pp_param_key depth = pp_profile_param_define("depth", 5);
    t0 = now_ns();
    for (long i = 0; i < nt; i++) {
        pp_profile_task_begin(rt, pp_profile_task_new_handle(), false);
        pp_profile_parameter_int64(depth, i & 7);
        pp_profile_task_end(rt);
    }
    double task_param = (now_ns() - t0) / nt;

    t0 = now_ns();
    for (long i = 0; i < N; i++) {
        pp_profile_enter(r);
        pp_profile_parameter_int64(depth, i & 7);
        pp_profile_exit(r);
    }
    double pair_param = (now_ns() - t0) / N;

    pp_profile_set_enabled(false);
    t0 = now_ns();
    for (long i = 0; i < N; i++) {
        pp_profile_enter(r);
        pp_profile_exit(r);
    }
    double off = (now_ns() - t0) / N;
    pp_profile_set_enabled(true);

    printf("bench-profile (%s timer, %ld iterations)\n", pp_timer_name(), N);
    printf("  two timer reads              %7.2f ns\n", timer2);
    printf("  enter+exit pair              %7.2f ns  (%.2fx two timer reads; budget 2.5x)\n", pair,
           pair / timer2);
    printf("  enter+exit pair, nested      %7.2f ns\n", nested);
    printf("  enter+exit pair, no clock    %7.2f ns  (engine alone)\n", engine);
    printf("  task begin+enter+exit+end    %7.2f ns\n", task);
    printf("  enter+exit pair, disabled    %7.2f ns\n", off);
    printf("  task begin+end               %7.2f ns\n", task_plain);
    printf("  task create+begin+end        %7.2f ns  (as the POMP2 adapter calls them)\n",
           task_create);
    printf("  taskwait begin+end           %7.2f ns\n", taskwait);
    printf("  task begin+parameter+end     %7.2f ns  (parameter in a task: %.2f ns; one enter "
           "~%.2f ns)\n",
           task_param, task_param - task_plain, pair / 2);
    printf("  enter+parameter+exit         %7.2f ns  (parameter in a region: %.2f ns)\n",
           pair_param, pair_param - pair);
    pp_profile_test_reset();
    return 0;
}
