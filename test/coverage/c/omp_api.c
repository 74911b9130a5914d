/* runtime library calls in and out of parallel regions.
 * pompprof-coverage: measured=parallel,single */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int in = -1, levels = -1, procs_ok;
    double t0 = omp_get_wtime();
    procs_ok = omp_get_num_procs() > 0;
#pragma omp parallel
#pragma omp single
    {
        in = omp_in_parallel();
        levels = omp_get_level();
    }
    printf("%d %d %d %d %d\n", in, levels, procs_ok, omp_get_wtime() >= t0,
           omp_get_max_threads() > 0);
    return 0;
}
