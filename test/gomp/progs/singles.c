/* two singles in a row, the second with a taskloop */
#include <stdio.h>

static long work(long i)
{
    return i * i % 7;
}

int main(void)
{
    long a = 0, b = 0;
#pragma omp parallel
    {
#pragma omp single
        {
            for (int i = 0; i < 10; i++) {
#pragma omp task shared(a)
                {
#pragma omp atomic
                    a += work(i);
                }
            }
        }
#pragma omp single
        {
#pragma omp taskloop grainsize(4) reduction(+ : b)
            for (long i = 0; i < 40; i++)
                b += work(i);
        }
#pragma omp for schedule(static)
        for (int i = 0; i < 8; i++)
            work(i);
#pragma omp barrier
#pragma omp for schedule(dynamic, 2) nowait
        for (int i = 0; i < 8; i++)
            work(i);
    }
    printf("a=%ld b=%ld\n", a, b);
    return 0;
}
