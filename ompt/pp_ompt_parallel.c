/* Parallel regions, implicit tasks, worksharing, masked and synchronization
 * regions as engine events.
 *
 * A parallel region: parallel_begin (encountering thread: the engine's fork,
 * whose context goes to the team through the region's ompt_data_t) ->
 * implicit_task begin (each team thread: the engine's parallel begin) -> ...
 * -> the implicit barrier -> implicit_task end (parallel end) ->
 * parallel_end (the encountering thread: join).  Barriers, taskwait and
 * taskgroup are scheduling points: their end hands the engine back the task
 * that waited (OMPT names it), so the engine sees whether others ran. */
#include "ompt/pp_ompt_internal.h"

#include "lib/pp_message.h"
#include "lib/pp_timer.h"
#include "lib/pp_tsan.h"
#include "profile/pp_profile_names.h"
#include "profile/pp_profile_source.h"

pp_ompt_construct *pp_ompt_open_pop_slow(pp_ompt_thread *t, pp_ompt_kind kind)
{
    if (t->n_open > PP_OMPT_NEST) { /* nested deeper than we keep */
        t->n_open--;
        return NULL;
    }
    for (uint32_t i = t->n_open; i-- > 0;) {
        if (t->open[i] && t->open[i]->kind == kind) {
            pp_ompt_construct *c = t->open[i];
            t->n_open = i; /* those opened inside it lost their ends */
            return c;
        }
    }
    PP_WARN_ONCE("the end of an OpenMP construct whose begin was not seen on this thread; "
                 "ignored");
    return NULL;
}

void pp_ompt_ws_flush_slow(pp_ompt_thread *t)
{
    pp_ompt_construct *c = t->ws_pending;
    t->ws_pending = NULL;
    /* a task's: its creation, left open for its dependences */
    bool task = c->kind == PP_OMPT_TASK || c->kind == PP_OMPT_UNTIED_TASK;
    pp_profile_exit_at(task ? c->inner : c->main, t->ws_pending_end);
}

/* ---- parallel regions and implicit tasks ------------------------------------------ */

static void pp_ompt_parallel_begin(ompt_data_t *encountering_task_data,
                                   const ompt_frame_t *encountering_task_frame,
                                   ompt_data_t *parallel_data, unsigned int requested_parallelism,
                                   int flags, const void *codeptr_ra)
{
    (void)encountering_task_data, (void)encountering_task_frame;
    pp_ompt_thread *t = pp_ompt_self();
    parallel_data->ptr = NULL;
    if (!t || (flags & ompt_parallel_league))
        return; /* teams are not measured */
    pp_ompt_ws_flush(t);
    pp_ompt_construct *c = pp_ompt_construct_get(codeptr_ra, PP_OMPT_PARALLEL);
    if (!c || t->n_parallel >= PP_OMPT_NEST) {
        if (c)
            PP_WARN_ONCE("parallel regions nested deeper than %d on a thread are not measured",
                         PP_OMPT_NEST);
        return;
    }
    pp_ompt_parallel *p = &t->parallel[t->n_parallel++];
    p->generation++;
    p->construct = c;
    p->forking_task = pp_profile_task_current();
    p->fork_context = pp_profile_fork(c->main, (int)requested_parallelism);
    parallel_data->ptr = p;
    PP_TSAN_RELEASE(parallel_data); /* the team's threads read p (lib/pp_tsan.h) */
}

static void pp_ompt_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                                 int flags, const void *codeptr_ra)
{
    (void)encountering_task_data, (void)flags, (void)codeptr_ra;
    pp_ompt_thread *t = pp_ompt_tls;
    pp_ompt_parallel *p = parallel_data ? parallel_data->ptr : NULL;
    if (!t || !p)
        return;
    pp_ompt_ws_flush(t);
    pp_profile_join(p->construct->main, p->forking_task);
    if (t->n_parallel > 0)
        t->n_parallel--;
}

/* libomp reports a worker's end of the team's implicit barrier, and of its
 * implicit task, only when the worker is woken for the next parallel region
 * (or at exit): the time between regions would count as barrier time.  So a
 * worker's barrier and implicit task end no later than the team's primary
 * thread ended its implicit task, which the primary publishes in the team's
 * record (no lock: a generation tags the time). */
