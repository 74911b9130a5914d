/* The event path: enter/exit of regions, fork, parallel begin/end, join.
 *
 * Budget: an enter+exit pair must stay within a few timer reads.  So the
 * common case is: the in-event store (the bracket, pp_profile_internal.h),
 * one relaxed load of the thread's fast pointer -- its own location, which
 * other threads clear when they switch measurement off, so no flag is read
 * -- the current task, its position, the position's last-entered child, and
 * a handful of stores.  Everything unusual (no fast pointer, new child,
 * folding, mismatched exits, counters, a trace) is behind one predictable
 * branch.
 *
 * The names, here and in pp_profile_task.c (each tier exists for the
 * instruction count: the fast paths need no stack frame and no saved
 * register, because everything else is a tail call out of their way):
 *   pp_profile_X           the public event: the bracket's begin, then the
 *                          fast pointer decides between _fast and _other;
 *   pp_profile_X_at        the same with the caller's timestamp (the unit
 *                          tests' fake clock, an event source that read the
 *                          clock for two events);
 *   pp_profile_X_fast      inline: the common case on a location of the fast
 *                          kind (loc->plain), straight-line code; anything
 *                          else tail-calls _general before changing anything;
 *   pp_profile_X_general   out of line: _body on a location, then the
 *                          bracket's end;
 *   pp_profile_X_other     out of line: the public event's form without a
 *                          fast pointer (no location yet, measurement off, a
 *                          trace, counters, no TSC): the flag, the location,
 *                          the clock, then _body and the bracket's end;
 *   pp_profile_X_body      inline: the complete event on a location of
 *                          either kind, as before fast paths existed;
 *   pp_profile_X_any       inline: _fast or _body by the location's kind;
 *   pp_profile_X_loc       the body of an event that has no fast path.
 * The fast and general forms end the event themselves, so a tail call into
 * them ends it; a caller's end after them would only repeat the store. */
#include "profile/pp_profile_internal.h"
#include "profile/pp_profile_names.h"

#include "lib/pp_message.h"
#include "lib/pp_timer.h"

/* ---- enter / exit ----------------------------------------------------------- */

static inline __attribute__((always_inline)) void pp_profile_enter_body(pp_location *loc,
                                                                       pp_region_id region,
                                                                       uint64_t now)
{
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put(loc->trace, now, PP_TRACE_ENTER, region);
    pp_task *t = loc->current;
    pp_node *c;
    loc->last = now;
    /* below a folded region everything folds */
    if (PP_UNLIKELY(t->fold) ||
        PP_UNLIKELY(!(c = pp_profile_child(loc, t->pos, pp_node_key_of(region, 0), 0)))) {
        t->fold++;
        return;
    }
    c->start = now - t->susp;
    t->pos = c;
    if (PP_UNLIKELY(loc->n_ctr))
        pp_profile_counters_enter(loc, t, c);
}

static void pp_profile_exit_unmatched(pp_location *loc, pp_task *t, pp_region_id region, uint64_t now)
{
    if (t->fold) {
        t->fold--;
        return;
    }
    /* A region that is not the innermost open one: close the ones inside it
     * (their exits were lost, e.g. measurement switched off in between). */
    pp_node *n = t->pos;
    for (pp_node *m = n; m && m != t->floor; m = m->parent) {
        if (m->region == region) {
            for (;; n = n->parent) {
                pp_profile_close_node(loc, t, n, now);
                if (n == m)
                    break;
            }
            t->pos = m->parent;
            return;
        }
    }
    const pp_region_rec *r = pp_profile_region_get(region);
    PP_WARN_ONCE("exit from region '%s' which is not open on this thread; ignored (reported once)",
                 r ? r->name : "unknown");
}

static inline __attribute__((always_inline)) void pp_profile_exit_body(pp_location *loc,
                                                                      pp_region_id region,
                                                                      uint64_t now)
{
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put(loc->trace, now, PP_TRACE_LEAVE, region);
    pp_task *t = loc->current;
    pp_node *n = t->pos;
    loc->last = now;
    if (PP_UNLIKELY(n->region != region || n == t->floor || t->fold)) {
        pp_profile_exit_unmatched(loc, t, region, now);
        return;
    }
    if (PP_UNLIKELY(loc->n_ctr))
        pp_profile_counters_exit(loc, t, n);
    pp_profile_node_visit(n, now - t->susp - n->start);
    t->pos = n->parent;
}

/* The fast paths of enter and exit, for a location that neither traces nor
 * counts (loc->plain; the callers check): the common case of the node next
 * to the one entered last and no folded region.  Anything else goes to the bodies above, before
 * anything changed.  No calls but tail calls: no stack frame.  So the fast
 * paths end the event themselves, and so do the general bodies they
 * tail-call (the _general and _other functions of this file and
 * pp_profile_task.c): the caller's end after them only repeats the store. */
static __attribute__((noinline)) void pp_profile_enter_general(pp_location *loc,
                                                               pp_region_id region, uint64_t now)
{
    pp_profile_enter_body(loc, region, now);
    pp_profile_event_end();
}

static __attribute__((noinline)) void pp_profile_exit_general(pp_location *loc,
                                                              pp_region_id region, uint64_t now)
{
    pp_profile_exit_body(loc, region, now);
    pp_profile_event_end();
}

static inline __attribute__((always_inline)) void
pp_profile_enter_fast(pp_location *loc, pp_region_id region, uint64_t now)
{
    pp_task *t = loc->current;
    pp_node *c;
    if (PP_UNLIKELY(t->fold || !(c = pp_profile_child_near(t->pos, pp_node_key_of(region, 0))))) {
        pp_profile_enter_general(loc, region, now);
        return;
    }
    loc->last = now;
    c->start = now - t->susp;
    t->pos = c;
    pp_profile_event_end();
}

static inline __attribute__((always_inline)) void
pp_profile_exit_fast(pp_location *loc, pp_task *t, pp_region_id region, uint64_t now)
{
    pp_node *n = t->pos;
    if (PP_UNLIKELY(n->region != region || n == t->floor || t->fold)) {
        pp_profile_exit_general(loc, region, now);
        return;
    }
    loc->last = now;
    pp_profile_node_visit(n, now - t->susp - n->start);
    t->pos = n->parent;
    pp_profile_event_end();
}

/* Either body, for a location of either kind (the _at forms and the
 * public events' general form). */
static inline __attribute__((always_inline)) void
pp_profile_enter_any(pp_location *loc, pp_region_id region, uint64_t now)
{
    if (loc->plain)
        pp_profile_enter_fast(loc, region, now);
    else
        pp_profile_enter_body(loc, region, now);
}

