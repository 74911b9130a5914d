/* exit() while a task's body runs on another thread: a thread of the
 * program's own waits until the task has begun, then ends the run.  The
 * task calls nothing of OpenMP's (a leaf: the interposer holds its begin
 * until its end), so the end must record the begin for it.  The barrier
 * first: every thread of the team has begun its implicit task by then.
 * With the argument "crash" the task's body itself ends the run with
 * SIGSEGV, which the crash path writes the profile for. */
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int begun;

static void *end_the_run(void *arg)
{
    (void)arg;
    while (!atomic_load(&begun))
        usleep(1000);
    printf("the task runs\n");
    fflush(stdout);
    exit(3);
}

int main(int argc, char **argv)
{
    int crash = argc > 1 && strcmp(argv[1], "crash") == 0;
    pthread_t ender;
    if (!crash && pthread_create(&ender, NULL, end_the_run, NULL) != 0)
        return 1;
#pragma omp parallel
    {
#pragma omp barrier
#pragma omp single
#pragma omp task
        {
            if (crash) {
                printf("the task crashes\n");
                fflush(stdout);
                raise(SIGSEGV);
            }
            atomic_store(&begun, 1);
            for (;;)
                usleep(1000);
        }
    }
    return 0;
}
