/* combined parallel master (OpenMP 5.0).
 * pompprof-coverage: measured=parallel,master,task */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int who = -1, tasks = 0;
#pragma omp parallel master num_threads(2) shared(tasks)
    {
        who = omp_get_thread_num();
        for (int i = 0; i < 5; i++) {
#pragma omp task
            {
#pragma omp atomic
                tasks++;
            }
        }
    }
    printf("%d %d\n", who, tasks);
    return 0;
}