static inline __attribute__((always_inline)) void
pp_profile_exit_any(pp_location *loc, pp_region_id region, uint64_t now)
{
    if (loc->plain)
        pp_profile_exit_fast(loc, loc->current, region, now);
    else
        pp_profile_exit_body(loc, region, now);
}

/* The _at forms serve the unit tests' fake clock and an event source that
 * reads the clock itself (the OMPT layer: one read for the two or three
 * engine events of one callback).  They take the fast pointer first, as the
 * public events do: a location it points to is plain, so the result is the
 * one pp_profile_event_loc and the _any bodies give, with one load and test
 * instead of the flag, the location and the rearm check. */
void pp_profile_enter_at(pp_region_id region, uint64_t now)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL)) {
        pp_profile_enter_fast(loc, region, now);
        return;
    }
    if ((loc = pp_profile_event_loc()) != NULL)
        pp_profile_enter_any(loc, region, now);
    pp_profile_event_end();
}

void pp_profile_exit_at(pp_region_id region, uint64_t now)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL)) {
        pp_profile_exit_fast(loc, loc->current, region, now);
        return;
    }
    if ((loc = pp_profile_event_loc()) != NULL)
        pp_profile_exit_any(loc, region, now);
    pp_profile_event_end();
}

/* The public events begin with pp_profile_fast_loc (pp_profile_internal.h):
 * without a location yet, while not measuring, or for a location that
 * traces or counts or reads the clock (no TSC), they take their general
 * form (the general body, as before the fast paths existed), which tail
 * calls keep out of the fast paths' way. */
static __attribute__((noinline)) void pp_profile_enter_other(pp_region_id region)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_enter_body(loc, region, pp_timer_now());
    pp_profile_event_end();
}

static __attribute__((noinline)) void pp_profile_exit_other(pp_region_id region)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_exit_body(loc, region, pp_timer_now());
    pp_profile_event_end();
}

void pp_profile_enter(pp_region_id region)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_enter_fast(loc, region, pp_timer_tsc());
    else if (pp_profile_measuring())
        pp_profile_enter_other(region);
    else
        pp_profile_event_end();
}

void pp_profile_exit(pp_region_id region)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_exit_fast(loc, loc->current, region, pp_timer_tsc());
    else if (pp_profile_measuring())
        pp_profile_exit_other(region);
    else
        pp_profile_event_end();
}

/* ---- events a trace needs beside the profile's (one clock read each) -------- */

static inline void pp_profile_task_create_enter_loc(pp_location *loc, pp_region_id region,
                                                    pp_task_handle task, uint64_t now)
{
    pp_profile_enter_body(loc, region, now);
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put(loc->trace, now, PP_TRACE_TASK_CREATE, task);
}

static inline void pp_profile_exit_acquire_loc(pp_location *loc, pp_region_id region,
                                               const void *lock, uint64_t now)
{
    pp_profile_exit_body(loc, region, now);
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put2(loc->trace, now, PP_TRACE_LOCK_ACQUIRE, (uint64_t)(uintptr_t)lock,
                      pp_trace_lock_order());
}

static inline void pp_profile_enter_release_loc(pp_location *loc, pp_region_id region,
                                                const void *lock, uint64_t now)
{
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put(loc->trace, now, PP_TRACE_LOCK_RELEASE, (uint64_t)(uintptr_t)lock);
    pp_profile_enter_body(loc, region, now);
}



void pp_profile_task_created(pp_task_handle task)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL)) { /* (a location of the fast kind has no trace) */
        loc = pp_profile_event_loc();
        if (loc && loc->trace)
            pp_trace_put(loc->trace, pp_timer_now(), PP_TRACE_TASK_CREATE, task);
    }
    pp_profile_event_end();
}

/* The adapters' starts of a scheduling point in their general form (see
 * pp_profile_fast_loc); without a location to record in, the single calls
 * in turn, which still hand out handles. */
static __attribute__((noinline)) void pp_profile_task_create_begin_other(pp_region_id region,
                                                                         pp_task_handle *task,
                                                                         pp_task_handle *current)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        pp_task_handle h = pp_profile_task_new_handle();
        if (task)
            *task = h;
        if (current)
            *current = pp_profile_task_current_loc();
    } else {
        pp_task_handle h = pp_profile_handle_of(loc);
        if (task)
            *task = h;
        if (current)
            *current = loc->current->handle;
        pp_profile_task_create_enter_loc(loc, region, h, pp_timer_now());
    }
    pp_profile_event_end();
}

static __attribute__((noinline)) void pp_profile_scheduling_enter_other(pp_region_id region,
                                                                        pp_task_handle *current)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        if (current)
            *current = pp_profile_task_current_loc();
    } else {
        if (current)
            *current = loc->current->handle;
        pp_profile_enter_body(loc, region, pp_timer_now());
    }
    pp_profile_event_end();
}

static __attribute__((noinline)) void pp_profile_task_create_general(pp_location *loc,
                                                                     pp_region_id region,
                                                                     pp_task_handle task,
                                                                     uint64_t now)
{
    pp_profile_task_create_enter_loc(loc, region, task, now);
    pp_profile_event_end();
}

/* The start of a creation on a location of the fast kind:
 * pp_profile_enter_fast, whose general path also names the task in a
 * trace.  The node entered, or NULL when the general path did it. */
static inline __attribute__((always_inline)) pp_node *
pp_profile_task_create_fast_enter(pp_location *loc, pp_region_id region, pp_task_handle task,
                                  uint64_t now)
{
    pp_task *t = loc->current;
    pp_node *c;
    if (PP_UNLIKELY(t->fold || !(c = pp_profile_child_near(t->pos, pp_node_key_of(region, 0))))) {
        pp_profile_task_create_general(loc, region, task, now);
        return NULL;
    }
    loc->last = now;
    c->start = now - t->susp;
    t->pos = c;
    pp_profile_event_end();
    return c;
}

void pp_profile_task_create_enter_at(pp_region_id region, pp_task_handle task, uint64_t now)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL)) {
        pp_profile_task_create_fast_enter(loc, region, task, now);
        return;
    }
    if ((loc = pp_profile_event_loc()) != NULL)
        pp_profile_task_create_enter_loc(loc, region, task, now);
    pp_profile_event_end();
}

/* The general forms of the events below, out of the fast paths' way (a
 * call there would make them save registers). */
