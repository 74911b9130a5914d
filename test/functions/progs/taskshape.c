/* Trees of tasks in the two shapes pompprof-score tells apart
 * (test_functions_score.py): `taskshape K W DEPTH` makes K tasks per task
 * down to DEPTH and waits for them; W=1: also the leaves run a taskwait
 * (health's shape: a taskwait per task), W=0: they do not (fib's, with
 * K=2: a taskwait per two tasks), W=2: every second leaf does (between). */
#include <stdio.h>
#include <stdlib.h>

static int children, leaves_wait;
static long count;

static void tree(int depth, int index)
{
#pragma omp atomic
    count++;
    if (depth == 0 && !(leaves_wait == 1 || (leaves_wait == 2 && index % 2)))
        return;
    for (int i = 0; depth > 0 && i < children; i++) {
#pragma omp task firstprivate(depth, i)
        tree(depth - 1, i);
    }
#pragma omp taskwait
}

int main(int argc, char **argv)
{
    children = argc > 1 ? atoi(argv[1]) : 2;
    leaves_wait = argc > 2 ? atoi(argv[2]) : 0;
    int depth = argc > 3 ? atoi(argv[3]) : 6;
#pragma omp parallel
#pragma omp single
    tree(depth, 0);
    printf("%ld\n", count);
    return 0;
}
