/* combined parallel for with OpenMP 4.5/5.x clauses: linear, order(concurrent),
 * lastprivate(conditional:), if(parallel:), reduction(inscan...) is in scan.c.
 * pompprof-coverage: measured=parallel,for */
#include <stdio.h>

int main(void)
{
    int a[64], j = 0, x = -1, n = 64;
#pragma omp parallel for linear(j : 1) if(parallel: n > 8) default(none) shared(a, n)
    for (int i = 0; i < n; i++) { a[i] = j; j++; }
#pragma omp parallel for order(concurrent)
    for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp parallel for lastprivate(conditional: x) proc_bind(spread)
    for (int i = 0; i < 64; i++)
        if (a[i] % 10 == 0) x = i;
    printf("%d %d %d\n", a[63], j, x);
    return 0;
}
