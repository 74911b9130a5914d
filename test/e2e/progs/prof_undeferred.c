/* Profile ground truth for undeferred tasks: recursive fib whose first task is
 * deferred only for n > CUTOFF (if clause) and whose second task never is
 * (if(0)).  Each call with n >= 2 creates one instance of each construct, and
 * every one of them must be in the profile, executed or not at once. */
#include <stdio.h>
#include <stdlib.h>

#define CUTOFF 15

static long fib(int n)
{
    if (n < 2)
        return n;
    long x, y;
#pragma omp task shared(x) if(n > CUTOFF)
    x = fib(n - 1);
#pragma omp task shared(y) if(0)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20;
    long r = 0;
#pragma omp parallel
    {
#pragma omp single
        r = fib(n);
    }
    printf("fib(%d) = %ld\n", n, r);
    return 0;
}
