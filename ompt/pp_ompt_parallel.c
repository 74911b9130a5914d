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

/* The mark a league's parallel data carries (see pp_ompt_parallel_begin). */
static pp_ompt_parallel pp_ompt_league_mark;
unsigned pp_ompt_leagues;
/* A parallel region inside a team of a league: not measured either.  Its
 * workers are no threads of the league (they get no initial task of it):
 * they keep out of it while their implicit task runs, marked on the task's
 * data (libomp gives no parallel data at its end). */
static pp_ompt_parallel pp_ompt_league_inner_mark;

pp_callsite *pp_ompt_open_pop_slow(pp_ompt_thread *t, pp_callsite_kind kind, uintptr_t *tags)
{
    if (t->n_open > PP_OMPT_OPEN) { /* nested deeper than we keep */
        t->n_open--;
        return NULL;
    }
    for (uint32_t i = t->n_open; i-- > t->open_base;) {
        pp_callsite *c = pp_ompt_open_at(t, i);
        if (c && c->kind == kind) {
            if (tags)
                *tags = t->open[i] & PP_OMPT_OPEN_TAGS;
            t->n_open = i; /* those opened inside it lost their ends */
            return c;
        }
    }
    PP_WARN_ONCE("the end of an OpenMP construct whose begin was not seen on this thread; "
                 "ignored");
    return NULL;
}

void pp_ompt_settle_slow(pp_ompt_thread *t)
{
    /* the events the fast paths held back: an undeferred task's creation
     * (and its begin), a taskwait's begin (the earliest: set only when nothing else waited);
     * no longer shown as held before they are recorded (the end's hook) */
    pp_ompt_hold_retract(t);
    if (t->create_task && t->run_held) { /* and its begin (the value is made) */
        pp_callsite *c = t->create_c;
        pp_profile_task_create_run_at(c->inner, pp_ompt_engine_handle_explicit(t->run_value),
                                      t->create_time, c->main, t->run_time);
        t->create_task = NULL;
        t->run_held = false;
    } else if (t->create_task) {
        uint64_t v = pp_ompt_value_new(t->value_base, t->create_c->index, ++t->counter, true);
        t->create_task->value = v;
        pp_profile_task_create_enter_at(t->create_c->inner, pp_ompt_engine_handle_explicit(v),
                                        t->create_time);
        t->create_task = NULL;
    }
    if (t->wait_c) {
        pp_ompt_open_push(t, t->wait_c, 0);
        pp_profile_enter_at(t->wait_c->main, t->wait_time);
        PP_OMPT_HOLD_STORE(t->wait_c, NULL);
    }
    pp_callsite *c = t->ws_pending;
    if (c) {
        t->ws_pending = NULL;
        /* a task's: its creation, left open for its dependences */
        bool task = c->kind == PP_CALLSITE_TASK || c->kind == PP_CALLSITE_UNTIED_TASK ||
                    c->kind == PP_CALLSITE_TASKLOOP_TASK;
        pp_profile_exit_at(task ? c->inner : c->main, t->ws_pending_end);
    }
    t->wait_done = NULL;
    if (t->begin_task)
        pp_ompt_taskloop_begin(t, false, NULL);
    if (t->group_pending)
        pp_ompt_taskgroup_settle(t);
    pp_ompt_pending_update(t);
}

/* ---- parallel regions and implicit tasks ------------------------------------------ */

/* What a parallel region's data holds for its team (the region's record, a
 * mark, or NULL: not measured), as its begin finds it. */
