/* event_costs: what measuring one event costs on this machine, in
 * nanoseconds of CPU time -- the figures pompprof-score multiplies the
 * visits of a profile with (scripts/pompprof_tools/analysis/costs.py).
 * Run once when pompprof is built (calibration/local.mk), kept in
 * event-costs.txt and installed with the library.
 *
 * Built with `pompprof --functions`: the same code twice in one program,
 * measured and not -- functions with the no_instrument_function attribute,
 * OpenMP constructs between `#pragma pomp noinstrument` and `#pragma pomp
 * instrument` -- so that each figure is what the instrumentation adds to
 * code of this shape, the inserted code, the library's events and what the
 * change of the code does to the compiler's output all together:
 *   function_pair_ns   a function call measured, in the shapes call-heavy
 *                      code has (the mean): a small function called in a
 *                      loop, a recursion of small functions, and a small
 *                      floating-point function with a smaller one inside,
 *                      whose plain build inlines both
 *   filtered_pair_ns   a call of a function POMPPROF_FILTER leaves out (when
 *                      the runner set a filter naming *_filtered)
 *   construct_pair_ns  an OpenMP construct entered and left (atomic)
 *   task_ns            a task instance: its creation, start and end (the
 *                      mean of two shapes, each less its share of the
 *                      taskwaits: a recursion that makes two tasks and waits
 *                      for them, fib's; and a tree of four tasks per task,
 *                      each with a taskwait, also the leaves, health's)
 *   taskwait_ns        a taskwait (without children to wait for)
 * and each shape on its own, which pompprof-score gives each region by its
 * shape in the profile: leaf_pair_ns, recursion_pair_ns, inlined_pair_ns
 * (the function shapes), task_binary_ns, task_quad_ns (fib's and health's
 * task shapes), task_wide_ns (twelve tasks per taskwait, nqueens'); and,
 * for make bench, plain_call_ns.  `event_costs --nothing` runs one parallel
 * region and ends: what a run costs whatever it measures (calibrate.py).
 * Each figure is the median difference of PAIRS pairs of timed loops of
 * the initial thread, plain then measured (added_ns; OMP_NUM_THREADS=1:
 * tasks run where they are created), in CPU time; calibrate.py takes each
 * figure's median over several runs of the program.  Output: one "name
 * value" line per figure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPEATS 7
#define PAIRS 21
#define NI __attribute__((noinline, no_instrument_function))

static volatile long sink;
static volatile int depth = 16;

NI static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ---- functions: measured, left out by the filter, plain ---------------------- */

#define LEAF(name, attr)                                                                          \
    attr int name(int x)                                                                          \
    {                                                                                             \
        __asm__ volatile("" : "+r"(x));                                                           \
        return x + 1;                                                                             \
    }
LEAF(leaf, __attribute__((noinline)))
LEAF(leaf_filtered, __attribute__((noinline)))
LEAF(leaf_plain, NI)

/* fib's shape, without tasks: many short calls, a call tree of depth 16 */
#define REC(name, attr)                                                                           \
    attr long name(int n)                                                                         \
    {                                                                                             \
        return n < 2 ? n : name(n - 1) + name(n - 2);                                             \
    }
REC(rec, __attribute__((noinline)))
REC(rec_filtered, __attribute__((noinline)))
REC(rec_plain, NI)

#define CALLS_OF_REC_16 3193.0 /* 2 fib(17) - 1 */

/* a force with a limit, each a function; the plain build inlines both */
#define FORCE(clamp, force, attr)                                                                 \
    attr double clamp(double v, double limit)                                                     \
    {                                                                                             \
        return v > limit ? limit : (v < -limit ? -limit : v);                                     \
    }                                                                                             \
    attr double force(double a, double b)                                                         \
    {                                                                                             \
        double d = b - a, r2 = d * d + 1e-3;                                                      \
        return clamp(a * b / (r2 * sqrt(r2)), 10.0);                                              \
    }
FORCE(clamp_abs, force, )
FORCE(clamp_abs_plain, force_plain, __attribute__((no_instrument_function)))
static double xs[256];

#define LOOP(name, call)                                                                          \
    NI static void name(long n)                                                                   \
    {                                                                                             \
        long s = 0;                                                                               \
        for (long i = 0; i < n; i++)                                                              \
            s += call;                                                                            \
        sink = s;                                                                                 \
    }
