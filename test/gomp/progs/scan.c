/* A loop with scan (an inscan reduction): gcc calls GOMP_loop_start with
 * the memory argument, on which libomp 14's libgomp layer aborts. */
#include <stdio.h>

int main(void)
{
    int a[64], b[64], x = 0;
    for (int i = 0; i < 64; i++)
        a[i] = i;
#pragma omp parallel for reduction(inscan, + : x)
    for (int i = 0; i < 64; i++) {
        x += a[i];
#pragma omp scan inclusive(x)
        b[i] = x;
    }
    printf("%d %d\n", b[10], b[63]);
    return 0;
}
