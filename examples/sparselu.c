/* sparselu: LU factorisation of a block-sparse matrix (after the BOTS
 * SparseLU benchmark).
 *
 * The matrix is nb x nb blocks of bs x bs doubles; only non-zero blocks are
 * allocated.  Each step kk factorises the diagonal block (lu0), then updates
 * its row (fwd) and column (bdiv) in tasks, then every block of the trailing
 * sub-matrix that is hit (bmod, allocating it on fill-in) in tasks.  One
 * bmod on 64 x 64 blocks is ~0.5 MFlop, well above 20 microseconds.
 *
 * Check: b = A * x_true is computed before the factorisation; afterwards
 * L U x = b is solved with the factors and x must match x_true.
 *
 * With "depend" as third argument the steps are not separated by taskwaits:
 * every task states the blocks it reads and writes (depend clauses on each
 * block's first element), and the fill-in is allocated up front (a symbolic
 * factorisation), so that every block exists when its tasks are created.
 * The result is the same.
 *
 * usage: sparselu [nb [bs [depend]]]   (default 12 32; the benchmark uses 28 64) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nb, bs;
static double **blocks;         /* nb * nb pointers, NULL = zero block */
#define BLOCK(i, j) blocks[(size_t)(i) * nb + (j)]
#define AT(b, r, c) (b)[(size_t)(r) * bs + (c)]

/* Which blocks are non-zero at the start: the three central diagonals
 * plus a deterministic scatter of about one block in six. */
static int block_is_nonzero(int i, int j)
{
    uint32_t h = (uint32_t)(i * 7919 + j * 104729) * 2654435761u;
    return abs(i - j) <= 1 || (h >> 28) % 6 == 0;
}

static double *block_new_zero(void)
{
    double *b = calloc((size_t)bs * bs, sizeof *b);
    if (!b) {
        fprintf(stderr, "sparselu: out of memory\n");
        exit(2);
    }
    return b;
}

/* Values in [-1, 1) from a generator seeded by the block position, so the
 * matrix does not depend on the order of generation.  Diagonal entries get
 * nb * bs added: the matrix is strictly diagonally dominant, so LU without
 * pivoting is stable. */
static void fill_block(double *b, int i, int j)
{
    uint64_t state = (uint64_t)(i * nb + j) * 0x9E3779B97F4A7C15ull + 1;
    for (int r = 0; r < bs; r++)
        for (int c = 0; c < bs; c++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            AT(b, r, c) = (double)(state >> 11) / (double)(1ull << 53) * 2.0 - 1.0;
            if (i == j && r == c)
                AT(b, r, c) += (double)nb * bs;
        }
}

/* Factorise a diagonal block in place: unit lower L below, U on and above. */
static void lu0(double *diag)
{
    for (int k = 0; k < bs; k++)
        for (int i = k + 1; i < bs; i++) {
            AT(diag, i, k) /= AT(diag, k, k);
            for (int j = k + 1; j < bs; j++)
                AT(diag, i, j) -= AT(diag, i, k) * AT(diag, k, j);
        }
}

/* Block right of the diagonal: col := L(diag)^-1 * col. */
static void fwd(const double *restrict diag, double *restrict col)
{
    for (int k = 0; k < bs; k++)
        for (int i = k + 1; i < bs; i++) {
            double factor = AT(diag, i, k);
            for (int j = 0; j < bs; j++)
                AT(col, i, j) -= factor * AT(col, k, j);
        }
}

/* Block below the diagonal: row := row * U(diag)^-1. */
static void bdiv(const double *restrict diag, double *restrict row)
{
    for (int i = 0; i < bs; i++)
        for (int k = 0; k < bs; k++) {
            double factor = AT(row, i, k) /= AT(diag, k, k);
            for (int j = k + 1; j < bs; j++)
                AT(row, i, j) -= factor * AT(diag, k, j);
        }
}

