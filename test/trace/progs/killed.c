/* A traced run that dies (test_trace_salvage.py): rounds of tasks, each
 * round counted on stdout once its tasks are done, then SIGKILL from inside
 * a task of the last round; nothing of pompprof runs at the end.
 *   killed ROUNDS TASKS */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

static void work(int i)
{
    double x = 0;
    for (int k = 0; k < 200 + i % 7; k++)
        x += k * 0.5;
    sink += x;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    int tasks = argc > 2 ? atoi(argv[2]) : 1000;
    for (int r = 0; r < rounds; r++) {
#pragma omp parallel
#pragma omp single
        {
            for (int i = 0; i < tasks; i++) {
#pragma omp task firstprivate(i)
                {
                    work(i);
                    if (r == rounds - 1 && i == tasks / 2)
                        raise(SIGKILL);
                }
            }
#pragma omp taskwait
        }
        printf("round %d: %d tasks\n", r, tasks);
        fflush(stdout);
    }
    return 0;
}
