/* masked with and without filter (OpenMP 5.1).
 * pompprof-coverage: measured=parallel,masked */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int t0 = -1, t1 = -1, hits = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp masked
        t0 = omp_get_thread_num();
#pragma omp masked filter(1)
        {
            t1 = omp_get_thread_num();
        }
#pragma omp masked filter(omp_get_num_threads() - 1)
#pragma omp atomic
        hits++;
    }
    printf("%d %d %d\n", t0, t1 == 1 || t1 == -1, hits);
    return 0;
}
