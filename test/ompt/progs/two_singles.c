/* OMPT test: two single constructs in a row in one parallel region, the
 * second with a taskloop (issue 29: gcc -g on libomp counted the second into
 * the first, and its implicit barrier went with it). */
#include <stdio.h>

int main(void)
{
    long a = 0, s = 0;
#pragma omp parallel
    {
        /* the first */
#pragma omp single
        a += 1;
#pragma omp single
        {
#pragma omp taskloop num_tasks(8) reduction(+ : s)
            for (int i = 0; i < 100; i++)
                s += i;
        }
    }
    printf("%ld %ld\n", a, s);
    return 0;
}
