/* The replay's model of the run: what every thread does at each moment and
 * which tasks are ready, driven by the events in time order.
 *
 * A thread's time falls into one class at a time (pp_replay_cat; doc/trace.md
 * says what each holds, pp_replay_class.c how they make the breakdown's
 * columns): outside any team it runs the program's serial code; between a
 * fork and its team's begin (a team's end and the join) the runtime starts
 * (ends) the team; in a team its current task runs user code (work, of an
 * explicit or an implicit task), creates a task, waits at a scheduling point
 * or for a critical section or lock; and the trace's own start and flushes
 * are measurement, whatever the thread was doing.  Waiting is overhead while
 * a task is ready and idleness otherwise (POT's definition); task creation
 * and fork/join count as overhead always (task and thread management).
 * "Ready" means created and not begun, or suspended in a taskwait whose
 * children have all completed (that one is ready only for its own thread:
 * tasks are tied).  A task with depend clauses that was created and not
 * begun may or may not be ready: time that depends on it is
 * "undetermined", never guessed.
 *
 * Accounting is lazy: a thread's time since its last change is settled
 * (pp_replay_settle) before anything that changes its class or its
 * readiness; a change of the global readiness settles every thread.
 *
 * Three files: this one, a thread's time (its class, the readiness, the
 * regions it enters and leaves); pp_replay_task.c, the tasks;
 * pp_replay_team.c, the thread teams.  pp_replay_model.h is what they share. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_model.h"

/* ---- categories ------------------------------------------------------------------- */

pp_replay_task *pp_replay_implicit(const pp_replay_loc *l)
{
    return l->n_levels ? l->levels[l->n_levels - 1].implicit : l->initial;
}

pp_replay_task *pp_replay_running(pp_replay_loc *l)
{
    return l->cur ? l->cur : pp_replay_implicit(l);
}

static int pp_replay_top_kind(const pp_replay *r, const pp_replay_task *t)
{
    if (!t || t->depth == 0)
        return PP_RK_OTHER;
    uint32_t region = t->stack[t->depth - 1].region;
    return region < r->n_regions ? r->regions[region].kind : PP_RK_OTHER;
}

int pp_replay_cat_of(const pp_replay *r, const pp_replay_loc *l)
{
    if (l->n_levels == 0 && l->initial->depth == 0)
        return PP_CAT_OFF;
    const pp_replay_task *t = l->cur ? l->cur : pp_replay_implicit(l);
    int kind = pp_replay_top_kind(r, t);
    if (kind == PP_RK_FLUSH)
        return PP_CAT_MEASURE;
    /* in serial code too: an MPI call is MPI time wherever it is (a profile's
     * classification takes MPI regions first as well) */
    if (kind == PP_RK_MPI)
        return PP_CAT_MPI_TRANSFER;
    if (l->in_fork_join)
        return PP_CAT_FORKJOIN;
    if (l->n_levels == 0)
        return PP_CAT_SERIAL;
    if (!l->cur)
        return PP_CAT_SCHED;
    switch (kind) {
    case PP_RK_CREATE: return PP_CAT_CREATE;
    case PP_RK_SCHED:
    case PP_RK_TASKWAIT: return PP_CAT_SCHED;
    case PP_RK_SYNC: return PP_CAT_SYNC;
    default: return t->is_explicit ? PP_CAT_WORK_TASK : PP_CAT_WORK_IMPLICIT;
    }
}

static int pp_replay_ready_class(const pp_replay *r, const pp_replay_loc *l)
{
    if (r->ready_sure + l->tied_ready)
        return PP_READY_SURE;
    return r->ready_maybe ? PP_READY_MAYBE : PP_READY_NONE;
}

uint32_t pp_replay_label(const pp_replay *r, const pp_replay_loc *l)
{
    int ready = pp_replay_ready_class(r, l);
    switch (l->cat) {
    case PP_CAT_WORK_TASK: return l->cur->label;
    case PP_CAT_WORK_IMPLICIT:
        return l->cur->depth ? l->cur->stack[l->cur->depth - 1].region : l->cur->label;
    case PP_CAT_SERIAL: return PP_LABEL_SERIAL;
    case PP_CAT_CREATE: return PP_LABEL_CREATE;
    case PP_CAT_FORKJOIN: return PP_LABEL_FORKJOIN;
    case PP_CAT_MEASURE: return PP_LABEL_FLUSH;
    case PP_CAT_MPI_TRANSFER:
    case PP_CAT_MPI_WAIT: return PP_LABEL_MPI;
    case PP_CAT_SCHED:
    case PP_CAT_SYNC:
        if (ready == PP_READY_SURE)
            return l->cat == PP_CAT_SCHED ? PP_LABEL_OVERHEAD_SCHED : PP_LABEL_OVERHEAD_SYNC;
        return ready == PP_READY_MAYBE ? PP_LABEL_UNDETERMINED : PP_LABEL_IDLE;
    default: return PP_LABEL_NONE;
    }
}

