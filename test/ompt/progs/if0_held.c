/* The run ends while an undeferred task's body runs: the OMPT layer holds
 * that task's creation and begin back until the thread's next event (a
 * leaf: its end), so the end must record them for it.  In a parallel
 * region after a barrier (every thread has begun its implicit task), one
 * thread makes the task twice: the first instance returns (the layer holds
 * back only constructs it has met before), the second runs until another
 * thread, which waits for it, calls exit(3): one of the team's (the others
 * wait in the program's code: libomp 14 with any tool attached may crash
 * when exit() comes from a thread outside the team while the team's threads
 * wait in a barrier, doc/ompt.md), or at one thread a thread of the
 * program's own.  With the argument "crash" the second instance
 * itself ends the run with SIGSEGV, which the crash path writes the profile
 * for. */
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int begun, claimed;

/* the one thread that ends the run, once the task runs; any other waits */
static void end_the_run_or_wait(void)
{
    if (atomic_exchange(&claimed, 1))
        for (;;)
            usleep(1000);
    while (!atomic_load(&begun))
        usleep(1000);
    printf("the task runs\n");
    fflush(stdout);
    exit(3);
}

static void *end_the_run(void *arg)
{
    (void)arg;
    end_the_run_or_wait();
    return NULL;
}

static void end_inside(int crash)
{
    if (!crash) {
        atomic_store(&begun, 1); /* the ender goes on */
        for (;;)
            usleep(1000);
    }
    printf("the task crashes\n");
    fflush(stdout);
    raise(SIGSEGV);
}

/* one call site for both instances (a loop in main would be unrolled) */
static __attribute__((noinline)) void make_task(int last, int crash)
{
#pragma omp task if (0)
    {
        if (last)
            end_inside(crash);
    }
}

int main(int argc, char **argv)
{
    int crash = argc > 1 && strcmp(argv[1], "crash") == 0;
    pthread_t ender;
    if (!crash && omp_get_max_threads() == 1 &&
        pthread_create(&ender, NULL, end_the_run, NULL) != 0)
        return 1;
#pragma omp parallel
    {
#pragma omp barrier
#pragma omp single nowait
        {
            make_task(0, crash);
            make_task(1, crash);
        }
        if (!crash)
            end_the_run_or_wait();
    }
    return 0;
}
