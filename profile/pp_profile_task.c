/* Explicit tasks: instance trees, switches, stubs, merging.
 *
 * Placement of stubs follows the reference (Score-P 8.4, see the golden
 * profiles): a fragment of an explicit task is recorded as a stub node in
 * the *implicit* task's tree, at the scheduling point the implicit task is
 * waiting in, also when the task started inside another explicit task's
 * taskwait or creation.  The instance trees therefore contain no stubs, and
 * a suspended task's open regions (stopped clock) never contain time of
 * other tasks, so no exclusive time can become negative.
 *
 * The events' tiers (_fast, _general, _other, _any, _at) are those of
 * pp_profile_events.c, whose header has their legend. */
#include "profile/pp_profile_internal.h"

#include "lib/pp_message.h"
#include "lib/pp_timer.h"
#include "profile/pp_profile_migrate.h"

/* ---- the active instances (per location, newest first) -------------------- */

/* Tied tasks run nested on a thread, so the task a scheduling point's end
 * resumes is the newest active one, and the task that ends is the newest
 * too: the list is a stack whose top is all the event path touches (an
 * instance that ends below the top, which nesting rules out, costs a walk). */
static inline pp_task *pp_profile_task_find(pp_location *loc, pp_task_handle h)
{
    for (pp_task *t = loc->active_top; t; t = t->next)
        if (t->handle == h)
            return t;
    return NULL;
}

static void pp_profile_task_unlink_active(pp_location *loc, pp_task *t)
{
    pp_task **link = &loc->active_top;
    while (*link && *link != t)
        link = &(*link)->next;
    if (*link)
        *link = t->next;
}

static inline void pp_profile_task_remove_active(pp_location *loc, pp_task *t)
{
    if (PP_LIKELY(loc->active_top == t))
        loc->active_top = t->next;
    else
        pp_profile_task_unlink_active(loc, t);
}

/* ---- stubs and switches ------------------------------------------------------ */

static inline __attribute__((always_inline)) void
pp_profile_stub_open(pp_location *loc, pp_task *t, uint64_t now)
{
    pp_node *s = pp_profile_child(loc, loc->implicit->pos, pp_node_key_of(t->region, 0), 1);
    if (!s)
        return;
    s->start = now;
    t->stub = s;
    if (loc->n_ctr)
        pp_profile_counters_enter(loc, &loc->initial, s); /* stubs: real clock */
}

static inline __attribute__((always_inline)) void
pp_profile_stub_close(pp_location *loc, pp_task *t, uint64_t now)
{
    pp_node *s = t->stub;
    if (!s)
        return;
    if (loc->n_ctr)
        pp_profile_counters_exit(loc, &loc->initial, s);
    pp_profile_node_visit(s, now > s->start ? now - s->start : 0);
    t->stub = NULL;
}

static inline __attribute__((always_inline)) void
pp_profile_task_suspend(pp_location *loc, pp_task *t, uint64_t now)
{
    t->suspend_start = now;
    t->suspended = 1;
    pp_profile_stub_close(loc, t, now);
    if (loc->n_ctr)
        pp_profile_counters_suspend(loc, t);
}

static inline __attribute__((always_inline)) void
pp_profile_task_resume(pp_location *loc, pp_task *t, uint64_t now)
{
    /* the task's clock skips the suspended interval */
    t->susp += now - t->suspend_start;
    t->suspended = 0;
    if (loc->n_ctr)
        pp_profile_counters_resume(loc, t);
    pp_profile_stub_open(loc, t, now);
}

/* ---- public events --------------------------------------------------------------- */

pp_task_handle pp_profile_task_current_loc(void)
{
    pp_location *loc = pp_profile_tls_;
    if (PP_UNLIKELY(loc == NULL)) {
        if (!pp_profile_measuring() || !(loc = pp_profile_location_create()))
            return 0;
    } else if (PP_UNLIKELY(pp_profile_ended())) {
        return 0; /* the end closes the location's tasks meanwhile */
    }
    return loc->current->handle;
}

pp_task_handle pp_profile_task_current(void)
{
    pp_profile_event_begin();
    pp_task_handle h = pp_profile_task_current_loc();
    pp_profile_event_end();
    return h;
}

/* The bodies of task begin and end, shared by the forms with and without
 * a timestamp (inlined: one check of the flag and the location each). */
