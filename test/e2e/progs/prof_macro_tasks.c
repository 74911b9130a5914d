/* Profile ground truth for OpenMP that comes from macros (_Pragma) and from a
 * header: the program creates MACRO_TASKS tasks through a macro, HEADER_TASKS
 * through the header's function, and a taskloop and a taskgroup run once. */
#include <stdio.h>
#include <stdlib.h>
#include "prof_macro_tasks.h"

#define OMP(directive) _Pragma(#directive)
#define SPAWN(counter) OMP(omp task shared(counter)) { OMP(omp atomic) (counter)++; }

int main(int argc, char **argv)
{
    int macro_tasks = argc > 1 ? atoi(argv[1]) : 30, header = argc > 2 ? atoi(argv[2]) : 20;
    int a = 0, b = 0;
    long s = 0;
    OMP(omp parallel)
    OMP(omp single)
    {
        for (int i = 0; i < macro_tasks; i++)
            SPAWN(a)
        header_tasks(header, &b);
#pragma omp taskloop reduction(+ : s) num_tasks(4)
        for (int i = 0; i < 100; i++)
            s += i;
#pragma omp taskgroup
        {
            SPAWN(a)
        }
    }
    printf("%d %d %ld\n", a, b, s);
    return 0;
}
