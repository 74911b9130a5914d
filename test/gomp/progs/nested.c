/* Nested parallel regions (run with OMP_MAX_ACTIVE_LEVELS=2), tasks and a
 * single in the inner teams. */
#include <stdio.h>

int main(void)
{
    long tasks = 0, singles = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
        {
#pragma omp single
            {
                singles++;
#pragma omp task
                {
#pragma omp atomic
                    tasks++;
                }
            }
        }
    }
    printf("consistent=%d\n", tasks == singles && tasks >= 1);
    return 0;
}
