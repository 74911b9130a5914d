/* Profile ground truth: leaf tasks that spin a known duration.
 * `tasks` tasks of `us` microseconds each are created inside a single and run
 * in the implicit barrier (or at creation); they never suspend, so each
 * instance is exactly one fragment.  On a loaded machine a spin can overshoot
 * (the thread is descheduled just before its end), so the program measures
 * what its task bodies really took and, if SPIN_REPORT names a file, writes
 * that sum there: the test compares the profile with it. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Busy-wait, not sleep: the time is spent in the task on this thread. */
static void spin(double seconds)
{
    double end = now() + seconds;
    while (now() < end)
        ;
}

int main(int argc, char **argv)
{
    int tasks = argc > 1 ? atoi(argv[1]) : 8;
    int us = argc > 2 ? atoi(argv[2]) : 5000;
    int done = 0;
    double body_seconds = 0;
#pragma omp parallel
    {
#pragma omp single
        for (int i = 0; i < tasks; i++) {
#pragma omp task shared(done, body_seconds)
            {
                double t0 = now();
                spin(us * 1e-6);
#pragma omp atomic
                done++;
                double t = now() - t0;
#pragma omp atomic
                body_seconds += t;
            }
        }
    }
    printf("%d tasks done\n", done);
    const char *report = getenv("SPIN_REPORT");
    FILE *f = report ? fopen(report, "w") : NULL;
    if (f) {
        fprintf(f, "%.9f\n", body_seconds);
        fclose(f);
    }
    return 0;
}
