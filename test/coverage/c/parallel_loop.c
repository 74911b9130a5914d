/* combined parallel loop (OpenMP 5.0).
 * pompprof-coverage: measured=parallel notes=loop */
#include <stdio.h>

int main(void)
{
    int a[128];
    long s = 0;
#pragma omp parallel loop reduction(+ : s) num_threads(2)
    for (int i = 0; i < 128; i++) {
        a[i] = i;
        s += i;
    }
#pragma omp parallel loop collapse(2) private(s)
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 16; j++) { s = i * 16 + j; a[s] += 1; }
    printf("%ld %d\n", s, a[127]);
    return 0;
}