static __attribute__((noinline)) void pp_profile_task_create_enter_other(pp_region_id region,
                                                                         pp_task_handle task)
{
    pp_location *loc = pp_profile_event_loc();
    if (loc != NULL)
        pp_profile_task_create_enter_loc(loc, region, task, pp_timer_now());
    pp_profile_event_end();
}

void pp_profile_task_create_enter(pp_region_id region, pp_task_handle task)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        pp_profile_task_create_enter_other(region, task);
        return;
    }
    pp_profile_task_create_fast_enter(loc, region, task, pp_timer_tsc());
}

/* Both halves of a creation of no duration in their general form. */
static __attribute__((noinline)) void pp_profile_task_create_point_general(pp_location *loc,
                                                                           pp_region_id region,
                                                                           pp_task_handle task,
                                                                           uint64_t now)
{
    pp_profile_task_create_enter_loc(loc, region, task, now);
    pp_profile_exit_body(loc, region, now);
    pp_profile_event_end();
}

static __attribute__((noinline)) void pp_profile_task_create_point_other(pp_region_id region,
                                                                         pp_task_handle task)
{
    pp_location *loc = pp_profile_event_loc();
    if (loc != NULL)
        pp_profile_task_create_point_general(loc, region, task, pp_timer_now());
    pp_profile_event_end();
}

void pp_profile_task_create_point(pp_region_id region, pp_task_handle task)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        pp_profile_task_create_point_other(region, task);
        return;
    }
    /* enter and exit at one time: a visit of the node next to the one
     * entered last, of no duration */
    uint64_t now = pp_timer_tsc();
    pp_task *t = loc->current;
    pp_node *c;
    if (PP_UNLIKELY(t->fold || !(c = pp_profile_child_near(t->pos, pp_node_key_of(region, 0))))) {
        pp_profile_task_create_point_general(loc, region, task, now);
        return;
    }
    loc->last = now;
    pp_profile_node_visit(c, 0);
    pp_profile_event_end();
}

/* The body of task_create_begin on a location of the fast kind, at now. */
static inline __attribute__((always_inline)) void
pp_profile_task_create_fast(pp_location *loc, pp_region_id region, pp_task_handle *task,
                            pp_task_handle *current, uint64_t now)
{
    pp_task_handle h = pp_profile_handle_of(loc);
    pp_task *t = loc->current;
    if (task)
        *task = h;
    if (current)
        *current = t->handle;
    pp_node *c;
    /* pp_profile_enter_fast, whose general path also names the task in a trace */
    if (PP_UNLIKELY(t->fold || !(c = pp_profile_child_near(t->pos, pp_node_key_of(region, 0))))) {
        pp_profile_task_create_general(loc, region, h, now);
        return;
    }
    loc->last = now;
    c->start = now - t->susp;
    t->pos = c;
    pp_profile_event_end();
}

void pp_profile_task_create_begin(pp_region_id region, pp_task_handle *task,
                                  pp_task_handle *current)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL))
        pp_profile_task_create_begin_other(region, task, current);
    else
        pp_profile_task_create_fast(loc, region, task, current, pp_timer_tsc());
}

void pp_profile_scheduling_enter(pp_region_id region, pp_task_handle *current)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        pp_profile_scheduling_enter_other(region, current);
        return;
    }
    if (current)
        *current = loc->current->handle;
    pp_profile_enter_fast(loc, region, pp_timer_tsc());
}

void pp_profile_exit_acquire(pp_region_id region, const void *lock)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_exit_acquire_loc(loc, region, lock, pp_timer_now());
    pp_profile_event_end();
}

void pp_profile_exit_acquire_at(pp_region_id region, const void *lock, uint64_t now)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_exit_acquire_loc(loc, region, lock, now);
    pp_profile_event_end();
}

void pp_profile_enter_release(pp_region_id region, const void *lock)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_enter_release_loc(loc, region, lock, pp_timer_now());
    pp_profile_event_end();
}

void pp_profile_enter_release_at(pp_region_id region, const void *lock, uint64_t now)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_enter_release_loc(loc, region, lock, now);
    pp_profile_event_end();
}

static inline __attribute__((always_inline)) void
pp_profile_switch_exit_body(pp_location *loc, pp_task_handle resumed, pp_region_id region,
                            uint64_t now)
{
    if (loc->current->handle != resumed)
        pp_profile_task_switch_loc(loc, resumed, now);
    pp_profile_exit_body(loc, region, now);
}

static __attribute__((noinline)) void pp_profile_switch_exit_general(pp_location *loc,
                                                                     pp_task_handle resumed,
                                                                     pp_region_id region,
                                                                     uint64_t now)
{
    pp_profile_switch_exit_body(loc, resumed, region, now);
    pp_profile_event_end();
}

static inline __attribute__((always_inline)) void
pp_profile_switch_exit_loc(pp_location *loc, pp_task_handle resumed, pp_region_id region,
                           uint64_t now)
{
    pp_task *t = loc->current;
    /* the switch back to the newest active task, when other tasks ran */
    if (PP_UNLIKELY(t->handle != resumed) &&
        !(t = pp_profile_task_resume_top(loc, t, resumed, now))) {
        pp_profile_switch_exit_general(loc, resumed, region, now);
        return;
    }
    pp_profile_exit_fast(loc, t, region, now);
}

static __attribute__((noinline)) void pp_profile_switch_exit_other(pp_task_handle resumed,
                                                                   pp_region_id region)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_switch_exit_body(loc, resumed, region, pp_timer_now());
    pp_profile_event_end();
}

/* The body of both argument orders below, inlined into each (one copy of the
 * code in the source, two entry points without a call between). */
static inline __attribute__((always_inline)) void
pp_profile_switch_exit_public(pp_task_handle resumed, pp_region_id region)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_switch_exit_loc(loc, resumed, region, pp_timer_tsc());
    else if (pp_profile_measuring())
        pp_profile_switch_exit_other(resumed, region);
    else
        pp_profile_event_end();
}

void pp_profile_switch_exit(pp_task_handle resumed, pp_region_id region)
{
    pp_profile_switch_exit_public(resumed, region);
}

void pp_profile_exit_resume(pp_region_id region, pp_task_handle resumed)
{
    pp_profile_switch_exit_public(resumed, region);
}

/* Events an event source reports apart but whose first half it holds back
 * until the second (the OMPT layer, doc/ompt.md "Cost"): one call with the
 * first half's timestamp, which the source read at its event, and the
 * second's read here.  Each equals its two events in turn. */