static pp_ompt_parallel *pp_ompt_parallel_begin_body(int flags, unsigned int requested_parallelism,
                                                     const void *codeptr_ra)
{
    pp_ompt_thread *t = pp_ompt_self();
    if (flags & ompt_parallel_league) {
        /* teams are not measured, nor anything inside them: the threads of
         * the league know by this mark (pp_ompt_implicit_task) */
        __atomic_add_fetch(&pp_ompt_leagues, 1, __ATOMIC_RELAXED);
        return &pp_ompt_league_mark;
    }
    if (t && t->league)
        return &pp_ompt_league_inner_mark;
    if (!t)
        return NULL;
    pp_ompt_settle(t);
    pp_callsite *c = pp_ompt_construct_find(t, codeptr_ra, PP_CALLSITE_PARALLEL);
    if (!c || t->n_parallel >= PP_OMPT_NEST) {
        if (c)
            PP_WARN_ONCE("parallel regions nested deeper than %d on a thread are not measured",
                         PP_OMPT_NEST);
        return NULL;
    }
    pp_ompt_parallel *p = &t->parallel[t->n_parallel++];
    p->generation++;
    p->construct = c;
    p->forking_task = pp_profile_task_current();
    p->fork_context = pp_profile_fork(c->main, (int)requested_parallelism);
    return p;
}

static void pp_ompt_parallel_begin(ompt_data_t *encountering_task_data,
                                   const ompt_frame_t *encountering_task_frame,
                                   ompt_data_t *parallel_data, unsigned int requested_parallelism,
                                   int flags, const void *codeptr_ra)
{
    (void)encountering_task_data, (void)encountering_task_frame;
    parallel_data->ptr = pp_ompt_parallel_begin_body(flags, requested_parallelism, codeptr_ra);
    PP_TSAN_RELEASE(parallel_data); /* the team's threads read it (lib/pp_tsan.h) */
}

