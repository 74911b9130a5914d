/* order(concurrent) on worksharing and simd loops.
 * pompprof-coverage: measured=parallel,for */
#include <stdio.h>

int main(void)
{
    int a[256];
    long s = 0;
#pragma omp parallel
    {
#pragma omp for order(concurrent)
        for (int i = 0; i < 256; i++) a[i] = i * 3;
#pragma omp for simd order(concurrent) reduction(+ : s)
        for (int i = 0; i < 256; i++) s += a[i];
    }
    printf("%ld\n", s);
    return 0;
}
