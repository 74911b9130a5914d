/* Recursive tasks (fib without cut-off); the taskwait of a function that
 * gcc -O2 calls by a tail call: wait_all's call of GOMP_taskwait is a jump,
 * so the call's return address is in fib, after the call of wait_all. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void wait_all(void)
{
#pragma omp taskwait
}

static long fib(int n)
{
    long x, y;
    if (n < 2)
        return n;
#pragma omp task shared(x)
    x = fib(n - 1);
#pragma omp task shared(y)
    y = fib(n - 2);
    wait_all();
    return x + y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 12;
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(n);
    printf("fib(%d) = %ld\n", n, r);
    return 0;
}
