/* OMPT test: taskloops of libomp's kinds: 39 chunks (more than ten per
 * thread: libomp adds generator tasks), nogroup (no taskgroup carries its
 * address), grainsize. */
#include <stdio.h>

int main(void)
{
    long s = 0, u = 0, g = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop num_tasks(39) reduction(+ : s)
        for (int i = 0; i < 39; i++)
            s += i;
#pragma omp taskloop nogroup num_tasks(5)
        for (int i = 0; i < 10; i++)
            __atomic_add_fetch(&u, i, __ATOMIC_RELAXED);
#pragma omp taskwait
#pragma omp taskloop grainsize(10)
        for (int i = 0; i < 100; i++)
            __atomic_add_fetch(&g, i, __ATOMIC_RELAXED);
    }
    printf("%ld %ld %ld\n", s, u, g);
    return 0;
}
