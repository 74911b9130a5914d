/* floorplan: the smallest bounding box for a set of cells, in the style of
 * the BOTS "floorplan" benchmark: a branch and bound search.  The cells are
 * placed one after the other, each in one of its shapes (w x h) and at one
 * of the free positions next to the cells placed so far; every choice is a
 * task with its own copy of the board, and a search goes no further once its
 * bounding box is no smaller than the best complete placement found (shared,
 * updated in a critical section).  Which branches are cut depends on the
 * order in which tasks finish; the best area does not.
 *
 * usage: floorplan [cells]   (1..10, default 5; the benchmark uses 6) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE 16  /* the board: SIDE x SIDE squares */
#define SHAPES 3 /* shapes per cell */

typedef struct board {
    unsigned char used[SIDE][SIDE];
    int width, height; /* of the bounding box of the cells placed */
} board;

static const int cell_shapes[10][SHAPES][2] = {
    {{2, 3}, {3, 2}, {1, 6}}, {{2, 2}, {4, 1}, {1, 4}}, {{3, 3}, {1, 9}, {9, 1}},
    {{1, 2}, {2, 1}, {1, 2}}, {{2, 4}, {4, 2}, {1, 8}}, {{3, 1}, {1, 3}, {3, 1}},
    {{2, 5}, {5, 2}, {1, 10}}, {{1, 1}, {1, 1}, {1, 1}}, {{3, 4}, {4, 3}, {2, 6}},
    {{2, 3}, {3, 2}, {6, 1}},
};

static int best_area = SIDE * SIDE + 1;

static int fits(const board *b, int x, int y, int w, int h)
{
    if (x + w > SIDE || y + h > SIDE)
        return 0;
    for (int i = y; i < y + h; i++)
        for (int j = x; j < x + w; j++)
            if (b->used[i][j])
                return 0;
    return 1;
}

/* Whether a w x h cell at (x, y) touches a cell placed before (or is the
 * first one, in the corner). */
static int touches(const board *b, int x, int y, int w, int h)
{
    if (b->width == 0)
        return x == 0 && y == 0;
    for (int i = y; i < y + h; i++)
        if ((x > 0 && b->used[i][x - 1]) || (x + w < SIDE && b->used[i][x + w]))
            return 1;
    for (int j = x; j < x + w; j++)
        if ((y > 0 && b->used[y - 1][j]) || (y + h < SIDE && b->used[y + h][j]))
            return 1;
    return 0;
}

static void place(board *b, int x, int y, int w, int h)
{
    for (int i = y; i < y + h; i++)
        memset(&b->used[i][x], 1, (size_t)w);
    if (x + w > b->width)
        b->width = x + w;
    if (y + h > b->height)
        b->height = y + h;
}

/* Place cells cell..n-1 on b, every choice a task. */
static void search(const board *b, int cell, int n)
{
    int area = b->width * b->height;
    if (area >= __atomic_load_n(&best_area, __ATOMIC_RELAXED))
        return; /* bound: no better than the best so far */
    if (cell == n) {
#pragma omp critical(best)
        if (area < best_area)
            best_area = area;
        return;
    }
    for (int s = 0; s < SHAPES; s++) {
        int w = cell_shapes[cell][s][0], h = cell_shapes[cell][s][1];
        for (int y = 0; y <= b->height && y < SIDE; y++)
            for (int x = 0; x <= b->width && x < SIDE; x++) {
                if (!fits(b, x, y, w, h) || !touches(b, x, y, w, h))
                    continue;
#pragma omp task firstprivate(x, y, w, h, cell, n)
                {
                    board next = *b;
                    place(&next, x, y, w, h);
                    search(&next, cell + 1, n);
                }
            }
    }
#pragma omp taskwait
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5;
    if (n < 1 || n > 10) {
        fprintf(stderr, "floorplan: cells must be in 1..10\n");
        return 2;
    }
    board empty;
    memset(&empty, 0, sizeof empty);
#pragma omp parallel
    {
#pragma omp single
        search(&empty, 0, n);
    }
    int cells = 0;
    for (int c = 0; c < n; c++)
        cells += cell_shapes[c][0][0] * cell_shapes[c][0][1];
    /* the check: a placement was found, and it covers the cells */
    int ok = best_area >= cells && best_area <= SIDE * SIDE;
    printf("floorplan(%d): best area %d (cells cover %d)\n%s\n", n, best_area, cells,
           ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
