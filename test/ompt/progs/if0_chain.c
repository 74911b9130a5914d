/* A chain of undeferred tasks inside a deferred one, then a taskwait that
 * gcc -O2 reaches by a tail call out of the region's outlined body.  For a
 * gcc binary on libomp 14, the chain's first creation was reported at the
 * address libomp had kept from the thread's GOMP_parallel call (named after
 * the deferred task's line, a creation inside itself), and the taskwait at
 * libomp's return from the body (named GOMP_parallel+0x115).
 * With an argument the chain's last task calls exit(3) instead: the OMPT
 * layer holds an undeferred task's creation and begin until the thread's
 * next event, which never comes for that task. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int depth_reached, exit_inside;

static void chain(int n)
{
    if (n == 0) {
        depth_reached++;
        if (exit_inside) {
            printf("the task runs\n");
            fflush(stdout);
            exit(3);
        }
        return;
    }
#pragma omp task if (0)
    chain(n - 1);
}

int main(int argc, char **argv)
{
    (void)argv;
    exit_inside = argc > 1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task
        chain(3);
#pragma omp taskwait
    }
    printf("%d\n", depth_reached);
    return 0;
}
