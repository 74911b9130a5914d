/* e2e: nested parallel regions (run with OMP_MAX_ACTIVE_LEVELS=2). */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int inner_total = 0, outer_total = 0;
#pragma omp parallel num_threads(2) reduction(+ : outer_total, inner_total)
    {
        outer_total += 1;
        int inner = 0;
#pragma omp parallel num_threads(2) shared(inner)
        {
#pragma omp task
            {
#pragma omp atomic
                inner++;
            }
        }
        inner_total += inner;
    }
    /* the counts depend on how many threads the runtime granted; print only
     * what is the same for every thread count */
    printf("consistent=%d\n", inner_total >= outer_total && outer_total >= 1);
    return 0;
}