/* Trailing update: inner -= row * col.  (restrict and the hoisted factor
 * let the compiler keep the inner loop free of reloads, which also makes
 * its speed far less sensitive to code placement.) */
static void bmod(const double *restrict row, const double *restrict col,
                 double *restrict inner)
{
    for (int i = 0; i < bs; i++)
        for (int k = 0; k < bs; k++) {
            double factor = AT(row, i, k);
            for (int j = 0; j < bs; j++)
                AT(inner, i, j) -= factor * AT(col, k, j);
        }
}

static void sparselu(void)
{
    for (int kk = 0; kk < nb; kk++) {
        lu0(BLOCK(kk, kk));
        for (int jj = kk + 1; jj < nb; jj++)
            if (BLOCK(kk, jj)) {
#pragma omp task firstprivate(kk, jj)
                {
                    fwd(BLOCK(kk, kk), BLOCK(kk, jj));
                }
            }
        for (int ii = kk + 1; ii < nb; ii++)
            if (BLOCK(ii, kk)) {
#pragma omp task firstprivate(kk, ii)
                {
                    bdiv(BLOCK(kk, kk), BLOCK(ii, kk));
                }
            }
#pragma omp taskwait
        for (int ii = kk + 1; ii < nb; ii++)
            if (BLOCK(ii, kk))
                for (int jj = kk + 1; jj < nb; jj++)
                    if (BLOCK(kk, jj)) {
                        /* Each (ii, jj) gets one task per step: no race on
                         * the allocation of a fill-in block. */
#pragma omp task firstprivate(kk, ii, jj)
                        {
                            if (!BLOCK(ii, jj))
                                BLOCK(ii, jj) = block_new_zero();
                            bmod(BLOCK(ii, kk), BLOCK(kk, jj), BLOCK(ii, jj));
                        }
                    }
#pragma omp taskwait
    }
}

/* The same with dependences instead of taskwaits (see the top). */
static void sparselu_depend(void)
{
    for (int kk = 0; kk < nb; kk++)
        for (int ii = kk + 1; ii < nb; ii++)
            if (BLOCK(ii, kk))
                for (int jj = kk + 1; jj < nb; jj++)
                    if (BLOCK(kk, jj) && !BLOCK(ii, jj))
                        BLOCK(ii, jj) = block_new_zero();
    for (int kk = 0; kk < nb; kk++) {
#pragma omp task depend(inout: BLOCK(kk, kk)[0]) firstprivate(kk)
        lu0(BLOCK(kk, kk));
        for (int jj = kk + 1; jj < nb; jj++)
            if (BLOCK(kk, jj)) {
#pragma omp task depend(in: BLOCK(kk, kk)[0]) depend(inout: BLOCK(kk, jj)[0]) \
    firstprivate(kk, jj)
                fwd(BLOCK(kk, kk), BLOCK(kk, jj));
            }
        for (int ii = kk + 1; ii < nb; ii++)
            if (BLOCK(ii, kk)) {
#pragma omp task depend(in: BLOCK(kk, kk)[0]) depend(inout: BLOCK(ii, kk)[0]) \
    firstprivate(kk, ii)
                bdiv(BLOCK(kk, kk), BLOCK(ii, kk));
            }
        for (int ii = kk + 1; ii < nb; ii++)
            if (BLOCK(ii, kk))
                for (int jj = kk + 1; jj < nb; jj++)
                    if (BLOCK(kk, jj)) {
#pragma omp task depend(in: BLOCK(ii, kk)[0], BLOCK(kk, jj)[0]) \
    depend(inout: BLOCK(ii, jj)[0]) firstprivate(kk, ii, jj)
                        bmod(BLOCK(ii, kk), BLOCK(kk, jj), BLOCK(ii, jj));
                    }
    }
#pragma omp taskwait
}

/* y := y - B * x for one block (x, y of length bs). */
static void block_mult_sub(const double *b, const double *x, double *y)
{
    for (int r = 0; r < bs; r++)
        for (int c = 0; c < bs; c++)
            y[r] -= AT(b, r, c) * x[c];
}