/* create_run: an undeferred task, which runs inside its creation:
 * task_create_enter(region, task) at `created`, then task_begin(task_region,
 * task) now. */
static __attribute__((noinline)) void
pp_profile_task_create_run_general(pp_location *loc, pp_region_id region, pp_task_handle task,
                                   uint64_t created, pp_region_id task_region, uint64_t now)
{
    pp_profile_task_create_enter_loc(loc, region, task, created);
    if (loc->plain)
        pp_profile_task_begin_fast(loc, task_region, task, false, now);
    else
        pp_profile_task_begin_general(loc, task_region, task, false, now);
}

static __attribute__((noinline)) void pp_profile_task_create_run_other(pp_region_id region,
                                                                       pp_task_handle task,
                                                                       uint64_t created,
                                                                       pp_region_id task_region)
{
    pp_location *loc = pp_profile_event_loc();
    if (loc != NULL)
        pp_profile_task_create_run_general(loc, region, task, created, task_region,
                                           pp_timer_now());
    else
        pp_profile_event_end();
}

void pp_profile_task_create_run(pp_region_id region, pp_task_handle task, uint64_t created,
                                pp_region_id task_region)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        if (pp_profile_measuring())
            pp_profile_task_create_run_other(region, task, created, task_region);
        else
            pp_profile_event_end();
        return;
    }
    uint64_t now = pp_timer_tsc();
    pp_task *t = loc->current;
    pp_node *c;
    if (PP_UNLIKELY(t->fold || !(c = pp_profile_child_near(t->pos, pp_node_key_of(region, 0))))) {
        pp_profile_task_create_run_general(loc, region, task, created, task_region, now);
        return;
    }
    c->start = created - t->susp;
    t->pos = c;
    pp_profile_task_begin_fast(loc, task_region, task, false, now);
}

/* scheduling_visit: a scheduling point in which no other task ran:
 * scheduling_enter(region) at `entered`, then switch_exit(resumed, region)
 * now. */
static __attribute__((noinline)) void
pp_profile_scheduling_visit_general(pp_location *loc, pp_region_id region, uint64_t entered,
                                    pp_task_handle resumed, uint64_t now)
{
    pp_profile_enter_body(loc, region, entered);
    pp_profile_switch_exit_general(loc, resumed, region, now);
}

static __attribute__((noinline)) void pp_profile_scheduling_visit_other(pp_region_id region,
                                                                        uint64_t entered,
                                                                        pp_task_handle resumed)
{
    pp_location *loc = pp_profile_event_loc();
    if (loc != NULL)
        pp_profile_scheduling_visit_general(loc, region, entered, resumed, pp_timer_now());
    else
        pp_profile_event_end();
}

void pp_profile_scheduling_visit(pp_region_id region, uint64_t entered, pp_task_handle resumed)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        if (pp_profile_measuring())
            pp_profile_scheduling_visit_other(region, entered, resumed);
        else
            pp_profile_event_end();
        return;
    }
    uint64_t now = pp_timer_tsc();
    pp_task *t = loc->current;
    pp_node *n;
    if (PP_UNLIKELY(t->handle != resumed || t->fold ||
                    !(n = pp_profile_child_near(t->pos, pp_node_key_of(region, 0))))) {
        pp_profile_scheduling_visit_general(loc, region, entered, resumed, now);
        return;
    }
    loc->last = now;
    pp_profile_node_visit(n, now > entered ? now - entered : 0);
    pp_profile_event_end();
}

/* create_visit: a creation in which no task ran on this thread (the
 * libgomp interposer's deferred task, doc/gomp.md "Cost"):
 * task_create_enter(region, task) at `created`, then exit(region) now; the
 * current task is the one that created. */
static __attribute__((noinline)) void
pp_profile_task_create_visit_general(pp_location *loc, pp_region_id region, pp_task_handle task,
                                     uint64_t created, uint64_t now)
{
    pp_profile_task_create_enter_loc(loc, region, task, created);
    pp_profile_exit_body(loc, region, now);
    pp_profile_event_end();
}

static __attribute__((noinline)) void pp_profile_task_create_visit_other(pp_region_id region,
                                                                         pp_task_handle task,
                                                                         uint64_t created)
{
    pp_location *loc = pp_profile_event_loc();
    if (loc != NULL)
        pp_profile_task_create_visit_general(loc, region, task, created, pp_timer_now());
    else
        pp_profile_event_end();
}

void pp_profile_task_create_visit(pp_region_id region, pp_task_handle task, uint64_t created)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        if (pp_profile_measuring())
            pp_profile_task_create_visit_other(region, task, created);
        else
            pp_profile_event_end();
        return;
    }
    uint64_t now = pp_timer_tsc();
    pp_task *t = loc->current;
    pp_node *n;
    if (PP_UNLIKELY(t->fold || !(n = pp_profile_child_near(t->pos, pp_node_key_of(region, 0))))) {
        pp_profile_task_create_visit_general(loc, region, task, created, now);
        return;
    }
    loc->last = now;
    pp_profile_node_visit(n, now > created ? now - created : 0);
    pp_profile_event_end();
}

/* The end of a task and what comes with it at the same time, in one event
 * (the OMPT layer's task_schedule that completes a task): the task that
 * goes on resumes, and an undeferred task's creation region (created_in)
 * ends with the task; PP_REGION_INVALID: none. */
static __attribute__((noinline)) void
pp_profile_task_end_resume_general(pp_location *loc, pp_region_id task_region,
                                   pp_task_handle resumed, pp_region_id created_in, uint64_t now)
{
    pp_profile_task_end_within(loc, task_region, now);
    if (loc->current->handle != resumed)
        pp_profile_task_switch_loc(loc, resumed, now);
    if (created_in != PP_REGION_INVALID)
        pp_profile_exit_body(loc, created_in, now);
    pp_profile_event_end();
}

static __attribute__((noinline)) void pp_profile_task_end_resume_other(pp_region_id task_region,
                                                                       pp_task_handle resumed,
                                                                       pp_region_id created_in)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_task_end_resume_general(loc, task_region, resumed, created_in,
                                           pp_timer_now());
    else
        pp_profile_event_end();
}

/* The fast path checks everything before it changes anything: the end is
 * pp_profile_task_end_fast's case; the task that goes on is the implicit
 * task or the newest active task below the ending one, suspended, with its
 * stub's node at hand (pp_profile_task_resume_top's case); created_in is
 * its innermost open region.  Then it does all three in straight-line code;
 * else the general bodies do, in turn. */
