/* uts: unbalanced tree search in the style of the BOTS "uts" benchmark: count
 * the nodes of a tree whose shape is made up as it is searched.  Every node
 * but the root has m children with probability q, else none (a binomial
 * tree: with q * m just below 1 it stays finite, and its subtrees are very
 * unequal); the root has r children.  A node's child count comes from a hash
 * of its id, so the tree is the same in every run.  One task per node, no
 * cut-off: many small tasks of unpredictable depth.
 *
 * usage: uts [r]    (default 200 root children; the benchmark uses 9) */
#include <stdio.h>
#include <stdlib.h>

#include "work.h"

#define UTS_M 8
#define UTS_Q 1249 /* per 10,000: q = 0.1249, q * m = 0.9992 */

/* How many children the node with this id has. */
static int children(uint64_t id)
{
    return mix(id) % 10000 < UTS_Q ? UTS_M : 0;
}

/* The nodes of the subtree below (and with) the node id. */
static long search(uint64_t id, int n)
{
    long counts[UTS_M];
    long total = 1;

    for (int i = 0; i < n; i++) {
        uint64_t child = mix(id * UTS_M + (uint64_t)i + 1);
#pragma omp task shared(counts) firstprivate(i, child)
        counts[i] = search(child, children(child));
    }
#pragma omp taskwait
    for (int i = 0; i < n; i++)
        total += counts[i];
    return total;
}

/* The same, serially, to check the result. */
static long search_serial(uint64_t id, int n)
{
    long total = 1;
    for (int i = 0; i < n; i++) {
        uint64_t child = mix(id * UTS_M + (uint64_t)i + 1);
        total += search_serial(child, children(child));
    }
    return total;
}

int main(int argc, char **argv)
{
    int r = argc > 1 ? atoi(argv[1]) : 200;
    long nodes = 0;

    if (r < 0 || r > 100000) {
        fprintf(stderr, "uts: r must be in 0..100000\n");
        return 2;
    }
#pragma omp parallel
    {
#pragma omp single
        {
            long counts = 1;
            /* the root's children, each a task of its own */
            long *below = calloc((size_t)r + 1, sizeof *below);
            for (int i = 0; below && i < r; i++) {
                uint64_t child = mix((uint64_t)i + 1);
#pragma omp task shared(below) firstprivate(i, child)
                below[i] = search(child, children(child));
            }
#pragma omp taskwait
            for (int i = 0; below && i < r; i++)
                counts += below[i];
            free(below);
            nodes = counts;
        }
    }
    long check = 1;
    for (int i = 0; i < r; i++) {
        uint64_t child = mix((uint64_t)i + 1);
        check += search_serial(child, children(child));
    }
    int ok = nodes == check;
    printf("uts(%d) = %ld nodes\n%s\n", r, nodes, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
