/* Memory ground truth: N trivial tasks; pompprof's memory must not grow with N
 * (instance trees are recycled when a task ends). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    long sum = 0;
#pragma omp parallel
    {
#pragma omp single
        for (long i = 0; i < n; i++) {
#pragma omp task shared(sum) firstprivate(i)
            {
#pragma omp atomic
                sum += i & 1;
            }
        }
    }
    printf("%ld odd\n", sum);
    return 0;
}
