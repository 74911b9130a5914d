/* Output on both streams and an exit status of its own, from a parallel
 * region: `pompprof run` must change none of them. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int status = argc > 1 ? atoi(argv[1]) : 0;
    long sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(dynamic)
    for (int i = 0; i < 1000; i++)
        sum += i;
    printf("sum=%ld\n", sum);
    fprintf(stderr, "the program's own line\n");
    return status;
}
