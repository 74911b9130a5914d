/* Two packed profiles of disjoint ranks as one (pp_mpi_pack.h): the step of
 * the binary-tree unification (pp_mpi_unify.c).
 *
 * - regions by identity (their packed bytes): a's, then b's that a lacks.
 *   Two regions of one program can look alike (a `parallel` and the
 *   `single` inside it that end on the same line have implicit barriers of
 *   the same name, file and lines): the i-th of b's regions with some
 *   identity pairs with the i-th of a's (every rank defines its POMP2
 *   regions in the same order), so distinct regions stay distinct and no
 *   two nodes of one input ever fall on one node of the output;
 * - parameter sets by identity (their packed bytes, entries sorted by
 *   name): a's, then b's that a lacks;
 * - counters and extra metrics by name: a's, then b's new ones;
 * - locations: a's, then b's (a holds the lower ranks, so the columns stay
 *   in rank order);
 * - call paths by their path from the root: a node of b joins the node of
 *   a with the same region and parameter set below the joined parent, or is
 *   added after a's children.  TASKS stays the root's last child.
 *
 * Time and memory are linear in the two inputs (hash tables for regions,
 * parameter sets and (parent, region, set)); the values are copied, never expanded to dense
 * rows, so a step holds the inputs, the output and a few words per node. */
#include "mpi/pp_mpi_pack.h"

#include <stdlib.h>
#include <string.h>

