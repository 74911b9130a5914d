/* masked taskloop and parallel masked taskloop simd (OpenMP 5.1).
 * pompprof-coverage: measured=parallel,masked,taskloop notes=taskloop */
#include <stdio.h>

int main(void)
{
    int a[48];
    long s = 0;
#pragma omp parallel num_threads(2)
#pragma omp masked taskloop filter(0) grainsize(6)
    for (int i = 0; i < 48; i++) a[i] = 2 * i;
#pragma omp parallel masked taskloop simd reduction(+ : s) num_threads(2)
    for (int i = 0; i < 48; i++) s += a[i];
    printf("%ld\n", s);
    return 0;
}