/* Solve L U x = b in place (b becomes x) with the factors in `blocks`. */
static void solve(double *v)
{
    for (int bi = 0; bi < nb; bi++) {           /* forward: L y = b */
        double *yi = v + (size_t)bi * bs;
        for (int bj = 0; bj < bi; bj++)
            if (BLOCK(bi, bj))
                block_mult_sub(BLOCK(bi, bj), v + (size_t)bj * bs, yi);
        const double *d = BLOCK(bi, bi);
        for (int r = 0; r < bs; r++)
            for (int c = 0; c < r; c++)
                yi[r] -= AT(d, r, c) * yi[c];
    }
    for (int bi = nb - 1; bi >= 0; bi--) {      /* backward: U x = y */
        double *xi = v + (size_t)bi * bs;
        for (int bj = bi + 1; bj < nb; bj++)
            if (BLOCK(bi, bj))
                block_mult_sub(BLOCK(bi, bj), v + (size_t)bj * bs, xi);
        const double *d = BLOCK(bi, bi);
        for (int r = bs - 1; r >= 0; r--) {
            for (int c = r + 1; c < bs; c++)
                xi[r] -= AT(d, r, c) * xi[c];
            xi[r] /= AT(d, r, r);
        }
    }
}

static int count_blocks(void)
{
    int count = 0;
    for (size_t k = 0; k < (size_t)nb * nb; k++)
        count += blocks[k] != NULL;
    return count;
}

int main(int argc, char **argv)
{
    nb = argc > 1 ? atoi(argv[1]) : 12;
    bs = argc > 2 ? atoi(argv[2]) : 32;
    int depend = argc > 3 && strcmp(argv[3], "depend") == 0;
    if (nb < 1 || nb > 1000 || bs < 1 || bs > 1000) {
        fprintf(stderr, "sparselu: nb and bs must be in 1..1000\n");
        return 2;
    }
    size_t n = (size_t)nb * bs;
    blocks = calloc((size_t)nb * nb, sizeof *blocks);
    double *x_true = malloc(n * sizeof *x_true);
    double *v = calloc(n, sizeof *v);
    if (!blocks || !x_true || !v) {
        fprintf(stderr, "sparselu: out of memory\n");
        return 2;
    }
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < nb; j++)
            if (block_is_nonzero(i, j)) {
                BLOCK(i, j) = block_new_zero();
                fill_block(BLOCK(i, j), i, j);
            }
    int blocks_before = count_blocks();

    /* Right-hand side b = A x_true, kept in v (b is then solved in place). */
    for (size_t i = 0; i < n; i++)
        x_true[i] = 1.0 + (double)(i % 7) * 0.125;
    for (int bi = 0; bi < nb; bi++)
        for (int bj = 0; bj < nb; bj++)
            if (BLOCK(bi, bj))
                for (int r = 0; r < bs; r++)
                    for (int c = 0; c < bs; c++)
                        v[(size_t)bi * bs + r] +=
                            AT(BLOCK(bi, bj), r, c) * x_true[(size_t)bj * bs + c];

#pragma omp parallel
    {
#pragma omp single
        {
            if (depend)
                sparselu_depend();
            else
                sparselu();
        }
    }

    solve(v);
    double max_err = 0.0;
    for (size_t i = 0; i < n; i++)
        max_err = fmax(max_err, fabs(v[i] - x_true[i]) / x_true[i]);
    int ok = max_err < 1e-9;
    printf("sparselu: %d x %d blocks of %d x %d, %d non-zero blocks, %d after fill-in\n",
           nb, nb, bs, bs, blocks_before, count_blocks());
    printf("solution error %s 1e-9\n%s\n", ok ? "below" : "ABOVE", ok ? "OK" : "FAILED");
    for (size_t k = 0; k < (size_t)nb * nb; k++)
        free(blocks[k]);
    free(blocks);
    free(x_true);
    free(v);
    return ok ? 0 : 1;
}
