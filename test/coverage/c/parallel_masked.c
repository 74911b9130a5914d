/* combined parallel masked (OpenMP 5.1), with and without filter.
 * pompprof-coverage: measured=parallel,masked */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int a = -1, b = -1;
#pragma omp parallel masked
    a = omp_get_thread_num();
#pragma omp parallel masked filter(1) num_threads(2)
    b = omp_get_thread_num();
    printf("%d %d\n", a, b);
    return 0;
}
