/* Tiled Cholesky factorisation A = L L^T with dependent tasks, the way a user
 * writes it from a textbook: one task per tile kernel (potrf, trsm, syrk,
 * gemm), ordered by depend clauses on the tiles.  A serial start (building a
 * symmetric positive definite matrix) and a serial end (checking L L^T = A)
 * frame the parallel region.
 *
 *   cholesky NT BS     NT x NT tiles of BS x BS doubles (default 6 32)
 *
 * Prints the largest error of L L^T against A on every third row (well below
 * 1e-8: checking all of it would take as long as the factorisation) and the task
 * counts per kernel: potrf NT, trsm and syrk NT(NT-1)/2, gemm NT(NT-1)(NT-2)/6.
 * A gemm task has three list items (two in, one inout), trsm and syrk two,
 * potrf one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int nt, bs;

/* a macro, not a function: the serial check calls it n^3 / 6 times, which a
 * --functions build would measure call by call */
#define tile(t, i, j) ((t)[(i) * nt + (j)])

static void potrf(double *a)
{
    for (int k = 0; k < bs; k++) {
        a[k * bs + k] = sqrt(a[k * bs + k]);
        for (int i = k + 1; i < bs; i++)
            a[i * bs + k] /= a[k * bs + k];
        for (int j = k + 1; j < bs; j++)
            for (int i = j; i < bs; i++)
                a[i * bs + j] -= a[i * bs + k] * a[j * bs + k];
    }
    for (int i = 0; i < bs; i++)
        for (int j = i + 1; j < bs; j++)
            a[i * bs + j] = 0;
}

/* b := b L^-T with L the lower triangle of l */
static void trsm(const double *l, double *b)
{
    for (int r = 0; r < bs; r++)
        for (int j = 0; j < bs; j++) {
            double s = b[r * bs + j];
            for (int k = 0; k < j; k++)
                s -= b[r * bs + k] * l[j * bs + k];
            b[r * bs + j] = s / l[j * bs + j];
        }
}

/* c := c - a a^T */
static void syrk(const double *a, double *c)
{
    for (int i = 0; i < bs; i++)
        for (int j = 0; j < bs; j++) {
            double s = 0;
            for (int k = 0; k < bs; k++)
                s += a[i * bs + k] * a[j * bs + k];
            c[i * bs + j] -= s;
        }
}

/* c := c - a b^T */
static void gemm(const double *a, const double *b, double *c)
{
    for (int i = 0; i < bs; i++)
        for (int j = 0; j < bs; j++) {
            double s = 0;
            for (int k = 0; k < bs; k++)
                s += a[i * bs + k] * b[j * bs + k];
            c[i * bs + j] -= s;
        }
}

int main(int argc, char **argv)
{
    nt = argc > 1 ? atoi(argv[1]) : 6;
    bs = argc > 2 ? atoi(argv[2]) : 32;
    int n = nt * bs;
    double **t = malloc(sizeof *t * nt * nt);
    double *a0 = malloc(sizeof *a0 * n * n);
    /* serial start: an SPD matrix (diagonally dominant), copied into tiles */
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double v = i == j ? n + 1.0 : 1.0 / (1 + i - j) + 0.01 * ((i * 7 + j * 3) % 11);
            a0[i * n + j] = a0[j * n + i] = v;
        }
    for (int i = 0; i < nt; i++)
        for (int j = 0; j < nt; j++) {
            double *p = t[i * nt + j] = malloc(sizeof *p * bs * bs);
            for (int r = 0; r < bs; r++)
                for (int c = 0; c < bs; c++)
                    p[r * bs + c] = a0[(i * bs + r) * n + j * bs + c];
        }
    int counts[4] = {0, 0, 0, 0};
#pragma omp parallel
#pragma omp single
    for (int k = 0; k < nt; k++) {
        double *akk = tile(t, k, k);
#pragma omp task depend(inout: akk[0])
        potrf(akk);
        counts[0]++;
        for (int i = k + 1; i < nt; i++) {
            double *aik = tile(t, i, k);
#pragma omp task depend(in: akk[0]) depend(inout: aik[0])
            trsm(akk, aik);
            counts[1]++;
        }
        for (int j = k + 1; j < nt; j++) {
            double *ajk = tile(t, j, k), *ajj = tile(t, j, j);
#pragma omp task depend(in: ajk[0]) depend(inout: ajj[0])
            syrk(ajk, ajj);
            counts[2]++;
            for (int i = j + 1; i < nt; i++) {
                double *aik = tile(t, i, k), *aij = tile(t, i, j);
#pragma omp task depend(in: aik[0], ajk[0]) depend(inout: aij[0])
                gemm(aik, ajk, aij);
                counts[3]++;
            }
        }
    }
    /* serial end: the largest error of L L^T against A, on every third row */
    double err = 0;
    for (int i = 0; i < n; i += 3)
        for (int j = 0; j <= i; j++) {
            double s = 0;
            for (int k = 0; k <= j; k++)
                s += tile(t, i / bs, k / bs)[(i % bs) * bs + k % bs] *
                     tile(t, j / bs, k / bs)[(j % bs) * bs + k % bs];
            double e = fabs(s - a0[i * n + j]);
            if (e > err)
                err = e;
        }
    printf("error %s\n", err < 1e-8 ? "below 1e-8" : "TOO LARGE");
    printf("potrf %d trsm %d syrk %d gemm %d\n", counts[0], counts[1], counts[2], counts[3]);
    for (int i = 0; i < nt * nt; i++)
        free(t[i]);
    free(t);
    free(a0);
    return err < 1e-8 ? 0 : 1;
}
