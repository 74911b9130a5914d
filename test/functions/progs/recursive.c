/* A recursive program for pompprof-score -g (test_functions_score.py): rec
 * recurses with many short visits, tiny is a short leaf, medium does longer
 * work per visit.  The program measures its own CPU time (not the
 * profile's write at the end) and writes it to the file named by
 * RECURSIVE_TRUTH, so that the overhead of a run can be told from a plain
 * build's on a busy machine. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((no_instrument_function)) static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) long tiny(long x)
{
    volatile long s = x;
    for (int i = 0; i < 40; i++)
        s += i;
    return s;
}

long rec(int n)
{
    if (n < 2)
        return tiny(n);
    return rec(n - 1) + rec(n - 2) + tiny(n);
}

__attribute__((noinline)) long medium(long x)
{
    volatile long s = x;
    for (int i = 0; i < 4000; i++)
        s += i ^ x;
    return s;
}

int main(int argc, char **argv)
{
    int phases = argc > 1 ? atoi(argv[1]) : 20;
    int depth = argc > 2 ? atoi(argv[2]) : 18;
    long sum = 0;
    double t0 = cpu_seconds();
#pragma omp parallel
#pragma omp single
    for (int p = 0; p < phases; p++) {
#pragma omp task shared(sum)
        {
            long s = rec(depth);
            for (int i = 0; i < 200; i++)
                s += medium(i);
#pragma omp atomic
            sum += s;
        }
    }
    double t = cpu_seconds() - t0;
    const char *truth = getenv("RECURSIVE_TRUTH");
    FILE *f = truth ? fopen(truth, "w") : NULL;
    if (f) {
        fprintf(f, "%.9f\n", t);
        fclose(f);
    }
    printf("%ld\n", sum);
    return 0;
}
