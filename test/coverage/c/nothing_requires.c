/* requires and nothing (OpenMP 5.0/5.1).
 * pompprof-coverage: measured=parallel */
#include <stdio.h>

#pragma omp requires atomic_default_mem_order(seq_cst)

int main(void)
{
    int x = 0;
#pragma omp parallel
    {
#pragma omp nothing
#pragma omp atomic
        x += 1;
    }
    printf("%d\n", x > 0);
    return 0;
}
