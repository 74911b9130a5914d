/* scan directives: inclusive and exclusive prefix sums (reduction(inscan, ...))
 * on for, for simd and combined parallel for.
 * pompprof-coverage: measured=parallel,for */
#include <stdio.h>

#define N 64
int a[N], inc[N], exc[N], both[N];

int main(void)
{
    int s = 0, t = 0, u = 0;
    for (int i = 0; i < N; i++) a[i] = i % 7;
#pragma omp parallel
    {
#pragma omp for reduction(inscan, + : s)
        for (int i = 0; i < N; i++) {
            s += a[i];
#pragma omp scan inclusive(s)
            inc[i] = s;
        }
#pragma omp for simd reduction(inscan, + : t)
        for (int i = 0; i < N; i++) {
            exc[i] = t;
#pragma omp scan exclusive(t)
            t += a[i];
        }
    }
#pragma omp parallel for reduction(inscan, + : u)
    for (int i = 0; i < N; i++) {
        u += 2 * a[i];
#pragma omp scan inclusive(u)
        both[i] = u;
    }
    printf("%d %d %d %d %d\n", inc[N - 1], exc[N - 1], both[N - 1], s, t);
    return 0;
}
