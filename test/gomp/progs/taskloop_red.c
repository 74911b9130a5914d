/* Taskloops: with a reduction, with grainsize and num_tasks, nogroup with a
 * taskwait after it, inside a single. */
#include <stdio.h>

static long square(long i)
{
    return i * i;
}

int main(void)
{
    long sum = 0, other = 0, third = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop reduction(+ : sum) grainsize(10)
        for (long i = 0; i < 200; i++)
            sum += square(i);
#pragma omp taskloop num_tasks(7)
        for (long i = 0; i < 100; i++) {
#pragma omp atomic
            other += i;
        }
#pragma omp taskloop nogroup grainsize(25)
        for (long i = 0; i < 100; i++) {
#pragma omp atomic
            third += 1;
        }
#pragma omp taskwait
    }
    printf("sum=%ld other=%ld third=%ld\n", sum, other, third);
    return 0;
}
