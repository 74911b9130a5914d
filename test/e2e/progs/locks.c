/* e2e: OpenMP locks and nest locks, including the test functions. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    omp_lock_t lock;
    omp_nest_lock_t nest;
    int total = 0, nested = 0, tested = 0;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
#pragma omp parallel
    {
        for (int i = 0; i < 100; i++) {
            omp_set_lock(&lock);
            total++;
            omp_unset_lock(&lock);
        }
        omp_set_nest_lock(&nest);
        omp_set_nest_lock(&nest);
        nested++;
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
        while (!omp_test_lock(&lock))
            ;
        tested++;
        omp_unset_lock(&lock);
        while (!omp_test_nest_lock(&nest))
            ;
        omp_unset_nest_lock(&nest);
    }
    int threads = 0;
#pragma omp parallel reduction(+ : threads)
    threads++;
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    printf("total_ok=%d nested_ok=%d tested_ok=%d\n", total == 100 * threads,
           nested == threads, tested == threads);
    return 0;
}
