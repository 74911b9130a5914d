/* A rank that leaves early (test/mpi/test_mpi_exit.py): every rank runs a
 * parallel region; the rank given as the first argument calls exit(1)
 * before MPI_Finalize while the others wait for it in MPI_Barrier, or with
 * a second argument in MPI_Finalize (the launcher then ends the job).
 * Nothing is printed after the exit, so the output is the same at every
 * run. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, leaving = argc > 1 ? atoi(argv[1]) : 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int threads = 0;
#pragma omp parallel reduction(+ : threads)
    threads += 1;
    if (rank == 0) {
        printf("threads per rank: %d\n", threads);
        fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the output above comes first */
    if (rank == leaving)
        exit(1);
    if (argc < 3)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
