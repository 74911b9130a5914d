/* e2e: user regions, through OPARI2's pragmas and through pompprof.h. */
#include <pompprof.h>
#include <stdio.h>

static long work(int n)
{
    long s = 0;
    pompprof_region_begin("work");
    for (int i = 0; i < n; i++)
        s += i % 7;
    pompprof_region_end("work");
    return s;
}

int main(void)
{
    long total = 0;
#pragma pomp inst init
#pragma pomp inst begin(setup)
    total += work(1000);
#pragma pomp inst end(setup)
#pragma omp parallel reduction(+ : total)
    {
        pompprof_region_begin("in parallel");
        total += work(100);
        pompprof_region_end("in parallel");
    }
    pompprof_off();
    total += work(10);
    pompprof_on();
    printf("done %d\n", total > 0);
    return 0;
}
