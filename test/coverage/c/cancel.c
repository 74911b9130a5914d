/* cancel and cancellation point for parallel, for, sections and taskgroup
 * (they act only with OMP_CANCELLATION=true; the output does not depend on it).
 * pompprof-coverage: measured=parallel,for,sections,single,task */
#include <stdio.h>

int main(void)
{
    int found = 0, tasks = 0;
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < 100; i++) {
            if (i == 50) {
#pragma omp atomic write
                found = 1;
#pragma omp cancel for
            }
#pragma omp cancellation point for
        }
#pragma omp sections
        {
#pragma omp section
            {
#pragma omp cancel sections if(found == 0)
            }
        }
#pragma omp single
#pragma omp taskgroup
        for (int i = 0; i < 4; i++) {
#pragma omp task shared(tasks)
            {
#pragma omp cancellation point taskgroup
#pragma omp atomic
                tasks++;
            }
        }
#pragma omp cancel parallel if(found == 2)
#pragma omp cancellation point parallel
    }
    printf("%d %d\n", found, tasks <= 4);
    return 0;
}
