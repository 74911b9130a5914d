/* Trace ground truth (overhead): thread 0 enters a critical section,
 * creates four tasks there (ready: nobody can take them yet) and keeps the
 * section 50 ms; thread 1 arrives at the critical section right after the
 * tasks exist and is blocked there the whole time while they are ready.
 * Expected: overhead (blocked while tasks were ready) about 0.05 s on
 * thread 1.  The tasks run in the barrier afterwards.
 *
 * On a loaded machine thread 1 can be late to arrive, and late to wake up
 * when thread 0 leaves the section: meanwhile thread 0 starts the tasks one
 * by one (a task stays ready until one starts it), and thread 1's further
 * wait, once no task is ready, is idleness, not overhead.  So the program
 * reports how long thread 1 was blocked (blocked) and how much of that a
 * task was ready (blocked_ready: from its arrival to the start of the last
 * task, or to its entry if that was earlier): the overhead expected. */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

int main(void)
{
    int ready = 0, sum = 0;
    double arrived = 0, acquired = 0, started[4] = {0};
#pragma omp parallel num_threads(2) shared(ready, sum, arrived, acquired, started)
    {
        if (omp_get_thread_num() == 0) {
#pragma omp critical
            {
                for (int i = 0; i < 4; i++) {
#pragma omp task shared(sum, started) firstprivate(i)
                    {
                        started[i] = spin_now();
                        spin(0.001);
#pragma omp atomic
                        sum++;
                    }
                }
                __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
                spin(0.05);
            }
        } else {
            while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
                ;
            arrived = spin_now();
#pragma omp critical
            acquired = spin_now();
        }
    }
    double last = started[0];
    for (int i = 1; i < 4; i++)
        last = started[i] > last ? started[i] : last;
    double ready_until = last < acquired ? last : acquired;
    report("blocked", acquired - arrived);
    report("blocked_ready", ready_until > arrived ? ready_until - arrived : 0.0);
    printf("sum=%d\n", sum);
    return sum == 4 ? 0 : 1;
}
