/* the scope construct (OpenMP 5.1) with private, reduction, nowait.
 * pompprof-coverage: measured=parallel,for notes=scope */
#include <stdio.h>

int main(void)
{
    int total = 0, teams = 0;
#pragma omp parallel reduction(+ : teams)
    {
        teams += 1;
#pragma omp scope reduction(+ : total)
        {
            total += 1;
        }
#pragma omp scope nowait
        {
#pragma omp for
            for (int i = 0; i < 10; i++) (void)i;
        }
    }
    printf("%d\n", total == teams);
    return 0;
}
