/* wavefront: a 2-D wavefront of dependent tasks, the classic shape whose
 * parallelism the dependences decide.
 *
 *   wavefront [N [STEPS [TIMES_FILE]]]      (defaults: 8 x 8 blocks, 300000)
 *
 * Block (i, j) is one task: depend(in:) on its upper and left neighbours,
 * depend(out:) on itself, STEPS multiplications of work.  With equal blocks
 * the task graph's parallelism is N^2 / (2N - 1): the longest path crosses
 * 2N - 1 blocks.  Chains mode (CHAINS=K in the environment, N tasks each):
 * K independent chains (depend(inout:) on one cell per chain), parallelism K.
 *
 * It prints the blocks' checksum (the same at any number of threads) and
 * "OK" when the serial recomputation agrees.  With TIMES_FILE it writes one
 * line per task, "row column start end" (omp_get_wtime), for the tests'
 * ground truth. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

static uint64_t block(uint64_t up, uint64_t left, int i, int j, long steps)
{
    return slow_power(mix(up ^ (left << 1) ^ ((uint64_t)i << 32 | (uint64_t)j)) % MODULUS | 2,
                      (uint64_t)steps);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    long steps = argc > 2 ? atol(argv[2]) : 300000;
    const char *times = argc > 3 ? argv[3] : NULL;
    const char *chains_env = getenv("CHAINS");
    int chains = chains_env ? atoi(chains_env) : 0;
    int rows = chains ? chains : n;
    if (n < 1 || rows < 1 || steps < 0) {
        fprintf(stderr, "usage: wavefront [N [STEPS [TIMES_FILE]]]\n");
        return 2;
    }
    /* a[i][j]; row -1 and column -1 are the zero border */
    uint64_t(*a)[n + 1] = calloc((size_t)(rows + 1), sizeof *a);
    double(*t)[2] = calloc((size_t)rows * (size_t)n, sizeof *t);
    if (!a || !t)
        return 1;
#pragma omp parallel
#pragma omp single
    {
        if (chains) {
            /* step-major: the chains' tasks interleave in creation order */
            for (int j = 0; j < n; j++)
                for (int i = 0; i < rows; i++) {
#pragma omp task depend(inout: a[i + 1][0]) firstprivate(i, j)
                    {
                        t[i * n + j][0] = omp_get_wtime();
                        a[i + 1][0] = block(a[i + 1][0], 0, i, j, steps);
                        t[i * n + j][1] = omp_get_wtime();
                    }
                }
        } else {
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
#pragma omp task depend(in: a[i][j + 1], a[i + 1][j]) depend(out: a[i + 1][j + 1]) \
    firstprivate(i, j)
                    {
                        t[i * n + j][0] = omp_get_wtime();
                        a[i + 1][j + 1] = block(a[i][j + 1], a[i + 1][j], i, j, steps);
                        t[i * n + j][1] = omp_get_wtime();
                    }
                }
        }
    }
    uint64_t sum = 0;
    for (int i = 1; i <= rows; i++)
        for (int j = chains ? 0 : 1; j <= (chains ? 0 : n); j++)
            sum = mix(sum ^ a[i][j]);
    /* the same in order, serially (fast_power stands in for slow_power) */
    uint64_t(*b)[n + 1] = calloc((size_t)(rows + 1), sizeof *b);
    if (!b)
        return 1;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < n; j++) {
            uint64_t up = chains ? b[i + 1][0] : b[i][j + 1], left = chains ? 0 : b[i + 1][j];
            uint64_t base = mix(up ^ (left << 1) ^ ((uint64_t)i << 32 | (uint64_t)j)) % MODULUS | 2;
            b[i + 1][chains ? 0 : j + 1] = fast_power(base, (uint64_t)steps);
        }
    uint64_t check = 0;
    for (int i = 1; i <= rows; i++)
        for (int j = chains ? 0 : 1; j <= (chains ? 0 : n); j++)
            check = mix(check ^ b[i][j]);
    if (chains)
        printf("%d chains of %d tasks: checksum %016llx\n", rows, n, (unsigned long long)sum);
    else
        printf("wavefront %d x %d: checksum %016llx\n", n, n, (unsigned long long)sum);
    printf("%s\n", sum == check ? "OK" : "WRONG");
    if (times) {
        FILE *f = fopen(times, "w");
        if (!f)
            return 1;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < n; j++)
                fprintf(f, "%d %d %.9f %.9f\n", i, j, t[i * n + j][0], t[i * n + j][1]);
        fclose(f);
    }
    free(a), free(b), free(t);
    return sum == check ? 0 : 1;
}
