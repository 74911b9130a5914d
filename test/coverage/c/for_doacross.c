/* doacross loops: ordered(n) with "ordered depend(sink: ...)" and
 * "ordered depend(source)" (standalone ordered).
 * pompprof-coverage: measured=parallel,for,ordered */
#include <stdio.h>

#define N 40
int a[N], b[N][N];

int main(void)
{
    a[0] = 1;
#pragma omp parallel
    {
#pragma omp for ordered(1)
        for (int i = 1; i < N; i++) {
#pragma omp ordered depend(sink: i - 1)
            a[i] = a[i - 1] + i;
#pragma omp ordered depend(source)
        }
#pragma omp for ordered(2)
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                if (i > 0 && j > 0) {
#pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
                    b[i][j] = b[i - 1][j] + b[i][j - 1];
                } else {
                    b[i][j] = 1;
                }
#pragma omp ordered depend(source)
            }
    }
    printf("%d %d\n", a[N - 1], b[5][5]);
    return 0;
}
