/* final and mergeable tasks.
 * pompprof-coverage: measured=parallel,single,task */
#include <stdio.h>

static int count(int d)
{
    int a = 0, b = 0;
    if (d == 0) return 1;
#pragma omp task final(d < 3) mergeable shared(a)
    a = count(d - 1);
#pragma omp task final(d < 3) shared(b)
    b = count(d - 1);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    int n = 0;
#pragma omp parallel
#pragma omp single
    n = count(8);
    printf("%d\n", n);
    return 0;
}
