/* threadprivate variables (file and function scope) with copyin and copyprivate.
 * pompprof-coverage: measured=parallel,single */
#include <omp.h>
#include <stdio.h>

int counter = 3;
#pragma omp threadprivate(counter)

static int next(void)
{
    static int calls;
#pragma omp threadprivate(calls)
    return ++calls;
}

int main(void)
{
    int ok = 0, n = 0;
#pragma omp parallel copyin(counter) reduction(+ : ok, n)
    {
        counter += omp_get_thread_num();
        next();
        ok += next() == 2 && counter >= 3;
        n++;
#pragma omp single copyprivate(counter)
        counter = 100;
        ok += counter == 100;
    }
    printf("%d\n", ok == 2 * n);
    return 0;
}
