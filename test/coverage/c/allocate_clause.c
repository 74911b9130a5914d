/* the allocate clause with predefined allocators and the memory API.
 * pompprof-coverage: measured=parallel,single,task */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int x = 0, p = 0, ok = 0;
#pragma omp parallel private(p) allocate(omp_default_mem_alloc: p) reduction(+ : ok)
    {
        p = 5;
#pragma omp single firstprivate(x) allocate(x)
        x = 2;
#pragma omp single
#pragma omp task firstprivate(p) allocate(omp_low_lat_mem_alloc: p)
        p += 1;
        ok += p == 5;
    }
    int *m = omp_alloc(16 * sizeof(int), omp_default_mem_alloc);
    m[3] = 3;
    printf("%d %d\n", ok > 0, m[3]);
    omp_free(m, omp_default_mem_alloc);
    return 0;
}
