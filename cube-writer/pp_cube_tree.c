/* Ordered forests as index links: the shape of the metric, call and system
 * trees.  Kept as links (not recursion-friendly child arrays) so every walk
 * is iterative: a call tree may be as deep as the program recursed. */
#include <stdlib.h>

#include "cube-writer/pp_cube_internal.h"

void pp_cube_forest_init(pp_cube_forest *forest)
{
    forest->parent = NULL;
    forest->first_child = NULL;
    forest->last_child = NULL;
    forest->next_sibling = NULL;
    forest->count = 0;
    forest->cap = 0;
    forest->first_root = -1;
    forest->last_root = -1;
}

void pp_cube_forest_free(pp_cube_forest *forest)
{
    free(forest->parent);
    free(forest->first_child);
    free(forest->last_child);
    free(forest->next_sibling);
    pp_cube_forest_init(forest);
}

/* Grows all four link arrays together; a partial failure leaves the larger
 * arrays in place, which is harmless because cap is only raised at the end. */
static int pp_cube_forest_reserve(pp_cube_forest *forest, int need)
{
    if (need <= forest->cap)
        return 0;
    int cap = forest->cap ? forest->cap : 16;
    while (cap < need) {
        if (cap > (1 << 29))
            return -1;
        cap *= 2;
    }
    int **arrays[] = {&forest->parent, &forest->first_child, &forest->last_child,
                      &forest->next_sibling};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        int *grown = realloc(*arrays[i], (size_t)cap * sizeof(int));
        if (!grown)
            return -1;
        *arrays[i] = grown;
    }
    forest->cap = cap;
    return 0;
}

int pp_cube_forest_add(pp_cube_forest *forest, int parent)
{
    if (pp_cube_forest_reserve(forest, forest->count + 1) != 0)
        return -1;
    int node = forest->count++;
    forest->parent[node] = parent;
    forest->first_child[node] = -1;
    forest->last_child[node] = -1;
    forest->next_sibling[node] = -1;
    int *first = parent < 0 ? &forest->first_root : &forest->first_child[parent];
    int *last = parent < 0 ? &forest->last_root : &forest->last_child[parent];
    if (*last < 0)
        *first = node;
    else
        forest->next_sibling[*last] = node;
    *last = node;
    return node;
}

int pp_cube_forest_walk(const pp_cube_forest *forest, pp_cube_forest_visit enter,
                        pp_cube_forest_visit leave, void *ctx)
{
    int node = forest->first_root;
    while (node >= 0) {
        int rc = enter ? enter(ctx, node) : 0;
        if (rc)
            return rc;
        if (forest->first_child[node] >= 0) {
            node = forest->first_child[node];
            continue;
        }
        /* Leaf: close it and every ancestor whose last child it ends, until
         * a node with a following sibling is found (roots are siblings). */
        for (;;) {
            rc = leave ? leave(ctx, node) : 0;
            if (rc)
                return rc;
            if (forest->next_sibling[node] >= 0) {
                node = forest->next_sibling[node];
                break;
            }
            node = forest->parent[node];
            if (node < 0)
                break;
        }
    }
    return 0;
}
