// Hinted OpenMP locks, plain and nested, used by a team.
#include <omp.h>
#include <cstdio>

int main()
{
    omp_lock_t lock;
    omp_nest_lock_t nest;
    omp_init_lock_with_hint(&lock, omp_sync_hint_contended);
    omp_init_nest_lock_with_hint(&nest, omp_sync_hint_speculative);
    int count = 0;
#pragma omp parallel num_threads(2)
    {
        omp_set_lock(&lock);
        count++;
        omp_unset_lock(&lock);
        omp_set_nest_lock(&nest);
        omp_set_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
    }
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    std::printf("%d\n", count);
    return 0;
}
