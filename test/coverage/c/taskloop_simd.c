/* taskloop simd.
 * pompprof-coverage: measured=parallel,single,taskloop notes=taskloop */
#include <stdio.h>

int main(void)
{
    int a[128];
    long s = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop simd grainsize(16) simdlen(4)
        for (int i = 0; i < 128; i++) a[i] = 3 * i;
#pragma omp taskloop simd reduction(+ : s)
        for (int i = 0; i < 128; i++) s += a[i];
    }
    printf("%ld\n", s);
    return 0;
}
