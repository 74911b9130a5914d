/* master blocks, one a single statement.
 * pompprof-coverage: measured=parallel,master */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int by_master = -1, x = 0;
#pragma omp parallel
    {
#pragma omp master
        {
            by_master = omp_get_thread_num();
        }
#pragma omp master
        x = 3;
    }
    printf("%d %d\n", by_master, x);
    return 0;
}
