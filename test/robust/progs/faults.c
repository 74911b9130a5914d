/* One OpenMP task program that leaves in every unusual way a real program
 * can; argv[1] picks the way.  Built once plainly and once with pompprof:
 * both builds must print the same and end with the same status. */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A little work that the compiler cannot remove (one sink per thread:
 * tasks on several threads must not race on it, make check-tsan runs this). */
static __thread volatile double sink;
static void work(int us)
{
    double end = now_s() + us * 1e-6;
    while (now_s() < end)
        sink += 1.0;
}

/* Leave from a worker thread while the others wait in the barrier. */
static int exit_in_parallel(void)
{
#pragma omp parallel
    {
        work(500);
        if (omp_get_thread_num() == omp_get_num_threads() - 1)
            exit(3);
#pragma omp barrier
        work(100000); /* never reached by the exiting thread's team */
    }
    return 0;
}

/* Leave from inside an explicit task, with sibling tasks active. */
static int exit_in_task(void)
{
#pragma omp parallel
    {
#pragma omp single
        for (int i = 0; i < 20; i++) {
#pragma omp task firstprivate(i)
            {
                work(300);
                if (i == 10)
                    exit(4);
            }
        }
    }
    return 0;
}

/* The single thread creates tasks and leaves them to the implicit barrier;
 * main returns right after the region with a status of its own. */
static int pending_tasks(void)
{
    int done = 0;
#pragma omp parallel
    {
#pragma omp single nowait
        for (int i = 0; i < 16; i++) {
#pragma omp task
            {
                work(200);
#pragma omp atomic
                done++;
            }
        }
    }
    printf("tasks done: %d\n", done);
    return 5;
}

/* A normal program that never calls POMP2_Finalize (nothing does unless the
 * program asks with '#pragma pomp inst end'): the profile comes from exit. */
static int no_finalize(void)
{
    long sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp for
        for (int i = 0; i < 100; i++)
            sum += i;
#pragma omp single
        {
#pragma omp task
            work(200);
#pragma omp taskwait
        }
    }
    printf("sum: %ld\n", sum);
    return 0;
}

/* Runs until a signal arrives; tells the parent it is measuring by creating
 * the file argv[2] once every thread has done a round of tasks. */
static int wait_for_signal(const char *ready_file)
{
    int rounds = 0;
#pragma omp parallel
    {
        for (;;) {
#pragma omp single
            {
                for (int i = 0; i < 8; i++) {
#pragma omp task
                    work(100);
                }
#pragma omp taskwait
            }
#pragma omp master
            if (++rounds == 2) {
                FILE *f = fopen(ready_file, "w");
                if (f)
                    fclose(f);
            }
        }
    }
    return 0;
}

/* Spend most of the time inside the allocator (sizes above glibc's
 * per-thread cache, so its arena lock is taken) when the signal comes: a
 * profile flush on the interrupted thread would deadlock on that lock. */
static int malloc_loop(const char *ready_file)
{
    int rounds = 0;
#pragma omp parallel
#pragma omp single
    for (;;) {
#pragma omp task
        work(20);
#pragma omp taskwait
        for (int i = 0; i < 2000; i++) {
            char *p = malloc(2048 + (i % 64) * 64);
            if (p)
                p[0] = (char)i;
            sink += p ? p[0] : 0;
            free(p);
        }
        if (++rounds == 2) {
            FILE *f = fopen(ready_file, "w");
            if (f)
                fclose(f);
        }
    }
    return 0;
}

static int abort_in_task(void)
{
#pragma omp parallel
    {
#pragma omp single
        {
#pragma omp task
            {
                work(200);
                abort();
            }
        }
    }
    return 0;
}

/* A real invalid store.  The sanitizer build (make check-sanitize) compiles
 * this program with UBSan, which would report the store instead of letting
 * the program crash as it does in every other build. */
__attribute__((noinline, no_sanitize("address", "undefined")))
static void crash_store(volatile int *p)
{
    *p = 1;
}

static int segv_in_parallel(void)
{
#pragma omp parallel
    {
        work(200);
        if (omp_get_thread_num() == 0) {
            volatile int *volatile p = NULL;
            crash_store(p);
        }
#pragma omp barrier
        work(100000);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    printf("mode %s\n", mode);
    fflush(stdout); /* the later output must not depend on how we die */
    if (!strcmp(mode, "exit_in_parallel"))
        return exit_in_parallel();
    if (!strcmp(mode, "exit_in_task"))
        return exit_in_task();
    if (!strcmp(mode, "pending_tasks"))
        return pending_tasks();
    if (!strcmp(mode, "no_finalize"))
        return no_finalize();
    if (!strcmp(mode, "wait_for_signal") && argc > 2)
        return wait_for_signal(argv[2]);
    if (!strcmp(mode, "malloc_loop") && argc > 2)
        return malloc_loop(argv[2]);
    if (!strcmp(mode, "abort_in_task"))
        return abort_in_task();
    if (!strcmp(mode, "segv_in_parallel"))
        return segv_in_parallel();
    fprintf(stderr, "usage: faults MODE [READY_FILE]\n");
    return 2;
}
