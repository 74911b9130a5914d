/* function_overhead: what measuring a function costs, in nanoseconds, next
 * to what measuring an OpenMP construct costs.  Built with
 * `pompprof --functions` (gcc -finstrument-functions); run by make bench
 * (examples/bench/function_bench.py), which keeps the figures in
 * event-costs.txt for pompprof-score, and by pompprof-score itself when no
 * such file exists.  Output, one "name value" line each:
 *   plain_call_ns      a call of a small function that is not instrumented
 *   leaf_pair_ns       the same call instrumented, minus plain_call_ns: an
 *                      enter/exit pair of a function called in a loop (the
 *                      engine's cheapest case: the same node every time)
 *   function_pair_ns   what instrumenting costs per call in a recursion with
 *                      a small working leaf (rec, work below): (instrumented
 *                      - plain) / calls, with the call tree as deep as the
 *                      recursion: the figure pompprof-score uses
 *   filtered_pair_ns   the same for functions POMPPROF_FILTER leaves out
 *                      (only when the runner set a filter naming
 *                      leaf_filtered, rec_filtered and work_filtered)
 *   construct_pair_ns  POMP2_Atomic_enter + POMP2_Atomic_exit: an enter/exit
 *                      pair of an OpenMP construct
 * Each figure is the least over REPEATS timed loops, serial, on the initial
 * thread, in CPU time: a busy machine only ever adds to a loop's CPU time
 * (shared caches, a migrated thread), so the least is the cost itself. */
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

/* the thread's CPU time: what measuring costs, without the time other
 * programs of a busy machine take the core away */
NI static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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

/* A recursion with a small leaf that does some work: the shape of code
 * whose functions are worth filtering.  An instrumented call costs more
 * here than around an empty function (the clock reads and table updates
 * compete with the leaf's memory traffic), about twice as much on the
 * development machine; this is the figure pompprof-score uses. */
__attribute__((noinline)) long work(long x)
{
    volatile long s = x;
    for (int i = 0; i < 40; i++)
        s += i;
    return s;
}

long rec(int n)
{
    return n < 2 ? work(n) : rec(n - 1) + rec(n - 2) + work(n);
}

__attribute__((noinline)) long work_filtered(long x)
{
    volatile long s = x;
    for (int i = 0; i < 40; i++)
        s += i;
    return s;
}

long rec_filtered(int n)
{
    return n < 2 ? work_filtered(n) : rec_filtered(n - 1) + rec_filtered(n - 2) + work_filtered(n);
}

NI long work_plain(long x)
{
    volatile long s = x;
    for (int i = 0; i < 40; i++)
        s += i;
    return s;
}

NI long rec_plain(int n)
{
    return n < 2 ? work_plain(n) : rec_plain(n - 1) + rec_plain(n - 2) + work_plain(n);
}

#define REC_N 18
static volatile int rec_n = REC_N;
/* calls of rec(REC_N) (2 fib(REC_N + 1) - 1), each with one call of work */
#define REC_PAIRS (2 * 8361.0)

NI static void loop_rec(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += rec(rec_n);
    sink = (int)s;
}

NI static void loop_rec_filtered(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += rec_filtered(rec_n);
    sink = (int)s;
}

NI static void loop_rec_plain(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += rec_plain(rec_n);
    sink = (int)s;
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

NI static double least_ns(void (*loop)(long), long n)
{
    double per[REPEATS];
    loop(n / 10 + 1);
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_ns();
        loop(n);
        per[r] = (now_ns() - t0) / (double)n;
    }
    qsort(per, REPEATS, sizeof per[0], compare_doubles);
    return per[0];
}

NI int main(int argc, char **argv)
{
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    long n = (long)(5e6 * scale) + 1;
    long nf = n / 5000 + 1;
    double plain = least_ns(loop_plain, n);
    double leaf_ns = least_ns(loop_leaf, n);
    double construct = least_ns(loop_construct, n);
    double rec_plain_ns = least_ns(loop_rec_plain, nf);
    double rec_ns = least_ns(loop_rec, nf);
    printf("plain_call_ns %.2f\n", plain);
    printf("leaf_pair_ns %.2f\n", leaf_ns - plain);
    printf("function_pair_ns %.2f\n", (rec_ns - rec_plain_ns) / REC_PAIRS);
    if (getenv("POMPPROF_FILTER")) {
        printf("leaf_filtered_pair_ns %.2f\n", least_ns(loop_filtered, n) - plain);
        printf("filtered_pair_ns %.2f\n",
               (least_ns(loop_rec_filtered, nf) - rec_plain_ns) / REC_PAIRS);
    }
    printf("construct_pair_ns %.2f\n", construct);
    return 0;
}
