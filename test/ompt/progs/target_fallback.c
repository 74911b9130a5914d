/* A parallel region of the host's own, then a target region run on the
 * host (no device: clang's host fallback), its teams with a parallel loop
 * creating tasks.  Teams and everything inside them are not measured;
 * libomp 14 gives the teams' implicit tasks other parallel data than the
 * begins it reported, and the layer took the league's thread for a
 * measured one ("switch to task ... which is not active on this thread").
 * (The other order hangs on libomp 14, plain.)  Built with -DSIMD_ONLY,
 * only a SIMD loop: libomp never starts. */
#include <stdio.h>

#define N 4

int main(void)
{
    int a[N] = {0};
#ifdef SIMD_ONLY
#pragma omp simd
    for (int i = 0; i < N; i++)
        a[i] = 2 * i;
    printf("%d\n", a[N - 1]);
#else
    long b = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task
        __atomic_add_fetch(&b, 1, __ATOMIC_RELAXED);
    }
#pragma omp target teams distribute parallel for map(tofrom : a[:N])
    for (int i = 0; i < N; i++) {
#pragma omp task
        a[i] = i;
    }
    printf("%d %ld\n", a[N - 1], b);
#endif
    return 0;
}
