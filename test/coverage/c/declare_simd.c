/* declare simd functions (uniform, linear, inbranch/notinbranch) called from simd loops.
 * pompprof-coverage: measured= notes=measured */
#include <stdio.h>

#pragma omp declare simd uniform(scale) linear(i : 1) notinbranch
static int scaled(int i, int scale) { return i * scale; }

#pragma omp declare simd simdlen(4)
#pragma omp declare simd
static float twice(float v) { return v * 2.0f; }

int main(void)
{
    long s = 0;
    float f = 0;
#pragma omp simd reduction(+ : s, f)
    for (int i = 0; i < 100; i++) {
        s += scaled(i, 3);
        f += twice((float)i);
    }
    printf("%ld %g\n", s, (double)f);
    return 0;
}
