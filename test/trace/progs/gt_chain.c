/* Task-graph ground truth: a chain of 50 tasks; each spins 2 ms, creates
 * the next one and waits for it.  Nothing can run in parallel: expected
 * parallelism about 1 (work and span about 0.1 s).
 *
 * link_sum is what the spins took; own_sum is each task's own time as the
 * task sees it (from its start to the creation of the next, and from the
 * end of the taskwait to its return), which also holds what a loaded
 * machine adds around the spins (a thread descheduled between its spin and
 * the creation): the trace's work is compared with that. */
#include <stdio.h>

#include "spin.h"

static double link_sum, own_sum;

static int chain(int n)
{
    double start = spin_now();
    link_sum += spin(0.002); /* one link at a time: no race */
    if (n == 1) {
        own_sum += spin_now() - start;
        return 1;
    }
    int rest = 0;
    own_sum += spin_now() - start;
#pragma omp task shared(rest)
    rest = chain(n - 1);
#pragma omp taskwait
    double resumed = spin_now();
    rest += 1;
    own_sum += spin_now() - resumed;
    return rest;
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
    report("own_sum", own_sum);
    printf("links=%d\n", links);
    return links == 50 ? 0 : 1;
}