/* Account l's time up to t to what it was doing. */
void pp_replay_settle(pp_replay *r, pp_replay_loc *l, uint64_t t)
{
    if (t <= l->since)
        return;
    uint64_t a = l->since;
    l->since = t;
    if (l->cat == PP_CAT_OFF)
        return;
    uint64_t lo = a > r->from ? a : r->from, hi = t < r->to ? t : r->to;
    if (hi > lo)
        l->acc[l->cat][pp_replay_ready_class(r, l)] += hi - lo;
    /* the graph's work: the breakdown's work, serial code and task creation (a
     * child exists only once created); its part in the task region (from the
     * first task's creation on) goes to the region's graph too */
    if (l->cat == PP_CAT_WORK_TASK || l->cat == PP_CAT_WORK_IMPLICIT || l->cat == PP_CAT_CREATE ||
        l->cat == PP_CAT_SERIAL) {
        uint64_t region = 0;
        if (r->first_create) {
            uint64_t rf = r->first_create > r->from ? r->first_create : r->from;
            uint64_t rlo = a > rf ? a : rf;
            if (hi > rlo) {
                region = hi - rlo;
                r->rwork += region;
                r->rwork_create += l->cat == PP_CAT_CREATE ? region : 0;
                r->rwork_serial += l->cat == PP_CAT_SERIAL ? region : 0;
            }
        }
        pp_replay_span_work(r, l->cur ? l->cur : pp_replay_implicit(l), a, t, l->index, region);
    }
    if (r->view)
        pp_replay_view_segment(r->view, r, l->index, a, t, pp_replay_label(r, l));
}

/* Change the ready counts at t (sure/maybe: tasks created and not begun;
 * tied: a task of location tl suspended in a taskwait became ready or
 * resumed). */
void pp_replay_ready_change(pp_replay *r, uint64_t t, int ds, int dm, pp_replay_loc *tl, int dt)
{
    uint64_t total = r->ready_sure + r->ready_maybe + r->tied_total;
    if (r->view && t > r->ready_since)
        pp_replay_view_ready(r->view, r, r->ready_since, t, total, r->ready_maybe);
    r->ready_since = t;
    uint64_t s = r->ready_sure + (uint64_t)(int64_t)ds, m = r->ready_maybe + (uint64_t)(int64_t)dm;
    if ((s == 0) != (r->ready_sure == 0) || (m == 0) != (r->ready_maybe == 0))
        pp_replay_settle_all(r, t);
    else if (tl && dt && (tl->tied_ready == 0) != (tl->tied_ready + (uint32_t)dt == 0))
        pp_replay_settle(r, tl, t);
    r->ready_sure = s;
    r->ready_maybe = m;
    if (tl) {
        tl->tied_ready += (uint32_t)dt;
        r->tied_total += (uint64_t)(int64_t)dt;
    }
    if (r->chrome)
        pp_replay_chrome_counter(r->chrome, r, t, r->ready_sure + r->ready_maybe + r->tied_total);
}

static int pp_replay_in_taskwait(const pp_replay *r, const pp_replay_task *t)
{
    return pp_replay_top_kind(r, t) == PP_RK_TASKWAIT;
}

/* A task suspended in a taskwait whose children are all done (in a
 * taskwait depend: whose predecessors are) is ready (for its own thread). */
void pp_replay_check_tied(pp_replay *r, pp_replay_task *t, uint64_t now)
{
    if (!t || t->completed || t->ready_tied || !t->loc || t->loc->cur == t ||
        (t->in_wait_depend ? t->wait_open : t->live_children) || !pp_replay_in_taskwait(r, t))
        return;
    t->ready_tied = 1;
    pp_replay_ready_change(r, now, 0, 0, t->loc, 1);
}

/* ---- events ----------------------------------------------------------------------- */

void pp_replay_model_init(pp_replay *r)
{
    pp_replay_table_init(r);
    for (uint32_t i = 0; i < r->n_locs; i++) {
        pp_replay_loc *l = &r->locs[i];
        l->index = i;
        l->initial = pp_replay_task_new(0, NULL, 0, 0);
        l->initial->loc = l;
        l->initial->label = r->program_region;
        l->initial->seg->label = r->program_region;
        l->cur = l->initial;
    }
}

