/* manytasks: create n trivial tasks from one thread (inside single) while
 * the team executes them -- for the memory test of 'make bench': the
 * profiler's memory must follow the number of concurrently active tasks,
 * not the total, so peak RSS at n = 10^7 must stay close to n = 10^6.
 *
 * usage: manytasks [n]   (default 1000000) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 256
#define PAD 8 /* one counter per cache line */

static long executed[MAX_THREADS * PAD];

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;

    if (n < 0) {
        fprintf(stderr, "manytasks: n must be >= 0\n");
        return 2;
    }
#pragma omp parallel
    {
#pragma omp single
        {
            for (long i = 0; i < n; i++) {
#pragma omp task
                {
                    executed[(omp_get_thread_num() % MAX_THREADS) * PAD]++;
                }
            }
        }
    }
    long total = 0;
    for (int t = 0; t < MAX_THREADS; t++)
        total += executed[t * PAD];
    printf("%ld tasks created, %ld executed\n%s\n", n, total, total == n ? "OK" : "FAILED");
    return total == n ? 0 : 1;
}
