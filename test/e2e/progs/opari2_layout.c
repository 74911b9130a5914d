/* What the wrapper's passes over OPARI2's output act on, one of each
 * (test_e2e_opari2_layout.py): tasks with depend clauses, a taskwait depend,
 * adjacent tasks and a taskwait (merged calls), an undeferred task (its guard).
 * Prints results that do not depend on the schedule. */
#include <stdio.h>

int main(void)
{
    int a = 0, b = 0, c = 0;

#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out: a) shared(a)
        a = 1;
#pragma omp task depend(in: a) depend(out: b) shared(a, b)
        b = a + 1;
#pragma omp taskwait depend(in: b)
#pragma omp task if(0) shared(c)
        c = 10;
#pragma omp task shared(c)
        c += 1;
#pragma omp taskwait
    }
    printf("%d %d %d\n", a, b, c);
    return 0;
}
