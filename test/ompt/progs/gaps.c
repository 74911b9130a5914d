/* OMPT test: serial time between and after parallel regions, which libomp
 * reports to its workers only at the next fork (or never, after the last
 * region).  Prints the serial time the program spent sleeping. */
#include <omp.h>
#include <stdio.h>
#include <time.h>

int main(void)
{
    int s = 0;
    double slept = 0.0;
    for (int k = 0; k < 3; k++) {
#pragma omp parallel reduction(+ : s)
        s += 1;
        double t0 = omp_get_wtime();
        nanosleep(&(struct timespec){0, 200000000}, NULL);
        slept += omp_get_wtime() - t0;
    }
    printf("s=%d slept=%.3f\n", s, slept);
    return 0;
}
