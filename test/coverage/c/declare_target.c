/* declare target / end declare target, and a target region that calls them
 * (host fallback without an offload device).
 * pompprof-coverage: measured=parallel notes=target */
#include <stdio.h>

#pragma omp declare target
static int square(int v) { return v * v; }
int table[8];
#pragma omp end declare target

static int cube(int v) { return v * v * v; }
#pragma omp declare target to(cube)

int main(void)
{
    int s = 0;
#pragma omp parallel for
    for (int i = 0; i < 8; i++) table[i] = square(i);
#pragma omp target map(tofrom: s)
    for (int i = 0; i < 8; i++) s += table[i] + cube(i);
    printf("%d\n", s);
    return 0;
}
