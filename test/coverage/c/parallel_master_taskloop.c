/* parallel master taskloop [simd] (OpenMP 5.0), clauses of both leaves.
 * pompprof-coverage: measured=parallel,master,taskloop notes=taskloop */
#include <stdio.h>

int main(void)
{
    int a[64], f = 3;
    long s = 0;
#pragma omp parallel master taskloop num_threads(2) num_tasks(4) firstprivate(f) \
    default(none) shared(a)
    for (int i = 0; i < 64; i++) a[i] = i * f;
#pragma omp parallel master taskloop simd reduction(+ : s) if(taskloop: 1) simdlen(4)
    for (int i = 0; i < 64; i++) s += a[i];
    printf("%ld\n", s);
    return 0;
}
