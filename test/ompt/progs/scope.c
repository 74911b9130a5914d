/* OMPT test: the scope construct (OpenMP 5.1, gcc only): not measured, the
 * constructs inside it are. */
#include <stdio.h>

int main(void)
{
    long c = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp scope
        {
#pragma omp for schedule(dynamic)
            for (int i = 0; i < 10; i++)
                __atomic_add_fetch(&c, i, __ATOMIC_RELAXED);
        }
#pragma omp single
        c += 1;
    }
    printf("%ld\n", c);
    return 0;
}
