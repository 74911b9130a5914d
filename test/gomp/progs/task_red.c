/* Task reductions: a parallel region with reduction(task, ...) whose tasks
 * take part (in_reduction), a loop with reduction(task, ...), a taskgroup
 * with task_reduction.  libgomp reads the reductions' address from the
 * region's data (GOMP_parallel_reductions). */
#include <stdio.h>

int main(void)
{
    int x = 0, y = 0, z = 0;
#pragma omp parallel num_threads(4) reduction(task, + : x)
    {
        x++;
#pragma omp single
        for (int i = 0; i < 20; i++) {
#pragma omp task in_reduction(+ : x)
            x++;
        }
    }
#pragma omp parallel
    {
#pragma omp for reduction(task, + : y)
        for (int i = 0; i < 40; i++) {
            y++;
            if (i % 2 == 0) {
#pragma omp task in_reduction(+ : y)
                y--;
            }
        }
#pragma omp single
        {
#pragma omp taskgroup task_reduction(+ : z)
            {
                for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : z)
                    z += i;
                }
            }
        }
    }
    printf("x_ok=%d y=%d z=%d\n", x >= 21, y, z);
    return 0;
}
