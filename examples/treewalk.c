/* treewalk: traverse a deterministic pseudo-random tree, one task per node,
 * with irregular work per node.
 *
 * The tree is never stored: a node is its 64-bit seed, and the seed fixes
 * the number of children (0..4, the root always has 4) and the amount of
 * work (0..16000 modular multiplications, ~0..60 microseconds).  The
 * work computes seed^k mod p by k multiplications; the check recomputes it
 * with fast exponentiation (log k steps), so verifying costs almost
 * nothing next to the traversal.
 *
 * usage: treewalk [depth]   (default 8; the benchmark uses 13) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

#define MAX_CHILDREN 4

static int child_count(uint64_t seed, int depth, int max_depth)
{
    if (depth >= max_depth)
        return 0;
    if (depth == 0)
        return MAX_CHILDREN;
    return (int)(mix(seed ^ 0x5555) % (MAX_CHILDREN + 1));
}

static uint64_t child_seed(uint64_t seed, int i)
{
    return mix(seed * 31 + (uint64_t)i + 1);
}

static uint64_t work_amount(uint64_t seed)
{
    return mix(seed ^ 0xAAAA) % 16001;
}

static uint64_t work_base(uint64_t seed)
{
    return 2 + seed % (MODULUS - 3);
}

typedef struct {
    uint64_t sum;   /* sum of all node values in the subtree, mod 2^64 */
    long nodes;     /* number of nodes in the subtree */
} subtree_result;

/* Visit a node: do its work, then visit its children in tasks. */
static subtree_result visit(uint64_t seed, int depth, int max_depth)
{
    subtree_result children[MAX_CHILDREN];
    subtree_result r = {slow_power(work_base(seed), work_amount(seed)), 1};
    int n = child_count(seed, depth, max_depth);

    for (int i = 0; i < n; i++) {
#pragma omp task shared(children) firstprivate(i, seed, depth, max_depth)
        {
            children[i] = visit(child_seed(seed, i), depth + 1, max_depth);
        }
    }
#pragma omp taskwait
    for (int i = 0; i < n; i++) {
        r.sum += children[i].sum;
        r.nodes += children[i].nodes;
    }
    return r;
}

/* The same traversal, serially and with the fast power. */
static subtree_result visit_check(uint64_t seed, int depth, int max_depth)
{
    subtree_result r = {fast_power(work_base(seed), work_amount(seed)), 1};
    int n = child_count(seed, depth, max_depth);

    for (int i = 0; i < n; i++) {
        subtree_result c = visit_check(child_seed(seed, i), depth + 1, max_depth);
        r.sum += c.sum;
        r.nodes += c.nodes;
    }
    return r;
}

int main(int argc, char **argv)
{
    int max_depth = argc > 1 ? atoi(argv[1]) : 8;
    const uint64_t root = 20240601;
    subtree_result result = {0, 0};

    if (max_depth < 0 || max_depth > 30) {
        fprintf(stderr, "treewalk: depth must be in 0..30\n");
        return 2;
    }
#pragma omp parallel
    {
#pragma omp single
        result = visit(root, 0, max_depth);
    }
    subtree_result expected = visit_check(root, 0, max_depth);
    int ok = result.sum == expected.sum && result.nodes == expected.nodes;
    printf("tree of depth %d: %ld nodes, checksum %016llx\n%s\n", max_depth,
           result.nodes, (unsigned long long)result.sum, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
