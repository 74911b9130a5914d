/* Unification at the end: all locations' trees become one call tree.
 *
 *   program root            <- every location's main tree, by region path
 *     ...  fork path ...    <- worker trees hang below the path their team was
 *                              forked at (copied ancestors: visits 0, inclusive
 *                              time = the worker subtree's time)
 *     TASKS                 <- one subtree per task construct (the merged
 *                              instance trees); time = sum of its children,
 *                              NOT added to the program root (CubeLib splits
 *                              TASKS off the root: doc/cube4-layout.md);
 *                              min/max time = those of its whole subtree
 *
 * A call path is (parent, region, parameter set): siblings of one region
 * split by parameters stay apart, the same set on two threads meets.
 *
 * Runs once, off the event path; plain malloc is fine here.  Every walk is
 * iterative: the profile may be written on the signal flusher's small stack
 * (lib/pp_signals.c) and call trees can be as deep as the program recursed. */
#include "profile/pp_profile_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/pp_counters.h"
#include "lib/pp_message.h"
#include "profile/pp_profile_unify.h"
#include "profile/pp_profile_names.h"

/* ---- the unified tree ------------------------------------------------------------ */

typedef struct pp_unify_ctx {
    pp_unified *u;
    uint32_t n_loc, n_ctr;
    /* (parent, region, parameter set) -> child, open addressing */
    pp_unode **slots;
    size_t n_slots, n_used;
    int failed;
} pp_unify_ctx;

static size_t pp_unify_hash(const pp_unode *parent, pp_region_id region, uint32_t pset,
                            size_t mask)
{
    uint64_t x = ((uint64_t)(uintptr_t)parent >> 4) * 0x9E3779B97F4A7C15ull;
    x ^= pp_node_key_of(region, pset) * 0xC2B2AE3D27D4EB4Full;
    return (size_t)(x ^ (x >> 29)) & mask;
}

static int pp_unify_grow(pp_unify_ctx *c)
{
    size_t n = c->n_slots ? c->n_slots * 2 : 1024;
    pp_unode **s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < c->n_slots; i++) {
        pp_unode *e = c->slots[i];
        if (!e)
            continue;
        size_t h = pp_unify_hash(e->parent, e->region, e->pset, n - 1);
        while (s[h])
            h = (h + 1) & (n - 1);
        s[h] = e;
    }
    free(c->slots);
    c->slots = s;
    c->n_slots = n;
    return 0;
}

pp_unode *pp_unified_add_child(pp_unified *u, pp_unode *parent, pp_region_id region,
                               uint32_t pset)
{
    size_t n_loc = u->n_locations, per = 4 + (size_t)u->n_counters + u->n_extra;
    pp_unode *n = calloc(1, sizeof *n + per * n_loc * sizeof(uint64_t));
    if (!n)
        return NULL;
    uint64_t *v = (uint64_t *)(n + 1);
    n->region = region;
    n->pset = pset;
    n->visits = v;
    n->time = v + n_loc;
    n->min_time = v + 2 * n_loc;
    n->max_time = v + 3 * n_loc;
    n->counters = v + 4 * n_loc;
    n->extra = v + (4 + u->n_counters) * n_loc;
    for (size_t i = 0; i < n_loc; i++)
        n->min_time[i] = UINT64_MAX;
    n->parent = parent;
    if (parent) {
        if (parent->last_child)
            parent->last_child->next_sibling = n;
        else
            parent->first_child = n;
        parent->last_child = n;
    }
    u->n_nodes++;
    return n;
}

static pp_unode *pp_unode_new(pp_unify_ctx *c, pp_unode *parent, pp_region_id region,
                              uint32_t pset)
{
    pp_unode *n = pp_unified_add_child(c->u, parent, region, pset);
    if (!n)
        c->failed = 1;
    return n;
}

static pp_unode *pp_unify_child(pp_unify_ctx *c, pp_unode *parent, pp_region_id region,
                                uint32_t pset)
{
    if ((c->n_used + 1) * 2 > c->n_slots && pp_unify_grow(c)) {
        c->failed = 1;
        return NULL;
    }
    region = pp_profile_region_canonical(region); /* regions named late may be one */
    size_t mask = c->n_slots - 1, h = pp_unify_hash(parent, region, pset, mask);
    for (; c->slots[h]; h = (h + 1) & mask)
        if (c->slots[h]->parent == parent && c->slots[h]->region == region &&
            c->slots[h]->pset == pset)
            return c->slots[h];
    pp_unode *n = pp_unode_new(c, parent, region, pset);
    if (n) {
        c->slots[h] = n;
        c->n_used++;
    }
    return n;
}

