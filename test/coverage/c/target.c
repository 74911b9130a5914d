/* offload constructs (run on the host here): target, target data, enter/exit
 * data, update, target teams distribute parallel for [simd], target parallel for.
 * pompprof-coverage: measured=parallel notes=target */
#include <stdio.h>

#define N 256
int a[N], b[N];

int main(void)
{
    long s = 0;
    for (int i = 0; i < N; i++) a[i] = i;
#pragma omp target enter data map(to: a)
#pragma omp target data map(tofrom: b)
    {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++) b[i] = a[i] * 2;
#pragma omp target update from(b)
    }
#pragma omp target exit data map(release: a)
#pragma omp target parallel for reduction(+ : s) map(tofrom: s)
    for (int i = 0; i < N; i++) s += b[i];
#pragma omp target teams distribute parallel for simd map(tofrom: b)
    for (int i = 0; i < N; i++) b[i] += 1;
#pragma omp target
    {
#pragma omp parallel for
        for (int i = 0; i < 4; i++) b[i] = 0;
    }
#pragma omp parallel num_threads(2)
    s += 0;
    printf("%ld %d %d\n", s, b[N - 1], b[0]);
    return 0;
}