static void pp_ompt_team_publish_end(const pp_ompt_implicit *it, uint64_t now)
{
    pp_ompt_parallel *p = it->parallel;
    unsigned k = (unsigned)(it->generation & 1);
    __atomic_store_n(&p->ended[k].time, now, __ATOMIC_RELAXED);
    __atomic_store_n(&p->ended[k].generation, it->generation, __ATOMIC_RELEASE);
}

static uint64_t pp_ompt_team_end(const pp_ompt_implicit *it, uint64_t now)
{
    pp_ompt_parallel *p = it->parallel;
    if (!p || it->primary)
        return now;
    unsigned k = (unsigned)(it->generation & 1);
    if (__atomic_load_n(&p->ended[k].generation, __ATOMIC_ACQUIRE) != it->generation)
        return now; /* the primary is not done: this end is the real one */
    uint64_t end = __atomic_load_n(&p->ended[k].time, __ATOMIC_RELAXED);
    /* a time from another generation (read across a reuse) is never taken */
    if (__atomic_load_n(&p->ended[k].generation, __ATOMIC_ACQUIRE) != it->generation)
        return now;
    return end < now ? end : now;
}

static pp_ompt_implicit *pp_ompt_implicit_top(pp_ompt_thread *t)
{
    return t->n_implicit > 0 && t->n_implicit <= PP_OMPT_NEST ? &t->implicit[t->n_implicit - 1]
                                                               : NULL;
}

void pp_ompt_close_ended_teams(void)
{
    for (pp_ompt_thread *t = pp_ompt_threads(); t; t = t->next) {
        pp_ompt_implicit *it = pp_ompt_implicit_top(t);
        if (!it || it->primary || !it->parallel)
            continue;
        uint64_t end = pp_ompt_team_end(it, UINT64_MAX);
        if (end != UINT64_MAX)
            pp_profile_location_close_at(t->location, end);
    }
}

/* The thread's stack of implicit tasks, which the end reads on every thread
 * (pp_ompt_close_ended_teams): written inside the engine's source bracket
 * (pp_profile_source.h), so the end waits for a callback in flight and
 * later ones write nothing. */
static void pp_ompt_implicit_task_body(ompt_scope_endpoint_t endpoint,
                                       ompt_data_t *parallel_data, ompt_data_t *task_data,
                                       unsigned int index, int flags)
{
    pp_ompt_thread *t = pp_ompt_self();
    if (!t)
        return;
    if (flags & ompt_task_initial) {
        /* the program's own task: the engine's initial task */
        if (endpoint == ompt_scope_begin && task_data)
            task_data->value = pp_profile_task_current();
        return;
    }
    if (endpoint == ompt_scope_begin) {
        PP_TSAN_ACQUIRE(parallel_data);
        pp_ompt_parallel *p = parallel_data ? parallel_data->ptr : NULL;
        pp_ompt_construct *c = p ? p->construct : NULL;
        if (c)
            pp_profile_parallel_begin(c->main, p->fork_context);
        if (t->n_implicit < PP_OMPT_NEST)
            t->implicit[t->n_implicit] =
                (pp_ompt_implicit){c, p, p ? p->generation : 0, index == 0};
        t->n_implicit++;
        if (task_data)
            task_data->value = pp_profile_task_current();
        return;
    }
    pp_ompt_implicit *it = pp_ompt_implicit_top(t);
    if (t->n_implicit == 0)
        return;
    t->n_implicit--;
    if (!it || !it->construct)
        return;
    pp_ompt_ws_flush(t);
    uint64_t now = pp_timer_now();
    if (it->primary)
        pp_ompt_team_publish_end(it, now);
    pp_profile_parallel_end_at(it->construct->main, pp_ompt_team_end(it, now));
}

static void pp_ompt_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                                  ompt_data_t *task_data, unsigned int actual_parallelism,
                                  unsigned int index, int flags)
{
    (void)actual_parallelism;
    if (pp_profile_source_begin())
        pp_ompt_implicit_task_body(endpoint, parallel_data, task_data, index, flags);
    pp_profile_source_end();
}

/* ---- worksharing and masked ------------------------------------------------------- */

