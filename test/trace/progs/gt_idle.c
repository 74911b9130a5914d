/* Trace ground truth (idleness): two threads; one runs a single task of
 * 100 ms, the other has nothing to do and waits in the barrier at the end
 * of the single construct, with no task ready.  Expected: work about 0.1 s on
 * the thread that ran the task, idleness about 0.1 s on the other.  (The
 * barrier first: both threads are there before the task exists, however
 * late the machine starts the second one.) */
#include <stdio.h>

#include "spin.h"

int main(void)
{
    int done = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp barrier
#pragma omp single
        {
#pragma omp task shared(done)
            {
                report("task", spin(0.1));
                done = 1;
            }
        }
    }
    printf("done=%d\n", done);
    return done == 1 ? 0 : 1;
}