/* Add node n's own values (location i) into un. */
static void pp_unify_values(pp_unify_ctx *c, pp_unode *un, const pp_node *n, uint32_t i)
{
    un->visits[i] += n->visits;
    un->time[i] += n->sum;
    if (n->min < un->min_time[i])
        un->min_time[i] = n->min;
    if (n->max > un->max_time[i])
        un->max_time[i] = n->max;
    for (uint32_t k = 0; k < c->n_ctr; k++)
        un->counters[k * c->n_loc + i] += n->ctr[c->n_ctr + k];
    if (PP_UNLIKELY(n->extra != NULL))
        for (uint32_t k = 0; k < c->u->n_extra; k++)
            un->extra[k * c->n_loc + i] += n->extra[k];
}

/* A node that holds nothing: no visit, no time, no counts, no children.  A
 * parameter called right at a region's entry or a task's begin leaves such a
 * node behind (the plain one it moved the visit away from); it is not
 * written, so a profile shows only call paths where something was measured. */
static int pp_unify_empty(const pp_unify_ctx *c, const pp_node *n)
{
    if (n->visits || n->sum || n->first_child)
        return 0;
    for (uint32_t k = 0; k < c->n_ctr; k++)
        if (n->ctr[c->n_ctr + k])
            return 0;
    return 1;
}

/* Add node top (location i) and its subtree into un, in pre-order, empty
 * leaves left out.  The unified node of the current node is tracked
 * alongside: going down creates or finds the child, going up follows the
 * unified parent, which mirrors the tree's parent by construction. */
static void pp_unify_add(pp_unify_ctx *c, pp_unode *un, const pp_node *top, uint32_t i)
{
    const pp_node *n = top, *next = top->first_child;
    pp_unify_values(c, un, n, i);
    for (;;) {
        while (!next) { /* n's subtree is done: on to its next sibling */
            if (n == top)
                return;
            next = n->next_sibling;
            n = n->parent;
            un = un->parent;
        }
        if (pp_unify_empty(c, next)) {
            next = next->next_sibling;
            continue;
        }
        pp_unode *un_next = pp_unify_child(c, un, next->region, next->pset);
        if (!un_next)
            return; /* out of memory: reported once the walk is over */
        n = next;
        un = un_next;
        pp_unify_values(c, un, n, i);
        next = n->first_child;
    }
}

/* The unified node for a fork path (created along the way, zero values). */
static pp_unode *pp_unify_path(pp_unify_ctx *c, const pp_path *p)
{
    if (!p || !p->parent)
        return c->u->root;
    /* the path from below the root down to p, root end first */
    size_t depth = 0;
    for (const pp_path *q = p; q->parent; q = q->parent)
        depth++;
    const pp_path **chain = malloc(depth * sizeof *chain);
    if (!chain) {
        c->failed = 1;
        return NULL;
    }
    size_t k = depth;
    for (const pp_path *q = p; q->parent; q = q->parent)
        chain[--k] = q;
    pp_unode *un = c->u->root;
    for (k = 0; k < depth && un; k++)
        un = pp_unify_child(c, un, chain[k]->region, chain[k]->pset);
    free(chain);
    return un;
}

/* A worker subtree of inclusive value `add` hangs below un: every copied
 * ancestor includes it, up to the program root, but never TASKS (nor the
 * root above it). */
static void pp_unify_add_upwards(pp_unify_ctx *c, pp_unode *un, uint32_t i, uint64_t time,
                                 const uint64_t *ctr)
{
    pp_unode *tasks = c->u->tasks;
    for (pp_unode *a = un; a; a = a->parent) {
        if (a == tasks)
            return;
        a->time[i] += time;
        for (uint32_t k = 0; k < c->n_ctr; k++)
            a->counters[k * c->n_loc + i] += ctr[k];
    }
}

