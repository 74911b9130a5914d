/* pomp2_overhead: the cost of pompprof's hot path, in nanoseconds.
 *
 * The POMP2 entry points are called directly, serially, from the initial
 * thread, exactly in the order OPARI2-instrumented code calls them -- no
 * OpenMP construct runs, so only the profiler is measured:
 *   enter_exit   POMP2_Atomic_enter + POMP2_Atomic_exit
 *   user_region  POMP2_Begin + POMP2_End (a user region)
 *   task         POMP2_Task_create_begin + Task_begin + Task_end +
 *                Task_create_end (an undeferred task, as libgomp runs it
 *                with one thread)
 *   taskwait     POMP2_Taskwait_begin + Taskwait_end with no children
 *   timer_read   one pp_timer_now(), the library's clock read, with the
 *                source the library would choose (POMPPROF_TIMER)
 * Each figure is the median over REPEATS timed loops.  Output: one
 * "name value" line per figure, read by run_bench.py.
 *
 * Built with the pompprof wrapper (so the region-init unit is generated)
 * and linked with lib/libpp_util.la for pp_timer_now(). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <opari2/pomp2_lib.h>
#include <opari2/pomp2_user_lib.h>

#include "lib/pp_config.h"
#include "lib/pp_timer.h"

#define REPEATS 7

/* Region strings in OPARI2's format (the length prefix counts the whole
 * string); the source locations are nominal. */
static const char atomic_ctc[] =
    "78*regionType=atomic*sscl=pomp2_overhead.c:40:40*escl=pomp2_overhead.c:41:41**";
static const char user_ctc[] =
    "109*regionType=userRegion*sscl=pomp2_overhead.c:42:42*escl=pomp2_overhead.c:43:43"
    "*userRegionName=bench_user**";
static const char task_ctc[] =
    "76*regionType=task*sscl=pomp2_overhead.c:44:44*escl=pomp2_overhead.c:45:45**";
static const char taskwait_ctc[] =
    "80*regionType=taskwait*sscl=pomp2_overhead.c:46:46*escl=pomp2_overhead.c:46:46**";

/* Handles start NULL and are assigned on first use, as with OPARI2 code
 * whose init unit did not know the region. */
static POMP2_Region_handle atomic_region, task_region, taskwait_region;
static POMP2_USER_Region_handle user_region;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void loop_enter_exit(long n)
{
    for (long i = 0; i < n; i++) {
        POMP2_Atomic_enter(&atomic_region, atomic_ctc);
        POMP2_Atomic_exit(&atomic_region);
    }
}

static void loop_user_region(long n)
{
    for (long i = 0; i < n; i++) {
        POMP2_Begin(&user_region, user_ctc);
        POMP2_End(&user_region);
    }
}

static void loop_task(long n)
{
    for (long i = 0; i < n; i++) {
        POMP2_Task_handle new_task, old_task;
        POMP2_Task_create_begin(&task_region, &new_task, &old_task, 1, task_ctc);
        POMP2_Task_begin(&task_region, new_task);
        POMP2_Task_end(&task_region);
        POMP2_Task_create_end(&task_region, old_task);
    }
}

static void loop_taskwait(long n)
{
    for (long i = 0; i < n; i++) {
        POMP2_Task_handle old_task;
        POMP2_Taskwait_begin(&taskwait_region, &old_task, taskwait_ctc);
        POMP2_Taskwait_end(&taskwait_region, old_task);
    }
}

static volatile uint64_t timer_sink;

static void loop_timer(long n)
{
    uint64_t sum = 0;
    for (long i = 0; i < n; i++)
        sum += pp_timer_now();
    timer_sink = sum;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median nanoseconds per iteration of loop(n) over REPEATS runs, after one
 * untimed warm-up run (first-visit node creation, page faults). */
static double median_ns(void (*loop)(long), long n)
{
    double per_iteration[REPEATS];

    loop(n / 10 + 1);
    for (int r = 0; r < REPEATS; r++) {
        double start = now_ns();
        loop(n);
        per_iteration[r] = (now_ns() - start) / (double)n;
    }
    qsort(per_iteration, REPEATS, sizeof per_iteration[0], compare_doubles);
    return per_iteration[REPEATS / 2];
}

int main(int argc, char **argv)
{
    /* The scale factor lets a quick smoke run use fewer iterations. */
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    long n_big = (long)(1e7 * scale) + 1, n_small = (long)(1e6 * scale) + 1;

    pp_timer_init(pp_config_get()->timer);
    double timer = median_ns(loop_timer, n_big);
    double enter_exit = median_ns(loop_enter_exit, n_big);
    double user = median_ns(loop_user_region, n_big);
    double task = median_ns(loop_task, n_small);
    double taskwait = median_ns(loop_taskwait, n_small);

    printf("timer_source %s\n", pp_timer_name());
    printf("timer_read_ns %.2f\n", timer);
    printf("enter_exit_ns %.2f\n", enter_exit);
    printf("user_region_ns %.2f\n", user);
    printf("task_ns %.2f\n", task);
    printf("taskwait_ns %.2f\n", taskwait);
    printf("enter_exit_per_two_timer_reads %.2f\n", enter_exit / (2.0 * timer));
    return 0;
}
