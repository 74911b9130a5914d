/* host teams (OpenMP 5.0) with distribute, distribute parallel for and teams loop.
 * pompprof-coverage: measured=parallel notes=teams */
#include <stdio.h>

#define N 120
int a[N], b[N];

int main(void)
{
    long s = 0;
#pragma omp teams num_teams(2) thread_limit(2)
#pragma omp distribute
    for (int i = 0; i < N; i++) a[i] = i;
#pragma omp teams distribute parallel for num_teams(2)
    for (int i = 0; i < N; i++) b[i] = a[i] + 1;
#pragma omp teams loop reduction(+ : s)
    for (int i = 0; i < N; i++) s += b[i];
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < N; i++) s += 1;
    printf("%ld\n", s);
    return 0;
}
