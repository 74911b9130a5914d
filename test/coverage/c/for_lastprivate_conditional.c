/* lastprivate(conditional:) on a worksharing loop.
 * pompprof-coverage: measured=parallel,for */
#include <stdio.h>

int main(void)
{
    int a[100], x = -1;
    for (int i = 0; i < 100; i++) a[i] = (i * 37) % 100;
#pragma omp parallel
#pragma omp for lastprivate(conditional: x)
    for (int i = 0; i < 100; i++)
        if (a[i] > 90) x = a[i];
    printf("last big value %d\n", x);
    return 0;
}
