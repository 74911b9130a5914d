/* The lock routines, with counts that do not depend on scheduling: a shared
 * lock set and unset, a nest lock taken twice, a test of each thread's own
 * lock (which always succeeds). */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    omp_lock_t lock, own[64];
    omp_nest_lock_t nest;
    int total = 0, nested = 0, tested = 0;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
    for (int i = 0; i < 64; i++)
        omp_init_lock(&own[i]);
#pragma omp parallel
    {
        for (int i = 0; i < 50; i++) {
            omp_set_lock(&lock);
            total++;
            omp_unset_lock(&lock);
        }
        omp_set_nest_lock(&nest);
        omp_set_nest_lock(&nest);
        nested++;
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
        int me = omp_get_thread_num();
        if (omp_test_lock(&own[me])) {
#pragma omp atomic
            tested++;
            omp_unset_lock(&own[me]);
        }
    }
    int threads = 0;
#pragma omp parallel reduction(+ : threads)
    threads++;
    for (int i = 0; i < 64; i++)
        omp_destroy_lock(&own[i]);
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    printf("total_ok=%d nested_ok=%d tested_ok=%d\n", total == 50 * threads,
           nested == threads, tested == threads);
    return 0;
}
