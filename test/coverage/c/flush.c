/* flush: plain, with a list, with memory orders.
 * pompprof-coverage: measured=parallel,flush */
#include <stdio.h>

int main(void)
{
    int data = 0, flag = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        {
            data = 42;
#pragma omp flush
#pragma omp flush(data, flag)
#pragma omp flush release
            flag = 1;
#pragma omp flush acq_rel
#pragma omp flush acquire
        }
    }
    printf("%d %d\n", data, flag);
    return 0;
}
