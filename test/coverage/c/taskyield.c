/* taskyield inside tasks.
 * pompprof-coverage: measured=parallel,single,task,taskyield */
#include <stdio.h>

int main(void)
{
    int n = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 8; i++) {
#pragma omp task shared(n)
        {
#pragma omp taskyield
#pragma omp atomic
            n++;
        }
    }
    printf("%d\n", n);
    return 0;
}