static void pp_ompt_work(ompt_work_t wstype, ompt_scope_endpoint_t endpoint,
                         ompt_data_t *parallel_data, ompt_data_t *task_data, uint64_t count,
                         const void *codeptr_ra)
{
    (void)parallel_data, (void)task_data, (void)count;
    pp_ompt_kind kind;
    switch (wstype) {
    case ompt_work_loop: kind = PP_OMPT_LOOP; break;
    case ompt_work_sections: kind = PP_OMPT_SECTIONS; break;
    case ompt_work_single_executor:
    case ompt_work_single_other: kind = PP_OMPT_SINGLE; break;
    case ompt_work_workshare: kind = PP_OMPT_WORKSHARE; break;
    case ompt_work_taskloop: kind = PP_OMPT_TASKLOOP; break;
    default:
        PP_WARN_ONCE("OMPT: worksharing of kind %d (distribute, scope) is not measured",
                     (int)wstype);
        return;
    }
    pp_ompt_thread *t = pp_ompt_event_thread();
    if (!t)
        return;
    uint64_t now = pp_timer_now();
    if (endpoint == ompt_scope_begin) {
        pp_ompt_construct *c =
            pp_ompt_construct_get(codeptr_ra, kind);
        pp_ompt_open_push(t, c);
        if (!c)
            return;
        pp_profile_enter_at(c->main, now);
        if (wstype == ompt_work_single_executor) {
            pp_profile_enter_at(c->inner, now);
            if (t->n_open <= PP_OMPT_NEST)
                t->open_executes[t->n_open - 1] = true;
        }
        return;
    }
    pp_ompt_construct *c = pp_ompt_open_pop(t, kind);
    if (!c)
        return;
    if (wstype == ompt_work_single_executor)
        pp_profile_exit_at(c->inner, now);
    if (kind == PP_OMPT_TASKLOOP) {
        pp_profile_exit_at(c->main, now);
        return;
    }
    /* its implicit barrier, if any, comes next and nests inside it */
    t->ws_pending = c;
    t->ws_pending_end = now;
}

static void pp_ompt_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                           ompt_data_t *task_data, const void *codeptr_ra)
{
    (void)parallel_data, (void)task_data;
    pp_ompt_thread *t = pp_ompt_event_thread();
    if (!t)
        return;
    if (endpoint == ompt_scope_begin) {
        pp_ompt_construct *c = pp_ompt_construct_get(codeptr_ra, PP_OMPT_MASKED);
        pp_ompt_open_push(t, c);
        if (c)
            pp_profile_enter(c->main);
        return;
    }
    pp_ompt_construct *c = pp_ompt_open_pop(t, PP_OMPT_MASKED);
    if (c)
        pp_profile_exit(c->main);
}

/* ---- synchronization regions ------------------------------------------------------ */

static bool pp_ompt_implicit_barrier(ompt_sync_region_t kind)
{
    return kind == ompt_sync_region_barrier_implicit ||
           kind == ompt_sync_region_barrier_implicit_workshare ||
           kind == ompt_sync_region_barrier_implicit_parallel ||
           kind == ompt_sync_region_barrier_implementation;
}

/* The construct an implicit barrier is named after: the worksharing
 * construct it ends, else the parallel region (its code address, when the
 * runtime gives none, as for the workers of a team). */
/* libomp's GOMP_single_start (a gcc-built program) reports the begin of a
 * single but never its end: an implicit barrier that finds a single still
 * open is the single's, whose body ends there. */
static void pp_ompt_single_unended(pp_ompt_thread *t)
{
    uint32_t n = t->n_open;
    if (n == 0 || n > PP_OMPT_NEST || !t->open[n - 1] || t->open[n - 1]->kind != PP_OMPT_SINGLE)
        return;
    pp_ompt_construct *c = t->open[n - 1];
    uint64_t now = pp_timer_now();
    if (t->open_executes[n - 1])
        pp_profile_exit_at(c->inner, now);
    t->n_open = n - 1;
    t->ws_pending = c;
    t->ws_pending_end = now;
}

static pp_ompt_construct *pp_ompt_barrier_of(pp_ompt_thread *t, const void *codeptr_ra)
{
    const void *at = codeptr_ra;
    pp_ompt_implicit *it = pp_ompt_implicit_top(t);
    if (t->ws_barrier)
        at = t->ws_barrier->codeptr;
    else if (it && it->construct)
        at = it->construct->codeptr;
    return pp_ompt_construct_get(at, PP_OMPT_IMPLICIT_BARRIER);
}