static void pp_unify_location(pp_unify_ctx *c, pp_location *loc)
{
    pp_unified *u = c->u;
    uint32_t i = loc->index;
    uint64_t ctr[PP_COUNTERS_MAX];

    /* main tree; a location that never entered the program root (a worker)
     * gets the sum of what hangs below it */
    pp_unify_add(c, u->root, loc->root, i);
    if (loc->root->visits == 0) {
        uint64_t t = 0;
        memset(ctr, 0, sizeof ctr);
        for (const pp_node *ch = loc->root->first_child; ch; ch = ch->next_sibling) {
            t += ch->sum;
            for (uint32_t k = 0; k < c->n_ctr; k++)
                ctr[k] += ch->ctr[c->n_ctr + k];
        }
        u->root->time[i] += t;
        for (uint32_t k = 0; k < c->n_ctr; k++)
            u->root->counters[k * c->n_loc + i] += ctr[k];
    }
    /* worker trees below their fork paths */
    for (const pp_node *w = loc->workers; w; w = w->next_sibling) {
        pp_unode *at = pp_unify_path(c, w->path);
        if (!at)
            continue;
        uint64_t t = 0;
        memset(ctr, 0, sizeof ctr);
        for (const pp_node *ch = w->first_child; ch; ch = ch->next_sibling) {
            if (pp_unify_empty(c, ch))
                continue;
            pp_unode *uc = pp_unify_child(c, at, ch->region, ch->pset);
            if (uc)
                pp_unify_add(c, uc, ch, i);
            t += ch->sum;
            for (uint32_t k = 0; k < c->n_ctr; k++)
                ctr[k] += ch->ctr[c->n_ctr + k];
        }
        pp_unify_add_upwards(c, at, i, t, ctr);
    }
    /* merged task trees below TASKS */
    for (const pp_node *m = loc->tasks->first_child; m; m = m->next_sibling) {
        if (pp_unify_empty(c, m))
            continue;
        pp_unode *uc = pp_unify_child(c, u->tasks, m->region, m->pset);
        if (!uc)
            continue;
        pp_unify_add(c, uc, m, i);
        if (!uc->max_active && !(uc->max_active = calloc(c->n_loc, sizeof(uint64_t)))) {
            c->failed = 1;
            continue;
        }
        uc->max_active[i] = m->instances_max;
    }
    u->max_active_tasks[i] = loc->max_active_tasks;
}

static int pp_unify_number(pp_unode *n, int id)
{
    /* pre-order ids, iteratively (trees can be deep) */
    pp_unode *cur = n;
    while (cur) {
        cur->id = id++;
        if (cur->first_child) {
            cur = cur->first_child;
            continue;
        }
        while (cur && cur != n && !cur->next_sibling)
            cur = cur->parent;
        if (!cur || cur == n)
            break;
        cur = cur->next_sibling;
    }
    return id;
}

/* Every location is a thread of this process, on this host. */
static int pp_unify_locations(pp_unified *u)
{
    char host[256] = "localhost";
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    const char *process = pp_profile_g.process_name[0] ? pp_profile_g.process_name : "Process";
    size_t nh = strlen(host) + 1, np = strlen(process) + 1;
    u->locations = calloc(u->n_locations ? u->n_locations : 1, sizeof *u->locations);
    u->strings = malloc(nh + np);
    if (!u->locations || !u->strings)
        return -1;
    memcpy(u->strings, host, nh);
    memcpy(u->strings + nh, process, np);
    for (uint32_t i = 0; i < u->n_locations; i++)
        u->locations[i] = (pp_unified_location){.host = u->strings, .process = u->strings + nh,
                                                .rank = pp_profile_g.process_rank, .thread = i};
    return 0;
}

