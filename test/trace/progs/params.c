/* Parameters in a trace (test_timeline_tool.py): a task tree whose tasks name
 * their depth (an integer) and, for one construct, a kind (a string). */
#include <pompprof.h>
#include <stdio.h>

static long fib(int n, int depth)
{
    pompprof_parameter_int64("depth", depth);
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    {
        pompprof_parameter_string("kind", n > 4 ? "big" : "small");
        a = fib(n - 1, depth + 1);
    }
#pragma omp task shared(b)
    b = fib(n - 2, depth + 1);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(7, 0);
    printf("%ld\n", r);
    return 0;
}
