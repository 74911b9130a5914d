/* taskloop with grainsize, num_tasks, nogroup, reduction, lastprivate,
 * collapse, final, priority, untied, mergeable, in a parallel region.
 * pompprof-coverage: measured=parallel,single,taskloop notes=taskloop */
#include <stdio.h>

int main(void)
{
    int a[100], last = 0;
    long s = 0, t = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop grainsize(10)
        for (int i = 0; i < 100; i++) a[i] = i;
#pragma omp taskloop num_tasks(4) reduction(+ : s) lastprivate(last)
        for (int i = 0; i < 100; i++) { s += a[i]; last = i; }
#pragma omp taskloop collapse(2) final(1) priority(2) untied mergeable nogroup
        for (int i = 0; i < 10; i++)
            for (int j = 0; j < 10; j++) a[i * 10 + j] += 1;
#pragma omp taskwait
#pragma omp taskgroup task_reduction(+ : t)
        {
#pragma omp taskloop in_reduction(+ : t) nogroup
            for (int i = 0; i < 100; i++) t += a[i];
        }
    }
    printf("%ld %d %ld\n", s, last, t);
    return 0;
}
