/* declare variant: a variant for calls inside parallel regions and one by vendor.
 * pompprof-coverage: measured=parallel */
#include <stdio.h>

static int base_impl(int v) { return v; }
static int par_impl(int v) { return v + 100; }
static int gnu_impl(int v) { return v + 1000; }

#pragma omp declare variant(par_impl) match(construct = {parallel})
static int in_parallel(int v);
static int in_parallel(int v) { return base_impl(v); }

#pragma omp declare variant(gnu_impl) match(implementation = {vendor(gnu)})
static int by_vendor(int v) { return base_impl(v); }

int main(void)
{
    int a = 0, b = 0;
#pragma omp parallel num_threads(1)
    a = in_parallel(1);
    b = by_vendor(2);
    printf("%d %d %d\n", a, b, in_parallel(3));
    return 0;
}
