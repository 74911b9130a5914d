/* Call-tree nodes: per-location arena, free list, child lookup.
 *
 * Nodes come from 64 KiB chunks owned by one location (no malloc per node,
 * no sharing between threads).  Task-instance trees are kept for reuse
 * (pp_profile_instance.c) or their nodes go to a free list, so the arena
 * grows with the number of concurrently active instances and the tree
 * shapes, never with the number of tasks. */
#include "profile/pp_profile_internal.h"

#include <stdlib.h>
#include <string.h>

#include "lib/pp_message.h"

#define PP_ARENA_CHUNK (64 * 1024)

struct pp_chunk {
    pp_chunk *next;
    size_t size;
};

static void *pp_profile_arena_alloc(pp_location *loc, size_t size, int force)
{
    size = (size + 15) & ~(size_t)15;
    if (PP_UNLIKELY((size_t)(loc->arena_end - loc->arena_ptr) < size)) {
        size_t chunk = PP_ARENA_CHUNK;
        if (chunk < size + sizeof(pp_chunk) + 16)
            chunk = size + sizeof(pp_chunk) + 16;
        size_t used = __atomic_load_n(&pp_profile_g.memory_used, __ATOMIC_RELAXED);
        if (!force && pp_profile_g.memory_limit && used + chunk > pp_profile_g.memory_limit)
            return NULL;
        pp_chunk *c = malloc(chunk);
        if (!c) {
            PP_WARN_ONCE("out of memory for call-tree nodes; new call paths are folded into their parents");
            return NULL;
        }
        c->size = chunk;
        c->next = loc->chunks;
        loc->chunks = c;
        __atomic_fetch_add(&pp_profile_g.memory_used, chunk, __ATOMIC_RELAXED);
        loc->arena_bytes += chunk;
        loc->arena_ptr = (char *)c + ((sizeof(pp_chunk) + 15) & ~(size_t)15);
        loc->arena_end = (char *)c + chunk;
    }
    void *p = loc->arena_ptr;
    loc->arena_ptr += size;
    return p;
}

void pp_profile_arena_release(pp_location *loc)
{
    while (loc->chunks) {
        pp_chunk *n = loc->chunks->next;
        __atomic_fetch_sub(&pp_profile_g.memory_used, loc->chunks->size, __ATOMIC_RELAXED);
        free(loc->chunks);
        loc->chunks = n;
    }
    loc->arena_ptr = loc->arena_end = NULL;
    loc->node_free = NULL;
    loc->task_free = NULL;
}

pp_node *pp_profile_node_new(pp_location *loc, pp_node *parent, uint64_t key, int kind, int force)
{
    pp_node *n = loc->node_free;
    if (n)
        loc->node_free = n->next_sibling;
    else if (!(n = pp_profile_arena_alloc(loc, pp_profile_g.node_size, force)))
        return NULL;
    /* fixed-size part by assignment (inlined stores, no memset call) */
    *n = (pp_node){.key = key, .kind = (uint16_t)kind, .min = UINT64_MAX, .parent = parent};
    if (pp_profile_g.n_ctr)
        memset(n->ctr, 0, 2 * (size_t)pp_profile_g.n_ctr * sizeof(uint64_t));
    if (parent) {
        n->depth = parent->depth + 1;
        /* append: children keep the order of their first visit */
        pp_node **link = &parent->first_child;
        while (*link)
            link = &(*link)->next_sibling;
        /* the node is complete before it becomes reachable (finalize may
         * walk this tree from another thread) */
        __atomic_store_n(link, n, __ATOMIC_RELEASE);
    }
    return n;
}

static inline uint32_t pp_profile_child_hash(const pp_node *parent, uint64_t key)
{
    uint64_t x = ((uint64_t)(uintptr_t)parent >> 4) * 0x9E3779B97F4A7C15ull;
    x ^= (key ^ (key >> 29)) * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(x >> 40) & (PP_CHILD_HASH - 1);
}

pp_node *pp_profile_child_slow(pp_location *loc, pp_node *parent, uint64_t key, int force)
{
    /* Regions entered in turn (create task @13, create task @15, taskwait;
     * stubs of two task constructs) miss the last-child cache every time:
     * its next sibling and the first child catch those cycles without
     * hashing. */
    pp_node *c = parent->last_child;
    if (c && (c = c->next_sibling) && c->key == key)
        goto found;
    if ((c = parent->first_child) && c->key == key)
        goto found;
    uint32_t h = pp_profile_child_hash(parent, key);
    c = loc->child_hash[h];
    if (!(c && c->parent == parent && c->key == key)) {
        for (c = parent->first_child; c; c = c->next_sibling)
            if (c->key == key)
                break;
        if (!c) {
            if (!force && pp_profile_g.max_depth && parent->depth + 1 > pp_profile_g.max_depth) {
                loc->lost_depth++;
                return NULL;
            }
            c = pp_profile_node_new(loc, parent, key, PP_NODE_REGION, force);
            if (!c) {
                loc->lost_memory++;
                return NULL;
            }
            loc->current->grew = 1; /* its instance tree may have grown */
        }
        loc->child_hash[h] = c;
    }
found:
    parent->last_child = c;
    return c;
}

