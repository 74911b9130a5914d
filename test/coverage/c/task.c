/* explicit tasks with data-sharing clauses: shared, private, firstprivate,
 * default(none) / default(shared); nested tasks and taskwait.
 * pompprof-coverage: measured=parallel,single,task,taskwait */
#include <stdio.h>

static int tree(int depth)
{
    int left = 0, right = 0;
    if (depth == 0) return 1;
#pragma omp task shared(left) firstprivate(depth)
    left = tree(depth - 1);
#pragma omp task default(none) shared(right) firstprivate(depth)
    right = tree(depth - 1);
#pragma omp taskwait
    return left + right;
}

int main(void)
{
    int leaves = 0, p;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task private(p) shared(leaves) default(shared)
        {
            p = tree(6);
            leaves = p;
        }
    }
    printf("%d\n", leaves);
    return 0;
}
