/* Task-graph ground truth: a binary tree of tasks of depth 8 whose 256
 * leaves each spin 2 ms (inner tasks create two children and wait for
 * them).  Expected: work about 0.512 s, span about 2 ms plus the creation
 * path, parallelism near 256. */
#include <stdio.h>

#include "spin.h"

static long leaf_sum_ns, leaf_max_ns; /* atomics: no construct of their own in the trace */

static int tree(int depth)
{
    if (depth == 0) {
        long d = (long)(spin(0.002) * 1e9);
        __atomic_add_fetch(&leaf_sum_ns, d, __ATOMIC_RELAXED);
        long m = __atomic_load_n(&leaf_max_ns, __ATOMIC_RELAXED);
        while (d > m && !__atomic_compare_exchange_n(&leaf_max_ns, &m, d, 0, __ATOMIC_RELAXED,
                                                     __ATOMIC_RELAXED))
            ;
        return 1;
    }
    int a = 0, b = 0;
#pragma omp task shared(a)
    a = tree(depth - 1);
#pragma omp task shared(b)
    b = tree(depth - 1);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    int leaves = 0;
#pragma omp parallel
#pragma omp single
    leaves = tree(8);
    report("leaf_sum", leaf_sum_ns * 1e-9);
    report("leaf_max", leaf_max_ns * 1e-9);
    printf("leaves=%d\n", leaves);
    return leaves == 256 ? 0 : 1;
}