pp_unified *pp_profile_unify_at(uint64_t now)
{
    if (!pp_profile_g.started || !pp_profile_g.config_enable || !pp_profile_g.first)
        return NULL;
    /* a location whose thread finalize gave up waiting for is being
     * written to (pp_profile_quiesce.c): left out, its thread shows none */
    for (pp_location *l = pp_profile_g.first; l; l = l->next)
        if (!l->busy_at_end)
            pp_profile_close_location(l, now);

    pp_unified *u = calloc(1, sizeof *u);
    pp_unify_ctx c = {.u = u, .n_loc = pp_profile_g.n_locations, .n_ctr = pp_profile_g.n_ctr};
    if (!u)
        return NULL;
    u->n_locations = c.n_loc;
    u->n_counters = c.n_ctr;
    u->n_extra = pp_profile_extra_count();
    u->t_finalize = now;
    u->ticks_per_second = pp_timer_ticks_per_second();
    for (uint32_t k = 0; k < c.n_ctr && k < PP_COUNTERS_MAX; k++)
        u->counter_names[k] = pp_counters_name((int)k);
    u->max_active_tasks = calloc(c.n_loc ? c.n_loc : 1, sizeof(uint64_t));
    u->root = pp_unode_new(&c, NULL, pp_profile_g.program_region, 0);
    if (u->root)
        u->tasks = pp_unify_child(&c, u->root, pp_profile_g.tasks_region, 0);
    if (!u->max_active_tasks || !u->root || !u->tasks || pp_unify_locations(u)) {
        free(c.slots);
        pp_unified_free(u);
        return NULL;
    }
    for (pp_location *l = pp_profile_g.first; l; l = l->next)
        if (!l->busy_at_end)
            pp_unify_location(&c, l);
    free(c.slots);
    if (c.failed)
        pp_message_warn("out of memory while unifying the threads' call trees; parts are missing");

    /* TASKS: the sum of the task constructs' inclusive values, visits 0;
     * the min and max of single visits anywhere in its subtree (what a
     * minimum/maximum metric shows as TASKS' inclusive value) */
    pp_unode *t = u->tasks;
    for (pp_unode *ch = t->first_child; ch; ch = ch->next_sibling)
        for (uint32_t i = 0; i < c.n_loc; i++) {
            t->time[i] += ch->time[i];
            for (uint32_t k = 0; k < c.n_ctr; k++)
                t->counters[k * c.n_loc + i] += ch->counters[k * c.n_loc + i];
        }
    for (pp_unode *n = t->first_child; n; n = pp_unified_next_below(n, t))
        for (uint32_t i = 0; i < c.n_loc; i++) {
            if (n->min_time[i] < t->min_time[i])
                t->min_time[i] = n->min_time[i];
            if (n->max_time[i] > t->max_time[i])
                t->max_time[i] = n->max_time[i];
        }
    /* TASKS moves to the end of the root's children (or goes when empty) */
    pp_unode **link = &u->root->first_child, *prev = NULL;
    while (*link != t)
        prev = *link, link = &(*link)->next_sibling;
    *link = t->next_sibling;
    if (u->root->last_child == t)
        u->root->last_child = prev;
    t->next_sibling = NULL;
    if (t->first_child) {
        if (u->root->last_child)
            u->root->last_child->next_sibling = t;
        else
            u->root->first_child = t;
        u->root->last_child = t;
    } else {
        u->n_nodes--;
        free(t);
        u->tasks = NULL;
    }
    pp_unify_number(u->root, 0);
    return u;
}

pp_unified *pp_unified_new(uint32_t n_locations, uint32_t n_counters, uint32_t n_extra,
                           pp_region_id root_region)
{
    pp_unified *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    u->n_locations = n_locations;
    u->n_counters = n_counters < PP_COUNTERS_MAX ? n_counters : PP_COUNTERS_MAX;
    u->n_extra = n_extra < PP_PROFILE_EXTRA_MAX ? n_extra : PP_PROFILE_EXTRA_MAX;
    u->max_active_tasks = calloc(n_locations ? n_locations : 1, sizeof(uint64_t));
    u->locations = calloc(n_locations ? n_locations : 1, sizeof *u->locations);
    if (!u->max_active_tasks || !u->locations || !(u->root = pp_unified_add_child(u, NULL, root_region, 0))) {
        pp_unified_free(u);
        return NULL;
    }
    return u;
}

void pp_unified_number(pp_unified *u)
{
    pp_unify_number(u->root, 0);
}

void pp_unified_free(pp_unified *u)
{
    if (!u)
        return;
    pp_unode *cur = u->root;
    while (cur) { /* post-order, detaching children as we descend */
        pp_unode *ch = cur->first_child;
        if (ch) {
            cur->first_child = ch->next_sibling;
            cur = ch;
            continue;
        }
        pp_unode *up = cur->parent;
        free(cur->max_active);
        free(cur);
        cur = up;
    }
    free(u->max_active_tasks);
    free(u->locations);
    free(u->strings);
    free(u);
}

pp_unode *pp_unified_child(const pp_unode *parent, pp_region_id region)
{
    if (!parent)
        return NULL;
    for (pp_unode *c = parent->first_child; c; c = c->next_sibling)
        if (c->region == region)
            return c;
    return NULL;
}

pp_unode *pp_unified_child_pset(const pp_unode *parent, pp_region_id region, uint32_t pset)
{
    if (!parent)
        return NULL;
    for (pp_unode *c = parent->first_child; c; c = c->next_sibling)
        if (c->region == region && c->pset == pset)
            return c;
    return NULL;
}

int64_t pp_unified_exclusive(const pp_unified *u, const pp_unode *n, uint32_t location)
{
    int64_t x = (int64_t)n->time[location];
    for (const pp_unode *c = n->first_child; c; c = c->next_sibling)
        if (c != u->tasks)
            x -= (int64_t)c->time[location];
    return x;
}
