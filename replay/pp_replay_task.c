/* The replay's tasks (the model's second file, pp_replay_model.c says what
 * the model is): the table of live tasks by id, a task's life from its
 * creation to its completion, what it holds (its open regions, its
 * parameters) and the record a dependent task leaves for the graph. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"
#include "replay/pp_replay_model.h"

#include <stdlib.h>

/* ---- the task table ------------------------------------------------------------- */

static uint64_t pp_replay_hash(uint64_t id)
{
    return id * 0x9E3779B97F4A7C15ull;
}

pp_replay_task *pp_replay_table_get(pp_replay *r, uint64_t id)
{
    uint64_t mask = r->table_cap - 1;
    for (uint64_t i = pp_replay_hash(id) >> 20 & mask;; i = (i + 1) & mask) {
        pp_replay_task *t = r->table[i];
        if (!t || t->id == id)
            return t;
    }
}

void pp_replay_table_init(pp_replay *r)
{
    r->table_cap = 1024;
    r->table = pp_replay_alloc_zero(r->table_cap, sizeof *r->table);
}

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

void pp_replay_table_put(pp_replay *r, pp_replay_task *t)
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
void pp_replay_table_remove(pp_replay *r, uint64_t id)
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

pp_replay_task *pp_replay_task_new(uint64_t id, pp_replay_seg *pred, uint64_t span,
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

void pp_replay_task_release(pp_replay_task *t)
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

/* ---- the Chrome trace's slices: a task's open regions, per fragment -------------- */

void pp_replay_switch_out(pp_replay *r, pp_replay_loc *l, pp_replay_task *t, uint64_t now)
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

/* ---- parameters ------------------------------------------------------------------- */

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

/* ---- events ----------------------------------------------------------------------- */

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
    pp_replay_task *old = pp_replay_table_get(r, id);
    if (old) { /* an id seen twice: keep the newer task */
        pp_replay_table_remove(r, id);
        pp_replay_task_release(old);
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
    pp_replay_task *task = pp_replay_table_get(r, id);
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
    pp_replay_task *task = pp_replay_table_get(r, id);
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
    pp_replay_task_release(task);
    pp_replay_update(r, l);
    pp_replay_region_mark(r, t);
}
