/* The task-profiling paper's Fig. 2: tasks call foo() and are suspended
 * inside it (at a task creation or a taskwait) while another task that also
 * calls foo() runs on the same thread; foo calls bar.  Every spin measures
 * its own duration, and the program writes the sums (the ground truth) to
 * the file named by FIG2_TRUTH:
 *   foo_visits foo_seconds bar_visits bar_seconds task_seconds
 * foo_seconds is foo's own work (its exclusive time), bar_seconds bar's,
 * task_seconds the work of foo and bar called inside explicit tasks. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double foo_s, bar_s, task_s;
static long foo_n, bar_n;
static int spin_us;

/* the clock and the spin are foo's and bar's own work: not functions of
 * their own in the profile */
__attribute__((no_instrument_function)) static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* spin for spin_us microseconds; the time it measured */
__attribute__((no_instrument_function)) static double spin(void)
{
    double t0 = now(), t;
    while ((t = now()) - t0 < spin_us * 1e-6)
        ;
    return t - t0;
}

double bar(void)
{
    double s = spin();
#pragma omp atomic
    bar_s += s;
#pragma omp atomic
    bar_n++;
    return s;
}

void foo(int depth, int in_task)
{
    double s = spin();
    if (depth > 0) {
        /* this task is suspended here when the new one runs at once, or at
         * the taskwait, while the new one runs foo on this thread */
#pragma omp task
        foo(depth - 1, 1);
#pragma omp taskwait
    }
    double b = bar();
    s += spin();
#pragma omp atomic
    foo_s += s;
    if (in_task) {
#pragma omp atomic
        task_s += s + b;
    }
#pragma omp atomic
    foo_n++;
}

int main(int argc, char **argv)
{
    int tasks = argc > 1 ? atoi(argv[1]) : 8;
    spin_us = argc > 2 ? atoi(argv[2]) : 1000;
#pragma omp parallel
    {
#pragma omp single
        {
            for (int i = 0; i < tasks; i++) {
#pragma omp task
                foo(1, 1);
            }
            foo(1, 0); /* the implicit task too: stubs below its foo's taskwait */
        }
    }
    const char *truth = getenv("FIG2_TRUTH");
    FILE *f = truth ? fopen(truth, "w") : NULL;
    if (f) {
        fprintf(f, "%ld %.9f %ld %.9f %.9f\n", foo_n, foo_s, bar_n, bar_s, task_s);
        fclose(f);
    }
    printf("foo %ld bar %ld\n", foo_n, bar_n);
    return 0;
}
