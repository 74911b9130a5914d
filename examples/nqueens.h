/* The n-queens pieces the nqueens examples share: the known solution counts
 * for their self-checks, the placement test, and the serial search below a
 * cut-off.  Each example keeps only its task structure. */
#ifndef POMPPROF_EXAMPLES_NQUEENS_H
#define POMPPROF_EXAMPLES_NQUEENS_H

#define MAX_N 16

/* Known solution counts, index = n. */
static const long known_solutions[MAX_N + 1] = {
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
    2279184, 14772512};

/* Can a queen go to row `row`, column `col` given the queens in rows 0..row-1? */
static inline int placement_ok(const char *board, int row, int col)
{
    for (int r = 0; r < row; r++) {
        int c = board[r];
        if (c == col || c - col == row - r || col - c == row - r)
            return 0;
    }
    return 1;
}

/* Plain depth-first search, modifying the board in place. */
static inline long solve_serial(int n, int row, char *board)
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

#endif
