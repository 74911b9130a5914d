/* The dependence graph of depend clauses, by OpenMP's rules, from the items
 * the trace recorded at each task's creation (doc/trace.md, "Dependences").
 *
 * Only sibling tasks depend on each other, in creation order, so each task
 * keeps the dependence state of its children: per storage location (a list
 * item's address), the last task that wrote it (out, inout) and the current
 * "set" of tasks that may run side by side on it (consecutive in, or
 * consecutive inoutset, or consecutive mutexinoutset items), with the tasks
 * that set waits for.  A new item of kind k:
 * - out, inout: after the current set if there is one, else after the
 *   last writer; it becomes the last writer and the set is emptied;
 * - in, inoutset, mutexinoutset: joins the current set if the set is of
 *   its kind (then it waits for what the set waits for), else starts a new
 *   set that waits for the old set (or, if none, the last writer).
 * These are OpenMP 5.x's rules (in waits for out, inout, inoutset and
 * mutexinoutset; inoutset for all but inoutset; mutexinoutset for all but
 * mutexinoutset; out and inout for everything), with only the edges that
 * are not implied by others.  Mutual exclusion among mutexinoutset tasks is
 * not an edge: they wait for no one of their set.  A taskwait depend waits
 * like a task with its items would, without changing the state.
 *
 * The edges feed readiness (a task is ready once its predecessors
 * completed), the span (a task begins with at least each predecessor's
 * span at its end) and the graph export. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

#include <stdlib.h>
#include <string.h>

typedef struct pp_replay_tlist {
    pp_replay_task **v;
    uint32_t n, cap;
} pp_replay_tlist;

typedef struct pp_replay_storage {
    uint64_t addr; /* 0: an empty slot (address 0 is kept apart) */
    pp_replay_task *writer;
    uint32_t set_kind;
    pp_replay_tlist set, before; /* the current set, what it waits for */
} pp_replay_storage;

struct pp_replay_depmap {
    pp_replay_storage *slots;
    uint64_t cap, n;
    pp_replay_storage zero; /* address 0 */
};

static void pp_replay_tlist_add(pp_replay_tlist *l, pp_replay_task *t)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4;
        l->v = pp_replay_resize(l->v, l->cap, sizeof *l->v);
    }
    l->v[l->n++] = t;
    t->refs++;
}

static void pp_replay_tlist_clear(pp_replay_tlist *l)
{
    for (uint32_t i = 0; i < l->n; i++)
        pp_replay_task_release(l->v[i]);
    l->n = 0;
}

static void pp_replay_tlist_copy(pp_replay_tlist *dst, const pp_replay_tlist *src)
{
    pp_replay_tlist_clear(dst);
    for (uint32_t i = 0; i < src->n; i++)
        pp_replay_tlist_add(dst, src->v[i]);
}

/* ---- the state per storage --------------------------------------------------------- */

static uint64_t pp_replay_addr_hash(uint64_t a)
{
    return (a >> 3) * 0x9E3779B97F4A7C15ull;
}

static pp_replay_storage *pp_replay_storage_get(pp_replay_depmap *m, uint64_t addr);

static void pp_replay_depmap_grow(pp_replay_depmap *m)
{
    pp_replay_storage *old = m->slots;
    uint64_t cap = m->cap;
    m->cap = cap ? 2 * cap : 16;
    m->slots = pp_replay_alloc_zero(m->cap, sizeof *m->slots);
    m->n = 0;
    for (uint64_t i = 0; i < cap; i++)
        if (old[i].addr)
            *pp_replay_storage_get(m, old[i].addr) = old[i];
    free(old);
}

