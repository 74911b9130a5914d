/* Trace ground truth (overhead): thread 0 enters a critical section,
 * creates four tasks there (ready: nobody can take them yet) and keeps the
 * section 50 ms; thread 1 arrives at the critical section right after the
 * tasks exist and is blocked there the whole time while they are ready.
 * Expected: overhead (blocked while tasks were ready) about 0.05 s on
 * thread 1.  The tasks run in the barrier afterwards. */
#include <omp.h>
#include <stdio.h>

#include "spin.h"

int main(void)
{
    int ready = 0, sum = 0;
#pragma omp parallel num_threads(2) shared(ready, sum)
    {
        if (omp_get_thread_num() == 0) {
#pragma omp critical
            {
                for (int i = 0; i < 4; i++) {
#pragma omp task shared(sum)
                    {
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
            double blocked = spin_now();
#pragma omp critical
            {
                report("blocked", spin_now() - blocked);
            }
        }
    }
    printf("sum=%d\n", sum);
    return sum == 4 ? 0 : 1;
}
