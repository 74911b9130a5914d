/* explicit barriers between phases.
 * pompprof-coverage: measured=parallel,barrier */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int a[64] = {0}, ok = 1;
#pragma omp parallel
    {
        int me = omp_get_thread_num(), n = omp_get_num_threads();
        for (int i = me; i < 64; i += n) a[i] = i;
#pragma omp barrier
        for (int i = me; i < 64; i += n)
            if (a[63 - i] != 63 - i) {
#pragma omp atomic write
                ok = 0;
            }
    }
    printf("%d\n", ok);
    return 0;
}
