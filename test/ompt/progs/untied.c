/* OMPT test: untied tasks that yield and may resume on another thread.  Each
 * task measures its own running time (work before and after the yield,
 * excluding the yield itself) and the program prints the sum, the ground
 * truth the profile's instance times are checked against, and how many
 * tasks resumed on another thread. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* one per thread: the tasks on different threads must not race on it */
static __thread volatile double sink;

static void work(long iters)
{
    double x = 1.0;
    for (long i = 0; i < iters; i++)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

int main(int argc, char **argv)
{
    int tasks = argc > 1 ? atoi(argv[1]) : 40;
    long iters = argc > 2 ? atol(argv[2]) : 200000;
    double own = 0.0;
    int moved = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < tasks; i++) {
#pragma omp task untied shared(own, moved)
        {
            double t0 = omp_get_wtime();
            int before = omp_get_thread_num();
            work(iters);
            double t1 = omp_get_wtime();
#pragma omp taskyield
            double t2 = omp_get_wtime();
            work(iters);
            double t3 = omp_get_wtime();
#pragma omp atomic
            own += (t1 - t0) + (t3 - t2);
            if (omp_get_thread_num() != before) {
#pragma omp atomic
                moved++;
            }
        }
    }
    printf("tasks=%d own=%.6f moved=%d\n", tasks, own, moved);
    return 0;
}
