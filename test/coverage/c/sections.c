/* sections/section with private, firstprivate, lastprivate, reduction, nowait.
 * pompprof-coverage: measured=parallel,sections,section */
#include <stdio.h>

int main(void)
{
    int a = 0, b = 0, c = 0, f = 10, last = 0, r = 0;
#pragma omp parallel
    {
#pragma omp sections firstprivate(f) lastprivate(last) reduction(+ : r)
        {
#pragma omp section
            { a = f + 1; last = 1; r += 1; }
#pragma omp section
            { b = f + 2; last = 2; r += 2; }
#pragma omp section
            { c = f + 3; last = 3; }
        }
#pragma omp sections nowait
        {
            a *= 2;
#pragma omp section
            b *= 2;
        }
    }
    printf("%d %d %d last %d r %d\n", a, b, c, last, r);
    return 0;
}
