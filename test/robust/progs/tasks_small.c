/* A small, deterministic task program: recursive tasks with taskwait, a
 * worksharing loop, a critical section, an explicit barrier.  Used for the
 * configuration, output-location, valgrind and sanitizer tests. */
#include <stdio.h>

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    long f = 0, sum = 0;
    int crit = 0;
#pragma omp parallel
    {
#pragma omp single
        f = fib(12);
#pragma omp for reduction(+ : sum)
        for (int i = 0; i < 1000; i++)
            sum += i;
#pragma omp critical
        crit++;
#pragma omp barrier
    }
    printf("fib(12)=%ld sum=%ld\n", f, sum);
    return crit > 0 ? 0 : 1;
}
