/* combined parallel for with the classic clauses.
 * pompprof-coverage: measured=parallel,for */
#include <stdio.h>

int main(void)
{
    int a[100], last = 0, f = 2;
    long s = 0;
#pragma omp parallel for num_threads(3) schedule(dynamic, 4) reduction(+ : s) \
    lastprivate(last) firstprivate(f) default(shared)
    for (int i = 0; i < 100; i++) {
        a[i] = i * f;
        s += a[i];
        last = i;
    }
#pragma omp parallel for collapse(2) if(s > 0)
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++) a[i * 10 + j] = i + j;
    printf("%ld %d %d\n", s, last, a[99]);
    return 0;
}
