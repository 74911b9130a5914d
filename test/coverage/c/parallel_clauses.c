/* parallel with its clauses: num_threads, if, default(none), shared, private,
 * firstprivate, reduction, proc_bind, copyin.
 * pompprof-coverage: measured=parallel */
#include <omp.h>
#include <stdio.h>

static int tp = 5;
#pragma omp threadprivate(tp)

int main(void)
{
    int n = 100, shared_sum = 0, priv = -1, first = 7, red = 0;
    tp = 11;
#pragma omp parallel num_threads(3) if(n > 10) default(none) shared(shared_sum) \
    private(priv) firstprivate(first) reduction(+ : red) proc_bind(close) copyin(tp)
    {
        priv = first + tp;
        red += priv;
#pragma omp atomic
        shared_sum += 1;
    }
    printf("threads %d red %d per-thread %d\n", shared_sum, red, red / shared_sum);
#pragma omp parallel if(0)
    printf("serial team of %d\n", omp_get_num_threads());
    return 0;
}
