/* combined parallel for simd.
 * pompprof-coverage: measured=parallel,for */
#include <stdio.h>

int main(void)
{
    int a[300];
    long s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static) simdlen(4) num_threads(2)
    for (int i = 0; i < 300; i++) {
        a[i] = i;
        s += i;
    }
#pragma omp parallel for simd collapse(2) lastprivate(s) if(simd: 1)
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 100; k++) { a[i * 100 + k] *= 2; s = a[i * 100 + k]; }
    printf("%ld %d\n", s, a[299]);
    return 0;
}
