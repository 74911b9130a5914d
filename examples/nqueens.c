/* nqueens: count the placements of n non-attacking queens, one task per
 * tried square and no cut-off (BOTS style).
 *
 * Every task copies the partial board, so tasks are small and plentiful:
 * a stress test for the cost per task of a profiler.
 *
 * usage: nqueens [n]    (default 8; the benchmark uses 11) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nqueens.h"

/* Count the solutions that extend `board` (queens in rows 0..row-1).
 * Each candidate column is tried in a task of its own with a private copy
 * of the board; the per-column counts are summed after the taskwait. */
static long solve(int n, int row, const char *board)
{
    long counts[MAX_N];
    long total = 0;

    if (row == n)
        return 1;
    for (int col = 0; col < n; col++) {
        counts[col] = 0;
#pragma omp task shared(counts) firstprivate(col, row, n, board)
        {
            char next[MAX_N];
            memcpy(next, board, (size_t)row);
            if (placement_ok(next, row, col)) {
                next[row] = (char)col;
                counts[col] = solve(n, row + 1, next);
            }
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
    long solutions = 0;
    char board[MAX_N];

    if (n < 1 || n > MAX_N) {
        fprintf(stderr, "nqueens: n must be in 1..%d\n", MAX_N);
        return 2;
    }
#pragma omp parallel
    {
#pragma omp single
        solutions = solve(n, 0, board);
    }
    int ok = solutions == known_solutions[n];
    printf("%d-queens: %ld solutions\n%s\n", n, solutions, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
