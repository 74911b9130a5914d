/* A hybrid MPI + OpenMP program with tasks for the MPI tests
 * (test/mpi/test_mpi_hybrid.py): every rank runs a recursive fib on a task
 * pool of its own size, calls MPI from every thread of a team, and moves
 * known numbers of bytes (a ring of Sendrecv, an Isend/Irecv ring, Bcast,
 * Gather, Allreduce).  The first task construct names its fib argument as
 * a parameter, so its tree is split per value on every rank and the ranks'
 * splits must meet in the one profile.  Rank 0 prints what the ranks
 * computed, so the output is the same at every run. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef POMPPROF_INSTRUMENTED
#include <pompprof.h>
#else
#define pompprof_parameter_int64(name, value) ((void)0)
#endif

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    {
        pompprof_parameter_int64("n", n - 1);
        a = fib(n - 1);
    }
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(int argc, char **argv)
{
    int provided = 0, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = 8 + rank % 3; /* the ranks run different numbers of tasks */
    long r = 0;
    int queried = 0;
#pragma omp parallel reduction(+ : queried)
    {
        /* every thread of the team calls MPI (measured on its own thread) */
        int level;
        if (provided == MPI_THREAD_MULTIPLE || omp_get_thread_num() == 0)
            queried += MPI_Query_thread(&level) == MPI_SUCCESS;
#pragma omp single
        r = fib(n);
    }

    /* a ring: rank i sends 100 * (i + 1) doubles to i + 1 */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    double *out = calloc(100 * (size_t)size, sizeof *out), *in = calloc(100 * (size_t)size, sizeof *in);
    MPI_Sendrecv(out, 100 * (rank + 1), MPI_DOUBLE, next, 1, in, 100 * size, MPI_DOUBLE, prev, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* the other way round, nonblocking: 10 ints */
    int sbuf[10] = {0}, rbuf[10];
    MPI_Request req[2];
    MPI_Irecv(rbuf, 10, MPI_INT, next, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(sbuf, 10, MPI_INT, prev, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);

    int config[16] = {0};
    if (rank == 0)
        for (int i = 0; i < 16; i++)
            config[i] = i;
    MPI_Bcast(config, 16, MPI_INT, 0, MPI_COMM_WORLD);
    long total = 0;
    MPI_Allreduce(&r, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    long mine[2] = {n, r}, *all = rank == 0 ? malloc(2 * sizeof(long) * (size_t)size) : NULL;
    MPI_Gather(mine, 2, MPI_LONG, all, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int i = 0; i < size; i++)
            printf("rank %d: fib(%ld) = %ld\n", i, all[2 * i], all[2 * i + 1]);
        printf("sum %ld, config %d, every thread called MPI: %s\n", total, config[15],
               queried == omp_get_max_threads() || provided != MPI_THREAD_MULTIPLE ? "yes" : "no");
    }
    free(all);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