void pp_profile_task_end_resume(pp_region_id task_region, pp_task_handle resumed,
                                pp_region_id created_in)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        if (pp_profile_measuring())
            pp_profile_task_end_resume_other(task_region, resumed, created_in);
        else
            pp_profile_event_end();
        return;
    }
    uint64_t now = pp_timer_tsc();
    pp_task *t = loc->current, *it = loc->implicit, *p = it;
    pp_node *root = t->floor, *m, *s = NULL, *n = NULL;
    if (PP_UNLIKELY(t->state != pp_task_state_running() || t->region != task_region ||
                    t->pos != root || !(m = root->link) || loc->active_top != t))
        goto general;
    if (it->handle != resumed &&
        PP_UNLIKELY(!(p = t->next) || p->handle != resumed || !p->suspended ||
                    !(s = pp_profile_child_near(it->pos, pp_node_key_of(p->region, 0)))))
        goto general;
    if (created_in != PP_REGION_INVALID &&
        PP_UNLIKELY((n = p->pos)->region != created_in || n == p->floor || p->fold))
        goto general;
    /* the end (pp_profile_task_end_fast) */
    loc->last = now;
    if (t->stub)
        pp_profile_node_close_at(t->stub, now); /* before s->start: it may be s */
    pp_profile_node_close_at(root, now - t->susp);
    root->next_sibling = m->link;
    m->link = root;
    loc->active_top = t->next;
    pp_profile_task_free(loc, t);
    /* the resumption (pp_profile_task_resume_top) */
    if (s) {
        p->susp += now - p->suspend_start;
        p->suspended = 0;
        s->start = now;
        p->stub = s;
    }
    loc->current = p;
    /* the creation's end */
    if (n) {
        pp_profile_node_visit(n, now - p->susp - n->start);
        p->pos = n->parent;
    }
    pp_profile_event_end_reloaded();
    return;
general:
    pp_profile_task_end_resume_general(loc, task_region, resumed, created_in, now);
}

void pp_profile_switch_exit_at(pp_task_handle resumed, pp_region_id region, uint64_t now)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_switch_exit_loc(loc, resumed, region, now);
    else if ((loc = pp_profile_event_loc()) != NULL)
        pp_profile_switch_exit_general(loc, resumed, region, now);
    else
        pp_profile_event_end();
}

/* ---- parallel regions ------------------------------------------------------------ */

/* The fork's body; now: NULL when the caller has no time to give (the
 * profile needs none at a fork, only a trace does: then it is read). */
static int64_t pp_profile_fork_loc(int num_threads, const uint64_t *now)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_UNLIKELY(loc == NULL))
        return 0;
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put(loc->trace, now ? *now : pp_timer_now(), PP_TRACE_FORK,
                     (uint64_t)(num_threads > 0 ? num_threads : 0));
    /* The context is the interned path of the forking position: immutable
     * and global, so it outlives a forking task instance's recycled nodes. */
    pp_path *p = pp_profile_node_path(loc, loc->current->pos);
    loc->fork_pending = p;
    loc->fork_pending_set = 1;
    return (int64_t)(intptr_t)p;
}

int64_t pp_profile_fork_at(pp_region_id region, int num_threads, uint64_t now)
{
    (void)region;
    pp_profile_event_begin();
    int64_t context = pp_profile_fork_loc(num_threads, &now);
    pp_profile_event_end();
    return context;
}

int64_t pp_profile_fork(pp_region_id region, int num_threads)
{
    (void)region;
    pp_profile_event_begin();
    int64_t context = pp_profile_fork_loc(num_threads, NULL);
    pp_profile_event_end();
    return context;
}

/* The node a worker's team tree hangs below: one per distinct fork path. */
static pp_node *pp_profile_worker_root(pp_location *loc, pp_path *p)
{
    if (!p)
        return loc->root; /* unknown fork position: below the program root */
    for (pp_node *w = loc->workers; w; w = w->next_sibling)
        if (w->path == p)
            return w;
    pp_node *w = pp_profile_node_new(loc, NULL, pp_node_key_of(p->region, p->pset), PP_NODE_WORKER, 1);
    if (!w)
        return loc->root;
    w->path = p;
    w->depth = p->depth;
    w->next_sibling = loc->workers;
    __atomic_store_n(&loc->workers, w, __ATOMIC_RELEASE);
    return w;
}

static void pp_profile_parallel_begin_loc(pp_region_id region, int64_t fork_context, uint64_t now)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_UNLIKELY(loc == NULL))
        return;
    pp_path *p = (pp_path *)(intptr_t)fork_context;
    pp_task *parent = loc->current;
    pp_task *it = pp_profile_task_alloc(loc, 0);
    if (!it)
        return;
    pp_node *base;
    if (loc->fork_pending_set && loc->fork_pending == p) {
        /* the master: the parallel region nests at its current position,
         * possibly inside an explicit task's tree (which is not suspended:
         * it is executing the parallel region) */
        loc->fork_pending_set = 0;
        base = parent->pos;
        /* the team's nodes grow the task's instance tree while the implicit
         * task is current: its end must drain the tree (pp_profile_instance_keep) */
        parent->grew = 1;
    } else {
        base = pp_profile_worker_root(loc, p);
    }
    pp_node *par = pp_profile_child_slow(loc, base, pp_node_key_of(region, 0), 1);
    if (!par) {
        pp_profile_implicit_free(loc, it);
        return;
    }
    it->handle = pp_profile_task_new_handle();
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put3(loc->trace, now, PP_TRACE_TEAM_BEGIN, (uint64_t)fork_context, region,
                      it->handle);
    it->parent_task = parent;
    it->parent_implicit = loc->implicit;
    it->pos = it->floor = par;
    par->start = now;
    loc->last = now;
    loc->implicit = loc->current = it;
    if (loc->n_ctr)
        pp_profile_counters_enter(loc, it, par);
}

void pp_profile_parallel_begin_at(pp_region_id region, int64_t fork_context, uint64_t now)
{
    pp_profile_event_begin();
    pp_profile_parallel_begin_loc(region, fork_context, now);
    pp_profile_event_end();
}

void pp_profile_parallel_begin(pp_region_id region, int64_t fork_context)
{
    pp_profile_event_begin();
    if (pp_profile_measuring())
        pp_profile_parallel_begin_loc(region, fork_context, pp_timer_now());
    pp_profile_event_end();
}