static void pp_ompt_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, ompt_data_t *task_data,
                                const void *codeptr_ra)
{
    (void)parallel_data;
    bool implicit = pp_ompt_implicit_barrier(kind);
    pp_ompt_thread *t = implicit ? pp_ompt_self() : pp_ompt_event_thread();
    if (!t)
        return;
    pp_ompt_kind k;
    switch (kind) {
    case ompt_sync_region_barrier:
    case ompt_sync_region_barrier_explicit: k = PP_OMPT_BARRIER; break;
    case ompt_sync_region_taskwait: k = PP_OMPT_TASKWAIT; break;
    case ompt_sync_region_taskgroup: k = PP_OMPT_TASKGROUP; break;
    case ompt_sync_region_reduction: k = PP_OMPT_REDUCTION; break;
    default:
        if (!implicit)
            return; /* teams barriers: teams are not measured */
        k = PP_OMPT_IMPLICIT_BARRIER;
    }
    if (endpoint == ompt_scope_begin) {
        pp_ompt_construct *c;
        if (implicit) {
            /* the worksharing construct that just ended waits here (a
             * task's creation that waited for dependences does not) */
            if (t->ws_pending && (t->ws_pending->kind == PP_OMPT_TASK ||
                                  t->ws_pending->kind == PP_OMPT_UNTIED_TASK))
                pp_ompt_ws_flush_slow(t);
            if (!t->ws_pending)
                pp_ompt_single_unended(t);
            t->ws_barrier = t->ws_pending;
            t->ws_pending = NULL;
            c = pp_ompt_barrier_of(t, codeptr_ra);
        } else {
            c = pp_ompt_construct_get(codeptr_ra, k);
        }
        /* the end may carry another address (libomp's taskwait inside a
         * taskloop): it closes the innermost region of its kind */
        pp_ompt_open_push(t, c);
        if (c)
            pp_profile_enter(c->main);
        return;
    }
    pp_ompt_construct *c = pp_ompt_open_pop(t, k);
    if (!c)
        return;
    /* the end of a scheduling point: the waiting task resumes */
    uint64_t now = pp_timer_now();
    if (kind == ompt_sync_region_barrier_implicit_parallel ||
        kind == ompt_sync_region_barrier_implicit) {
        pp_ompt_implicit *it = pp_ompt_implicit_top(t);
        if (it)
            now = pp_ompt_team_end(it, now);
    }
    if (task_data)
        pp_ompt_resume(task_data, now);
    pp_profile_exit_at(c->main, now);
    if (implicit && t->ws_barrier) {
        pp_profile_exit_at(t->ws_barrier->main, now);
        t->ws_barrier = NULL;
    }
}

/* A flush: a visit of its region that lasts no time (OMPT reports a point). */
static void pp_ompt_flush(ompt_data_t *thread_data, const void *codeptr_ra)
{
    (void)thread_data;
    pp_ompt_thread *t = pp_ompt_event_thread();
    pp_ompt_construct *c = t ? pp_ompt_construct_get(codeptr_ra, PP_OMPT_FLUSH) : NULL;
    if (!c)
        return;
    uint64_t now = pp_timer_now();
    pp_profile_enter_at(c->main, now);
    pp_profile_exit_at(c->main, now);
}

/* The thread's state on its ompt_data_t as well (the event path reaches it
 * through the thread-local copy). */
static void pp_ompt_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    (void)type;
    if (thread_data)
        thread_data->ptr = pp_ompt_self();
}

void pp_ompt_parallel_register(ompt_set_callback_t set, const char **missing, int *n_missing)
{
#define PP_WANT(name, fn) \
    pp_ompt_want(set, ompt_callback_##name, (ompt_callback_t)(fn), #name, missing, n_missing)
    PP_WANT(thread_begin, pp_ompt_thread_begin);
    PP_WANT(parallel_begin, pp_ompt_parallel_begin);
    PP_WANT(parallel_end, pp_ompt_parallel_end);
    PP_WANT(implicit_task, pp_ompt_implicit_task);
    PP_WANT(work, pp_ompt_work);
    PP_WANT(masked, pp_ompt_masked);
    PP_WANT(sync_region, pp_ompt_sync_region);
    PP_WANT(flush, pp_ompt_flush);
#undef PP_WANT
}
