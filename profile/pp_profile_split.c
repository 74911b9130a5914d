/* Parameters on the event path: a call splits the current node.
 *
 * The current node n (the innermost open region of the current task, or an
 * explicit task's root) stops counting at the time of the thread's last
 * event (loc->last: the call reads no clock): the time of its visit up to
 * then stays there without a visit (PP_NODE_PARTIAL), and the visit goes on
 * in the sibling of the same region whose parameter set is n's with the new
 * value.  A call right after the region's enter or the task's begin (the
 * usual place) thus moves the whole visit; one after other events leaves
 * their time, children included, with n.  Visits summed over a region's
 * siblings equal the visits without parameters, and no time is counted
 * twice or lost.
 *
 * A task root has no parent in the thread's trees: its instance tree is kept
 * for its construct like a finished one, and the task goes on in a spare
 * tree of the merged root of (construct, new set) below TASKS, so each
 * construct's merged tree is split per value (pp_profile_instance.c).
 *
 * Cost: what the call resolves to (the new set, and for a task root the
 * merged root) is remembered per location, keyed by the path of n's parent,
 * n's key, the parameter and the value, so a repeated call costs a hash, a
 * few compares, a child lookup and the stores of a region enter; the global
 * tables (pp_profile_params.c) are asked on a miss only. */
#include "profile/pp_profile_internal.h"

#include "lib/pp_message.h"

static inline uint32_t pp_split_slot(const pp_path *path, uint64_t nkey, pp_param_key key,
                                     int64_t v, uint32_t mask)
{
    uint64_t x = (((uint64_t)(uintptr_t)path >> 4) ^ nkey ^ ((uint64_t)key << 24) ^ (uint64_t)v) *
                 0x9E3779B97F4A7C15ull;
    return (uint32_t)(x >> 40) & mask;
}

/* The memo missed: ask the site of the parameter at this call path (the
 * location remembers sites too) and remember the answer in e, unless it is
 * a string folded into "<other>" (its bytes are not kept anywhere, and such
 * strings may be endless).  Returns e, or NULL with *pset set. */
static __attribute__((noinline)) pp_param_memo *
pp_split_resolve_slow(pp_location *loc, pp_param_memo *e, const pp_path *path, uint64_t nkey,
                      pp_param_key key, const pp_param_value *val, uint32_t *pset)
{
    pp_param_site_memo *sm =
        &loc->site_memo[pp_split_slot(path, nkey, key, 0, PP_PARAM_SITES - 1)];
    if (!(sm->site && sm->path == path && sm->nkey == nkey && sm->key == key)) {
        pp_param_site *site = pp_profile_param_site(path, nkey, key);
        if (!site) {
            *pset = PP_PSET_NONE;
            return NULL;
        }
        *sm = (pp_param_site_memo){path, nkey, key, site};
    }
    const char *interned;
    *pset = pp_profile_param_site_value(sm->site, val, &interned);
    if (*pset == PP_PSET_NONE || (val->type == PP_PARAM_STRING && !interned))
        return NULL;
    e->path = path;
    e->nkey = nkey;
    e->key = key;
    e->val = *val;
    e->val.str = interned;
    e->pset = *pset;
    e->node = NULL;
    return e;
}

static inline pp_param_memo *pp_split_resolve(pp_location *loc, const pp_path *path,
                                              uint64_t nkey, pp_param_key key,
                                              const pp_param_value *val, uint32_t *pset)
{
    pp_param_memo *e = &loc->param_memo[pp_split_slot(path, nkey, key, val->v, PP_PARAM_CACHE - 1)];
    if (PP_LIKELY(e->path == path && e->nkey == nkey && e->key == key &&
                  pp_profile_param_value_eq(&e->val, val))) {
        *pset = e->pset;
        return e;
    }
    return pp_split_resolve_slow(loc, e, path, nkey, key, val, pset);
}

/* The node a call on n moves to: the child of parent for (n's region, pset),
 * remembered in e while it still is that (a recycled node has another parent
 * or key).  A plain lookup does not become the parent's last-entered child,
 * so the next entry of n's own region still finds it first. */
