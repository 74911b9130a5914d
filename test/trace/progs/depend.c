/* Trace: tasks with depend clauses.  The wrapper marks their constructs
 * (the region strings of OPARI2 2.0.7 carry no depend clause), the trace
 * keeps the mark as the regions' description, and pompprof-timeline names
 * them and calls the time they may have waited undetermined. */
#include <stdio.h>

#include "spin.h"

int main(void)
{
    int a = 0, b = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task depend(out : a) shared(a)
        {
            spin(0.02);
            a = 1;
        }
#pragma omp task depend(in : a) depend(out : b) shared(a, b)
        {
            spin(0.01);
            b = a + 1;
        }
#pragma omp task shared(b)
        spin(0.001);
#pragma omp taskwait
    }
    printf("b=%d\n", b);
    return b == 2 ? 0 : 1;
}
