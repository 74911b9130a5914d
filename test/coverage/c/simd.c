/* simd loops and their clauses: safelen, simdlen, linear, aligned,
 * nontemporal, private, lastprivate, reduction, collapse, if(simd:).
 * pompprof-coverage: measured= notes=measured */
#include <stdio.h>

float x[128] __attribute__((aligned(64))), y[128] __attribute__((aligned(64)));

int main(void)
{
    int k = 0, last = 0, tmp;
    long s = 0;
    for (int i = 0; i < 128; i++) x[i] = (float)i;
#pragma omp simd safelen(8) simdlen(4) linear(k : 1) aligned(x, y : 64) nontemporal(y) \
    private(tmp) lastprivate(last) reduction(+ : s) if(simd: 1)
    for (int i = 0; i < 128; i++) {
        tmp = (int)x[i] * 2;
        y[i] = (float)tmp;
        s += tmp;
        last = k;
        k++;
    }
#pragma omp simd collapse(2) reduction(+ : s)
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) s += i * j;
    printf("%ld %d %d %g\n", s, k, last, (double)y[127]);
    return 0;
}
