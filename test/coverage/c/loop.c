/* the loop construct: bind(parallel), bind(thread), order(concurrent), inside parallel.
 * pompprof-coverage: measured=parallel notes=loop */
#include <stdio.h>

int main(void)
{
    int a[100], b[100];
#pragma omp parallel
    {
#pragma omp loop bind(parallel)
        for (int i = 0; i < 100; i++) a[i] = i;
#pragma omp loop bind(thread) order(concurrent)
        for (int i = 0; i < 100; i++) b[i] = a[i] + 1;
#pragma omp loop
        for (int i = 0; i < 100; i++) a[i] += b[i];
    }
    printf("%d\n", a[99]);
    return 0;
}
