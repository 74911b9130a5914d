/* untied tasks, with the untied clause before and after other clauses
 * (OPARI2 2.0.7 deletes the first letter of the clause after untied).
 * pompprof-coverage: measured=parallel,single,untied_task */
#include <stdio.h>

int main(void)
{
    int a = 0, b = 0, c = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task untied final(a > 100) shared(a)
        a = 1;
#pragma omp task untied shared(b) priority(1)
        b = 2;
#pragma omp task shared(c) untied
        c = 3;
#pragma omp taskwait
    }
    printf("%d %d %d\n", a, b, c);
    return 0;
}
