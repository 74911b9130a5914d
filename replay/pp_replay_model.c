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
 * readiness; a change of the global readiness settles every thread. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

#include <stdlib.h>
#include <string.h>

/* ---- the task table ------------------------------------------------------------- */

static uint64_t pp_replay_hash(uint64_t id)
{
    return id * 0x9E3779B97F4A7C15ull;
}

static pp_replay_task *pp_replay_lookup(pp_replay *r, uint64_t id)
{
    uint64_t mask = r->table_cap - 1;
    for (uint64_t i = pp_replay_hash(id) >> 20 & mask;; i = (i + 1) & mask) {
        pp_replay_task *t = r->table[i];
        if (!t || t->id == id)
            return t;
    }
}

static void pp_replay_table_put(pp_replay *r, pp_replay_task *t);

static void pp_replay_table_grow(pp_replay *r)
{
    pp_replay_task **old = r->table;
    uint64_t cap = r->table_cap;
    r->table_cap = cap * 2;
    r->table = pp_replay_alloc_zero(r->table_cap, sizeof *r->table);
    r->table_n = 0;
    for (uint64_t i = 0; i < cap; i++)
        if (old[i])
            pp_replay_table_put(r, old[i]);
    free(old);
}

static void pp_replay_table_put(pp_replay *r, pp_replay_task *t)
{
    if (2 * (r->table_n + 1) > r->table_cap)
        pp_replay_table_grow(r);
    uint64_t mask = r->table_cap - 1;
    uint64_t i = pp_replay_hash(t->id) >> 20 & mask;
    while (r->table[i])
        i = (i + 1) & mask;
    r->table[i] = t;
    r->table_n++;
}

/* Linear probing: close the gap by moving later entries of the run back. */
static void pp_replay_table_remove(pp_replay *r, uint64_t id)
{
    uint64_t mask = r->table_cap - 1;
    uint64_t i = pp_replay_hash(id) >> 20 & mask;
    while (r->table[i] && r->table[i]->id != id)
        i = (i + 1) & mask;
    if (!r->table[i])
        return;
    r->table[i] = NULL;
    r->table_n--;
    for (uint64_t j = (i + 1) & mask; r->table[j]; j = (j + 1) & mask) {
        uint64_t home = pp_replay_hash(r->table[j]->id) >> 20 & mask;
        /* may the entry at j move to the hole at i? (home not in (i, j]) */
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            r->table[i] = r->table[j];
            r->table[j] = NULL;
            i = j;
        }
    }
}

/* ---- tasks ------------------------------------------------------------------------- */

static pp_replay_task *pp_replay_task_new(uint64_t id, pp_replay_seg *pred, uint64_t span,
                                         uint64_t rspan)
{
    pp_replay_task *t = pp_replay_alloc_zero(1, sizeof *t);
    t->id = id;
    t->label = PP_LABEL_NONE;
    t->create_region = UINT32_MAX;
    t->span = span;
    t->rspan = rspan;
    t->seg = pp_replay_seg_new(pred, PP_LABEL_NONE);
    t->refs = 1;
    t->instance = -1;
    return t;
}

static void pp_replay_task_unref(pp_replay_task *t)
{
    while (t && --t->refs == 0) {
        pp_replay_task *parent = t->parent;
        pp_replay_depend_free(t);
        pp_replay_seg_unref(t->seg);
        pp_replay_seg_unref(t->child_max_seg);
        for (uint32_t i = 0; i < t->n_par; i++)
            free(t->par_val[i]);
        free(t->stack);
        free(t);
        t = parent;
    }
}

void pp_replay_task_release(pp_replay_task *t)
{
    pp_replay_task_unref(t);
}

static void pp_replay_push(pp_replay_task *t, uint32_t region, uint64_t now)
{
    if (t->depth == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 8;
        t->stack = pp_replay_resize(t->stack, t->cap, sizeof *t->stack);
    }
    t->stack[t->depth++] = (pp_replay_entry){now, region};
}

/* ---- categories ------------------------------------------------------------------- */

static pp_replay_task *pp_replay_implicit(const pp_replay_loc *l)
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

static int pp_replay_cat_of(const pp_replay *r, const pp_replay_loc *l)
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
static void pp_replay_settle(pp_replay *r, pp_replay_loc *l, uint64_t t)
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

static void pp_replay_settle_all(pp_replay *r, uint64_t t)
{
    for (uint32_t i = 0; i < r->n_locs; i++)
        pp_replay_settle(r, &r->locs[i], t);
}

static void pp_replay_update(pp_replay *r, pp_replay_loc *l)
{
    l->cat = pp_replay_cat_of(r, l);
}