LOOP(loop_leaf, leaf((int)i))
LOOP(loop_leaf_filtered, leaf_filtered((int)i))
LOOP(loop_leaf_plain, leaf_plain((int)i))
LOOP(loop_rec, rec(depth))
LOOP(loop_rec_filtered, rec_filtered(depth))
LOOP(loop_rec_plain, rec_plain(depth))
LOOP(loop_force, force(xs[i & 255], xs[(i * 7) & 255]))
LOOP(loop_force_plain, force_plain(xs[i & 255], xs[(i * 7) & 255]))

/* ---- OpenMP constructs, measured and plain -------------------------------------- */

static long counter;

NI static void loop_atomic(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp atomic
        counter += i;
    }
}

/* fib's shape: two tasks and a taskwait per call, 2 fib(14 + 1) - 2 tasks
 * and fib(14 + 1) - 1 taskwaits per tree */
#define TASKS_OF_TREE_14 1218.0
#define TASKWAITS_OF_TREE_14 609.0
NI static long tree(int n)
{
    long x, y;
    if (n < 2)
        return n;
#pragma omp task shared(x) firstprivate(n)
    x = tree(n - 1);
#pragma omp task shared(y) firstprivate(n)
    y = tree(n - 2);
#pragma omp taskwait
    return x + y;
}

NI static void loop_tasks(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += tree(14);
    sink = s;
}

/* health's shape: four tasks per task down to depth 5, a taskwait in each */
#define TASKS_OF_QUAD_5 1364.0 /* 4 + 16 + 64 + 256 + 1024 */
#define TASKWAITS_OF_QUAD_5 1365.0
NI static void quad(int d)
{
    for (int i = 0; d > 0 && i < 4; i++) {
#pragma omp task firstprivate(d)
        quad(d - 1);
    }
#pragma omp taskwait
}

NI static void loop_quads(long n)
{
    for (long i = 0; i < n; i++)
        quad(5);
}

/* nqueens' shape: twelve tasks per taskwait, one of them going on down to
 * depth 8, the others leaves without a taskwait: a twelfth of a taskwait per
 * task, each taskwait with children to wait for */
#define WIDE_FAN 12
#define TASKS_OF_WIDE_8 96.0
#define TASKWAITS_OF_WIDE_8 8.0
NI static long wide(int d)
{
    long got[WIDE_FAN];
    for (int i = 0; i < WIDE_FAN; i++) {
#pragma omp task shared(got) firstprivate(i, d)
        got[i] = (i == 0 && d > 1) ? wide(d - 1) : i;
    }
#pragma omp taskwait
    long s = 0;
    for (int i = 0; i < WIDE_FAN; i++)
        s += got[i];
    return s;
}

NI static void loop_wides(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += wide(8);
    sink = s;
}

NI static void loop_taskwait(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp taskwait
    }
}

#pragma pomp noinstrument
NI static void loop_atomic_plain(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp atomic
        counter += i;
    }
}

NI static long tree_plain(int n)
{
    long x, y;
    if (n < 2)
        return n;
#pragma omp task shared(x) firstprivate(n)
    x = tree_plain(n - 1);
#pragma omp task shared(y) firstprivate(n)
    y = tree_plain(n - 2);
#pragma omp taskwait
    return x + y;
}

NI static void loop_tasks_plain(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += tree_plain(14);
    sink = s;
}

NI static void quad_plain(int d)
{
    for (int i = 0; d > 0 && i < 4; i++) {
#pragma omp task firstprivate(d)
        quad_plain(d - 1);
    }
#pragma omp taskwait
}

NI static void loop_quads_plain(long n)
{
    for (long i = 0; i < n; i++)
        quad_plain(5);
}

NI static long wide_plain(int d)
{
    long got[WIDE_FAN];
    for (int i = 0; i < WIDE_FAN; i++) {
#pragma omp task shared(got) firstprivate(i, d)
        got[i] = (i == 0 && d > 1) ? wide_plain(d - 1) : i;
    }
#pragma omp taskwait
    long s = 0;
    for (int i = 0; i < WIDE_FAN; i++)
        s += got[i];
    return s;
}

NI static void loop_wides_plain(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += wide_plain(8);
    sink = s;
}

NI static void loop_taskwait_plain(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp taskwait
    }
}
#pragma pomp instrument

