/* OMPT test: taskloops whose tasks the runtime makes (grainsize, num_tasks),
 * and one construct reached from two call sites. */
#include <stdio.h>
#include <stdlib.h>

static long sum_range(int n, int grain)
{
    long s = 0;
#pragma omp taskloop grainsize(grain) reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}

static long count_tasks(int n, int tasks)
{
    long s = 0;
#pragma omp taskloop num_tasks(tasks) reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += 1;
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    long a = 0, b = 0, c = 0;
#pragma omp parallel
#pragma omp single
    {
        a = sum_range(n, 7);   /* first call site */
        b = sum_range(n, 100); /* second call site of the same taskloop */
        c = count_tasks(n, 13);
    }
    printf("%ld %ld %ld\n", a, b, c);
    return 0;
}