static uint64_t pp_mpi_hash_bytes(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

static size_t pp_mpi_pow2(size_t n)
{
    size_t c = 16;
    while (c < 2 * n)
        c *= 2;
    return c;
}

/* b's regions as output indexes: the index of a's first region of the
 * same identity not paired yet, else the next new one.  Returns the number
 * of b's regions that are new, or -1. */
static long pp_mpi_merge_regions(const pp_mpi_view *a, const pp_mpi_view *b, uint32_t *map)
{
    size_t cap = pp_mpi_pow2(a->n_regions), mask = cap - 1;
    uint32_t *slot = malloc(cap * sizeof *slot);
    unsigned char *paired = calloc(a->n_regions + 1, 1);
    if (!slot || !paired) {
        free(slot);
        free(paired);
        return -1;
    }
    memset(slot, 0xff, cap * sizeof *slot);
    for (uint32_t k = 0; k < a->n_regions; k++) {
        size_t n = a->region_end[k] - a->region_at[k];
        size_t h = pp_mpi_hash_bytes(a->data + a->region_at[k], n) & mask;
        while (slot[h] != PP_MPI_NONE)
            h = (h + 1) & mask;
        slot[h] = k;
    }
    long added = 0;
    for (uint32_t k = 0; k < b->n_regions; k++) {
        const unsigned char *p = b->data + b->region_at[k];
        size_t n = b->region_end[k] - b->region_at[k];
        map[k] = PP_MPI_NONE;
        /* a's regions of one identity lie in the probe sequence in index
         * order (inserted in that order from the same home slot) */
        for (size_t h = pp_mpi_hash_bytes(p, n) & mask; slot[h] != PP_MPI_NONE; h = (h + 1) & mask) {
            uint32_t j = slot[h];
            if (!paired[j] && a->region_end[j] - a->region_at[j] == n &&
                memcmp(a->data + a->region_at[j], p, n) == 0) {
                map[k] = j;
                paired[j] = 1;
                break;
            }
        }
        if (map[k] == PP_MPI_NONE)
            map[k] = a->n_regions + (uint32_t)added++;
    }
    free(slot);
    free(paired);
    return added;
}

/* b's parameter sets as output indexes: a's set with the same bytes, else
 * the next new one (equal sets of b map to one).  Returns the number of new
 * sets, or -1. */
static long pp_mpi_merge_psets(const pp_mpi_view *a, const pp_mpi_view *b, uint32_t *map)
{
    size_t cap = pp_mpi_pow2((size_t)a->n_psets + b->n_psets), mask = cap - 1;
    uint32_t *slot = malloc(cap * sizeof *slot); /* output index: a's, then b's new */
    const unsigned char **at = malloc(((size_t)a->n_psets + b->n_psets + 1) * sizeof *at);
    size_t *len = malloc(((size_t)a->n_psets + b->n_psets + 1) * sizeof *len);
    if (!slot || !at || !len) {
        free(slot), free(at), free(len);
        return -1;
    }
    memset(slot, 0xff, cap * sizeof *slot);
    uint32_t n = 0;
    for (uint32_t k = 0; k < a->n_psets + b->n_psets; k++) {
        const pp_mpi_view *v = k < a->n_psets ? a : b;
        uint32_t j = k < a->n_psets ? k : k - a->n_psets;
        const unsigned char *p = v->data + v->pset_at[j];
        size_t bytes = v->pset_end[j] - v->pset_at[j];
        size_t h = pp_mpi_hash_bytes(p, bytes) & mask;
        uint32_t found = PP_MPI_NONE;
        for (; slot[h] != PP_MPI_NONE; h = (h + 1) & mask)
            if (len[slot[h]] == bytes && memcmp(at[slot[h]], p, bytes) == 0) {
                found = slot[h];
                break;
            }
        if (found == PP_MPI_NONE) {
            found = slot[h] = n++;
            at[found] = p;
            len[found] = bytes;
        }
        if (v == b)
            map[j] = found;
    }
    free(slot), free(at), free(len);
    return (long)n - a->n_psets;
}

/* b's metric names (counters or extras) as output indexes. */
static uint32_t pp_mpi_merge_names(const pp_mpi_str *an, uint32_t na, const pp_mpi_str *bn,
                                   uint32_t nb, uint32_t *map)
{
    uint32_t added = 0;
    for (uint32_t k = 0; k < nb; k++) {
        map[k] = PP_MPI_NONE;
        for (uint32_t j = 0; j < na && map[k] == PP_MPI_NONE; j++)
            if (an[j].n == bn[k].n && memcmp(an[j].s, bn[k].s, bn[k].n) == 0)
                map[k] = j;
        for (uint32_t j = 0; j < k && map[k] == PP_MPI_NONE; j++)
            if (map[j] >= na && bn[j].n == bn[k].n && memcmp(bn[j].s, bn[k].s, bn[k].n) == 0)
                map[k] = map[j];
        if (map[k] == PP_MPI_NONE)
            map[k] = na + added++;
    }
    return added;
}

/* The merged call tree: nodes with their sources in a and b. */
typedef struct pp_mpi_tree {
    uint32_t n, cap;
    uint32_t *parent, *region, *pset, *first, *last, *next, *from_a, *from_b;
    uint32_t *slot; /* (parent, region, pset) -> node */
    size_t mask;
} pp_mpi_tree;

static size_t pp_mpi_key(uint32_t parent, uint32_t region, uint32_t pset, size_t mask)
{
    uint64_t x = (uint64_t)parent * 0x9E3779B97F4A7C15ull ^
                 ((uint64_t)pset << 32 | region) * 0xC2B2AE3D27D4EB4Full;
    return (size_t)(x ^ (x >> 29)) & mask;
}

static int pp_mpi_tree_init(pp_mpi_tree *t, uint32_t cap)
{
    *t = (pp_mpi_tree){.cap = cap};
    uint32_t **arrays[] = {&t->parent, &t->region, &t->pset, &t->first, &t->last,
                           &t->next, &t->from_a, &t->from_b};
    int ok = 1;
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        ok &= (*arrays[i] = malloc((cap ? cap : 1) * sizeof(uint32_t))) != NULL;
    size_t slots = pp_mpi_pow2(cap);
    t->slot = malloc(slots * sizeof *t->slot);
    t->mask = slots - 1;
    if (!ok || !t->slot)
        return -1;
    memset(t->slot, 0xff, slots * sizeof *t->slot);
    return 0;
}

static void pp_mpi_tree_free(pp_mpi_tree *t)
{
    free(t->parent), free(t->region), free(t->pset), free(t->first), free(t->last), free(t->next);
    free(t->from_a), free(t->from_b), free(t->slot);
}

/* The child of parent for (region, pset), added (last) when missing. */
static uint32_t pp_mpi_tree_child(pp_mpi_tree *t, uint32_t parent, uint32_t region, uint32_t pset)
{
    size_t h = pp_mpi_key(parent, region, pset, t->mask);
    for (; t->slot[h] != PP_MPI_NONE; h = (h + 1) & t->mask) {
        uint32_t m = t->slot[h];
        if (t->parent[m] == parent && t->region[m] == region && t->pset[m] == pset)
            return m;
    }
    uint32_t m = t->n++;
    t->slot[h] = m;
    t->parent[m] = parent;
    t->region[m] = region;
    t->pset[m] = pset;
    t->first[m] = t->last[m] = t->next[m] = PP_MPI_NONE;
    t->from_a[m] = t->from_b[m] = PP_MPI_NONE;
    if (parent != PP_MPI_NONE) {
        if (t->last[parent] == PP_MPI_NONE)
            t->first[parent] = m;
        else
            t->next[t->last[parent]] = m;
        t->last[parent] = m;
    }
    return m;
}

/* Add the nodes of v (regions through rmap, sets through pmap; NULL: as
 * they are). */
static void pp_mpi_tree_add(pp_mpi_tree *t, const pp_mpi_view *v, const uint32_t *rmap,
                            const uint32_t *pmap, uint32_t *from, uint32_t *node_of)
{
    for (uint32_t k = 0; k < v->n_nodes; k++) {
        uint32_t r = rmap ? rmap[v->region[k]] : v->region[k];
        uint32_t p = pmap ? pmap[v->pset[k]] : v->pset[k];
        uint32_t m;
        if (k == 0) /* the roots are one node, whatever the programs' names */
            m = t->n ? 0 : pp_mpi_tree_child(t, PP_MPI_NONE, r, p);
        else
            m = pp_mpi_tree_child(t, node_of[v->parent[k]], r, p);
        node_of[k] = m;
        from[m] = k;
    }
}

/* The root's child of the TASKS region goes last. */
static void pp_mpi_tree_tasks_last(pp_mpi_tree *t, uint32_t tasks_region)
{
    if (!t->n || tasks_region == PP_MPI_NONE)
        return;
    uint32_t prev = PP_MPI_NONE;
    for (uint32_t c = t->first[0]; c != PP_MPI_NONE; prev = c, c = t->next[c]) {
        if (t->region[c] != tasks_region)
            continue;
        if (c == t->last[0])
            return;
        if (prev == PP_MPI_NONE)
            t->first[0] = t->next[c];
        else
            t->next[prev] = t->next[c];
        t->next[t->last[0]] = c;
        t->next[c] = PP_MPI_NONE;
        t->last[0] = c;
        return;
    }
}

/* Copy node k's entries of v, locations shifted by loc_offset, counters and
 * extras moved to their output columns. */
static void pp_mpi_copy_entries(pp_mpi_buf *out, const pp_mpi_view *v, uint32_t k,
                                uint32_t loc_offset, const uint32_t *ctr_map, uint32_t n_ctr,
                                const uint32_t *extra_map, uint32_t n_extra)
{
    uint64_t ctr[64], extra[64];
    uint64_t *c = n_ctr <= 64 ? ctr : calloc(n_ctr, sizeof *c);
    uint64_t *x = n_extra <= 64 ? extra : calloc(n_extra, sizeof *x);
    if (!c || !x) {
        out->failed = 1;
        goto done;
    }
    size_t at = v->entries_at[k];
    for (uint32_t e = 0; e < v->entries[k]; e++) {
        pp_mpi_buf_u32(out, pp_mpi_get_u32(v, &at) + loc_offset);
        for (int i = 0; i < 5; i++) /* visits, time, min, max, max active */
            pp_mpi_buf_u64(out, pp_mpi_get_u64(v, &at));
        memset(c, 0, n_ctr * sizeof *c);
        memset(x, 0, n_extra * sizeof *x);
        for (uint32_t j = 0; j < v->n_ctr; j++)
            c[ctr_map ? ctr_map[j] : j] = pp_mpi_get_u64(v, &at);
        for (uint32_t j = 0; j < v->n_extra; j++)
            x[extra_map ? extra_map[j] : j] = pp_mpi_get_u64(v, &at);
        pp_mpi_buf_put(out, c, n_ctr * sizeof *c);
        pp_mpi_buf_put(out, x, n_extra * sizeof *x);
    }
done:
    if (c != ctr)
        free(c);
    if (x != extra)
        free(x);
}

/* The tables after the header: a's counter and extra names, regions,
 * locations and parameter sets, each followed by b's that a lacks (the maps
 * say which: an entry mapped to the next new index is new). */
static void pp_mpi_merge_tables(pp_mpi_buf *out, const pp_mpi_view *a, const pp_mpi_view *b,
                                const uint32_t *cmap, const uint32_t *xmap, const uint32_t *rmap,
                                const uint32_t *pmap)
{
    for (uint32_t k = 0; k < a->n_ctr; k++)
        pp_mpi_buf_str(out, a->ctr_names[k].s, a->ctr_names[k].n);
    for (uint32_t k = 0, next = a->n_ctr; k < b->n_ctr; k++)
        if (cmap[k] == next) {
            pp_mpi_buf_str(out, b->ctr_names[k].s, b->ctr_names[k].n);
            next++;
        }
    for (uint32_t k = 0; k < a->n_extra; k++)
        pp_mpi_buf_str(out, a->extra_names[k].s, a->extra_names[k].n);
    for (uint32_t k = 0, next = a->n_extra; k < b->n_extra; k++)
        if (xmap[k] == next) {
            pp_mpi_buf_str(out, b->extra_names[k].s, b->extra_names[k].n);
            next++;
        }
    if (a->n_regions)
        pp_mpi_buf_put(out, a->data + a->region_at[0], a->region_end[a->n_regions - 1] - a->region_at[0]);
    for (uint32_t k = 0, next = a->n_regions; k < b->n_regions; k++)
        if (rmap[k] == next) {
            pp_mpi_buf_put(out, b->data + b->region_at[k], b->region_end[k] - b->region_at[k]);
            next++;
        }
    pp_mpi_buf_put(out, a->data + a->locations_at, a->locations_end - a->locations_at);
    pp_mpi_buf_put(out, b->data + b->locations_at, b->locations_end - b->locations_at);
    if (a->n_psets)
        pp_mpi_buf_put(out, a->data + a->pset_at[0], a->pset_end[a->n_psets - 1] - a->pset_at[0]);
    for (uint32_t k = 0, next = a->n_psets; k < b->n_psets; k++)
        if (pmap[k] == next) {
            pp_mpi_buf_put(out, b->data + b->pset_at[k], b->pset_end[k] - b->pset_at[k]);
            next++;
        }
}

/* The merged tree's nodes in pre-order, each with its entries of a and of
 * b (out_id: the output number of each node, filled on the way). */
static void pp_mpi_merge_nodes(pp_mpi_buf *out, const pp_mpi_tree *tp, const pp_mpi_view *a,
                               const pp_mpi_view *b, const uint32_t *cmap, const uint32_t *xmap,
                               uint32_t n_ctr, uint32_t n_extra, uint32_t *out_id)
{
    const pp_mpi_tree t = *tp;
    uint32_t id = 0;
    for (uint32_t m = t.n ? 0 : PP_MPI_NONE; m != PP_MPI_NONE && !out->failed;) {
        out_id[m] = id++;
        uint32_t ka = t.from_a[m], kb = t.from_b[m];
        pp_mpi_buf_u32(out, t.parent[m] == PP_MPI_NONE ? PP_MPI_NONE : out_id[t.parent[m]]);
        pp_mpi_buf_u32(out, t.region[m]);
        pp_mpi_buf_u32(out, t.pset[m]);
        pp_mpi_buf_u32(out, (ka != PP_MPI_NONE ? a->entries[ka] : 0) +
                                (kb != PP_MPI_NONE ? b->entries[kb] : 0));
        if (ka != PP_MPI_NONE)
            pp_mpi_copy_entries(out, a, ka, 0, NULL, n_ctr, NULL, n_extra);
        if (kb != PP_MPI_NONE)
            pp_mpi_copy_entries(out, b, kb, a->n_loc, cmap, n_ctr, xmap, n_extra);
        /* next in pre-order */
        if (t.first[m] != PP_MPI_NONE) {
            m = t.first[m];
            continue;
        }
        while (m != PP_MPI_NONE && t.next[m] == PP_MPI_NONE)
            m = t.parent[m];
        m = m == PP_MPI_NONE ? PP_MPI_NONE : t.next[m];
    }
}

int pp_mpi_merge(const pp_mpi_view *a, const pp_mpi_view *b, pp_mpi_buf *out)
{
    *out = (pp_mpi_buf){0};
    pp_mpi_tree t = {0};
    uint32_t *rmap = malloc((b->n_regions + 1) * sizeof *rmap);
    uint32_t *cmap = malloc((b->n_ctr + 1) * sizeof *cmap);
    uint32_t *xmap = malloc((b->n_extra + 1) * sizeof *xmap);
    uint32_t *pmap = malloc(((size_t)b->n_psets + 1) * sizeof *pmap);
    uint32_t *node_a = malloc((a->n_nodes + 1) * sizeof *node_a);
    uint32_t *node_b = malloc((b->n_nodes + 1) * sizeof *node_b);
    uint32_t *out_id = NULL;
    long new_regions = -1, new_psets = -1;
    if (!rmap || !cmap || !xmap || !pmap || !node_a || !node_b ||
        pp_mpi_tree_init(&t, a->n_nodes + b->n_nodes) ||
        (new_regions = pp_mpi_merge_regions(a, b, rmap)) < 0 ||
        (new_psets = pp_mpi_merge_psets(a, b, pmap)) < 0 ||
        !(out_id = malloc((t.cap + 1) * sizeof *out_id))) {
        out->failed = 1;
        goto done;
    }
    uint32_t n_ctr = a->n_ctr + pp_mpi_merge_names(a->ctr_names, a->n_ctr, b->ctr_names, b->n_ctr, cmap);
    uint32_t n_extra = a->n_extra + pp_mpi_merge_names(a->extra_names, a->n_extra, b->extra_names,
                                                        b->n_extra, xmap);
    pp_mpi_tree_add(&t, a, NULL, NULL, t.from_a, node_a);
    pp_mpi_tree_add(&t, b, rmap, pmap, t.from_b, node_b);
    uint32_t tasks = a->tasks_region != PP_MPI_NONE ? a->tasks_region
                     : b->tasks_region != PP_MPI_NONE ? rmap[b->tasks_region]
                                                      : PP_MPI_NONE;
    pp_mpi_tree_tasks_last(&t, tasks);

    /* header, names, regions, locations */
    pp_mpi_buf_put(out, a->data, 8); /* the magic */
    pp_mpi_buf_u32(out, a->n_loc + b->n_loc);
    pp_mpi_buf_u32(out, n_ctr);
    pp_mpi_buf_u32(out, n_extra);
    pp_mpi_buf_u32(out, a->n_regions + (uint32_t)new_regions);
    pp_mpi_buf_u32(out, t.n);
    pp_mpi_buf_u32(out, tasks);
    pp_mpi_buf_u32(out, a->n_psets + (uint32_t)new_psets);
    pp_mpi_merge_tables(out, a, b, cmap, xmap, rmap, pmap);

    /* the nodes in pre-order */
    pp_mpi_merge_nodes(out, &t, a, b, cmap, xmap, n_ctr, n_extra, out_id);
done:
    free(rmap), free(cmap), free(xmap), free(pmap), free(node_a), free(node_b), free(out_id);
    pp_mpi_tree_free(&t);
    if (out->failed) {
        pp_mpi_buf_free(out);
        return -1;
    }
    return 0;
}
