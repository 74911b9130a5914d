/* single with copyprivate, private, firstprivate, nowait.
 * pompprof-coverage: measured=parallel,single */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int agreed = 0, count = 0, f = 4;
#pragma omp parallel reduction(+ : agreed, count)
    {
        int v = -1, p;
#pragma omp single copyprivate(v) private(p) firstprivate(f)
        { p = f * 10; v = p + 2; }
        agreed += v == 42;
        count += 1;
#pragma omp single nowait
        v = 0;
    }
    printf("%s\n", agreed == count ? "all threads got 42" : "copyprivate failed");
    return 0;
}
