/* Every construct OPARI2 instruments in C: input of the region-string parser
 * test (run through opari2 at test time).  Not executed. */
#include <stdio.h>
#include <omp.h>
int tp;
#pragma omp threadprivate(tp)
int main(void)
{
    int s = 0, x = 0;
    omp_lock_t l; omp_nest_lock_t nl;
    omp_init_lock(&l); omp_init_nest_lock(&nl);
#pragma pomp inst init
#pragma pomp inst begin(myregion)
#pragma omp parallel if(1) num_threads(2) reduction(+:s) shared(x)
    {
#pragma omp for schedule(dynamic) ordered collapse(1)
        for (int i = 0; i < 4; i++) {
#pragma omp ordered
            s += i;
        }
#pragma omp for nowait
        for (int i = 0; i < 4; i++) s++;
#pragma omp sections
        {
#pragma omp section
            s++;
#pragma omp section
            s++;
        }
#pragma omp single copyprivate(x)
        x = 1;
#pragma omp master
        s++;
#pragma omp critical (foo)
        s++;
#pragma omp critical
        s++;
#pragma omp atomic
        x++;
#pragma omp flush
#pragma omp barrier
#pragma omp task untied
        s++;
#pragma omp task if(0) shared(s)
        s++;
#pragma omp taskwait
        omp_set_lock(&l); omp_unset_lock(&l);
        if (omp_test_lock(&l)) omp_unset_lock(&l);
        omp_set_nest_lock(&nl); omp_unset_nest_lock(&nl);
        if (omp_test_nest_lock(&nl)) omp_unset_nest_lock(&nl);
    }
#pragma omp parallel for
    for (int i = 0; i < 4; i++) s++;
#pragma omp parallel sections
    {
#pragma omp section
        s++;
    }
#pragma pomp inst end(myregion)
#pragma pomp inst off
#pragma pomp inst on
    omp_destroy_lock(&l); omp_destroy_nest_lock(&nl);
    printf("%d %d %d\n", s, x, omp_get_max_threads());
    return 0;
}
