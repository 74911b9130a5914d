/* Every thread of a team calls exit() inside the parallel region (after a
 * barrier, so all of them do); the status is argv[1] (default 3). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int status = argc > 1 ? atoi(argv[1]) : 3;
    double sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < 1000; i++)
        sum += i;
    printf("sum %.0f\n", sum);
    fflush(stdout);
#pragma omp parallel
    {
#pragma omp barrier
        exit(status);
    }
    printf("not reached\n");
    return 0;
}
