/* OpenMP code in a shared library (test_gomp_dlopen.py): a plugin that a
 * program without OpenMP opens with dlopen (plugin_host.c), as a Python
 * extension built with gcc -fopenmp is opened.  Recursive tasks with a
 * taskwait, a single, a critical section and a lock. */
#include <omp.h>

static long fib(int n)
{
    long x, y;
    if (n < 2)
        return n;
#pragma omp task shared(x)
    x = fib(n - 1);
#pragma omp task shared(y)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

long plugin_run(int n)
{
    long r = 0, count = 0;
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel
    {
#pragma omp single
        r = fib(n);
#pragma omp critical
        count++;
        omp_set_lock(&lock);
        omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);
    return r * 1000 + (count > 0);
}
