/* undeferred tasks: if(0), if(expression) and final() making included tasks.
 * pompprof-coverage: measured=parallel,single,task,taskwait */
#include <omp.h>
#include <stdio.h>

static long fib(int n)
{
    long a = 0, b = 0;
    if (n < 2) return n;
#pragma omp task shared(a) if(n > 15)
    a = fib(n - 1);
#pragma omp task shared(b) if(0)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    long r = 0;
    int in_final = 0;
#pragma omp parallel
#pragma omp single
    {
        r = fib(20);
#pragma omp task final(1) shared(in_final)
        {
#pragma omp task shared(in_final)
            in_final = omp_in_final();
        }
    }
    printf("%ld %d\n", r, in_final);
    return 0;
}
