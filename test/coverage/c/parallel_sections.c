/* combined parallel sections, with a clause OPARI2 cannot place (lastprivate(conditional:)).
 * pompprof-coverage: measured=parallel,sections,section */
#include <stdio.h>

int main(void)
{
    int a = 0, b = 0, x = 0;
#pragma omp parallel sections num_threads(2) reduction(+ : a)
    {
#pragma omp section
        a += 1;
#pragma omp section
        a += 2;
    }
#pragma omp parallel sections lastprivate(conditional: x) shared(b)
    {
#pragma omp section
        { x = 5; b += 1; }
#pragma omp section
        { if (b < 0) x = 6; }
    }
    printf("%d %d\n", a, x);
    return 0;
}
