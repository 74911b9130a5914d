/* composite "for simd" with worksharing and simd clauses, "ordered threads simd" inside.
 * pompprof-coverage: measured=parallel,for */
#include <stdio.h>

int main(void)
{
    int a[200], b[200], m = 0;
    long s = 0;
#pragma omp parallel
    {
#pragma omp for simd schedule(simd: static) reduction(+ : s) simdlen(8)
        for (int i = 0; i < 200; i++) { a[i] = i; s += i; }
#pragma omp for simd ordered
        for (int i = 0; i < 200; i++) {
            b[i] = a[i] * 2;
#pragma omp ordered threads simd
            m = b[i] > m ? b[i] : m;
        }
    }
    printf("%ld %d\n", s, m);
    return 0;
}
