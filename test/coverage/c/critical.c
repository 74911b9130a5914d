/* critical sections: unnamed, named, with hint.
 * pompprof-coverage: measured=parallel,critical */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int a = 0, b = 0, c = 0;
#pragma omp parallel
    {
#pragma omp critical
        a++;
#pragma omp critical (second)
        {
            b += 2;
        }
#pragma omp critical (third) hint(omp_sync_hint_contended)
        c += 3;
    }
    printf("%d\n", a * 6 == b * 3 && b * 3 == c * 2);
    return 0;
}
