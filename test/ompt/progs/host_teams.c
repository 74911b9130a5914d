/* OMPT test: host teams with distribute, and the loop construct: valid
 * programs whose constructs the rebuild does not measure, nor those inside
 * teams (issue 29: "switch to task ... not active on this thread",
 * "worksharing of kind 6 is not measured"). */
#include <stdio.h>

int main(void)
{
    long a = 0, b = 0;
#pragma omp teams num_teams(2)
    {
#pragma omp distribute
        for (int i = 0; i < 10; i++)
            __atomic_add_fetch(&a, i, __ATOMIC_RELAXED);
    }
#pragma omp parallel num_threads(2)
    {
#pragma omp loop
        for (int i = 0; i < 10; i++) /* (the same result whoever runs which iteration) */
            __atomic_or_fetch(&b, 1L << i, __ATOMIC_RELAXED);
#pragma omp single
        {
#pragma omp task
            __atomic_or_fetch(&b, 1L << 10, __ATOMIC_RELAXED);
        }
    }
    printf("%ld %ld\n", a, b);
    return 0;
}
