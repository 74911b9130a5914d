/* nqueens_depth: count the placements of n non-attacking queens with one
 * task per valid square, each task telling pompprof its recursion depth
 * (the row it places a queen in).  The profile then splits the task
 * construct per depth: instances, mean and total time per depth, the "by
 * parameter" table of pompprof-report and its cut-off advice (README.md,
 * "Where should the cut-off be?").  A second argument sets that cut-off:
 * rows from it on are searched serially inside the task (as in
 * nqueens_cutoff.c).
 *
 * usage: nqueens_depth [n [cutoff]]   (default 8, no cut-off; the README uses 12) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef POMPPROF_INSTRUMENTED /* built with the pompprof wrapper */
#include <pompprof.h>
#else
#define pompprof_parameter_int64(name, value) ((void)0)
#endif

#define MAX_N 16

/* Known solution counts, index = n, for the self-check.  This,
 * placement_ok and solve_serial are as in nqueens_cutoff.c: each variant
 * stays one file, to be read side by side with the others. */
static const long known_solutions[MAX_N + 1] = {
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
    2279184, 14772512};

/* Can a queen go to row `row`, column `col` given the queens in rows 0..row-1? */
static int placement_ok(const char *board, int row, int col)
{
    for (int r = 0; r < row; r++) {
        int c = board[r];
        if (c == col || c - col == row - r || col - c == row - r)
            return 0;
    }
    return 1;
}

/* Plain depth-first search, modifying the board in place. */
static long solve_serial(int n, int row, char *board)
{
    long total = 0;

    if (row == n)
        return 1;
    for (int col = 0; col < n; col++) {
        if (placement_ok(board, row, col)) {
            board[row] = (char)col;
            total += solve_serial(n, row + 1, board);
        }
    }
    return total;
}

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
