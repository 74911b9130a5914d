/* reduction(task, ...) on parallel and worksharing loops, with in_reduction tasks.
 * pompprof-coverage: measured=parallel,for,task */
#include <stdio.h>

int main(void)
{
    long s = 0, t = 0;
#pragma omp parallel reduction(task, + : s)
    {
#pragma omp single
        for (int i = 0; i < 20; i++) {
#pragma omp task in_reduction(+ : s)
            s += i;
        }
    }
#pragma omp parallel
#pragma omp for reduction(task, + : t)
    for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : t)
        t += i * i;
    }
    printf("%ld %ld\n", s, t);
    return 0;
}