static void pp_ompt_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                                 int flags, const void *codeptr_ra)
{
    (void)encountering_task_data, (void)flags, (void)codeptr_ra;
    pp_ompt_thread *t = pp_ompt_tls;
    pp_ompt_parallel *p = parallel_data ? parallel_data->ptr : NULL;
    if (!t || !p || p == &pp_ompt_league_mark || p == &pp_ompt_league_inner_mark)
        return;
    pp_ompt_settle(t);
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
    if (endpoint == ompt_scope_begin && parallel_data)
        PP_TSAN_ACQUIRE(parallel_data); /* its begin's write (pp_ompt_parallel_begin) */
    if (flags & ompt_task_initial) {
        /* the initial task of a team of a league: the thread runs in teams
         * until it ends.  Known by the league's mark, or as an initial task
         * that begins while the thread's own one runs (libomp 14 gives a
         * team of a host fallback's league other parallel data than the
         * league's begin had) */
        if (endpoint == ompt_scope_begin &&
            ((parallel_data && parallel_data->ptr == &pp_ompt_league_mark) ||
             t->initial_open > 0)) {
            t->league++;
            pp_ompt_pending_update(t);
            if (task_data)
                task_data->value = 0;
            return;
        }
        if (endpoint == ompt_scope_end && t->league) {
            t->league--;
            pp_ompt_pending_update(t);
            return;
        }
        /* the program's own task: the engine's initial task */
        if (endpoint == ompt_scope_begin) {
            t->initial_open++;
            if (task_data)
                task_data->value = pp_profile_task_current();
        } else if (t->initial_open > 0) {
            t->initial_open--;
        }
        return;
    }
    /* an implicit task of a parallel region that is not measured (inside a
     * team of a league; libomp 14 even gives the workers of one inside a
     * team other parallel data than its begin had, which no begin of ours
     * saw), or whose begin could not be (no construct, nested too deep):
     * its thread measures nothing until it ends, as in a league */
    if (endpoint == ompt_scope_begin &&
        (!parallel_data || parallel_data->ptr == NULL ||
         parallel_data->ptr == &pp_ompt_league_inner_mark)) {
        t->league++;
        pp_ompt_pending_update(t);
        if (task_data)
            task_data->ptr = &pp_ompt_league_inner_mark;
        return;
    }
    if (endpoint == ompt_scope_end && task_data &&
        task_data->ptr == &pp_ompt_league_inner_mark && t->league) {
        t->league--;
        pp_ompt_pending_update(t);
        task_data->ptr = NULL;
        return;
    }
    if (t->league)
        return; /* an implicit task inside a team of a league */
    pp_ompt_settle(t);
    if (endpoint == ompt_scope_begin) {
        pp_ompt_parallel *p = parallel_data ? parallel_data->ptr : NULL;
        pp_callsite *c = p ? p->construct : NULL;
        if (c)
            pp_profile_parallel_begin(c->main, p->fork_context);
        /* its constructs are its own: a construct of the task it nests in
         * (a nested team's) is not closed from inside it */
        if (t->n_implicit < PP_OMPT_NEST)
            t->implicit[t->n_implicit] =
                (pp_ompt_implicit){c, p, p ? p->generation : 0, t->n_open, index == 0};
        t->n_implicit++;
        t->open_base = t->n_open;
        if (task_data)
            task_data->value = pp_profile_task_current();
        return;
    }
    pp_ompt_implicit *it = pp_ompt_implicit_top(t);
    if (t->n_implicit == 0)
        return;
    t->n_implicit--;
    if (it) /* what it left open ends with it */
        t->n_open = it->open_base;
    pp_ompt_implicit *outer = pp_ompt_implicit_top(t);
    t->open_base = outer ? outer->open_base : 0;
    if (!it || !it->construct)
        return;
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
    (void)parallel_data, (void)count;
    pp_callsite_kind kind;
    switch (wstype) {
    case ompt_work_loop: kind = PP_CALLSITE_LOOP; break;
    case ompt_work_sections: kind = PP_CALLSITE_SECTIONS; break;
    case ompt_work_single_executor:
    case ompt_work_single_other: kind = PP_CALLSITE_SINGLE; break;
    case ompt_work_workshare: kind = PP_CALLSITE_WORKSHARE; break;
    case ompt_work_taskloop: kind = PP_CALLSITE_TASKLOOP; break;
    case ompt_work_distribute:
    case ompt_work_scope:
        /* not measured, as in OPARI2 mode (the constructs inside a scope
         * are); their events settle nothing (a worksharing end before a
         * scope still waits for its own barrier) */
        return;
    default:
        PP_WARN_ONCE("worksharing of kind %d is not measured (the OpenMP runtime reports a kind "
                     "this pompprof does not know)",
                     (int)wstype);
        return;
    }
    pp_ompt_thread *t = pp_ompt_measured();
    if (!t)
        return;
    uint64_t now = pp_timer_now();
    if (kind == PP_CALLSITE_TASKLOOP) { /* (it settles what waits itself) */
        pp_ompt_taskloop_work(t, endpoint, task_data, codeptr_ra, now);
        return;
    }
    pp_ompt_settle(t);
    if (endpoint == ompt_scope_begin) {
        pp_callsite *c = pp_ompt_construct_find(t, codeptr_ra, kind);
        bool executes = wstype == ompt_work_single_executor;
        pp_ompt_open_push(t, c, executes ? PP_OMPT_OPEN_EXECUTES : 0);
        if (!c)
            return;
        pp_profile_enter_at(c->main, now);
        if (executes)
            pp_profile_enter_at(c->inner, now);
        return;
    }
    pp_callsite *c = pp_ompt_open_pop(t, kind, NULL);
    if (!c)
        return;
    if (wstype == ompt_work_single_executor)
        pp_profile_exit_at(c->inner, now);
    /* its implicit barrier, if any, comes next and nests inside it */
    t->ws_pending = c;
    t->ws_pending_end = now;
    pp_ompt_pending_update(t);
}

