/* OMPT test: one task construct inlined into two callers (two code
 * addresses, one construct) must be one region. */
#include <stdio.h>

static inline __attribute__((always_inline)) void spawn(long *x, int v)
{
#pragma omp task firstprivate(x, v)
    {
#pragma omp atomic
        *x += v;
    }
}

__attribute__((noinline)) static void first(long *x, int n)
{
    for (int i = 0; i < n; i++)
        spawn(x, 1);
}

__attribute__((noinline)) static void second(long *x, int n)
{
    for (int i = 0; i < n; i++)
        spawn(x, 2);
}

int main(void)
{
    long x = 0;
#pragma omp parallel
#pragma omp single
    {
        first(&x, 10);
        second(&x, 5);
    }
    printf("%ld\n", x);
    return 0;
}