static pp_replay_storage *pp_replay_storage_get(pp_replay_depmap *m, uint64_t addr)
{
    if (addr == 0)
        return &m->zero;
    if (2 * (m->n + 1) > m->cap)
        pp_replay_depmap_grow(m);
    uint64_t mask = m->cap - 1;
    for (uint64_t i = pp_replay_addr_hash(addr) >> 16 & mask;; i = (i + 1) & mask) {
        if (m->slots[i].addr == addr)
            return &m->slots[i];
        if (!m->slots[i].addr) {
            m->slots[i].addr = addr;
            m->n++;
            return &m->slots[i];
        }
    }
}

static void pp_replay_storage_clear(pp_replay_storage *s)
{
    if (s->writer)
        pp_replay_task_release(s->writer);
    s->writer = NULL;
    pp_replay_tlist_clear(&s->set);
    pp_replay_tlist_clear(&s->before);
    free(s->set.v);
    free(s->before.v);
}

void pp_replay_depend_forget(pp_replay_task *parent)
{
    pp_replay_depmap *m = parent->children_deps;
    if (!m)
        return;
    parent->children_deps = NULL;
    for (uint64_t i = 0; i < m->cap; i++)
        if (m->slots[i].addr)
            pp_replay_storage_clear(&m->slots[i]);
    pp_replay_storage_clear(&m->zero);
    free(m->slots);
    free(m);
}

/* ---- edges ------------------------------------------------------------------------- */

static int pp_replay_is_set_kind(uint32_t k)
{
    return k == PP_DEP_IN || k == PP_DEP_INOUTSET || k == PP_DEP_MUTEXINOUTSET;
}

/* Add the predecessors of an item of kind k on s to preds (task: the new
 * task, updating s; NULL: a taskwait depend, leaving s alone). */
static void pp_replay_item_preds(pp_replay_storage *s, uint32_t k, pp_replay_task *task,
                                 pp_replay_tlist *preds)
{
    const pp_replay_tlist *from = NULL;
    pp_replay_task *writer = NULL;
    int same_set = pp_replay_is_set_kind(k) && s->set.n && s->set_kind == k;
    if (same_set)
        from = &s->before;
    else if (s->set.n)
        from = &s->set;
    else
        writer = s->writer;
    for (uint32_t i = 0; from && i < from->n; i++)
        pp_replay_tlist_add(preds, from->v[i]);
    if (writer)
        pp_replay_tlist_add(preds, writer);
    if (!task)
        return;
    if (!pp_replay_is_set_kind(k)) {
        if (s->writer)
            pp_replay_task_release(s->writer);
        s->writer = task;
        task->refs++;
        pp_replay_tlist_clear(&s->set);
        pp_replay_tlist_clear(&s->before);
    } else if (!same_set) {
        pp_replay_tlist before = {0};
        if (s->set.n)
            pp_replay_tlist_copy(&before, &s->set);
        else if (s->writer)
            pp_replay_tlist_add(&before, s->writer);
        pp_replay_tlist_clear(&s->before);
        free(s->before.v);
        s->before = before;
        pp_replay_tlist_clear(&s->set);
        s->set_kind = k;
        pp_replay_tlist_add(&s->set, task);
    } else {
        pp_replay_tlist_add(&s->set, task);
    }
}

static void pp_replay_edge_add(pp_replay *r, pp_replay_task *from, pp_replay_task *to)
{
    if (!from->inst || !to->inst)
        return;
    if (r->n_edges == r->cap_edges) {
        r->cap_edges = r->cap_edges ? 2 * r->cap_edges : 256;
        r->edges = pp_replay_resize(r->edges, r->cap_edges, sizeof *r->edges);
    }
    r->edges[r->n_edges++] = (pp_replay_edge){from->inst - 1, to->inst - 1};
}

static void pp_replay_succ_add(pp_replay_task *pred, pp_replay_task *succ, int wait)
{
    if (pred->n_succ == pred->cap_succ) {
        pred->cap_succ = pred->cap_succ ? 2 * pred->cap_succ : 4;
        pred->succ = pp_replay_resize(pred->succ, pred->cap_succ, sizeof *pred->succ);
    }
    pred->succ[pred->n_succ++] = (pp_replay_succ){succ, wait};
    succ->refs++;
}