void pp_profile_subtree_free(pp_location *loc, pp_node *n)
{
    /* post-order without recursion: descend by detaching the first child */
    pp_node *cur = n;
    while (cur) {
        pp_node *c = cur->first_child;
        if (c) {
            cur->first_child = c->next_sibling;
            cur = c;
            continue;
        }
        pp_node *up = cur == n ? NULL : cur->parent;
        /* a stale hash entry must never match a free node */
        cur->parent = NULL;
        if (PP_UNLIKELY(cur->extra != NULL)) {
            cur->extra[0] = (uint64_t)(uintptr_t)loc->extra_free;
            loc->extra_free = cur->extra;
            cur->extra = NULL;
        }
        cur->region = PP_REGION_INVALID;
        cur->next_sibling = loc->node_free;
        loc->node_free = cur;
        cur = up;
    }
}

uint64_t *pp_profile_extra_values(pp_location *loc)
{
    uint64_t *v = loc->extra_free;
    if (v)
        loc->extra_free = (uint64_t *)(uintptr_t)v[0];
    else if (!(v = pp_profile_arena_alloc(loc, PP_PROFILE_EXTRA_MAX * sizeof *v, 1)))
        return NULL;
    memset(v, 0, PP_PROFILE_EXTRA_MAX * sizeof *v);
    return v;
}

pp_task *pp_profile_task_alloc(pp_location *loc, int is_explicit)
{
    pp_task **list = is_explicit ? &loc->task_free : &loc->implicit_free;
    pp_task *t = *list;
    size_t extra = 2 * (size_t)pp_profile_g.n_ctr * sizeof(uint64_t);
    if (t)
        *list = t->next;
    else if (!(t = pp_profile_arena_alloc(loc, sizeof(pp_task) + extra, 1)))
        return NULL;
    else if (is_explicit)
        loc->max_active_tasks++; /* every other explicit record is in use */
    /* field by field: a whole-struct zeroing becomes `rep stos`, whose
     * start-up cost is larger than a tiny task */
    t->handle = 0;
    t->pos = t->floor = NULL;
    t->susp = t->suspend_start = 0;
    t->fold = 0;
    t->is_explicit = t->suspended = t->moved = 0;
    t->region = 0;
    t->stub = NULL;
    t->next = t->parent_task = t->parent_implicit = NULL;
    t->csusp = NULL;
    t->grew = 0;
    if (extra) {
        t->csusp = (uint64_t *)(t + 1);
        memset(t->csusp, 0, extra);
    }
    return t;
}

/* The path of a program root or a task instance root. */
static pp_path *pp_profile_base_path(const pp_node *n)
{
    if (n->kind == PP_NODE_PROGRAM)
        return pp_profile_g.path_program;
    return pp_profile_path_child(pp_profile_g.path_tasks, n->region, n->pset);
}

pp_path *pp_profile_node_path(pp_location *loc, pp_node *n)
{
    (void)loc;
    if (n->path)
        return n->path;
    /* Climb to the nearest node that knows its path (or is a root), then
     * intern the paths on the way back down; iterative, as fork positions
     * may lie as deep as the program recursed. */
    pp_node *small[32], **chain = small;
    size_t cap = sizeof small / sizeof small[0], k = 0;
    pp_node *a = n;
    while (!a->path && a->parent) {
        if (k == cap) {
            pp_node **bigger = malloc(2 * cap * sizeof *bigger);
            if (!bigger) {
                PP_WARN_ONCE("out of memory for a fork path; workers attach below the program root");
                break;
            }
            memcpy(bigger, chain, k * sizeof *chain);
            if (chain != small)
                free(chain);
            chain = bigger;
            cap *= 2;
        }
        chain[k++] = a;
        a = a->parent;
    }
    pp_path *p = a->path;
    if (!p && (a->kind == PP_NODE_PROGRAM || a->kind == PP_NODE_TASK_ROOT))
        p = a->path = pp_profile_base_path(a);
    /* else: a root of another kind, or out of memory: no path */
    while (k > 0) {
        pp_node *m = chain[--k];
        p = p ? pp_profile_path_child(p, m->region, m->pset) : NULL;
        m->path = p;
    }
    if (chain != small)
        free(chain);
    return n->path;
}
