/* nested parallel regions (OMP_MAX_ACTIVE_LEVELS decides whether they are active).
 * pompprof-coverage: measured=parallel,for */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int total = 0;
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : total)
    {
#pragma omp parallel num_threads(2) reduction(+ : total)
        {
#pragma omp for
            for (int i = 0; i < 4; i++) (void)i;
            total += 1;
        }
    }
    printf("%d\n", total);
    return 0;
}