static void pp_ompt_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                           ompt_data_t *task_data, const void *codeptr_ra)
{
    (void)parallel_data, (void)task_data;
    pp_ompt_thread *t = pp_ompt_event_thread();
    if (!t)
        return;
    if (endpoint == ompt_scope_begin) {
        pp_callsite *c = pp_ompt_construct_find(t, codeptr_ra, PP_CALLSITE_MASKED);
        pp_ompt_open_push(t, c, 0);
        if (c)
            pp_profile_enter(c->main);
        return;
    }
    pp_callsite *c = pp_ompt_open_pop(t, PP_CALLSITE_MASKED, NULL);
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

/* The worksharing construct an implicit barrier ends, if any, pushed below
 * the barrier (tagged so that the barrier's end ends it too).  That is the
 * construct whose end waited for this event; else a single still open in
 * the innermost implicit task: libomp's GOMP_single_start (a gcc-built
 * program) reports the begin of a single but never its end, so an implicit
 * barrier that finds one open is the single's, whose body ends there. */
static pp_callsite *pp_ompt_barrier_ends(pp_ompt_thread *t)
{
    pp_callsite *c = t->ws_pending;
    /* a task's creation that waited for dependences does not wait here */
    if (c && (c->kind == PP_CALLSITE_TASK || c->kind == PP_CALLSITE_UNTIED_TASK ||
              c->kind == PP_CALLSITE_TASKLOOP_TASK))
        c = NULL;
    if (c)
        t->ws_pending = NULL;
    pp_ompt_settle(t);
    uintptr_t tags = 0;
    pp_callsite *open = pp_ompt_open_top(t, &tags);
    if (!c && open && open->kind == PP_CALLSITE_SINGLE) {
        uint64_t now = pp_timer_now();
        if (tags & PP_OMPT_OPEN_EXECUTES)
            pp_profile_exit_at(open->inner, now);
        t->n_open--;
        c = open;
    }
    if (c)
        pp_ompt_open_push(t, c, PP_OMPT_OPEN_BARRIER);
    return c;
}

/* The construct an implicit barrier is named after: the worksharing
 * construct it ends; else the runtime's own barrier at its call (libomp
 * reports gcc's GOMP_barrier so, whether the program's barrier directive or
 * a construct's implicit barrier made it: the names tell them apart by the
 * source, callsite/pp_callsite_lines.c); else, or when that call lies in
 * libomp (a tail call to it), the parallel region (its code address, when
 * the runtime gives none, as for the workers of a team). */
static pp_callsite *pp_ompt_barrier_of(pp_ompt_thread *t, pp_callsite *ends,
                                             ompt_sync_region_t kind, const void *codeptr_ra)
{
    const void *at = codeptr_ra;
    pp_ompt_implicit *it = pp_ompt_implicit_top(t);
    if (ends)
        at = ends->codeptr;
    else if ((kind != ompt_sync_region_barrier_implementation || !codeptr_ra ||
              pp_ompt_in_runtime(codeptr_ra)) && it && it->construct)
        at = it->construct->codeptr; /* (a call in the runtime: a tail call's) */
    return pp_ompt_construct_find(t, at, PP_CALLSITE_IMPLICIT_BARRIER);
}

/* The general path of sync_region (below). */
static __attribute__((noinline)) void
pp_ompt_sync_region_general(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                            ompt_data_t *task_data, const void *codeptr_ra)
{
    bool implicit = pp_ompt_implicit_barrier(kind);
    pp_ompt_thread *t = pp_ompt_measured();
    if (!t)
        return;
    pp_callsite_kind k;
    switch (kind) {
    case ompt_sync_region_barrier:
    case ompt_sync_region_barrier_explicit: k = PP_CALLSITE_BARRIER; break;
    case ompt_sync_region_taskwait: k = PP_CALLSITE_TASKWAIT; break;
    case ompt_sync_region_taskgroup: k = PP_CALLSITE_TASKGROUP; break;
    case ompt_sync_region_reduction: k = PP_CALLSITE_REDUCTION; break;
    default:
        if (!implicit)
            return; /* teams barriers: teams are not measured */
        k = PP_CALLSITE_IMPLICIT_BARRIER;
    }
    if (endpoint == ompt_scope_begin) {
        pp_callsite *c;
        if (implicit) {
            c = pp_ompt_barrier_of(t, pp_ompt_barrier_ends(t), kind, codeptr_ra);
        } else {
            pp_ompt_settle(t);
            if (k == PP_CALLSITE_TASKGROUP) { /* perhaps a taskloop's own */
                pp_ompt_taskgroup_defer(t, codeptr_ra, pp_timer_now());
                return;
            }
            c = pp_ompt_construct_find(t, codeptr_ra, k);
        }
        /* the end may carry another address (libomp's taskwait inside a
         * taskloop): it closes the innermost region of its kind */
        pp_ompt_open_push(t, c, 0);
        if (c)
            pp_profile_enter(c->main);
        return;
    }
    pp_ompt_settle(t);
    uintptr_t tags = 0;
    pp_callsite *c = pp_ompt_open_top(t, &tags);
    if (k == PP_CALLSITE_TASKGROUP && c && c->kind == PP_CALLSITE_TASKLOOP &&
        (tags & PP_OMPT_OPEN_GROUPED))
        t->n_open--; /* the taskloop in its taskgroup's place ends */
    else
        c = pp_ompt_open_pop(t, k, NULL);
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
    /* the worksharing construct the barrier ends */
    pp_callsite *ws = pp_ompt_open_top(t, &tags);
    if (implicit && ws && (tags & PP_OMPT_OPEN_BARRIER)) {
        t->n_open--;
        pp_profile_exit_at(ws->main, now);
    }
}

/* Taskwaits (the recursive task programs' scheduling point) take a fast
 * path: its begin, when nothing waits for the thread's next event and the
 * construct is in the thread's cache, is held back until the next event;
 * if that is its end (no task ran inside it), one engine call does both;
 * else the next event settles it first (the region entered at its time,
 * pushed), and an end that finds it on top of the stack pops it and takes
 * one engine call too.  Everything else takes the general path. */
static void pp_ompt_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, ompt_data_t *task_data,
                                const void *codeptr_ra)
{
    (void)parallel_data;
    pp_ompt_thread *t = pp_ompt_tls;
    if (__builtin_expect(kind == ompt_sync_region_taskwait && t != NULL, 1)) {
        pp_callsite *c;
        if (endpoint == ompt_scope_begin) {
            if (__builtin_expect(t->pending == 0 &&
                                     (c = pp_ompt_construct_cached(t, codeptr_ra,
                                                                   PP_CALLSITE_TASKWAIT)) != NULL,
                                 1)) {
                PP_OMPT_HOLD_STORE(t->wait_c, c);
                PP_OMPT_HOLD_STORE(t->wait_time, pp_ompt_fast_now());
                pp_ompt_pending_set(t, PP_OMPT_PENDING_WAIT);
                return;
            }
        } else {
            uint64_t v = task_data ? task_data->value : 0;
            uint32_t n = t->n_open;
            if (__builtin_expect(t->pending == PP_OMPT_PENDING_WAIT && pp_ompt_value_resumable(v),
                                 1)) {
                c = t->wait_c;
                pp_ompt_hold_retract(t);
                PP_OMPT_HOLD_STORE(t->wait_c, NULL);
                pp_profile_scheduling_visit(c->main, t->wait_time, pp_ompt_engine_handle(v));
                return;
            }
            if (t->pending == 0 && n > t->open_base && n <= PP_OMPT_OPEN &&
                (c = pp_ompt_open_at(t, n - 1)) != NULL &&
                c->kind == PP_CALLSITE_TASKWAIT && pp_ompt_value_resumable(v)) {
                t->n_open = n - 1;
                pp_profile_switch_exit(pp_ompt_engine_handle(v), c->main);
                return;
            }
        }
    }
    pp_ompt_sync_region_general(kind, endpoint, task_data, codeptr_ra);
}

/* A flush: a visit of its region that lasts no time (OMPT reports a point). */
static void pp_ompt_flush(ompt_data_t *thread_data, const void *codeptr_ra)
{
    (void)thread_data;
    pp_ompt_thread *t = pp_ompt_event_thread();
    pp_callsite *c = t ? pp_ompt_construct_find(t, codeptr_ra, PP_CALLSITE_FLUSH) : NULL;
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
