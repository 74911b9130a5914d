/* Row order of a metric's data member: CubeLib does not store rows by cnode
 * id but by a per-metric "local position" that depends on the metric kind
 * (doc/cube4-layout.md, "Data and index members").  Getting this wrong is silent: values land on the wrong
 * call paths.  Both orders are derived from the same child order that the
 * XML writer uses, so the file stays self-consistent. */
#include "cube-writer/pp_cube_internal.h"

typedef struct {
    const pp_cube_forest *forest;
    int *order;
    int next;
} pp_cube_rows_ctx;

/* EXCLUSIVE: plain depth-first pre-order over all roots. */
static int pp_cube_rows_emit_preorder(void *ctx, int node)
{
    pp_cube_rows_ctx *rows = ctx;
    rows->order[rows->next++] = node;
    return 0;
}

/* INCLUSIVE: CubeLib's visit(n) emits n only if it is a root, then all of
 * n's children, then recurses into each child.  The recursion visits nodes
 * in pre-order, so "at each pre-order node, emit its children" is the same
 * order without recursion. */
static int pp_cube_rows_emit_levels(void *ctx, int node)
{
    pp_cube_rows_ctx *rows = ctx;
    const pp_cube_forest *f = rows->forest;
    if (f->parent[node] < 0)
        rows->order[rows->next++] = node;
    for (int child = f->first_child[node]; child >= 0; child = f->next_sibling[child])
        rows->order[rows->next++] = child;
    return 0;
}

void pp_cube_rows_order(const pp_cube_forest *cnodes, pp_cube_kind kind, int *order)
{
    pp_cube_rows_ctx rows = {cnodes, order, 0};
    switch (kind) {
    case PP_CUBE_INCLUSIVE:
    /* SIMPLE too: cubew would store SIMPLE rows by cnode id, but CubeLib 4.8
     * has no SIMPLE metric class - Metric::create() falls through to the
     * inclusive one, which reads rows in the inclusive order (checked with
     * cube_dump on a tree whose id order differs).  The reader decides. */
    case PP_CUBE_SIMPLE:
        pp_cube_forest_walk(cnodes, pp_cube_rows_emit_levels, NULL, &rows);
        break;
    case PP_CUBE_EXCLUSIVE:
    default:
        pp_cube_forest_walk(cnodes, pp_cube_rows_emit_preorder, NULL, &rows);
        break;
    }
}
