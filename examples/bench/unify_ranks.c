/* unify_ranks: the program behind the unification figures of 'make bench'
 * (examples/bench/mpi_bench.py).  Each rank runs a few OpenMP regions and
 * tasks and a few MPI calls, and on every thread a binary tree of nested
 * (one-thread) parallel regions, 2^(depth+1) - 2 of them, each with its
 * implicit barrier, so that the profile has about a thousand call paths.
 * The ranks' trees are alike but not identical: rank r's tasks recurse
 * r % 4 levels deeper, so the merge joins trees that differ.  What the
 * figures want is what MPI_Finalize costs: there every rank combines its
 * profile with the others'.
 *
 * Around MPI_Finalize each rank reads its resident size (VmRSS), resets the
 * high-water mark (writing 5 to /proc/self/clear_refs) and reads the mark
 * (VmHWM) afterwards: the difference is the peak memory the finalize added.
 * Then each rank prints one line
 *
 *   rank R rss_kib A peak_added_kib B finalize_s T
 *
 * (peak_added_kib -1: the kernel did not allow the reset).
 *
 *   mpirun -np 64 ./unify_ranks [tasks per construct] [depth]   (default 50 8) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long status_kib(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':')
            kib = atol(line + n + 1);
    if (f)
        fclose(f);
    return kib;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return -1;
    int ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static double work(int depth, int i)
{
    double s = 0.0;
    for (int k = 0; k < 2000; k++)
        s += (double)((k * 7 + i) % 13) * 0.5;
    if (depth > 0) {
        double a = 0.0;
#pragma omp task shared(a) firstprivate(depth, i)
        a = work(depth - 1, i + 1);
#pragma omp taskwait
        s += a;
    }
    return s;
}

/* Every path of `depth` levels, each level one of two parallel regions. */
static void paths(int depth, unsigned code)
{
    if (depth == 0)
        return;
    if (code & 1) {
#pragma omp parallel if (0)
        paths(depth - 1, code >> 1);
    } else {
#pragma omp parallel if (0)
        paths(depth - 1, code >> 1);
    }
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int tasks = argc > 1 ? atoi(argv[1]) : 50;
    int depth = argc > 2 ? atoi(argv[2]) : 8;
    double sum = 0.0, total = 0.0;

#pragma omp parallel reduction(+ : sum)
    {
#pragma omp single
        for (int i = 0; i < tasks; i++) {
#pragma omp task firstprivate(i)
            {
                double x = work(1 + rank % 4, i);
#pragma omp critical
                sum += x;
            }
#pragma omp task firstprivate(i)
            sum += work(0, i);
        }
#pragma omp for
        for (int i = 0; i < 1000; i++)
            sum += (double)(i % 3);
        for (unsigned code = 0; code < 1u << depth; code++)
            paths(depth, code);
    }
    double token = rank, got = 0.0;
    MPI_Sendrecv(&token, 1, MPI_DOUBLE, (rank + 1) % size, 0, &got, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);

    long rss = status_kib("VmRSS");
    int reset = reset_peak();
    double t0 = now();
    MPI_Finalize();
    double t = now() - t0;
    long peak = status_kib("VmHWM");
    long added = reset != 0 || peak < 0 ? -1 : peak > rss ? peak - rss : 0;
    printf("rank %d rss_kib %ld peak_added_kib %ld finalize_s %.6f\n", rank, rss, added, t);
    return total > 0.0 ? 0 : 1;
}
