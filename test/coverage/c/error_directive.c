/* the error directive (OpenMP 5.1): a compile-time warning and a run-time warning
 * (which prints to stderr).
 * pompprof-coverage: measured=parallel */
#include <stdio.h>

#pragma omp error at(compilation) severity(warning) message("a compile-time note from the program")

int main(void)
{
    int x = 0;
#pragma omp parallel num_threads(1)
    {
#pragma omp error at(execution) severity(warning) message("a run-time warning")
        x = 1;
    }
    printf("%d\n", x);
    return 0;
}
