/* e2e: a recursive binary task tree of depth D (argv[1]) whose tasks name
 * their depth with pompprof_parameter_int64; the leaves add a second
 * parameter (a string).  Built with -DNO_PARAMETERS the same program without
 * the calls gives the unsplit profile.  Prints the number of tasks, 2^(D+1) - 1. */
#include <pompprof.h>
#include <stdio.h>
#include <stdlib.h>

static void spawn(int d, int max, long *out)
{
#pragma omp task firstprivate(d, max, out)
    {
#ifndef NO_PARAMETERS
        pompprof_parameter_int64("depth", d);
        if (d == max)
            pompprof_parameter_string("kind", "leaf");
#endif
        long r[2] = {0, 0};
        if (d < max) {
            for (int k = 0; k < 2; k++)
                spawn(d + 1, max, &r[k]);
#pragma omp taskwait
        }
        *out = 1 + r[0] + r[1];
    }
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 6;
    long total = 0;
#pragma omp parallel
    {
#pragma omp single
        {
            spawn(0, depth, &total);
#pragma omp taskwait
        }
    }
    printf("tasks=%ld\n", total);
    return 0;
}