static inline __attribute__((always_inline)) void
pp_profile_task_begin_loc(pp_location *loc, pp_region_id task_region, pp_task_handle task,
                          bool untied, uint64_t now)
{
    if (untied)
        PP_WARN_ONCE("untied tasks are measured as tied tasks (a switch inside an untied task is "
                     "invisible without runtime support)");
    /* a task from the free list needs only the fields this function does
     * not set below (pp_profile_task_alloc: the other cases) */
    pp_task *t = loc->task_free;
    if (PP_LIKELY(t != NULL && !pp_profile_g.n_ctr)) {
        loc->task_free = t->next;
        t->susp = t->suspend_start = 0;
        t->fold = 0;
        t->suspended = t->moved = 0;
        t->stub = NULL;
        t->parent_task = t->parent_implicit = NULL;
        t->csusp = NULL;
    } else {
        t = pp_profile_task_alloc(loc, 1);
    }
    pp_node *root = NULL, *merged = NULL;
    if (PP_LIKELY(t != NULL) && (merged = pp_profile_instance_merged(loc, task_region)) != NULL)
        root = pp_profile_instance_get(loc, merged);
    if (PP_UNLIKELY(!root)) {
        PP_WARN_ONCE("out of memory for a task instance; its time stays with the enclosing region");
        if (t)
            pp_profile_task_free(loc, t);
        return;
    }
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put2(loc->trace, now, PP_TRACE_TASK_BEGIN, task, task_region);
    pp_task *cur = loc->current;
    if (cur->is_explicit)
        pp_profile_task_suspend(loc, cur, now);
    t->handle = task;
    t->region = task_region;
    t->grew = 0;
    t->is_explicit = 1;
    pp_profile_task_start(loc, t, root, now);
    pp_profile_stub_open(loc, t, now);
    if (loc->n_ctr)
        pp_profile_counters_enter(loc, t, root);
    PP_ASSERT(loc->active_top == t && loc->current == t && t->pos == root && root->link != NULL);
    PP_ASSERT(!cur->is_explicit || cur->suspended);
}

static inline __attribute__((always_inline)) void pp_profile_task_finish_body(pp_location *loc,
                                                                            pp_task *t,
                                                                            uint64_t now)
{
    /* a suspended task (finalize) stopped its clock when it was suspended */
    uint64_t tnow = t->suspended ? t->suspend_start : now;
    PP_ASSERT(t->is_explicit && t->floor != NULL && pp_profile_task_path_ok(t, t->floor));
    t->fold = 0;
    for (pp_node *n = t->pos; n != t->floor; n = n->parent)
        pp_profile_close_node(loc, t, n, tnow);
    if (!t->suspended)
        pp_profile_stub_close(loc, t, now);
    if (PP_UNLIKELY(t->moved)) /* its instance is counted where it went on */
        pp_profile_instance_keep(loc, t, t->floor);
    else
        pp_profile_instance_retire(loc, t, tnow); /* closes the root */
    pp_profile_task_remove_active(loc, t);
    if (loc->current == t)
        loc->current = loc->implicit; /* the next scheduling-point end says who resumes */
    pp_profile_task_free(loc, t);
    PP_ASSERT(loc->active_top != t && pp_profile_current_ok(loc));
}

void pp_profile_task_finish(pp_location *loc, pp_task *t, uint64_t now)
{
    pp_profile_task_finish_body(loc, t, now);
}

static inline __attribute__((always_inline)) void
pp_profile_task_end_loc(pp_location *loc, pp_region_id task_region, uint64_t now)
{
    pp_task *t = loc->current;
    if (PP_UNLIKELY(!t->is_explicit)) {
        PP_WARN_ONCE("task end without a running task instance on this thread; ignored");
        return;
    }
    if (PP_UNLIKELY(t->region != task_region))
        PP_WARN_ONCE("task end does not match the running task's region");
    loc->last = now;
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put2(loc->trace, now, PP_TRACE_TASK_END, t->handle, t->region);
    pp_profile_task_finish_body(loc, t, now);
}

void pp_profile_task_switch_to_at(pp_task_handle resumed, uint64_t now)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL)) {
        /* nothing to do, or the newest active task resumed (the fast path
         * of the end of a scheduling point, pp_profile_internal.h) */
        pp_task *cur = loc->current;
        if (PP_UNLIKELY(cur->handle != resumed) && !pp_profile_task_resume_top(loc, cur, resumed, now))
            pp_profile_task_switch_loc(loc, resumed, now);
    } else if ((loc = pp_profile_event_loc()) != NULL && loc->current->handle != resumed) {
        pp_profile_task_switch_loc(loc, resumed, now);
    }
    pp_profile_event_end();
}