/* The span of a completed predecessor reaches t (at its begin, or at the
 * end of its taskwait depend). */
static void pp_replay_span_max(uint64_t *span, uint64_t *rspan, pp_replay_seg **seg,
                               const pp_replay_task *pred)
{
    if (pred->rspan > *rspan)
        *rspan = pred->rspan;
    if (*seg && pred->span <= *span)
        return;
    pp_replay_seg_ref(pred->seg);
    pp_replay_seg_unref(*seg);
    *seg = pred->seg;
    *span = pred->span;
}

uint32_t pp_replay_depend_add(pp_replay *r, pp_replay_task *parent, pp_replay_task *task,
                              const pp_replay_dep *items, uint32_t n, uint64_t now)
{
    (void)now;
    if (!parent->children_deps)
        parent->children_deps = pp_replay_alloc_zero(1, sizeof *parent->children_deps);
    pp_replay_tlist preds = {0};
    for (uint32_t i = 0; i < n; i++) {
        if (items[i].kind < PP_DEP_IN || items[i].kind >= PP_DEP_UNKNOWN)
            continue;
        pp_replay_item_preds(pp_replay_storage_get(parent->children_deps, items[i].addr),
                             items[i].kind, task, &preds);
    }
    uint32_t open = 0;
    pp_replay_task *waiter = task ? task : parent;
    for (uint32_t i = 0; i < preds.n; i++) {
        pp_replay_task *p = preds.v[i];
        int seen = p == task;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = preds.v[j] == p;
        if (seen)
            continue;
        if (task)
            pp_replay_edge_add(r, p, task);
        if (p->completed) {
            if (task)
                pp_replay_span_max(&task->dep_span, &task->dep_rspan, &task->dep_seg, p);
            else
                pp_replay_span_max(&parent->wait_span, &parent->wait_rspan, &parent->wait_seg, p);
        } else {
            pp_replay_succ_add(p, waiter, task == NULL);
            open++;
        }
    }
    pp_replay_tlist_clear(&preds);
    free(preds.v);
    return open;
}

void pp_replay_depend_complete(pp_replay *r, pp_replay_task *t, uint64_t now)
{
    pp_replay_succ *succ = t->succ;
    uint32_t n = t->n_succ;
    t->succ = NULL;
    t->n_succ = t->cap_succ = 0;
    for (uint32_t i = 0; i < n; i++) {
        pp_replay_task *s = succ[i].task;
        if (succ[i].wait) {
            pp_replay_span_max(&s->wait_span, &s->wait_rspan, &s->wait_seg, t);
            if (s->wait_open && --s->wait_open == 0)
                pp_replay_check_tied(r, s, now);
        } else {
            pp_replay_span_max(&s->dep_span, &s->dep_rspan, &s->dep_seg, t);
            if (s->dep_open && --s->dep_open == 0)
                pp_replay_task_ready(r, s, now);
        }
        pp_replay_task_release(s);
    }
    free(succ);
}

void pp_replay_depend_free(pp_replay_task *t)
{
    for (uint32_t i = 0; i < t->n_succ; i++)
        pp_replay_task_release(t->succ[i].task);
    free(t->succ);
    t->succ = NULL;
    t->n_succ = 0;
    pp_replay_depend_forget(t);
    pp_replay_seg_unref(t->dep_seg);
    pp_replay_seg_unref(t->wait_seg);
    t->dep_seg = t->wait_seg = NULL;
}

/* ---- the span's path through the instances ------------------------------------------ */

void pp_replay_depend_mark_critical(pp_replay *r)
{
    for (pp_replay_seg *s = r->span_seg; s; s = s->pred)
        if (s->inst && s->inst <= r->n_insts)
            r->insts[s->inst - 1].critical = 1;
}
