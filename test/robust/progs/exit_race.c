/* exit() on one thread while the others run events in a tight loop.
 *
 * Every thread of the team repeats: a user region "outer" with a user
 * region "inner" inside, a task, a taskwait.  Thread 0 calls exit(0) after
 * argv[1] rounds (and once every thread has done a round), while the others
 * are somewhere in their loop: the profile is then written by the atexit
 * handler with the other threads still sending events.  Each thread counts
 * its own rounds in memory of its own (no data race of the program's).
 * Prints nothing; exit status 0. */
#include <omp.h>
#include <stdlib.h>

#define MAX_THREADS 64

static struct {
    volatile long rounds;
    char pad[64 - sizeof(long)];
} counts[MAX_THREADS];

static int started[MAX_THREADS]; /* atomics: thread 0 reads the others' */

static void spin(volatile long *x)
{
    for (int k = 0; k < 20; k++)
        (*x)++;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 1000;
#pragma omp parallel
    {
        int me = omp_get_thread_num() % MAX_THREADS;
        int n = omp_get_num_threads() < MAX_THREADS ? omp_get_num_threads() : MAX_THREADS;
        volatile long local = 0;
        for (long i = 0;; i++) {
#pragma pomp inst begin(exit_race_outer)
#pragma pomp inst begin(exit_race_inner)
            spin(&local);
#pragma pomp inst end(exit_race_inner)
#pragma pomp inst end(exit_race_outer)
#pragma omp task firstprivate(me)
            spin(&counts[me].rounds);
#pragma omp taskwait
            __atomic_store_n(&started[me], 1, __ATOMIC_RELEASE);
            if (me == 0 && i >= rounds) {
                int all = 1;
                for (int t = 0; t < n; t++)
                    all &= __atomic_load_n(&started[t], __ATOMIC_ACQUIRE);
                if (all)
                    exit(0);
            }
        }
    }
    return 1;
}
