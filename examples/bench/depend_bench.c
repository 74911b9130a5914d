/* depend_bench: what recording a task's dependences costs the creating
 * thread, in nanoseconds per list item (prints, never fails on timing).
 *
 * The loop does what the wrapper inserts after a task's creation: fill an
 * array of 4 items (address, size, kind) and hand it to
 * pompprof_task_depend; the same loop with 16 items gives the cost per
 * item as the slope, free of the call's fixed part.  Run with
 * POMPPROF_TRACE=1 for the traced figures (the items' records written).
 *
 *   depend_bench [CALLS]     timed calls per loop (default 400000) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <opari2/pomp2_lib.h>

typedef struct {
    unsigned long long addr, size;
    unsigned int kind;
} pompprof_depend_t;
void pompprof_task_depend(POMP2_Task_handle, const pompprof_depend_t *, unsigned int);

#define REPEATS 7

static long N = 400000;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double a[64];

/* Median ns per call of recording n items (n <= 16). */
static double per_call(POMP2_Task_handle h, unsigned n)
{
    double t[REPEATS];
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_ns();
        for (long i = 0; i < N; i++) {
            pompprof_depend_t d[16];
            for (unsigned k = 0; k < n; k++)
                d[k] = (pompprof_depend_t){(unsigned long long)(uintptr_t)&a[(i + k) & 63],
                                           sizeof a[0], k ? 1u : 3u};
            pompprof_task_depend(h, d, n);
        }
        t[r] = (now_ns() - t0) / N;
    }
    qsort(t, REPEATS, sizeof t[0], cmp);
    return t[REPEATS / 2];
}

int main(int argc, char **argv)
{
    if (argc > 1)
        N = atol(argv[1]) > 0 ? atol(argv[1]) : N;
    POMP2_Init();
    POMP2_Task_handle h = POMP2_Get_new_task_handle();
    double four = per_call(h, 4), sixteen = per_call(h, 16);
    printf("depend_call4_ns %.2f\n", four);
    printf("depend_call16_ns %.2f\n", sixteen);
    printf("depend_item_ns %.2f\n", (sixteen - four) / 12);
    POMP2_Finalize();
    return 0;
}
