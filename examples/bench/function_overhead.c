/* function_overhead: what measuring a function costs, in nanoseconds, next
 * to what measuring an OpenMP construct costs.  Built with
 * `pompprof --functions` (gcc -finstrument-functions); run by make bench
 * (examples/bench/function_bench.py), which keeps the figures in
 * event-costs.txt for pompprof-score, and by pompprof-score itself when no
 * such file exists.  Output, one "name value" line each:
 *   plain_call_ns      a call of a small function that is not instrumented
 *   function_pair_ns   the same call instrumented, minus plain_call_ns: an
 *                      enter/exit pair of a function
 *   filtered_pair_ns   the same for a function POMPPROF_FILTER leaves out
 *                      (only when the runner set a filter naming leaf_filtered)
 *   construct_pair_ns  POMP2_Atomic_enter + POMP2_Atomic_exit: an enter/exit
 *                      pair of an OpenMP construct
 * Each figure is the median over REPEATS timed loops, serial, on the initial
 * thread. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <opari2/pomp2_lib.h>

#define REPEATS 7
#define NI __attribute__((noinline, no_instrument_function))

static const char atomic_ctc[] =
    "84*regionType=atomic*sscl=function_overhead.c:30:30*escl=function_overhead.c:31:31**";
static POMP2_Region_handle atomic_region;
static volatile int sink;

NI static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* the three leaves do the same; noinline keeps each call a call */
__attribute__((noinline)) int leaf(int x)
{
    __asm__ volatile("" : "+r"(x));
    return x + 1;
}

__attribute__((noinline)) int leaf_filtered(int x)
{
    __asm__ volatile("" : "+r"(x));
    return x + 1;
}

NI int leaf_plain(int x)
{
    __asm__ volatile("" : "+r"(x));
    return x + 1;
}

NI static void loop_plain(long n)
{
    int s = 0;
    for (long i = 0; i < n; i++)
        s += leaf_plain((int)i);
    sink = s;
}

NI static void loop_leaf(long n)
{
    int s = 0;
    for (long i = 0; i < n; i++)
        s += leaf((int)i);
    sink = s;
}

NI static void loop_filtered(long n)
{
    int s = 0;
    for (long i = 0; i < n; i++)
        s += leaf_filtered((int)i);
    sink = s;
}

NI static void loop_construct(long n)
{
    for (long i = 0; i < n; i++) {
        POMP2_Atomic_enter(&atomic_region, atomic_ctc);
        POMP2_Atomic_exit(&atomic_region);
    }
}

NI static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

NI static double median_ns(void (*loop)(long), long n)
{
    double per[REPEATS];
    loop(n / 10 + 1);
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_ns();
        loop(n);
        per[r] = (now_ns() - t0) / (double)n;
    }
    qsort(per, REPEATS, sizeof per[0], compare_doubles);
    return per[REPEATS / 2];
}

NI int main(int argc, char **argv)
{
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    long n = (long)(5e6 * scale) + 1;
    double plain = median_ns(loop_plain, n);
    double leaf_ns = median_ns(loop_leaf, n);
    double construct = median_ns(loop_construct, n);
    printf("plain_call_ns %.2f\n", plain);
    printf("function_pair_ns %.2f\n", leaf_ns - plain);
    if (getenv("POMPPROF_FILTER"))
        printf("filtered_pair_ns %.2f\n", median_ns(loop_filtered, n) - plain);
    printf("construct_pair_ns %.2f\n", construct);
    return 0;
}
