/* the affinity clause on tasks (OpenMP 5.0).
 * pompprof-coverage: measured=parallel,single,task */
#include <stdio.h>

int main(void)
{
    int a[8] = {0};
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 8; i++) {
#pragma omp task affinity(a[i]) shared(a) firstprivate(i)
        a[i] = i * i;
    }
    printf("%d\n", a[7]);
    return 0;
}
