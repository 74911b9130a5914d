/* A hybrid job one of whose ranks dies (test/mpi/test_mpi_trace_faults.py):
 * every rank runs tasks and exchanges ROUNDS rounds of a ring, then rank 1
 * ends as argv[1] says, while the others wait for a message from it:
 *   kill   raise(SIGKILL): it leaves what it flushed, nothing more;
 *   abort  MPI_Abort(MPI_COMM_WORLD, 3);
 *   segv   a crash (raise(SIGSEGV)): pompprof's handler saves what its
 *          buffers hold (and, with time for it, writes all it holds).
 * The launcher then ends the others.  Nothing is printed. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define ROUNDS 20

static long work(int n)
{
    long s = 0;
#pragma omp parallel reduction(+ : s)
#pragma omp single
    for (int i = 0; i < n; i++) {
#pragma omp task shared(s)
        {
            long x = 0;
            for (int k = 0; k < 20000; k++)
                x += k % 7;
#pragma omp atomic
            s += x;
        }
    }
    return s;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    long sum = 0;
    for (int i = 0; i < ROUNDS; i++) {
        long out = work(16) + i, in = 0;
        MPI_Sendrecv(&out, 1, MPI_LONG, right, 1, &in, 1, MPI_LONG, left, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        sum += in;
    }
    if (rank == 1) {
        if (argc > 1 && !strcmp(argv[1], "abort"))
            MPI_Abort(MPI_COMM_WORLD, 3);
        raise(argc > 1 && !strcmp(argv[1], "segv") ? SIGSEGV : SIGKILL);
    }
    long never = 0;
    MPI_Recv(&never, 1, MPI_LONG, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return sum == never;
}