void pp_profile_task_switch_loc(pp_location *loc, pp_task_handle resumed, uint64_t now)
{
    pp_task *cur = loc->current;
    if (PP_UNLIKELY(cur->handle == resumed))
        return;
    pp_task *target = loc->implicit->handle == resumed ? loc->implicit
                                                       : pp_profile_task_find(loc, resumed);
    if (PP_UNLIKELY(!target)) {
        PP_WARN_ONCE("switch to task %#llx which is not active on this thread; ignored",
                     (unsigned long long)resumed);
        return;
    }
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put(loc->trace, now, PP_TRACE_TASK_SWITCH, resumed);
    /* an explicit task that is not current waits in the stack, suspended */
    PP_ASSERT(!target->is_explicit || target->suspended);
    if (cur->is_explicit)
        pp_profile_task_suspend(loc, cur, now);
    if (target->is_explicit)
        pp_profile_task_resume(loc, target, now);
    loc->current = target;
    loc->last = now;
    PP_ASSERT(pp_profile_current_ok(loc));
}

/* ---- the fast path of task begin and end ------------------------------------------
 * For a location that neither traces nor counts (loc->plain; the callers
 * check), the common case: a spare instance tree and a free task at hand, the stub's
 * node found next to the one entered last, no folded or open region at the
 * end.  It does what the general bodies above do, in fewer steps; anything
 * else goes to them (before changing anything).  No calls but tail calls,
 * so the fast path needs no stack frame: it ends the event itself, and so
 * do the general bodies it tail-calls (pp_profile_events.c says more). */

__attribute__((noinline)) void pp_profile_task_begin_general(pp_location *loc,
                                                             pp_region_id task_region,
                                                             pp_task_handle task, bool untied,
                                                             uint64_t now)
{
    pp_profile_task_begin_loc(loc, task_region, task, untied, now);
    pp_profile_event_end();
}

__attribute__((noinline)) void pp_profile_task_end_general(pp_location *loc,
                                                           pp_region_id task_region, uint64_t now)
{
    pp_profile_task_end_loc(loc, task_region, now);
    pp_profile_event_end();
}

void pp_profile_task_end_within(pp_location *loc, pp_region_id task_region, uint64_t now)
{
    pp_profile_task_end_loc(loc, task_region, now);
}

void pp_profile_task_begin_within(pp_location *loc, pp_region_id task_region, pp_task_handle task,
                                  uint64_t now)
{
    pp_profile_task_begin_loc(loc, task_region, task, false, now);
}

/* Either body, for a location of either kind (the _at forms and the
 * public events' general form). */
static inline __attribute__((always_inline)) void
pp_profile_task_begin_any(pp_location *loc, pp_region_id task_region, pp_task_handle task,
                          bool untied, uint64_t now)
{
    if (loc->plain)
        pp_profile_task_begin_fast(loc, task_region, task, untied, now);
    else
        pp_profile_task_begin_loc(loc, task_region, task, untied, now);
}

static inline __attribute__((always_inline)) void
pp_profile_task_end_any(pp_location *loc, pp_region_id task_region, uint64_t now)
{
    if (loc->plain)
        pp_profile_task_end_fast(loc, task_region, now);
    else
        pp_profile_task_end_loc(loc, task_region, now);
}

/* (The fast pointer first, as in pp_profile_enter_at.) */
void pp_profile_task_begin_at(pp_region_id task_region, pp_task_handle task, bool untied,
                              uint64_t now)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL)) {
        pp_profile_task_begin_fast(loc, task_region, task, untied, now);
        return;
    }
    if ((loc = pp_profile_event_loc()) != NULL)
        pp_profile_task_begin_any(loc, task_region, task, untied, now);
    pp_profile_event_end();
}

void pp_profile_task_end_at(pp_region_id task_region, uint64_t now)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL)) {
        pp_profile_task_end_fast(loc, task_region, now);
        return;
    }
    if ((loc = pp_profile_event_loc()) != NULL)
        pp_profile_task_end_any(loc, task_region, now);
    pp_profile_event_end();
}

/* The general form of the public events (no location yet, not measuring,
 * trace, counters or the clock as the source; pp_profile_fast_loc): the
 * general body, out of the fast path's way. */
static __attribute__((noinline)) void pp_profile_task_begin_other(pp_region_id task_region,
                                                                  pp_task_handle task,
                                                                  bool untied)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_task_begin_loc(loc, task_region, task, untied, pp_timer_now());
    pp_profile_event_end();
}

static __attribute__((noinline)) void pp_profile_task_end_other(pp_region_id task_region)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_task_end_loc(loc, task_region, pp_timer_now());
    pp_profile_event_end();
}

void pp_profile_task_begin(pp_region_id task_region, pp_task_handle task, bool untied)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_task_begin_fast(loc, task_region, task, untied, pp_timer_tsc());
    else if (pp_profile_measuring())
        pp_profile_task_begin_other(task_region, task, untied);
    else
        pp_profile_event_end();
}

