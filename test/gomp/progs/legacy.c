/* A program as gcc before 4.9 built parallel regions: GOMP_parallel_start,
 * the function called on the encountering thread too, GOMP_parallel_end
 * (libgomp still exports them); a single creating tasks inside, two rounds. */
#include <omp.h>
#include <stdio.h>
extern void GOMP_parallel_start(void (*)(void *), void *, unsigned);
extern void GOMP_parallel_end(void);
static long total;
static void body(void *data)
{
    (void)data;
#pragma omp single
    {
        for (int i = 0; i < 10; i++) {
#pragma omp task
            {
#pragma omp atomic
                total += i;
            }
        }
    }
}
int main(void)
{
    for (int r = 0; r < 2; r++) {
        GOMP_parallel_start(body, NULL, 0);
        body(NULL);
        GOMP_parallel_end();
    }
    printf("total=%ld\n", total);
    return 0;
}