void pp_replay_enter(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t region)
{
    pp_replay_settle(r, l, t);
    if (!l->cur)
        l->cur = pp_replay_implicit(l);
    pp_replay_task *task = l->cur;
    pp_replay_task_push(task, region, t);
    int kind = region < r->n_regions ? r->regions[region].kind : PP_RK_OTHER;
    if (task->label == PP_LABEL_NONE &&
        ((kind == PP_RK_TASK && task->is_explicit) || (kind == PP_RK_PARALLEL && !task->is_explicit))) {
        task->label = region;
        if (task->seg->label == PP_LABEL_NONE)
            task->seg->label = region;
        if (task->deps == PP_DEPS_UNKNOWN && r->depend_construct)
            r->depend_construct[region] = 1;
        /* t_ready is 0 for a task that began before the graph made it ready (a
         * trace whose dependences the runtime did not honour): no wait known */
        if (task->is_explicit && task->deps != PP_DEPS_UNKNOWN && task->begun &&
            task->t_ready && task->t_begin >= task->t_ready && r->ready_wait) {
            uint64_t w = task->t_begin - task->t_ready;
            r->ready_wait[region].count++;
            r->ready_wait[region].total += w;
            if (w > r->ready_wait[region].max)
                r->ready_wait[region].max = w;
        }
        if (task->inst)
            r->insts[task->inst - 1].label = region;
    }
    if (kind == PP_RK_SCHED && l->n_levels && task == l->levels[l->n_levels - 1].implicit)
        pp_replay_barrier_enter(task);
    if (kind == PP_RK_MPI)
        pp_replay_mpi_enter(r, l, t);
    pp_replay_update(r, l);
}

void pp_replay_leave(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t region)
{
    pp_replay_settle(r, l, t);
    if (!l->cur)
        l->cur = pp_replay_implicit(l);
    pp_replay_task *task = l->cur;
    uint32_t i = task->depth;
    while (i > 0 && task->stack[i - 1].region != region)
        i--;
    if (i == 0)
        return;
    while (task->depth >= i) {
        pp_replay_entry e = task->stack[task->depth - 1];
        uint32_t reg = e.region;
        if (r->chrome)
            pp_replay_chrome_slice(r->chrome, r, l->index, reg,
                                   e.t > task->frag_start ? e.t : task->frag_start, t, task);
        task->depth--;
        int kind = reg < r->n_regions ? r->regions[reg].kind : PP_RK_OTHER;
        if (kind == PP_RK_TASKWAIT && task->in_wait_depend) {
            /* it waited for its predecessors only */
            task->in_wait_depend = 0;
            pp_replay_span_join(task, task->wait_span, task->wait_rspan, task->wait_seg);
            task->wait_span = task->wait_rspan = 0;
            pp_replay_seg_unref(task->wait_seg);
            task->wait_seg = NULL;
        } else if (kind == PP_RK_TASKWAIT) {
            pp_replay_span_join(task, task->child_max, task->child_rmax, task->child_max_seg);
            task->child_max = task->child_rmax = 0;
            pp_replay_seg_unref(task->child_max_seg);
            task->child_max_seg = NULL;
        } else if (kind == PP_RK_SCHED && l->n_levels &&
                   task == l->levels[l->n_levels - 1].implicit) {
            pp_replay_barrier_leave(task);
        }
    }
    pp_replay_update(r, l);
}

void pp_replay_finish(pp_replay *r, uint64_t t)
{
    pp_replay_settle_all(r, t);
    if (r->view && t > r->ready_since)
        pp_replay_view_ready(r->view, r, r->ready_since, t,
                             r->ready_sure + r->ready_maybe + r->tied_total, r->ready_maybe);
    for (uint32_t i = 0; i < r->n_locs; i++) {
        pp_replay_loc *l = &r->locs[i];
        for (uint32_t k = 0; k < l->n_levels; k++)
            pp_replay_span_note(r, l->levels[k].implicit->span, l->levels[k].implicit->rspan,
                                l->levels[k].implicit->seg);
        if (l->cur) {
            pp_replay_span_note(r, l->cur->span, l->cur->rspan, l->cur->seg);
            pp_replay_switch_out(r, l, l->cur, t);
        }
        pp_replay_span_note(r, l->initial->span, l->initial->rspan, l->initial->seg);
    }
    /* a task region that goes on past the window's end ends with it */
    if (r->first_create && (!r->last_end || r->last_end_after_window)) {
        r->last_end = r->to;
        r->end_rspan = r->rspan;
        r->end_rwork = r->rwork;
        r->end_rwork_create = r->rwork_create;
        r->end_rwork_serial = r->rwork_serial;
    }
}
