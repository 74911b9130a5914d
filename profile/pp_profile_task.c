/* Explicit tasks: instance trees, switches, stubs, merging.
 *
 * Placement of stubs follows the reference (Score-P 8.4, see the golden
 * profiles): a fragment of an explicit task is recorded as a stub node in
 * the *implicit* task's tree, at the scheduling point the implicit task is
 * waiting in, also when the task started inside another explicit task's
 * taskwait or creation.  The instance trees therefore contain no stubs, and
 * a suspended task's open regions (stopped clock) never contain time of
 * other tasks, so no exclusive time can become negative. */
#include "profile/pp_profile_internal.h"

#include "lib/pp_message.h"
#include "lib/pp_timer.h"

/* ---- the table of active instances (per location, keyed by handle) --------- */

static inline uint32_t pp_profile_task_bucket(pp_task_handle h)
{
    return (uint32_t)((h ^ (h >> 40)) * 0x9E3779B97F4A7C15ull >> 54) & (PP_TASK_BUCKETS - 1);
}

static inline pp_task *pp_profile_task_find(pp_location *loc, pp_task_handle h)
{
    for (pp_task *t = loc->task_table[pp_profile_task_bucket(h)]; t; t = t->next)
        if (t->handle == h)
            return t;
    return NULL;
}

static void pp_profile_task_table_remove(pp_location *loc, pp_task *t)
{
    pp_task **link = &loc->task_table[pp_profile_task_bucket(t->handle)];
    while (*link && *link != t)
        link = &(*link)->next;
    if (*link)
        *link = t->next;
}

/* ---- stubs and switches ------------------------------------------------------ */

static inline __attribute__((always_inline)) void
pp_profile_stub_open(pp_location *loc, pp_task *t, uint64_t now)
{
    pp_node *s = pp_profile_child(loc, loc->implicit->pos, t->region, 1);
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

pp_task_handle pp_profile_task_current(void)
{
    pp_location *loc = pp_profile_tls_;
    if (PP_UNLIKELY(loc == NULL)) {
        if (!pp_profile_measuring() || !(loc = pp_profile_location_create()))
            return 0;
    }
    return loc->current->handle;
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
        t->suspended = 0;
        t->stub = NULL;
        t->parent_task = t->parent_implicit = NULL;
        t->csusp = NULL;
    } else {
        t = pp_profile_task_alloc(loc);
    }
    pp_node *root = NULL;
    if (PP_LIKELY(t != NULL) && !(root = pp_profile_instance_reuse(loc, task_region))) {
        root = pp_profile_node_new(loc, NULL, task_region, PP_NODE_TASK_ROOT, 1);
        if (root)
            root->depth = 2; /* program -> TASKS -> task */
    }
    if (PP_UNLIKELY(!root)) {
        PP_WARN_ONCE("out of memory for a task instance; its time stays with the enclosing region");
        if (t)
            pp_profile_task_free(loc, t);
        return;
    }
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put2(loc->trace, now, PP_TRACE_TASK_BEGIN, task, task_region);
    /* the construct's merged root counts its active instances; a fresh
     * instance tree meets it here (created now if this is the first one) */
    pp_node *merged = root->link;
    if (PP_UNLIKELY(!merged))
        merged = root->link = pp_profile_child_slow(loc, loc->tasks, task_region, 1);
    if (PP_LIKELY(merged != NULL) && ++merged->instances_active > merged->instances_max)
        merged->instances_max = merged->instances_active;
    pp_task *cur = loc->current;
    if (cur->is_explicit)
        pp_profile_task_suspend(loc, cur, now);
    t->handle = task;
    t->region = task_region;
    t->nodes_mark = loc->nodes_made;
    t->is_explicit = 1;
    t->pos = t->floor = root;
    root->start = now;
    uint32_t b = pp_profile_task_bucket(task);
    t->next = loc->task_table[b];
    loc->task_table[b] = t;
    if (++loc->active_tasks > loc->max_active_tasks)
        loc->max_active_tasks = loc->active_tasks;
    loc->current = t;
    pp_profile_stub_open(loc, t, now);
    if (loc->n_ctr)
        pp_profile_counters_enter(loc, t, root);
}

static inline __attribute__((always_inline)) void pp_profile_task_finish_body(pp_location *loc,
                                                                            pp_task *t,
                                                                            uint64_t now)
{
    /* a suspended task (finalize) stopped its clock when it was suspended */
    uint64_t tnow = t->suspended ? t->suspend_start : now;
    t->fold = 0;
    for (pp_node *n = t->pos; n != t->floor; n = n->parent)
        pp_profile_close_node(loc, t, n, tnow);
    if (!t->suspended)
        pp_profile_stub_close(loc, t, now);
    if (t->floor->link)
        t->floor->link->instances_active--;
    pp_profile_instance_retire(loc, t, tnow); /* closes the root */
    pp_profile_task_table_remove(loc, t);
    loc->active_tasks--;
    if (loc->current == t)
        loc->current = loc->implicit; /* the next scheduling-point end says who resumes */
    pp_profile_task_free(loc, t);
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
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put2(loc->trace, now, PP_TRACE_TASK_END, t->handle, t->region);
    pp_profile_task_finish_body(loc, t, now);
}

void pp_profile_task_switch_to_at(pp_task_handle resumed, uint64_t now)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_UNLIKELY(loc == NULL))
        return;
    if (PP_LIKELY(loc->current->handle == resumed))
        return;
    pp_profile_task_switch_loc(loc, resumed, now);
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
    if (cur->is_explicit)
        pp_profile_task_suspend(loc, cur, now);
    if (target->is_explicit)
        pp_profile_task_resume(loc, target, now);
    loc->current = target;
}

void pp_profile_task_begin_at(pp_region_id task_region, pp_task_handle task, bool untied,
                              uint64_t now)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_task_begin_loc(loc, task_region, task, untied, now);
}

void pp_profile_task_end_at(pp_region_id task_region, uint64_t now)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_task_end_loc(loc, task_region, now);
}

void pp_profile_task_begin(pp_region_id task_region, pp_task_handle task, bool untied)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_task_begin_loc(loc, task_region, task, untied, pp_timer_now());
}

void pp_profile_task_end(pp_region_id task_region)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_task_end_loc(loc, task_region, pp_timer_now());
}

void pp_profile_task_switch_to(pp_task_handle resumed)
{
    if (PP_UNLIKELY(!pp_profile_measuring()))
        return;
    /* the common case (no other task ran) needs no clock read */
    pp_location *loc = pp_profile_tls_;
    if (loc && loc->current->handle == resumed)
        return;
    pp_profile_task_switch_to_at(resumed, pp_timer_now());
}