NI static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The least over REPEATS loops of n, per iteration (a plain call's time). */
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

/* What the measured loop adds per iteration over the plain one: the median
 * over PAIRS pairs of loops of a third of n, the plain loop and the measured
 * one back to back, of the difference within the pair.  The machine's
 * speed for task code drifts while it runs (on a test machine, the same
 * loop of tasks took 40 to 76 us within a second): a pair meets one speed,
 * where the least of each loop alone may pair a fast plain loop with a slow
 * measured one, and the median leaves out the pairs a busy moment split. */
NI static double added_ns(void (*measured)(long), void (*plain)(long), long n)
{
    double per[PAIRS];
    long m = n / 3 + 1;
    plain(m / 10 + 1);
    measured(m / 10 + 1);
    for (int r = 0; r < PAIRS; r++) {
        double t0 = now_ns();
        plain(m);
        double t1 = now_ns();
        measured(m);
        per[r] = ((now_ns() - t1) - (t1 - t0)) / (double)m;
    }
    qsort(per, PAIRS, sizeof per[0], compare_doubles);
    return per[PAIRS / 2] > 0 ? per[PAIRS / 2] : 0;
}

NI int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--nothing") == 0) {
        /* one parallel region, for what a run costs whatever it measures */
#pragma omp parallel
        sink = 1;
        return 0;
    }
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    long n = (long)(2e6 * scale) + 1, n_rec = (long)(600 * scale) + 1;
    long n_tasks = (long)(2e5 * scale) + 1, n_trees = (long)(160 * scale) + 1;
    long n_wides = (long)(2000 * scale) + 1;
    for (int i = 0; i < 256; i++)
        xs[i] = i * 0.01;
    double plain = least_ns(loop_leaf_plain, n);
    double leaf_pair = added_ns(loop_leaf, loop_leaf_plain, n);
    double rec_pair = added_ns(loop_rec, loop_rec_plain, n_rec) / CALLS_OF_REC_16;
    double inlined_pair = added_ns(loop_force, loop_force_plain, n) / 2;
    double atomic = 0, task = 0, taskwait = 0, fib_shape = 0, health_shape = 0, wide_shape = 0;
#pragma omp parallel
#pragma omp single
    {
        atomic = added_ns(loop_atomic, loop_atomic_plain, n);
        taskwait = added_ns(loop_taskwait, loop_taskwait_plain, n_tasks);
        fib_shape = added_ns(loop_tasks, loop_tasks_plain, n_trees) / TASKS_OF_TREE_14 -
                           taskwait * TASKWAITS_OF_TREE_14 / TASKS_OF_TREE_14;
        health_shape = added_ns(loop_quads, loop_quads_plain, n_trees) / TASKS_OF_QUAD_5 -
                              taskwait * TASKWAITS_OF_QUAD_5 / TASKS_OF_QUAD_5;
        wide_shape = added_ns(loop_wides, loop_wides_plain, n_wides) / TASKS_OF_WIDE_8 -
                     taskwait * TASKWAITS_OF_WIDE_8 / TASKS_OF_WIDE_8;
        task = (fib_shape + health_shape) / 2;
    }
    printf("function_pair_ns %.2f\n", (leaf_pair + rec_pair + inlined_pair) / 3);
    if (getenv("POMPPROF_FILTER")) {
        double leaf_f = added_ns(loop_leaf_filtered, loop_leaf_plain, n);
        double rec_f = added_ns(loop_rec_filtered, loop_rec_plain, n_rec) / CALLS_OF_REC_16;
        printf("filtered_pair_ns %.2f\n", (leaf_f + rec_f) / 2);
    }
    printf("construct_pair_ns %.2f\n", atomic);
    printf("task_ns %.2f\n", task > 0 ? task : 0);
    printf("taskwait_ns %.2f\n", taskwait);
    printf("leaf_pair_ns %.2f\n", leaf_pair);
    printf("recursion_pair_ns %.2f\n", rec_pair);
    printf("inlined_pair_ns %.2f\n", inlined_pair);
    printf("plain_call_ns %.2f\n", plain);
    printf("task_binary_ns %.2f\n", fib_shape);
    printf("task_quad_ns %.2f\n", health_shape);
    printf("task_wide_ns %.2f\n", wide_shape);
    return 0;
}
