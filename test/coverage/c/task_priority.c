/* task priorities.
 * pompprof-coverage: measured=parallel,single,task */
#include <stdio.h>

int main(void)
{
    int sum = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 16; i++) {
#pragma omp task priority(i % 4) shared(sum) firstprivate(i)
        {
#pragma omp atomic
            sum += i;
        }
    }
    printf("%d\n", sum);
    return 0;
}
