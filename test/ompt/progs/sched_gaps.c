/* Tied tasks that yield, with the program's own clock as ground truth, for
 * test_ompt_sched_gaps.py.
 *
 *   sched_gaps TIMES_FILE [TASKS [STEPS]]       (defaults: 48 tasks, 200000)
 *
 * One thread creates TASKS tied tasks; each works STEPS steps, meets a
 * taskyield, and works STEPS more.  The program writes to TIMES_FILE:
 *   region START END           omp_get_wtime around the parallel region
 *   task THREAD START END      per task, where and when its body ran
 * and prints a checksum of what the tasks computed (the same at any number
 * of threads). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long spin(unsigned long seed, long steps)
{
    unsigned long x = seed;
    for (long i = 0; i < steps; i++)
        x = x * 6364136223846793005ul + 1442695040888963407ul;
    return x >> 60;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: sched_gaps TIMES_FILE [TASKS [STEPS]]\n");
        return 2;
    }
    int n = argc > 2 ? atoi(argv[2]) : 48;
    long steps = argc > 3 ? atol(argv[3]) : 200000;
    unsigned long *r = calloc((size_t)n, sizeof *r);
    double(*t)[2] = calloc((size_t)n, sizeof *t);
    int *th = calloc((size_t)n, sizeof *th);
    if (n < 1 || !r || !t || !th)
        return 1;
    double start = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i)
        {
            t[i][0] = omp_get_wtime();
            th[i] = omp_get_thread_num();
            r[i] = spin((unsigned long)i, steps);
#pragma omp taskyield
            r[i] += spin((unsigned long)i + 1, steps);
            t[i][1] = omp_get_wtime();
        }
    }
    double end = omp_get_wtime();
    FILE *f = fopen(argv[1], "w");
    if (!f)
        return 1;
    fprintf(f, "region %.9f %.9f\n", start, end);
    for (int i = 0; i < n; i++)
        fprintf(f, "task %d %.9f %.9f\n", th[i], t[i][0], t[i][1]);
    fclose(f);
    unsigned long sum = 0;
    for (int i = 0; i < n; i++)
        sum = sum * 31 + r[i];
    printf("sched gaps: %lu\n", sum);
    free(r);
    free(t);
    free(th);
    return 0;
}
