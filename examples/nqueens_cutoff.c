/* nqueens_cutoff: count the placements of n non-attacking queens; only the
 * first `cutoff` rows create tasks, deeper rows are searched serially
 * inside the task (tens of microseconds or more per leaf task at the larger
 * input).
 *
 * usage: nqueens_cutoff [n [cutoff]]   (default 10 3; the benchmark uses 14) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"

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
