/* OpenMP locks and nest locks (set/unset, test variants).
 * pompprof-coverage: measured=parallel */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    omp_lock_t l, h;
    omp_nest_lock_t nl;
    int a = 0, b = 0, tries = 0;
    omp_init_lock(&l);
    omp_init_lock(&h);
    omp_init_nest_lock(&nl);
#pragma omp parallel reduction(+ : tries)
    {
        omp_set_lock(&l);
        a++;
        omp_unset_lock(&l);
        omp_set_nest_lock(&nl);
        omp_set_nest_lock(&nl);
        b++;
        omp_unset_nest_lock(&nl);
        omp_unset_nest_lock(&nl);
        while (!omp_test_lock(&h)) tries += 0;
        omp_unset_lock(&h);
        if (omp_test_nest_lock(&nl)) omp_unset_nest_lock(&nl);
        tries += 1;
    }
    omp_destroy_lock(&l);
    omp_destroy_lock(&h);
    omp_destroy_nest_lock(&nl);
    printf("%d\n", a == b && b == tries);
    return 0;
}
