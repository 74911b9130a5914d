/* Task-graph ground truth: a binary tree of tasks of depth 8 whose 256
 * leaves each spin 2 ms (inner tasks create two children and wait for
 * them).  Expected: work about 0.512 s, span about 2 ms plus the creation
 * path, parallelism near 256.
 *
 * A loaded machine can deschedule a thread anywhere, also on the creation
 * path (a parent between its start and creating a child), which lengthens
 * the span beyond the longest leaf.  So the program also measures the
 * longest path itself (path_max): every task passes its children the time
 * executed along the path to their creation, and returns the longest path
 * to its own end (its children's, or its own code before the taskwait, plus
 * its code after it), from main's start on. */
#include <stdio.h>

#include "spin.h"

static long leaf_sum_ns, leaf_max_ns; /* atomics: no construct of their own in the trace */

static double longer(double a, double b)
{
    return a > b ? a : b;
}

/* pre: the path's time up to this task's start; returns the longest path's
 * time up to this task's end */
static double tree(int depth, double pre, int *leaves)
{
    double start = spin_now();
    if (depth == 0) {
        long d = (long)(spin(0.002) * 1e9);
        __atomic_add_fetch(&leaf_sum_ns, d, __ATOMIC_RELAXED);
        long m = __atomic_load_n(&leaf_max_ns, __ATOMIC_RELAXED);
        while (d > m && !__atomic_compare_exchange_n(&leaf_max_ns, &m, d, 0, __ATOMIC_RELAXED,
                                                     __ATOMIC_RELAXED))
            ;
        *leaves = 1;
        return pre + (spin_now() - start);
    }
    int a = 0, b = 0;
    double path_a = 0, path_b = 0, pre_a = pre + (spin_now() - start);
#pragma omp task shared(a, path_a) firstprivate(pre_a)
    path_a = tree(depth - 1, pre_a, &a);
    double pre_b = pre + (spin_now() - start);
#pragma omp task shared(b, path_b) firstprivate(pre_b)
    path_b = tree(depth - 1, pre_b, &b);
    double own = pre + (spin_now() - start);
#pragma omp taskwait
    double after = spin_now();
    *leaves = a + b;
    return longer(longer(path_a, path_b), own) + (spin_now() - after);
}

int main(void)
{
    double begin = spin_now(), path_max = 0;
    int leaves = 0;
#pragma omp parallel
#pragma omp single
    path_max = tree(8, spin_now() - begin, &leaves);
    report("leaf_sum", leaf_sum_ns * 1e-9);
    report("leaf_max", leaf_max_ns * 1e-9);
    report("path_max", path_max);
    printf("leaves=%d\n", leaves);
    return leaves == 256 ? 0 : 1;
}