/* Change the ready counts at t (sure/maybe: tasks created and not begun;
 * tied: a task of location tl suspended in a taskwait became ready or
 * resumed). */
static void pp_replay_ready_change(pp_replay *r, uint64_t t, int ds, int dm, pp_replay_loc *tl,
                                   int dt)
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

/* ---- the Chrome trace's slices: a task's open regions, per fragment -------------- */

static void pp_replay_switch_out(pp_replay *r, pp_replay_loc *l, pp_replay_task *t, uint64_t now)
{
    if (t->is_explicit && r->view) {
        if (!t->waiting_shown) {
            t->waiting_shown = 1;
            pp_replay_view_task(r->view, r, t, l->index, t->t_create, t->t_begin, 0);
        }
        if (now > t->frag_start)
            pp_replay_view_task(r->view, r, t, l->index, t->frag_start, now, 1);
    }
    if (!r->chrome)
        return;
    for (uint32_t i = 0; i < t->depth; i++) {
        uint64_t a = t->stack[i].t > t->frag_start ? t->stack[i].t : t->frag_start;
        pp_replay_chrome_slice(r->chrome, r, l->index, t->stack[i].region, a, now, t);
    }
}

/* ---- events ---------------------------------------------------------------------------- */

void pp_replay_model_init(pp_replay *r)
{
    r->table_cap = 1024;
    r->table = pp_replay_alloc_zero(r->table_cap, sizeof *r->table);
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

void pp_replay_param(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t param,
                     const char *value)
{
    pp_replay_settle(r, l, t);
    if (!l->cur)
        l->cur = pp_replay_implicit(l);
    pp_replay_task *task = l->cur;
    uint32_t i = 0;
    while (i < task->n_par && task->par_id[i] != param)
        i++;
    if (i == PP_REPLAY_PARAMS)
        return;
    char *copy = pp_replay_strdup(value ? value : "");
    if (i == task->n_par)
        task->par_id[task->n_par++] = param;
    else
        free(task->par_val[i]);
    task->par_val[i] = copy;
}

void pp_replay_task_params(const pp_replay *r, const pp_replay_task *t, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; t && i < t->n_par && n < size; i++) {
        const char *name = t->par_id[i] < r->n_params &&
                                   r->param_name[t->par_id[i]] < r->n_strings &&
                                   r->strings[r->param_name[t->par_id[i]]]
                               ? r->strings[r->param_name[t->par_id[i]]]
                               : "?";
        int k = snprintf(buf + n, size - n, "%s%s=%s", i ? ", " : "", name, t->par_val[i]);
        if (k < 0)
            break;
        n += (size_t)k;
    }
}

