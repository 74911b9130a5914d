/* nqueens_depth: count the placements of n non-attacking queens with one
 * task per valid square, each task telling pompprof its recursion depth
 * (the row it places a queen in).  The profile then splits the task
 * construct per depth: instances, mean and total time per depth, the "by
 * parameter" table of pompprof-report and its cut-off advice (README.md,
 * "Where should the cut-off be?").  A second argument sets that cut-off:
 * rows from it on are searched serially inside the task (as in
 * nqueens_cutoff.c, which this is with the parameter call and no cut-off by
 * default).
 *
 * usage: nqueens_depth [n [cutoff]]   (default 8, no cut-off; the README uses 13) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"

#ifdef POMPPROF_INSTRUMENTED /* built with the pompprof wrapper */
#include <pompprof.h>
#else
#define pompprof_parameter_int64(name, value) ((void)0)
#endif

/* Rows above the cut-off: one task per valid column, named by its depth. */
static long solve(int n, int row, const char *board, int cutoff)
{
    long counts[MAX_N];
    long total = 0;

    if (row >= cutoff) {
        char copy[MAX_N];
        memcpy(copy, board, (size_t)row);
        return solve_serial(n, row, copy);
    }
    for (int col = 0; col < n; col++) {
        counts[col] = 0;
        if (!placement_ok(board, row, col))
            continue;
#pragma omp task shared(counts) firstprivate(col, row, n, board, cutoff)
        {
            pompprof_parameter_int64("depth", row);
            char next[MAX_N];
            memcpy(next, board, (size_t)row);
            next[row] = (char)col;
            counts[col] = solve(n, row + 1, next, cutoff);
        }
    }
#pragma omp taskwait
    for (int col = 0; col < n; col++)
        total += counts[col];
    return total;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    int cutoff = argc > 2 ? atoi(argv[2]) : n;
    long solutions = 0;
    char board[MAX_N];

    if (n < 1 || n > MAX_N || cutoff < 0) {
        fprintf(stderr, "nqueens_depth: n must be in 1..%d, cutoff >= 0\n", MAX_N);
        return 2;
    }
#pragma omp parallel
    {
#pragma omp single
        solutions = solve(n, 0, board, cutoff);
    }
    int ok = solutions == known_solutions[n];
    printf("%d-queens: %ld solutions\n%s\n", n, solutions, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
