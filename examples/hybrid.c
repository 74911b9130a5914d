/* hybrid: an MPI + OpenMP program with tasks, the README's hybrid example.
 *
 * Heat spreading along a rod, explicitly in time: the rod's cells are split
 * among the MPI ranks; every step each rank swaps its edge cells with its
 * neighbours (MPI_Sendrecv), then updates its cells in blocks, one OpenMP
 * task per block, and every 10 steps the ranks add up how much the
 * temperature still changes (MPI_Allreduce).  Rank 0 prints the result and
 * the time the steps took.
 *
 *   mpirun -np 4 ./hybrid [cells] [steps] [blocks per rank]
 *   (default 4000000 200 64)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void update(const double *u, double *v, long from, long to)
{
    for (long i = from; i < to; i++)
        v[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
}

static double change(const double *u, const double *v, long from, long to)
{
    double s = 0.0;
    for (long i = from; i < to; i++)
        s += (v[i] - u[i]) * (v[i] - u[i]);
    return s;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long cells = argc > 1 ? atol(argv[1]) : 4000000;
    int steps = argc > 2 ? atoi(argv[2]) : 200;
    int blocks = argc > 3 ? atoi(argv[3]) : 64;
    long n = cells / size; /* cells of this rank, at 1 .. n (0 and n + 1: the neighbours') */
    double *u = calloc((size_t)n + 2, sizeof *u), *v = calloc((size_t)n + 2, sizeof *v);
    double *part = calloc((size_t)blocks, sizeof *part);
    if (!u || !v || !part || n < blocks) {
        fprintf(stderr, "hybrid: too few cells per rank or no memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long i = 1; i <= n; i++) /* a hot middle third */
        u[i] = (rank * n + i > cells / 3 && rank * n + i <= 2 * cells / 3) ? 100.0 : 0.0;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double residual = 0.0, t0 = MPI_Wtime();

    for (int s = 0; s < steps; s++) {
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[n + 1], 1, MPI_DOUBLE, right, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma omp parallel
#pragma omp single
        for (int b = 0; b < blocks; b++) {
#pragma omp task firstprivate(b)
            {
                long from = 1 + b * n / blocks, to = 1 + (b + 1) * n / blocks;
                update(u, v, from, to);
                part[b] = change(u, v, from, to);
            }
        }
        if (s % 10 == 9) {
            double mine = 0.0;
            for (int b = 0; b < blocks; b++)
                mine += part[b];
            MPI_Allreduce(&mine, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        double *w = u;
        u = v;
        v = w;
    }
    double t = MPI_Wtime() - t0, heat = 0.0, mine = 0.0;
    for (long i = 1; i <= n; i++)
        mine += u[i];
    MPI_Reduce(&mine, &heat, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("%ld cells, %d steps, %d ranks: heat %.6e, last change %.6e\n", cells, steps,
               size, heat, residual);
        fprintf(stderr, "hybrid: steps took %.6f s\n", t);
    }
    free(u);
    free(v);
    free(part);
    MPI_Finalize();
    return 0;
}
