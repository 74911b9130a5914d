/* worksharing loops: every schedule kind with chunks and modifiers, nowait,
 * collapse, lastprivate, firstprivate, private.
 * pompprof-coverage: measured=parallel,for */
#include <stdio.h>

#define N 64
int a[N][N];

int main(void)
{
    long sums[6] = {0};
    int last = -1, first = 3, tmp;
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++) a[i][0] = i;
#pragma omp for schedule(static, 3) nowait
        for (int i = 0; i < N; i++) a[i][1] = 2 * i;
#pragma omp for schedule(dynamic, 2)
        for (int i = 0; i < N; i++) a[i][2] = 3 * i;
#pragma omp for schedule(guided)
        for (int i = 0; i < N; i++) a[i][3] = 4 * i;
#pragma omp for schedule(auto) lastprivate(last) firstprivate(first) private(tmp)
        for (int i = 0; i < N; i++) { tmp = i + first; a[i][4] = tmp; last = i; }
#pragma omp for schedule(runtime)
        for (int i = 0; i < N; i++) a[i][5] = 6 * i;
#pragma omp for schedule(monotonic: dynamic) collapse(2)
        for (int i = 0; i < N; i++)
            for (int j = 6; j < 8; j++) a[i][j] = i * j;
#pragma omp for schedule(nonmonotonic: guided, 4)
        for (int i = 0; i < N; i++) a[i][8] = i;
    }
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 6; k++) sums[k] += a[i][k];
    printf("%ld %ld %ld %ld %ld %ld last %d %d %d\n", sums[0], sums[1], sums[2], sums[3],
           sums[4], sums[5], last, a[N - 1][7], a[N - 1][8]);
    return 0;
}
