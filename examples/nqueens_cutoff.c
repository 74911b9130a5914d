/* nqueens_cutoff: count the placements of n non-attacking queens; only the
 * first `cutoff` rows create tasks, deeper rows are searched serially
 * inside the task (tens of microseconds or more per leaf task at the larger
 * input).
 *
 * usage: nqueens_cutoff [n [cutoff]]   (default 10 3; the benchmark uses 14) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 16

/* Known solution counts, index = n, for the self-check.  This and
 * placement_ok are as in nqueens.c: each variant stays one file, to be read
 * side by side with the other. */
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

/* Rows above the cut-off: one task per valid column (invalid ones are
 * skipped before creating a task, unlike nqueens.c). */
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
    int n = argc > 1 ? atoi(argv[1]) : 10;
    int cutoff = argc > 2 ? atoi(argv[2]) : 3;
    long solutions = 0;
    char board[MAX_N];

    if (n < 1 || n > MAX_N || cutoff < 0) {
        fprintf(stderr, "nqueens_cutoff: n must be in 1..%d, cutoff >= 0\n", MAX_N);
        return 2;
    }
#pragma omp parallel
    {
#pragma omp single
        solutions = solve(n, 0, board, cutoff);
    }
    int ok = solutions == known_solutions[n];
    printf("%d-queens: %ld solutions (cut-off row %d)\n%s\n", n, solutions,
           cutoff, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
