/* Profile ground truth: recursive fib with one task per call and a taskwait in
 * every task.  Each call with n >= 2 creates one task of each construct, so the
 * test knows exactly how many instances each task construct must show.
 * FIRST_TASK/SECOND_TASK add clauses to the two constructs (the undeferred-task
 * test makes them `if(n > 15)` and `if(0)`: every instance still counts). */
#include <stdio.h>
#include <stdlib.h>

#ifndef FIRST_TASK
#define FIRST_TASK
#endif
#ifndef SECOND_TASK
#define SECOND_TASK
#endif

static long fib(int n)
{
    if (n < 2)
        return n;
    long x, y;
#pragma omp task shared(x) FIRST_TASK
    x = fib(n - 1);
#pragma omp task shared(y) SECOND_TASK
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 15;
    long r = 0;
#pragma omp parallel
    {
#pragma omp single
        r = fib(n);
    }
    printf("fib(%d) = %ld\n", n, r);
    return 0;
}