void pp_replay_enter(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t region)
{
    pp_replay_settle(r, l, t);
    if (!l->cur)
        l->cur = pp_replay_implicit(l);
    pp_replay_task *task = l->cur;
    pp_replay_push(task, region, t);
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

static void pp_replay_team_release(pp_replay *r, pp_replay_team *team);

static pp_replay_team *pp_replay_team_new(pp_replay *r, uint32_t comm, uint32_t requested,
                                          uint32_t rank)
{
    pp_replay_team *team = pp_replay_alloc_zero(1, sizeof *team);
    team->comm = comm;
    team->requested = requested;
    team->rank = rank;
    team->next_open = r->open_teams;
    r->open_teams = team;
    return team;
}

/* The team is made at the fork: its members begin it in any order (on a busy
 * machine a worker may begin it long before the thread that forked it). */
void pp_replay_fork(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t threads)
{
    pp_replay_settle(r, l, t);
    pp_replay_task *task = l->cur ? l->cur : pp_replay_implicit(l);
    /* a fork without a num_threads clause records 0: the team's size is not known,
     * any worker of the construct may join it */
    pp_replay_team *team =
        pp_replay_team_new(r, PP_REPLAY_NO_COMM, threads ? threads : UINT32_MAX, l->rank);
    team->fork_seg = pp_replay_span_split(task); /* the reference moves to the team */
    team->fork_span = task->span;
    team->fork_rspan = task->rspan;
    team->refs = 1; /* the forking thread's, until it begins the team */
    if (l->fork_team)
        pp_replay_team_release(r, l->fork_team);
    l->fork_team = team;
    l->in_fork_join = 1;
    pp_replay_update(r, l);
}

/* The team l begins (comm: its communicator); *forked: l forked it (its
 * reference from the fork becomes the member's). */
static pp_replay_team *pp_replay_team_find(pp_replay *r, pp_replay_loc *l, uint32_t comm,
                                           int *forked)
{
    pp_replay_team *team = l->fork_team;
    *forked = team != NULL;
    if (team) {
        l->fork_team = NULL;
        team->comm = comm;
        return team;
    }
    /* a worker: the most recent team of this communicator still short of
     * members (nested teams of the same construct could be told apart only
     * by their timing: doc/trace.md), else the most recent team no member
     * has begun yet; of its own process (the ranks of a job fork at once) */
    for (team = r->open_teams; team; team = team->next_open)
        if (team->comm == comm && team->rank == l->rank && team->members < team->requested)
            return team;
    for (team = r->open_teams; team; team = team->next_open)
        if (team->comm == PP_REPLAY_NO_COMM && team->rank == l->rank &&
            team->members < team->requested) {
            team->comm = comm;
            return team;
        }
    return pp_replay_team_new(r, comm, UINT32_MAX, l->rank);
}

void pp_replay_team_begin(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t comm)
{
    pp_replay_settle(r, l, t);
    int forked;
    l->in_fork_join = 0;
    pp_replay_team *team = pp_replay_team_find(r, l, comm, &forked);
    team->members++;
    team->left++;
    if (!forked)
        team->refs++;
    if (l->n_levels == l->cap_levels) {
        l->cap_levels = l->cap_levels ? 2 * l->cap_levels : 4;
        l->levels = pp_replay_resize(l->levels, l->cap_levels, sizeof *l->levels);
    }
    pp_replay_task *implicit =
        pp_replay_task_new(0, team->fork_seg, team->fork_span, team->fork_rspan);
    implicit->team = team;
    implicit->loc = l;
    implicit->frag_start = t;
    pp_replay_task *resume = l->cur ? l->cur : pp_replay_implicit(l);
    resume->refs++;
    l->levels[l->n_levels++] = (pp_replay_level){team, implicit, resume, forked, t};
    l->cur = implicit;
    pp_replay_update(r, l);
}

static void pp_replay_team_release(pp_replay *r, pp_replay_team *team)
{
    if (--team->refs)
        return;
    for (pp_replay_team **p = &r->open_teams; *p; p = &(*p)->next_open) {
        if (*p == team) {
            *p = team->next_open;
            break;
        }
    }
    pp_replay_seg_unref(team->fork_seg);
    for (int i = 0; i < 4; i++)
        pp_replay_seg_unref(team->ep[i].seg);
    pp_replay_team_gaps(r, team);
    free(team->workers);
    free(team);
}

/* A member's time in the team, for its fork/join gap (pp_replay_team_gaps). */
static void pp_replay_team_member_end(pp_replay_team *team, const pp_replay_loc *l,
                                      const pp_replay_level *lv, uint64_t t)
{
    uint64_t own = t > lv->begin ? t - lv->begin : 0;
    if (own > team->own_max)
        team->own_max = own;
    if (t > team->end_max)
        team->end_max = t;
    if (lv->forked)
        return;
    struct pp_replay_member *w =
        pp_replay_resize(team->workers, team->n_workers + 1, sizeof *w);
    w[team->n_workers++] = (struct pp_replay_member){l->index, own};
    team->workers = w;
}

void pp_replay_team_end(pp_replay *r, pp_replay_loc *l, uint64_t t)
{
    pp_replay_settle(r, l, t);
    if (l->n_levels == 0)
        return;
    pp_replay_level lv = l->levels[--l->n_levels];
    pp_replay_team_member_end(lv.team, l, &lv, t);
    pp_replay_task *implicit = lv.implicit;
    pp_replay_span_note(r, implicit->span, implicit->rspan, implicit->seg);
    /* the task that forked continues after the whole team (all of it passed
     * the closing implicit barrier, so this implicit task's span is the
     * team's) */
    pp_replay_span_join(lv.resume, implicit->span, implicit->rspan, implicit->seg);
    if (implicit->id) {
        pp_replay_table_remove(r, implicit->id);
        pp_replay_task_unref(implicit); /* the table's reference */
    }
    implicit->completed = 1;
    pp_replay_depend_forget(implicit);
    pp_replay_task_unref(implicit);
    l->cur = lv.resume;
    pp_replay_task_unref(lv.resume);
    pp_replay_team_release(r, lv.team);
    l->in_fork_join = lv.forked; /* until the join */
    pp_replay_update(r, l);
}

void pp_replay_join(pp_replay *r, pp_replay_loc *l, uint64_t t)
{
    pp_replay_settle(r, l, t);
    l->in_fork_join = 0;
    pp_replay_update(r, l);
}

/* A dependent task's record for the graph export. */
static void pp_replay_inst_new(pp_replay *r, pp_replay_task *task, uint32_t loc)
{
    if (r->n_insts == r->cap_insts) {
        r->cap_insts = r->cap_insts ? 2 * r->cap_insts : 256;
        r->insts = pp_replay_resize(r->insts, r->cap_insts, sizeof *r->insts);
    }
    r->insts[r->n_insts] = (pp_replay_inst){.label = PP_LABEL_NONE, .loc = loc,
                                            .t_create = task->t_create};
    task->inst = ++r->n_insts;
    task->seg->inst = task->inst;
}

/* How the readiness of a new task is known, and its predecessors. */
static void pp_replay_task_deps(pp_replay *r, pp_replay_loc *l, pp_replay_task *creator,
                                pp_replay_task *task, const pp_replay_dep *items, uint32_t n,
                                uint64_t t)
{
    int unknown = creator->children_unknown;
    for (uint32_t i = 0; i < n; i++)
        unknown |= items[i].kind < PP_DEP_IN || items[i].kind >= PP_DEP_UNKNOWN;
    r->n_items += n;
    if (!n && !task->depend) {
        task->deps = PP_DEPS_NONE;
        return;
    }
    if (!n || unknown) {
        /* not recorded (or not all of it): this task and, since it may be
         * a predecessor of any of them, its later siblings */
        task->deps = PP_DEPS_UNKNOWN;
        creator->children_unknown = 1;
        for (uint32_t i = 0; i < n; i++)
            r->n_unknown_items += items[i].kind < PP_DEP_IN || items[i].kind >= PP_DEP_UNKNOWN;
        return;
    }
    task->deps = PP_DEPS_KNOWN;
    r->n_known_tasks++;
    pp_replay_inst_new(r, task, l->index);
    task->dep_open = pp_replay_depend_add(r, creator, task, items, n, t);
}

void pp_replay_task_ready(pp_replay *r, pp_replay_task *t, uint64_t now)
{
    if (t->begun || t->counted)
        return;
    t->counted = 1;
    t->t_ready = now;
    if (t->inst)
        r->insts[t->inst - 1].t_ready = now;
    pp_replay_ready_change(r, now, 1, 0, NULL, 0);
}

void pp_replay_taskwait_depend(pp_replay *r, pp_replay_loc *l, uint64_t t,
                               const pp_replay_dep *items, uint32_t n)
{
    pp_replay_settle(r, l, t);
    pp_replay_task *task = l->cur ? l->cur : pp_replay_implicit(l);
    r->n_waits++;
    r->n_items += n;
    task->in_wait_depend = 1;
    task->wait_open = pp_replay_depend_add(r, task, NULL, items, n, t);
}

void pp_replay_task_create(pp_replay *r, pp_replay_loc *l, uint64_t t, uint64_t id,
                           const pp_replay_dep *items, uint32_t n)
{
    pp_replay_settle(r, l, t);
    pp_replay_task *creator = l->cur ? l->cur : pp_replay_implicit(l);
    pp_replay_seg *frozen = pp_replay_span_split(creator);
    pp_replay_task *task = pp_replay_task_new(id, frozen, creator->span, creator->rspan);
    pp_replay_seg_unref(frozen);
    task->is_explicit = 1;
    task->parent = creator;
    creator->refs++;
    creator->live_children++;
    task->t_create = t;
    task->create_loc = l->index;
    if (!r->first_create || t < r->first_create)
        r->first_create = t;
    if (creator->depth) {
        uint32_t top = creator->stack[creator->depth - 1].region;
        if (top < r->n_regions && r->regions[top].kind == PP_RK_CREATE) {
            task->create_region = top;
            task->depend = (uint8_t)r->regions[top].depend;
        }
    }
    if (l->n_levels) {
        pp_replay_level *lv = &l->levels[l->n_levels - 1];
        task->team = lv->team;
        task->episode = lv->implicit->episode;
        lv->team->refs++;
    }
    pp_replay_task *old = pp_replay_lookup(r, id);
    if (old) { /* an id seen twice: keep the newer task */
        pp_replay_table_remove(r, id);
        pp_replay_task_unref(old);
    }
    pp_replay_table_put(r, task);
    r->n_tasks++;
    pp_replay_task_deps(r, l, creator, task, items, n, t);
    if (task->deps == PP_DEPS_UNKNOWN) {
        r->n_depend_tasks++;
        task->counted = 2;
        pp_replay_ready_change(r, t, 0, 1, NULL, 0);
    } else if (task->dep_open == 0) {
        pp_replay_task_ready(r, task, t);
    }
    if (r->chrome)
        pp_replay_chrome_flow(r->chrome, r, l->index, t, id, 0);
}

void pp_replay_task_switch(pp_replay *r, pp_replay_loc *l, uint64_t t, uint64_t id)
{
    pp_replay_settle(r, l, t);
    pp_replay_task *task = pp_replay_lookup(r, id);
    if (!task) {
        /* an id never created: the implicit task this thread is in (OTF2
         * names implicit tasks only when they are resumed) */
        task = pp_replay_implicit(l);
        if (task->id && task->id != id)
            return;
        task->id = id;
        pp_replay_table_put(r, task);
        task->refs++;
    }
    pp_replay_task *prev = l->cur;
    if (prev == task)
        return;
    if (prev) {
        pp_replay_switch_out(r, l, prev, t);
        l->cur = task; /* prev is suspended now */
        pp_replay_check_tied(r, prev, t);
    }
    if (task->is_explicit && !task->begun) {
        task->begun = 1;
        task->loc = l;
        task->t_begin = t;
        if (task->counted)
            pp_replay_ready_change(r, t, task->counted == 1 ? -1 : 0, task->counted == 2 ? -1 : 0,
                                   NULL, 0);
        task->counted = 0;
        /* it begins after its predecessors' ends */
        pp_replay_span_join(task, task->dep_span, task->dep_rspan, task->dep_seg);
        if (task->inst) {
            r->insts[task->inst - 1].t_begin = t;
            r->insts[task->inst - 1].loc = l->index;
        }
        if (r->chrome)
            pp_replay_chrome_flow(r->chrome, r, l->index, t, id, 1);
    }
    if (task->ready_tied) {
        task->ready_tied = 0;
        pp_replay_ready_change(r, t, 0, 0, task->loc, -1);
    }
    l->cur = task;
    task->frag_start = t;
    pp_replay_update(r, l);
}

/* A task ended at t: the task region may end here.  Its graph as it is now
 * (every thread's work settled up to t): the longest region span reached,
 * by a task that ended or by one that runs on (an implicit task, suspended
 * or running), and the region's work.  After the window's end the region
 * ends with the window: pp_replay_region_end takes the final figures. */
static void pp_replay_region_mark(pp_replay *r, uint64_t t)
{
    if (t > r->to) {
        r->last_end_after_window = 1;
        return;
    }
    pp_replay_settle_all(r, t);
    uint64_t s = r->rspan;
    for (uint32_t i = 0; i < r->n_locs; i++) {
        const pp_replay_loc *l = &r->locs[i];
        for (uint32_t k = 0; k < l->n_levels; k++)
            if (l->levels[k].implicit->rspan > s)
                s = l->levels[k].implicit->rspan;
        if (l->cur && l->cur->rspan > s)
            s = l->cur->rspan;
        if (l->initial->rspan > s)
            s = l->initial->rspan;
    }
    r->last_end = t;
    r->end_rspan = s;
    r->end_rwork = r->rwork;
    r->end_rwork_create = r->rwork_create;
    r->end_rwork_serial = r->rwork_serial;
}

void pp_replay_task_complete(pp_replay *r, pp_replay_loc *l, uint64_t t, uint64_t id)
{
    pp_replay_settle(r, l, t);
    pp_replay_task *task = pp_replay_lookup(r, id);
    if (!task || !task->is_explicit || task->completed)
        return;
    pp_replay_switch_out(r, l, task, t);
    task->completed = 1;
    pp_replay_span_note(r, task->span, task->rspan, task->seg);
    if (task->inst) {
        r->insts[task->inst - 1].t_end = t;
        r->insts[task->inst - 1].work = task->work;
    }
    pp_replay_depend_forget(task);
    pp_replay_depend_complete(r, task, t);
    pp_replay_task *parent = task->parent;
    if (parent) {
        if (task->rspan > parent->child_rmax)
            parent->child_rmax = task->rspan;
        if (task->span > parent->child_max) {
            parent->child_max = task->span;
            pp_replay_seg_ref(task->seg);
            pp_replay_seg_unref(parent->child_max_seg);
            parent->child_max_seg = task->seg;
        }
        if (parent->live_children)
            parent->live_children--;
    }
    if (task->team) {
        pp_replay_team_contribute(task->team, task->episode, task->span, task->rspan, task->seg);
        pp_replay_team_release(r, task->team);
        task->team = NULL;
    }
    if (l->cur == task)
        l->cur = NULL;
    pp_replay_check_tied(r, parent, t);
    pp_replay_table_remove(r, id);
    pp_replay_task_unref(task);
    pp_replay_update(r, l);
    pp_replay_region_mark(r, t);
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
