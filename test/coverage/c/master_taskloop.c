/* master taskloop and master taskloop simd (OpenMP 5.0).
 * pompprof-coverage: measured=parallel,master,taskloop notes=taskloop */
#include <stdio.h>

int main(void)
{
    int a[64];
    long s = 0;
#pragma omp parallel
    {
#pragma omp master taskloop grainsize(8)
        for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp barrier
#pragma omp master taskloop simd reduction(+ : s)
        for (int i = 0; i < 64; i++) s += a[i];
    }
    printf("%ld\n", s);
    return 0;
}
