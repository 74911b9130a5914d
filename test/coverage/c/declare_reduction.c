/* user-defined reductions (declare reduction) with initializer.
 * pompprof-coverage: measured=parallel,for */
#include <stdio.h>

typedef struct { int lo, hi; } range;

#pragma omp declare reduction(span : range : \
    omp_out.lo = omp_in.lo < omp_out.lo ? omp_in.lo : omp_out.lo, \
    omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi) \
    initializer(omp_priv = (range){1000000, -1000000})
#pragma omp declare reduction(mul : long : omp_out *= omp_in) initializer(omp_priv = 1)

int main(void)
{
    range r = {1000000, -1000000};
    long p = 1;
#pragma omp parallel for reduction(span : r) reduction(mul : p)
    for (int i = 1; i <= 20; i++) {
        int v = (i * 37) % 101;
        if (v < r.lo) r.lo = v;
        if (v > r.hi) r.hi = v;
        if (i <= 10) p *= i;
    }
    printf("%d %d %ld\n", r.lo, r.hi, p);
    return 0;
}
