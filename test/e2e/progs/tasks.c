/* e2e: explicit tasks: nested (fib), taskwait, if(0), untied, tasks from a
 * single construct finished in the barrier. */
#include <stdio.h>

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a) firstprivate(n)
    a = fib(n - 1);
#pragma omp task shared(b) firstprivate(n)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    long f = 0;
    int undeferred = 0, untied = 0, many = 0;
#pragma omp parallel
    {
#pragma omp single
        {
            f = fib(12);
#pragma omp task if (0) shared(undeferred)
            undeferred++;
/* "untied" last: OPARI2 2.0.7 garbles the clause after a removed "untied" */
#pragma omp task shared(untied) untied
            {
#pragma omp atomic
                untied++;
            }
            for (int i = 0; i < 20; i++) {
#pragma omp task shared(many)
                {
#pragma omp atomic
                    many++;
                }
            }
        }
    }
    printf("fib=%ld undeferred=%d untied=%d many=%d\n", f, undeferred, untied, many);
    return f == 144 ? 0 : 1;
}