static void pp_profile_parallel_end_loc(pp_region_id region, uint64_t now)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_UNLIKELY(loc == NULL))
        return;
    pp_task *it = loc->implicit;
    if (it == &loc->initial) {
        PP_WARN_ONCE("end of a parallel region that did not begin on this thread; ignored");
        return;
    }
    if (loc->current != it) {
        /* an explicit task is still current: its end was lost */
        PP_WARN_ONCE("a parallel region ended while an explicit task was still running on the "
                     "thread; that task is closed there");
        while (loc->current != it && loc->current->is_explicit) {
            if (loc->trace)
                pp_trace_put2(loc->trace, now, PP_TRACE_TASK_END, loc->current->handle,
                              loc->current->region);
            pp_profile_task_finish(loc, loc->current, now);
        }
        loc->current = it;
    }
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put2(loc->trace, now, PP_TRACE_TEAM_END, region, it->parent_task->handle);
    if (it->floor->region != region)
        PP_WARN_ONCE("parallel region end does not match the innermost parallel region");
    for (pp_node *n = it->pos;; n = n->parent) {
        pp_profile_close_node(loc, it, n, now);
        if (n == it->floor)
            break;
    }
    loc->implicit = it->parent_implicit;
    loc->current = it->parent_task;
    loc->last = now;
    pp_profile_implicit_free(loc, it);
}

void pp_profile_parallel_end_at(pp_region_id region, uint64_t now)
{
    pp_profile_event_begin();
    pp_profile_parallel_end_loc(region, now);
    pp_profile_event_end();
}

void pp_profile_parallel_end(pp_region_id region)
{
    pp_profile_event_begin();
    if (pp_profile_measuring())
        pp_profile_parallel_end_loc(region, pp_timer_now());
    pp_profile_event_end();
}

static void pp_profile_join_loc(pp_task_handle forking_task, uint64_t now)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_UNLIKELY(loc == NULL))
        return;
    if (PP_UNLIKELY(loc->trace != NULL))
        pp_trace_put(loc->trace, now, PP_TRACE_JOIN, 0);
    if (loc->current->handle != forking_task)
        pp_profile_task_switch_loc(loc, forking_task, now);
}

void pp_profile_join_at(pp_region_id region, pp_task_handle forking_task, uint64_t now)
{
    (void)region;
    pp_profile_event_begin();
    pp_profile_join_loc(forking_task, now);
    pp_profile_event_end();
}

void pp_profile_join(pp_region_id region, pp_task_handle forking_task)
{
    (void)region;
    pp_profile_event_begin();
    if (pp_profile_measuring())
        pp_profile_join_loc(forking_task, pp_timer_now());
    pp_profile_event_end();
}

/* ---- adjacent events in one call (the wrapper's merged calls) -------------------- */

/* Both halves' general bodies at one time: after the fast path found the
 * exit unusual (before it changed anything but, perhaps, the switch back to
 * the task to resume, which pp_profile_switch_exit_general does not repeat),
 * or for a location of the general kind. */
static __attribute__((noinline)) void
pp_profile_exit_resume_create_general(pp_location *loc, pp_region_id ended, pp_task_handle resumed,
                                      pp_region_id region, pp_task_handle *task, uint64_t now)
{
    pp_profile_switch_exit_body(loc, resumed, ended, now);
    pp_task_handle h = pp_profile_handle_of(loc);
    if (task)
        *task = h;
    pp_profile_task_create_enter_loc(loc, region, h, now);
    pp_profile_event_end();
}

static __attribute__((noinline)) void
pp_profile_exit_resume_enter_general(pp_location *loc, pp_region_id ended, pp_task_handle resumed,
                                     pp_region_id region, uint64_t now)
{
    pp_profile_switch_exit_body(loc, resumed, ended, now);
    pp_profile_enter_body(loc, region, now);
    pp_profile_event_end();
}

static __attribute__((noinline)) void pp_profile_exit_resume_create_other(pp_region_id ended,
                                                                          pp_task_handle resumed,
                                                                          pp_region_id region,
                                                                          pp_task_handle *task)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        pp_profile_task_create_begin_other(region, task, NULL);
        return;
    }
    pp_profile_exit_resume_create_general(loc, ended, resumed, region, task, pp_timer_now());
}

static __attribute__((noinline)) void pp_profile_exit_resume_enter_other(pp_region_id ended,
                                                                         pp_task_handle resumed,
                                                                         pp_region_id region)
{
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_exit_resume_enter_general(loc, ended, resumed, region, pp_timer_now());
    else
        pp_profile_event_end();
}

/* The first half on the fast path: the switch back to resumed (when other
 * tasks ran) and the exit of ended, the innermost open region; the node
 * exited (its task goes on in *t), or NULL when the general bodies must do
 * the rest.  The caller then enters the next region below the task's new
 * position, with no folded region (checked here), or leaves that to the
 * general body of the second half: every call but tail calls is avoided,
 * so the merged calls need no stack frame. */
static inline __attribute__((always_inline)) pp_node *
pp_profile_exit_resume_fast(pp_location *loc, pp_region_id ended, pp_task_handle resumed,
                            uint64_t now, pp_task **tp)
{
    pp_task *t = loc->current;
    if (PP_UNLIKELY(t->handle != resumed) && !(t = pp_profile_task_resume_top(loc, t, resumed, now)))
        return NULL;
    pp_node *n = t->pos;
    if (PP_UNLIKELY(n->region != ended || n == t->floor || t->fold))
        return NULL;
    loc->last = now;
    pp_profile_node_visit(n, now - t->susp - n->start);
    t->pos = n->parent;
    *tp = t;
    return n;
}

/* The region entered after exiting its sibling n: the two are adjacent in
 * the program text, so it is nearly always the sibling made after n (the
 * children keep their first-visit order); else the usual look-up. */
static inline pp_node *pp_profile_child_after(pp_node *n, uint64_t key)
{
    pp_node *c = n->next_sibling;
    if (PP_LIKELY(c != NULL && c->key == key)) {
        n->parent->last_child = c;
        return c;
    }
    return pp_profile_child_near(n->parent, key);
}

/* The bodies of the merged calls on a location of the fast kind. */
static inline __attribute__((always_inline)) void
pp_profile_exit_resume_create_fast(pp_location *loc, pp_region_id ended, pp_task_handle resumed,
                                   pp_region_id region, pp_task_handle *task)
{
    uint64_t now = pp_timer_tsc();
    pp_task *t;
    pp_node *n = pp_profile_exit_resume_fast(loc, ended, resumed, now, &t);
    if (PP_UNLIKELY(n == NULL)) {
        pp_profile_exit_resume_create_general(loc, ended, resumed, region, task, now);
        return;
    }
    pp_task_handle h = pp_profile_handle_of(loc);
    *task = h;
    pp_node *c = pp_profile_child_after(n, pp_node_key_of(region, 0));
    if (PP_UNLIKELY(c == NULL)) {
        pp_profile_task_create_general(loc, region, h, now);
        return;
    }
    c->start = now - t->susp;
    t->pos = c;
    pp_profile_event_end_reloaded();
}

