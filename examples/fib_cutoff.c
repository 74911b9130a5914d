/* fib_cutoff: recursive Fibonacci with a depth cut-off.
 *
 * Only the top `cutoff` levels of the call tree create tasks; below them
 * the recursion runs serially inside the task, so each leaf task computes
 * a whole sub-tree (fib(n - cutoff) or larger: tens of microseconds and
 * up at the larger input).  This is how task programs are meant to be
 * written, and a profiler must add next to nothing here.
 *
 * usage: fib_cutoff [n [cutoff]]   (default 30 10; the benchmark uses 40) */
#include <stdio.h>
#include <stdlib.h>

static long fib_serial(int n)
{
    return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2);
}

static long fib(int n, int depth, int cutoff)
{
    long x, y;

    if (n < 2)
        return n;
    if (depth >= cutoff)
        return fib_serial(n);
#pragma omp task shared(x) firstprivate(n, depth, cutoff)
    {
        x = fib(n - 1, depth + 1, cutoff);
    }
#pragma omp task shared(y) firstprivate(n, depth, cutoff)
    {
        y = fib(n - 2, depth + 1, cutoff);
    }
#pragma omp taskwait
    return x + y;
}

/* Reference value, computed iteratively.  fib.c has the same check: each
 * variant stays one file, to be read side by side with the other. */
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
    int n = argc > 1 ? atoi(argv[1]) : 30;
    int cutoff = argc > 2 ? atoi(argv[2]) : 10;
    long result = 0;

    if (n < 0 || n > 50 || cutoff < 0) {
        fprintf(stderr, "fib_cutoff: n must be in 0..50, cutoff >= 0\n");
        return 2;
    }
#pragma omp parallel
    {
#pragma omp single
        result = fib(n, 0, cutoff);
    }
    int ok = result == fib_iterative(n);
    printf("fib(%d) = %ld (cut-off depth %d)\n%s\n", n, result, cutoff,
           ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