static inline pp_node *pp_split_target(pp_location *loc, pp_node *parent, pp_node *n,
                                       uint32_t pset, pp_param_memo *e, int force)
{
    uint64_t key = pp_node_key_of(n->region, pset);
    pp_node *s = e ? e->node : NULL;
    if (PP_LIKELY(s && s->parent == parent && s->key == key))
        return s;
    pp_node *last = parent->last_child;
    s = pp_profile_child(loc, parent, key, force);
    if (last)
        parent->last_child = last;
    if (e)
        e->node = s;
    return s;
}

/* n is a region node (an implicit task's floor too): move on to its sibling. */
static inline void pp_split_node(pp_location *loc, pp_task *t, pp_node *n, uint32_t pset,
                                 pp_param_memo *e, uint64_t now)
{
    pp_node *s = pp_split_target(loc, n->parent, n, pset, e, 0);
    if (PP_UNLIKELY(!s))
        return; /* depth or memory cap: counted, the visit stays unsplit */
    pp_profile_close_partial(loc, t, n, now);
    s->start = now - t->susp;
    t->pos = s;
    if (t->floor == n)
        t->floor = s;
    if (loc->n_ctr)
        pp_profile_counters_enter(loc, t, s);
}

/* n is explicit task t's root: keep its tree, go on in one of (construct, pset). */
static inline void pp_split_root(pp_location *loc, pp_task *t, pp_node *n, uint32_t pset,
                                 pp_param_memo *e, uint64_t now)
{
    pp_node *m = pp_split_target(loc, loc->tasks, n, pset, e, 1);
    if (!m)
        return;
    pp_node *r = pp_profile_instance_get(loc, m);
    if (!r) {
        PP_WARN_ONCE("out of memory for a task split by a parameter; it stays unsplit");
        return;
    }
    pp_profile_close_partial(loc, t, n, now);
    pp_profile_instance_keep(loc, t, n);
    r->start = now - t->susp;
    t->pos = t->floor = r;
    t->grew = 0; /* the kept tree got every twin it needs */
    if (loc->n_ctr)
        pp_profile_counters_enter(loc, t, r);
}

static inline __attribute__((always_inline)) void
pp_profile_parameter_loc(pp_location *loc, pp_param_key key, const pp_param_value *val)
{
    pp_task *t = loc->current;
    pp_node *n = t->pos;
    if (PP_UNLIKELY(t->fold || n->kind == PP_NODE_PROGRAM || key == PP_PARAM_INVALID)) {
        if (!t->fold && n->kind == PP_NODE_PROGRAM)
            PP_WARN_ONCE("a parameter outside of any region or task is ignored (it splits the "
                         "region or task it is called in)");
        return; /* inside a folded region: the region is not in the tree */
    }
    int root = n->kind == PP_NODE_TASK_ROOT;
    const pp_path *path;
    if (root)
        path = pp_profile_g.path_tasks;
    else if (PP_UNLIKELY(!n->parent) || !(path = pp_profile_node_path_fast(loc, n->parent)))
        return;
    uint32_t pset;
    pp_param_memo *e = pp_split_resolve(loc, path, n->key, key, val, &pset);
    if (PP_UNLIKELY(pset == PP_PSET_NONE) || pset == n->pset)
        return;
    if (PP_UNLIKELY(loc->trace != NULL)) /* the values now in force, at the last event's time */
        pp_trace_put(loc->trace, loc->last, PP_TRACE_PARAMS, pset);
    if (root)
        pp_split_root(loc, t, n, pset, e, loc->last);
    else
        pp_split_node(loc, t, n, pset, e, loc->last);
}

void pp_profile_parameter_int64(pp_param_key key, int64_t value)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL)) {
        pp_param_value v = {.v = value, .type = PP_PARAM_INT64};
        pp_profile_parameter_loc(loc, key, &v);
    }
    pp_profile_event_end();
}

void pp_profile_parameter_string(pp_param_key key, const char *value, size_t len)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL)) {
        if (!value)
            value = "", len = 0;
        if (len > UINT32_MAX)
            len = UINT32_MAX;
        pp_param_value v = {.v = (int64_t)pp_profile_param_hash(value, len),
                            .str = value,
                            .len = (uint32_t)len,
                            .type = PP_PARAM_STRING};
        pp_profile_parameter_loc(loc, key, &v);
    }
    pp_profile_event_end();
}