static inline __attribute__((always_inline)) void
pp_profile_exit_resume_enter_fast(pp_location *loc, pp_region_id ended, pp_task_handle resumed,
                                  pp_region_id region)
{
    uint64_t now = pp_timer_tsc();
    pp_task *t;
    pp_node *n = pp_profile_exit_resume_fast(loc, ended, resumed, now, &t);
    if (PP_UNLIKELY(n == NULL)) {
        pp_profile_exit_resume_enter_general(loc, ended, resumed, region, now);
        return;
    }
    pp_node *c = pp_profile_child_after(n, pp_node_key_of(region, 0));
    if (PP_UNLIKELY(c == NULL)) {
        pp_profile_enter_general(loc, region, now);
        return;
    }
    c->start = now - t->susp;
    t->pos = c;
    pp_profile_event_end_reloaded();
}

void pp_profile_exit_resume_create(pp_region_id ended, pp_task_handle resumed,
                                   pp_region_id region, pp_task_handle *task)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL))
        pp_profile_exit_resume_create_other(ended, resumed, region, task);
    else
        pp_profile_exit_resume_create_fast(loc, ended, resumed, region, task);
}

void pp_profile_exit_resume_enter(pp_region_id ended, pp_task_handle resumed, pp_region_id region)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_exit_resume_enter_fast(loc, ended, resumed, region);
    else if (pp_profile_measuring())
        pp_profile_exit_resume_enter_other(ended, resumed, region);
    else
        pp_profile_event_end();
}

/* ---- a task's events held back by the OMPT layer (doc/ompt.md "Cost") ----------- */

/* create_run_at: pp_profile_task_create_run with its second half at `begun`
 * too (the layer held the begin back as well, and the next event was no
 * end of the task). */
static __attribute__((noinline)) void pp_profile_task_create_run_at_other(pp_region_id region,
                                                                          pp_task_handle task,
                                                                          uint64_t created,
                                                                          pp_region_id task_region,
                                                                          uint64_t begun)
{
    pp_location *loc = pp_profile_event_loc();
    if (loc != NULL)
        pp_profile_task_create_run_general(loc, region, task, created, task_region, begun);
    else
        pp_profile_event_end();
}

void pp_profile_task_create_run_at(pp_region_id region, pp_task_handle task, uint64_t created,
                                   pp_region_id task_region, uint64_t begun)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    if (PP_UNLIKELY(loc == NULL)) {
        pp_profile_task_create_run_at_other(region, task, created, task_region, begun);
        return;
    }
    pp_task *t = loc->current;
    pp_node *c;
    if (PP_UNLIKELY(t->fold || !(c = pp_profile_child_near(t->pos, pp_node_key_of(region, 0))))) {
        pp_profile_task_create_run_general(loc, region, task, created, task_region, begun);
        return;
    }
    c->start = created - t->susp;
    t->pos = c;
    pp_profile_task_begin_fast(loc, task_region, task, false, begun);
}

/* create_run_end: a whole undeferred task in which nothing else happened
 * (a leaf of a recursion): create_run(region, task, created, task_region)
 * at `begun`, then end_resume(task_region, resumed, region) now.  Its
 * instance never becomes the location's current task: the values go
 * straight to the nodes its events would visit. */
static __attribute__((noinline)) void
pp_profile_task_create_run_end_general(pp_location *loc, pp_region_id region, pp_task_handle task,
                                       uint64_t created, uint64_t begun, pp_region_id task_region,
                                       pp_task_handle resumed, uint64_t now)
{
    pp_profile_task_create_enter_loc(loc, region, task, created);
    pp_profile_task_begin_within(loc, task_region, task, begun);
    pp_profile_task_end_within(loc, task_region, now);
    if (loc->current->handle != resumed)
        pp_profile_task_switch_loc(loc, resumed, now);
    pp_profile_exit_body(loc, region, now);
    pp_profile_event_end();
}

/* (also the fast path's way out, before it read the clock) */
static __attribute__((noinline)) void
pp_profile_task_create_run_end_other(pp_region_id region, pp_task_handle task, uint64_t created,
                                     uint64_t begun, pp_region_id task_region,
                                     pp_task_handle resumed)
{
    pp_location *loc = pp_profile_event_loc();
    if (loc != NULL)
        pp_profile_task_create_run_end_general(loc, region, task, created, begun, task_region,
                                               resumed, pp_timer_now());
    else
        pp_profile_event_end();
}

/* The fast path: the creating task p is the one to resume, with no folded
 * region, its creation node next to the one entered last; the task's
 * construct has a spare instance tree and its stub's node at hand
 * (pp_profile_task_begin_fast's case); an explicit p has its stub open
 * (the node its resumption would find).  All this is checked before the
 * clock is read, so that anything else is the general form's, which reads
 * it (a tail call).  Then what the five events would do to the nodes, in
 * their order (p's stub and the task's may be one node): p's stub closes
 * at `begun` (p is suspended from then to now), the task's root and stub
 * get a visit from `begun` to now, p's stub opens again now, the creation
 * node gets its visit in p's clock.  The spare tree goes back where it was
 * taken from, and the task record the separate events would take from the
 * free list and give back is not needed. */
void pp_profile_task_create_run_end(pp_region_id region, pp_task_handle task, uint64_t created,
                                    uint64_t begun, pp_region_id task_region,
                                    pp_task_handle resumed)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    pp_task *p;
    pp_node *m, *c, *root, *s, *below, *ps;
    uint64_t key = pp_node_key_of(task_region, 0);
    if (PP_UNLIKELY(loc == NULL || (p = loc->current)->handle != resumed || p->fold ||
                    !(m = loc->construct_cache[pp_profile_construct_slot(key)]) ||
                    m->key != key || !(root = m->link) || !root->link))
        goto other;
    below = loc->implicit->pos;
    ps = p->stub;
    if (PP_UNLIKELY((p->is_explicit && (ps == NULL || ps->parent != below)) ||
                    !(c = pp_profile_child_near(p->pos, pp_node_key_of(region, 0)))))
        goto other;
    s = m->stub_hint;
    if (PP_UNLIKELY(s == NULL || s->parent != below || s->key != key)) {
        if (!(s = pp_profile_child_near(below, key)))
            goto other;
        m->stub_hint = s;
    }
    uint64_t now = pp_timer_tsc();
    loc->last = now;
    uint64_t d = now > begun ? now - begun : 0;
    uint64_t until = now;
    if (p->is_explicit) {
        pp_profile_node_close_at(ps, begun); /* before the task's stub: it may be ps */
        p->suspend_start = begun;
        p->susp += now - begun;
        until = begun; /* p's clock stops while the task runs */
    }
    pp_profile_node_visit(root, d);
    s->start = begun;
    pp_profile_node_visit(s, d);
    if (p->is_explicit)
        ps->start = now;
    pp_profile_node_visit(c, until - created);
    pp_profile_event_end_reloaded();
    return;
