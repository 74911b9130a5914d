/* if clauses with directive-name modifiers: if(parallel: ...), if(task: ...).
 * pompprof-coverage: measured=parallel,task,single */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int n = 4, team = 0, done = 0;
#pragma omp parallel if(parallel: n > 100) reduction(+ : team)
    team += 1;
    printf("team of %d\n", team);
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < n; i++) {
#pragma omp task if(task: i % 2 == 0) shared(done)
            {
#pragma omp atomic
                done += i;
            }
        }
    }
    printf("done %d\n", done);
    return 0;
}
