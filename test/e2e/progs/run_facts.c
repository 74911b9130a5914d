/* Run facts and interrupted runs (test_e2e_run_facts.py).
 *   run_facts normal N   tasks, then a team where every thread spins N steps
 *   run_facts exit N     the same, then exit() inside the parallel region
 *   run_facts term N     the same, then SIGTERM raised inside the parallel region
 *   run_facts kill N     the same, then SIGKILL (a crash: nothing of pompprof runs) */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double spin(long n)
{
    volatile double x = 0;
    for (long k = 0; k < n; k++)
        x += (double)k;
    return x;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "normal";
    long n = argc > 2 ? atol(argv[2]) : 100000;
#pragma omp parallel
    {
#pragma omp single
        for (int i = 0; i < 8; i++) {
#pragma omp task
            spin(n / 64);
        }
        /* every thread: steps in proportion to the team, so the work summed
         * over threads grows with its square (work inflation for
         * pompprof-scaling to find, 4x from 1 to 2 threads: clear of a busy
         * machine's noise) */
        spin(n * omp_get_num_threads());
#pragma omp barrier
#pragma omp master
        {
            if (!strcmp(mode, "exit")) {
                printf("exit\n");
                fflush(stdout);
                exit(3);
            }
            if (!strcmp(mode, "term"))
                raise(SIGTERM);
            if (!strcmp(mode, "kill"))
                raise(SIGKILL);
        }
    }
    printf("done\n");
    return 0;
}