other:
    pp_profile_task_create_run_end_other(region, task, created, begun, task_region, resumed);
}

/* ---- a task's begin held back by the libgomp interposer (doc/gomp.md "Cost") ---- */

/* task_run: a whole tied task in which nothing else happened (a leaf of a
 * recursion): task_begin at `begun`, then task_end now. */
static __attribute__((noinline)) void pp_profile_task_run_general(pp_location *loc,
                                                                  pp_region_id task_region,
                                                                  pp_task_handle task,
                                                                  uint64_t begun, uint64_t now)
{
    pp_profile_task_begin_within(loc, task_region, task, begun);
    pp_profile_task_end_within(loc, task_region, now);
    pp_profile_event_end();
}

/* (also the fast path's way out, before it read the clock) */
static __attribute__((noinline)) void pp_profile_task_run_other(pp_region_id task_region,
                                                                pp_task_handle task,
                                                                uint64_t begun)
{
    pp_location *loc = pp_profile_event_loc();
    if (loc != NULL)
        pp_profile_task_run_general(loc, task_region, task, begun, pp_timer_now());
    else
        pp_profile_event_end();
}

/* The fast path: pp_profile_task_begin_fast's case (a free task record, a
 * spare instance tree, the stub's node at hand), checked before the clock
 * is read; the end's case then holds by itself
 * (nothing ran inside the instance: no region open, no node made, the
 * instance on top of the stack, its tree going back to the construct it
 * came from).  Then what the two events do to the nodes, in their order
 * (the running task's stub and the task's may be one node): an explicit
 * task that was running is suspended at `begun`, its stub closed then; the
 * task's root and stub get a visit from `begun` to now, and the implicit
 * task is current afterwards.  The task record the two events would take
 * from the free list and give back, and the spare tree they would take off
 * its list and put back at its head, stay where they are. */
void pp_profile_task_run(pp_region_id task_region, pp_task_handle task, uint64_t begun)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    uint64_t key = pp_node_key_of(task_region, 0);
    pp_node *m, *root, *s;
    if (PP_UNLIKELY(loc == NULL || !loc->task_free ||
                    !(m = loc->construct_cache[pp_profile_construct_slot(key)]) ||
                    m->key != key || !(root = m->link) || root->link != m ||
                    !(s = pp_profile_task_stub_near(loc, m, key)))) {
        pp_profile_task_run_other(task_region, task, begun);
        return;
    }
    uint64_t now = pp_timer_tsc();
    pp_profile_task_suspend_fast(loc->current, begun);
    uint64_t d = now > begun ? now - begun : 0; /* both nodes open at `begun` */
    root->start = begun;
    pp_profile_node_visit(root, d);
    s->start = begun;
    pp_profile_node_visit(s, d);
    loc->last = now;
    loc->current = loc->implicit;
    PP_ASSERT(pp_profile_current_ok(loc));
    pp_profile_event_end_reloaded();
}

/* begin_create_visit: a task whose begin was held back creates a task
 * first: task_begin(task_region, task) at `begun`, then
 * task_create_visit(region, created_task, created). */
static __attribute__((noinline)) void
pp_profile_task_begin_create_visit_other(pp_region_id task_region, pp_task_handle task,
                                         uint64_t begun, pp_region_id region,
                                         pp_task_handle created_task, uint64_t created)
{
    pp_location *loc = pp_profile_event_loc();
    if (loc == NULL) {
        pp_profile_event_end();
        return;
    }
    pp_profile_task_begin_within(loc, task_region, task, begun);
    pp_profile_task_create_visit_general(loc, region, created_task, created, pp_timer_now());
}

/* The fast path: the begin's case (pp_profile_task_begin_fast's) and the
 * creation's node next to the one entered last in the task's spare tree,
 * checked before anything changes; then the begin at `begun` and the
 * creation's visit (the new instance has nothing folded). */
void pp_profile_task_begin_create_visit(pp_region_id task_region, pp_task_handle task,
                                        uint64_t begun, pp_region_id region,
                                        pp_task_handle created_task, uint64_t created)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_fast_loc();
    uint64_t key = pp_node_key_of(task_region, 0);
    pp_task *t;
    pp_node *m, *root, *s, *n;
    if (PP_UNLIKELY(loc == NULL || !(t = loc->task_free) ||
                    !(m = loc->construct_cache[pp_profile_construct_slot(key)]) ||
                    m->key != key || !(root = m->link) ||
                    !(s = pp_profile_task_stub_near(loc, m, key)) ||
                    !(n = pp_profile_child_near(root, pp_node_key_of(region, 0))))) {
        pp_profile_task_begin_create_visit_other(task_region, task, begun, region, created_task,
                                                 created);
        return;
    }
    uint64_t now = pp_timer_tsc();
    pp_profile_task_begin_apply(loc, task_region, task, t, m, root, s, begun);
    loc->last = now;
    pp_profile_node_visit(n, now > created ? now - created : 0);
    pp_profile_event_end_reloaded();
}

/* ---- what a thread held back, recorded for it at the end (pp_profile_names.h) ---- */

void pp_profile_location_task_begin_at(void *location, pp_region_id task_region,
                                       pp_task_handle task, uint64_t when)
{
    if (location && when <= pp_profile_g.end_time)
        pp_profile_task_begin_within(location, task_region, task, when);
}

void pp_profile_location_task_create_enter_at(void *location, pp_region_id region,
                                              pp_task_handle task, uint64_t when)
{
    if (location && when <= pp_profile_g.end_time)
        pp_profile_task_create_enter_loc(location, region, task, when);
}

void pp_profile_location_enter_at(void *location, pp_region_id region, uint64_t when)
{
    if (location && when <= pp_profile_g.end_time)
        pp_profile_enter_any(location, region, when);
}
