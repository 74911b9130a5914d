/* Task clauses that change how libgomp runs a task: if(0) and final
 * (undeferred: the instance runs inside its creation), mergeable, priority,
 * untied (libgomp runs it tied), detach (the task completes when its event
 * is fulfilled), and a task with a C++-free copy of a large firstprivate
 * array (its block larger than the interposer copies on its stack). */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long sum = 0, big[512];
    for (int i = 0; i < 512; i++)
        big[i] = i;
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < 4; i++) {
#pragma omp task if (0) shared(sum)
            {
#pragma omp atomic
                sum += 1;
            }
#pragma omp task final(1) shared(sum)
            {
#pragma omp task shared(sum)
                {
#pragma omp atomic
                    sum += 10;
                }
            }
#pragma omp task mergeable priority(3) shared(sum)
            {
#pragma omp atomic
                sum += 100;
            }
#pragma omp task untied shared(sum)
            {
#pragma omp atomic
                sum += 1000;
            }
#pragma omp task firstprivate(big) shared(sum)
            {
                long s = 0;
                for (int k = 0; k < 512; k++)
                    s += big[k];
#pragma omp atomic
                sum += s == 512 * 511 / 2 ? 10000 : 0;
            }
        }
        omp_event_handle_t ev;
        int done = 0;
#pragma omp task detach(ev) shared(done)
        done = 1;
        omp_fulfill_event(ev);
#pragma omp taskwait
        printf("sum=%ld done=%d\n", sum, done);
    }
    return 0;
}
