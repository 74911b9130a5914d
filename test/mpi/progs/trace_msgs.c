/* A hybrid program whose messages the trace tests count
 * (test/mpi/test_mpi_trace.py): every rank runs tasks on its threads and
 * exchanges known messages, on MPI_COMM_WORLD and on a communicator split
 * by rank parity:
 *
 *   ITER rounds of a ring of MPI_Sendrecv to the right (tag 10) and of
 *   MPI_Isend/MPI_Irecv to the left (tag 20), completed by MPI_Waitall,
 *   MPI_Waitany and an MPI_Test loop in turn;
 *   a late sender: after a barrier, rank 1 works LATE_MS, then sends to
 *   rank 0, which is waiting in MPI_Recv already (tag 30);
 *   a ring on the split communicator (tag 40) where it has two members or
 *   more, and an MPI_Allreduce on it;
 *   a ring of MPI_Sendrecv from inside an explicit task, on whichever
 *   OpenMP thread runs it (tag 50; MPI_THREAD_MULTIPLE);
 *   MPI_Bcast, MPI_Allreduce, MPI_Gather and MPI_Barrier on the world.
 *
 * Rank 0 prints what the ranks computed, the same at every run. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ITER 5
#define LATE_MS 200

static double spin(double seconds)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    double x = 0;
    do {
        for (int i = 0; i < 1000; i++)
            x += i * 1e-9;
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9 < seconds);
    return x;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double sink = 0;

#pragma omp parallel reduction(+ : sink)
#pragma omp single
    for (int i = 0; i < 8; i++) {
#pragma omp task
        sink += spin(0.002);
    }

    long sum = 0;
    for (int it = 0; it < ITER; it++) {
        long out = rank * 100 + it, in = -1;
        MPI_Sendrecv(&out, 1, MPI_LONG, right, 10, &in, 1, MPI_LONG, left, 10, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        sum += in;
        long sbuf = rank, rbuf = -1;
        MPI_Request req[2];
        MPI_Irecv(&rbuf, 1, MPI_LONG, right, 20, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(&sbuf, 1, MPI_LONG, left, 20, MPI_COMM_WORLD, &req[1]);
        if (it % 3 == 0) {
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        } else if (it % 3 == 1) {
            int index;
            MPI_Waitany(2, req, &index, MPI_STATUS_IGNORE);
            MPI_Waitany(2, req, &index, MPI_STATUS_IGNORE);
        } else {
            int done = 0;
            while (!done)
                MPI_Test(&req[0], &done, MPI_STATUS_IGNORE);
            MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        }
        sum += rbuf;
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (size > 1 && rank == 1) {
        sink += spin(LATE_MS * 1e-3);
        long late = 7;
        MPI_Send(&late, 1, MPI_LONG, 0, 30, MPI_COMM_WORLD);
    } else if (size > 1 && rank == 0) {
        long late = 0;
        MPI_Recv(&late, 1, MPI_LONG, 1, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += late;
    }

    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int hrank, hsize;
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    if (hsize > 1) {
        long out = rank, in = -1;
        MPI_Sendrecv(&out, 1, MPI_LONG, (hrank + 1) % hsize, 40, &in, 1, MPI_LONG,
                     (hrank + hsize - 1) % hsize, 40, half, MPI_STATUS_IGNORE);
        sum += in;
    }
    long hsum = 0, one = 1;
    MPI_Allreduce(&one, &hsum, 1, MPI_LONG, MPI_SUM, half);
    MPI_Comm_free(&half);

    long from_task = -1;
#pragma omp parallel
#pragma omp single
#pragma omp task shared(from_task)
    {
        long out = rank;
        MPI_Sendrecv(&out, 1, MPI_LONG, right, 50, &from_task, 1, MPI_LONG, left, 50,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    long config = rank == 0 ? 42 : 0, total = 0;
    MPI_Bcast(&config, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    long mine[2] = {hsum, from_task}, *all = rank == 0 ? malloc(2 * sizeof(long) * size) : NULL;
    MPI_Gather(mine, 2, MPI_LONG, all, 2, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("ranks %d, total %ld, config %ld\n", size, total, config);
        for (int i = 0; i < size; i++)
            printf("rank %d: half of %ld, from the left %ld\n", i, all[2 * i], all[2 * i + 1]);
    }
    free(all);
    MPI_Finalize();
    return sink < 0;
}
