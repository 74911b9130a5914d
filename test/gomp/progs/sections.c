/* Worksharing: sections (with and without nowait), a combined parallel
 * sections, combined parallel loops (one gcc starts with GOMP_parallel and
 * ends nowait, one it starts with GOMP_parallel_loop_*), an ordered loop,
 * critical sections (unnamed and named).  The output does not depend on the
 * number of threads. */
#include <stdio.h>

static long twice(long x)
{
    return 2 * x;
}

int main(void)
{
    long s = 0, r = 0, d = 0, o = 0, c = 0, n = 0;
    int order[16], next = 0;
#pragma omp parallel shared(order, next)
    {
#pragma omp sections reduction(+ : s)
        {
#pragma omp section
            s += twice(1);
#pragma omp section
            s += twice(2);
#pragma omp section
            s += twice(3);
        }
#pragma omp sections nowait
        {
#pragma omp section
            {
#pragma omp critical
                c += 1;
            }
#pragma omp section
            {
#pragma omp critical(named)
                n += 1;
            }
        }
#pragma omp for ordered schedule(dynamic)
        for (int i = 0; i < 16; i++) {
#pragma omp ordered
            {
                order[next++] = i;
                o += i;
            }
        }
    }
#pragma omp parallel sections reduction(+ : s)
    {
#pragma omp section
        s += twice(10);
#pragma omp section
        s += twice(20);
    }
#pragma omp parallel for schedule(dynamic, 2) reduction(+ : r)
    for (int i = 0; i < 40; i++)
        r += twice(i);
#pragma omp parallel for schedule(guided)
    for (int i = 0; i < 40; i++) {
#pragma omp atomic
        d += twice(i);
    }
    int in_order = 1;
    for (int i = 0; i < 16; i++)
        in_order &= order[i] == i;
    printf("s=%ld r=%ld d=%ld o=%ld c=%ld n=%ld in_order=%d\n", s, r, d, o, c, n, in_order);
    return 0;
}
