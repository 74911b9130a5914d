/* fib: recursive Fibonacci with one task per call and no cut-off.
 *
 * The worst case for a task profiler: every task does almost no work
 * (a couple of additions), so the cost per task event dominates.
 *
 * usage: fib [n]      (default 20; the benchmark uses 27) */
#include <stdio.h>
#include <stdlib.h>

/* Every call creates two tasks and waits for them. */
static long fib(int n)
{
    long x, y;

    if (n < 2)
        return n;
#pragma omp task shared(x) firstprivate(n)
    {
        x = fib(n - 1);
    }
#pragma omp task shared(y) firstprivate(n)
    {
        y = fib(n - 2);
    }
#pragma omp taskwait
    return x + y;
}

/* Reference value, computed iteratively. */
static long fib_iterative(int n)
{
    long a = 0, b = 1;

    for (int i = 0; i < n; i++) {
        long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20;
    long result = 0;

    if (n < 0 || n > 50) {
        fprintf(stderr, "fib: n must be in 0..50\n");
        return 2;
    }
#pragma omp parallel
    {
#pragma omp single
        result = fib(n);
    }
    int ok = result == fib_iterative(n);
    printf("fib(%d) = %ld\n%s\n", n, result, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
