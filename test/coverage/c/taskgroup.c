/* taskgroup, with task_reduction and in_reduction, nested.
 * pompprof-coverage: measured=parallel,single,task,taskgroup */
#include <stdio.h>

int main(void)
{
    int done = 0;
    long r = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
        {
            for (int i = 0; i < 6; i++) {
#pragma omp task shared(done)
                {
#pragma omp atomic
                    done++;
                }
            }
        }
#pragma omp taskgroup task_reduction(+ : r)
        {
            for (int i = 1; i <= 10; i++) {
#pragma omp task in_reduction(+ : r) firstprivate(i)
                r += i;
            }
#pragma omp taskgroup
#pragma omp task in_reduction(+ : r)
            r += 100;
        }
    }
    printf("%d %ld\n", done, r);
    return 0;
}
