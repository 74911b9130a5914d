/* Task-graph ground truth: a chain of 50 tasks; each spins 2 ms, creates
 * the next one and waits for it.  Nothing can run in parallel: expected
 * parallelism about 1 (work and span about 0.1 s). */
#include <stdio.h>

#include "spin.h"

static double link_sum;

static int chain(int n)
{
    link_sum += spin(0.002); /* one link at a time: no race */
    if (n == 1)
        return 1;
    int rest = 0;
#pragma omp task shared(rest)
    rest = chain(n - 1);
#pragma omp taskwait
    return rest + 1;
}

int main(void)
{
    int links = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task shared(links)
        links = chain(50);
    }
    report("link_sum", link_sum);
    printf("links=%d\n", links);
    return links == 50 ? 0 : 1;
}
