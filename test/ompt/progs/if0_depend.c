/* OMPT test: a taskwait depend and a task with if(0) and depend, which libomp
 * waits for in the same way (test_ompt_depend.py).  Prints what the tasks
 * computed. */
#include <stdio.h>

int main(void)
{
    int w = 0, q = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task depend(out: w)
        w = 1;
#pragma omp task depend(out: q)
        q = 1;
#pragma omp taskwait depend(in: w)
        printf("w %d\n", w);
#pragma omp task if(0) depend(in: q)
        q++;
    }
    printf("q %d\n", q);
    return 0;
}