void pp_profile_task_begin_tied(pp_region_id task_region, pp_task_handle task)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_task_begin_fast(loc, task_region, task, false, pp_timer_tsc());
    else if (pp_profile_measuring())
        pp_profile_task_begin_other(task_region, task, false);
    else
        pp_profile_event_end();
}

void pp_profile_task_end(pp_region_id task_region)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_task_end_fast(loc, task_region, pp_timer_tsc());
    else if (pp_profile_measuring())
        pp_profile_task_end_other(task_region);
    else
        pp_profile_event_end();
}

void pp_profile_task_switch_to(pp_task_handle resumed)
{
    pp_profile_event_begin();
    /* the common case (no other task ran) needs no clock read */
    pp_location *loc;
    if (PP_LIKELY(pp_profile_measuring()) && (loc = pp_profile_event_loc()) != NULL &&
        loc->current->handle != resumed)
        pp_profile_task_switch_loc(loc, resumed, pp_timer_now());
    pp_profile_event_end();
}

/* ---- untied tasks that move (pp_profile_migrate.h) ---------------------------- */

void *pp_profile_task_ref(void)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_tls_;
    void *ref = loc && !pp_profile_ended() && loc->current->is_explicit ? loc->current : NULL;
    pp_profile_event_end();
    return ref;
}

pp_region_id pp_profile_task_ref_region(const void *ref)
{
    pp_profile_event_begin();
    pp_region_id r = ref && !pp_profile_ended() ? ((const pp_task *)ref)->region
                                                : PP_REGION_INVALID;
    pp_profile_event_end();
    return r;
}

#define PP_MIGRATE_DEPTH 256

/* Task t, suspended on another location, goes on here: its open regions
 * end there without a visit (their time so far stays in that location's
 * instance tree, as when a parameter splits a node) and open again here in
 * an instance tree of this location, where they and the instance count
 * when they end.  t stays in its location's table as a shell that location
 * finishes at the end without counting it (t->moved).  Only this thread
 * touches t now: the runtime handed the task over with synchronization of
 * its own, and the other location never touches a suspended task's nodes. */
static pp_task *pp_profile_task_move_here(pp_location *loc, pp_task *t, uint64_t now)
{
    pp_node *open[PP_MIGRATE_DEPTH];
    uint32_t n = 0;
    uint64_t tnow = t->suspend_start - t->susp; /* its clock when it stopped */
    for (pp_node *m = t->pos; m; m = m->parent) {
        if (m != t->floor && n < PP_MIGRATE_DEPTH)
            open[n++] = m;
        m->sum += tnow > m->start ? tnow - m->start : 0;
        m->flags |= PP_NODE_PARTIAL;
        if (m == t->floor)
            break;
    }
    uint32_t fold = t->fold;
    t->pos = t->floor;
    t->fold = 0;
    t->moved = 1;
    /* for the trace the task does not begin again: it is switched to here */
    pp_trace_buf *trace = loc->trace;
    loc->trace = NULL;
    pp_profile_task_begin_loc(loc, t->region, t->handle, false, now);
    loc->trace = trace;
    if (trace)
        pp_trace_put(trace, now, PP_TRACE_TASK_SWITCH, t->handle);
    pp_task *here = loc->current;
    if (here == t || !here->is_explicit || here->handle != t->handle)
        return NULL; /* out of memory: it runs in the enclosing region */
    here->fold = fold;
    while (n > 0 && !here->fold) {
        pp_node *c = pp_profile_child(loc, here->pos, open[--n]->key, 0);
        if (!c)
            break;
        c->start = now - here->susp;
        here->pos = c;
    }
    return here;
}

static void *pp_profile_task_resume_ref_loc(void *ref, uint64_t now)
{
    pp_location *loc = pp_profile_event_loc();
    pp_task *t = ref;
    if (PP_UNLIKELY(loc == NULL || t == NULL))
        return ref;
    if (loc->current == t)
        return ref;
    if (pp_profile_task_find(loc, t->handle) == t) {
        pp_profile_task_switch_loc(loc, t->handle, now);
        return ref;
    }
    if (!t->suspended || t->moved) {
        PP_WARN_ONCE("a task resumed on another thread was not suspended where it ran; ignored");
        return ref;
    }
    pp_task *here = pp_profile_task_move_here(loc, t, now);
    return here ? here : ref;
}

void *pp_profile_task_resume_ref(void *ref, uint64_t now)
{
    pp_profile_event_begin();
    void *r = pp_profile_task_resume_ref_loc(ref, now);
    pp_profile_event_end();
    return r;
}
