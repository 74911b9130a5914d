/* atomic compare (OpenMP 5.1): min/max and conditional update forms.
 * pompprof-coverage: measured=parallel,atomic */
#include <stdio.h>

int main(void)
{
    int mx = 0, mn = 1000, flag = 0;
#pragma omp parallel for
    for (int i = 1; i < 500; i++) {
        int v = (i * 7919) % 997;
#pragma omp atomic compare
        if (v > mx) { mx = v; }
#pragma omp atomic compare
        mn = v < mn ? v : mn;
#pragma omp atomic compare
        if (flag == 0) { flag = 1; }
    }
    printf("%d %d %d\n", mx, mn, flag);
    return 0;
}
