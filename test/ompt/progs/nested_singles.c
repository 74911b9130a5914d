/* OMPT test: nested parallel regions with single constructs and a task
 * (issue 29: "exit from region 'single sblock' which is not open on this
 * thread", and gcc's inner single named after the outer one). */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long n = 0;
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        {
#pragma omp parallel num_threads(2)
            {
#pragma omp single
                {
#pragma omp task
                    __atomic_add_fetch(&n, 1, __ATOMIC_RELAXED);
                }
            }
        }
#pragma omp parallel num_threads(2)
        {
#pragma omp single
            __atomic_add_fetch(&n, 1, __ATOMIC_RELAXED);
        }
        /* (not a tail call: the region above keeps its own return address) */
        __atomic_add_fetch(&n, 0, __ATOMIC_SEQ_CST);
    }
    printf("%ld\n", n);
    return 0;
}
