/* Runs no OpenMP construct on the host: a target region (host fallback,
 * which pompprof does not measure) and omp_display_env (OpenMP 5.1, which
 * LLVM's libomp 14 does not export). */
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int x = 0;
    if (argc > 1)
        omp_display_env(0);
#pragma omp target map(tofrom : x)
    x += 42;
    printf("x=%d\n", x);
    return 0;
}
