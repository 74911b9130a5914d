/* Parallel regions: GOMP_parallel and the combined forms (parallel loop,
 * parallel sections), whose outlined function runs through a trampoline.
 *
 * The encountering thread forks (the engine's fork, whose context the team
 * reads from a pp_gomp_team on this thread's stack), then calls libgomp with
 * the trampoline and the record instead of the function and its data.  Each
 * team thread's trampoline begins its implicit task (the engine's parallel
 * begin; a combined construct's loop or sections region inside it), runs the
 * function, and enters the implicit barrier when it returns: the barrier
 * itself is libgomp's, after the function.  The primary thread sees it end
 * when libgomp returns to the interposer: barrier exit, parallel end and
 * join, with one clock read, whose time it publishes for the team.  A worker
 * goes on waiting inside libgomp for its next team, unseen: its barrier and
 * implicit task end at the time the primary published, when the worker's
 * next team begins or at the end of the run (pp_gomp_thread.c). */
#include "gomp/pp_gomp_internal.h"

#include <string.h>

#include "lib/pp_message.h"
#include "lib/pp_timer.h"
#include "profile/pp_profile_source.h"

/* The end of a thread's implicit task, when its function returns: it waits
 * in libgomp's barrier.  gcc leaves out the barrier of a worksharing
 * construct that ends the region (the region's follows at once) and calls
 * the nowait end: a single, loop or sections construct still open here
 * has its barrier merged into the region's, and the wait is measured where
 * OPARI2 measures it, in the construct's implicit barrier (the rebuild's
 * second, empty barrier of the region has no counterpart: the program has
 * one barrier there).  A combined construct (parallel
 * loop or sections) has one barrier, the region's, inside the construct:
 * gcc calls the combined entry points for some (GOMP_parallel_loop_*,
 * GOMP_parallel_sections) and GOMP_parallel with the construct's own calls
 * for others (a reduction, ordered): a loop or sections construct that is
 * the only worksharing construct of the implicit task is taken for one.
 * (A "single nowait" written as a region's last construct is measured the
 * same way, with the barrier the runtime has there; "parallel { for nowait
 * }" alone as a combined construct.) */
static void pp_gomp_final_begin(pp_gomp_team *team, pp_gomp_level *lv, pp_gomp_final *f,
                                uint64_t now)
{
    *f = (pp_gomp_final){team->barrier->main, PP_REGION_INVALID, team->parallel->main, 0};
    pp_callsite *ws = lv->ws;
    if (ws) {
        uint32_t s = lv->ws_state;
        if (s & (PP_GOMP_WS_SECTION | PP_GOMP_WS_BODY)) /* section, sblock */
            pp_profile_exit_at(ws->inner, now);
        bool combined = (s & PP_GOMP_WS_COMBINED) ||
                        (ws->kind != PP_CALLSITE_SINGLE && lv->n_ws == 1);
        pp_callsite *b =
            combined ? team->barrier : pp_callsite_get(ws->codeptr, PP_CALLSITE_IMPLICIT_BARRIER);
        f->ws = ws->main;
        if (b)
            f->barrier = b->main;
        lv->ws = NULL;
        lv->ws_state = 0;
    }
    f->waits = pp_profile_task_current();
    pp_profile_enter_at(f->barrier, now);
}

/* A thread's implicit task of team begins (in the trampoline, or for the
 * old API in GOMP_parallel_start, before the program calls the function
 * itself on the primary). */
static void pp_gomp_team_begin(pp_gomp_thread *t, pp_gomp_team *team)
{
    uint64_t now = pp_timer_now();
    /* t->last, which the end reads on every thread, inside the engine's
     * source bracket (pp_profile_source.h) */
    if (pp_profile_source_begin() && t->last.ended)
        pp_gomp_close_last_team(t, now);
    pp_profile_source_end();
    pp_gomp_level *lv = &t->level[++t->depth];
    lv->team = team;
    lv->ws = team->ws;
    lv->ws_state = team->ws ? PP_GOMP_WS_OPEN | PP_GOMP_WS_COMBINED : 0;
    lv->n_ws = team->ws ? 1 : 0;
    memset(lv->met, 0, sizeof lv->met);
    if (team->ws)
        pp_callsite_place(team->ws, team->parallel, lv->met[team->ws->kind] = 1);
    pp_profile_parallel_begin_at(team->parallel->main, team->fork_context, now);
    if (team->ws)
        pp_profile_enter_at(team->ws->main, now);
    /* the implicit task's own events: no explicit task of an outer level
     * is running its body on this thread meanwhile */
    lv->outer_body = pp_gomp_mine.body;
    lv->outer_in_task = pp_gomp_mine.in_task;
    pp_gomp_mine.body = (const void *)team->fn;
    pp_gomp_mine.in_task = 0;
}

/* Its function returned: it waits in the barrier after it (ended where the
 * region ends: the primary's when libgomp returns, a worker's later). */
static void pp_gomp_team_finish(pp_gomp_thread *t, pp_gomp_team *team)
{
    pp_gomp_level *lv = &t->level[t->depth];
    pp_gomp_mine.body = lv->outer_body;
    pp_gomp_mine.in_task = lv->outer_in_task;
    pp_gomp_final f;
    pp_gomp_final_begin(team, lv, &f, pp_timer_now());
    lv->team = NULL;
    t->depth--;
    if (t == team->primary) {
        team->primary_final = f;
        team->primary_ran = true;
        return;
    }
    if (pp_profile_source_begin()) {
        t->last.ended = team->ended;
        t->last.generation = team->generation;
        t->last.final = f;
    }
    pp_profile_source_end();
}

static void pp_gomp_team_run(void *arg)
{
    pp_gomp_team *team = arg;
    pp_gomp_run_flush(&pp_gomp_mine);
    pp_gomp_thread *t = pp_gomp_mine.thread ? pp_gomp_mine.thread : pp_gomp_thread_create();
    if (!t || t->depth + 1 >= PP_GOMP_LEVELS) {
        if (t)
            PP_WARN_ONCE("parallel regions nested deeper than %d are not measured",
                         PP_GOMP_LEVELS - 1);
        team->fn(team->data);
        return;
    }
    pp_gomp_team_begin(t, team);
    team->fn(team->data);
    pp_gomp_team_finish(t, team);
}

/* Fill team for a region at ra and fork; false when the region is not
 * measured (libgomp then runs the program's own function). */
static bool pp_gomp_fork(pp_gomp_thread *t, pp_gomp_team *team, const void *ra,
                         void (*fn)(void *), void *data, unsigned num_threads,
                         pp_callsite_kind combined)
{
    if (t->depth + 1 >= PP_GOMP_LEVELS)
        return false;
    pp_gomp_settle(t, true); /* maybe inside a single's body */
    team->parallel = pp_gomp_site(ra, PP_CALLSITE_PARALLEL);
    team->barrier = pp_gomp_site(ra, PP_CALLSITE_IMPLICIT_BARRIER);
    team->ws = combined != PP_CALLSITE_KINDS ? pp_gomp_site(ra, combined) : NULL;
    if (!team->parallel || !team->barrier || (combined != PP_CALLSITE_KINDS && !team->ws))
        return false;
    pp_callsite_body(team->parallel, (const void *)fn);
    if (team->ws)
        pp_callsite_body(team->ws, (const void *)fn);
    team->fn = fn;
    team->data = data;
    team->primary = t;
    team->ended = &t->ended[t->depth];
    team->generation = ++team->ended->generation;
    team->primary_ran = false;
    team->legacy = false;
    team->fork_context = pp_profile_fork(team->parallel->main, (int)num_threads);
    return true;
}

/* The region ended on the primary: its barrier, combined construct,
 * implicit task, and the join, at one time, published for the workers. */
static void pp_gomp_join(pp_gomp_team *team)
{
    uint64_t now = pp_timer_now();
    pp_gomp_ended *e = team->ended;
    unsigned k = (unsigned)(team->generation & 1);
    __atomic_store_n(&e->at[k].generation, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&e->at[k].time, now, __ATOMIC_RELAXED);
    __atomic_store_n(&e->at[k].generation, team->generation, __ATOMIC_RELEASE);
    if (team->primary_ran)
        pp_gomp_final_end(&team->primary_final, now);
    pp_profile_join_at(team->parallel->main, team->forking, now);
}

/* The body every parallel entry point shares: call, with the trampoline in
 * place of fn when the region is measured, the real entry.  A region with
 * task reductions (GOMP_parallel_reductions) has libgomp read the
 * reductions' address from its data's first word: the team record's first
 * word (data0) is a copy of it. */
#define PP_GOMP_PARALLEL(combined, reductions, real_call_fn_data, ...)                          \
    do {                                                                                       \
        const void *ra_ = __builtin_return_address(0);                                         \
        pp_gomp_thread *t_ = pp_gomp_self();                                                   \
        pp_gomp_team team_;                                                                    \
        if (!t_ || !pp_gomp_fork(t_, &team_, ra_, fn, data, num_threads, (combined))) {        \
            real_call_fn_data(fn, data, __VA_ARGS__);                                          \
            break;                                                                             \
        }                                                                                      \
        if (reductions)                                                                        \
            team_.data0 = *(void **)data;                                                      \
        team_.forking = pp_profile_task_current();                                             \
        real_call_fn_data(pp_gomp_team_run, &team_, __VA_ARGS__);                              \
        pp_gomp_join(&team_);                                                                  \
    } while (0)

void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags)
{
    PP_GOMP_PARALLEL(PP_CALLSITE_KINDS, false, PP_GOMP_REAL(GOMP_parallel), num_threads, flags);
}

unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                                  unsigned flags)
{
    unsigned r = 0;
#define PP_GOMP_CALL_REDUCTIONS(f, d, ...)                                                         \
    (r = PP_GOMP_REAL(GOMP_parallel_reductions)(f, d, __VA_ARGS__))
    PP_GOMP_PARALLEL(PP_CALLSITE_KINDS, true, PP_GOMP_CALL_REDUCTIONS, num_threads, flags);
#undef PP_GOMP_CALL_REDUCTIONS
    return r;
}

void GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned num_threads,
                            unsigned count, unsigned flags)
{
    PP_GOMP_PARALLEL(PP_CALLSITE_SECTIONS, false, PP_GOMP_REAL(GOMP_parallel_sections),
                     num_threads, count, flags);
}

/* parallel loops: the loop region is the combined construct's */
#define PP_GOMP_PARALLEL_LOOP(name)                                                            \
    void name(void (*fn)(void *), void *data, unsigned num_threads, long start, long end,      \
              long incr, long chunk_size, unsigned flags)                                      \
    {                                                                                          \
        PP_GOMP_PARALLEL(PP_CALLSITE_LOOP, false, PP_GOMP_REAL(name), num_threads, start, end, \
                         incr, chunk_size, flags);                                             \
    }
#define PP_GOMP_PARALLEL_LOOP_RUNTIME(name)                                                    \
    void name(void (*fn)(void *), void *data, unsigned num_threads, long start, long end,      \
              long incr, unsigned flags)                                                       \
    {                                                                                          \
        PP_GOMP_PARALLEL(PP_CALLSITE_LOOP, false, PP_GOMP_REAL(name), num_threads, start, end, \
                         incr, flags);                                                         \
    }
PP_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_static)
PP_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_dynamic)
PP_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_guided)
PP_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic)
PP_GOMP_PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided)
PP_GOMP_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
PP_GOMP_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
PP_GOMP_PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

/* ---- the API of gcc before 4.9 ---------------------------------------------------

   GOMP_parallel_start starts the team (the workers run the function), the
   program calls the function itself on the primary, then GOMP_parallel_end.
   The team's record lives in the primary's state (pp_gomp_thread.legacy)
   from the start to the end. */

#define PP_GOMP_PARALLEL_START(combined, real_call_fn_data, ...)                                \
    do {                                                                                       \
        const void *ra_ = __builtin_return_address(0);                                         \
        pp_gomp_thread *t_ = pp_gomp_self();                                                   \
        pp_gomp_team *team_ = t_ ? &t_->legacy[t_->depth] : NULL;                              \
        if (!team_ || !pp_gomp_fork(t_, team_, ra_, fn, data, num_threads, (combined))) {      \
            real_call_fn_data(fn, data, __VA_ARGS__);                                          \
            break;                                                                             \
        }                                                                                      \
        team_->legacy = true;                                                                  \
        team_->forking = pp_profile_task_current();                                            \
        real_call_fn_data(pp_gomp_team_run, team_, __VA_ARGS__);                               \
        pp_gomp_team_begin(t_, team_);                                                         \
    } while (0)

void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads)
{
    PP_GOMP_PARALLEL_START(PP_CALLSITE_KINDS, PP_GOMP_REAL(GOMP_parallel_start), num_threads);
}

void GOMP_parallel_sections_start(void (*fn)(void *), void *data, unsigned num_threads,
                                  unsigned count)
{
    PP_GOMP_PARALLEL_START(PP_CALLSITE_SECTIONS, PP_GOMP_REAL(GOMP_parallel_sections_start),
                           num_threads, count);
}

#define PP_GOMP_PARALLEL_LOOP_START(name)                                                      \
    void name(void (*fn)(void *), void *data, unsigned num_threads, long start, long end,      \
              long incr, long chunk_size)                                                      \
    {                                                                                          \
        PP_GOMP_PARALLEL_START(PP_CALLSITE_LOOP, PP_GOMP_REAL(name), num_threads, start, end,   \
                               incr, chunk_size);                                              \
    }
PP_GOMP_PARALLEL_LOOP_START(GOMP_parallel_loop_static_start)
PP_GOMP_PARALLEL_LOOP_START(GOMP_parallel_loop_dynamic_start)
PP_GOMP_PARALLEL_LOOP_START(GOMP_parallel_loop_guided_start)

void GOMP_parallel_loop_runtime_start(void (*fn)(void *), void *data, unsigned num_threads,
                                      long start, long end, long incr)
{
    PP_GOMP_PARALLEL_START(PP_CALLSITE_LOOP, PP_GOMP_REAL(GOMP_parallel_loop_runtime_start),
                           num_threads, start, end, incr);
}

void GOMP_parallel_end(void)
{
    pp_gomp_thread *t = pp_gomp_self();
    pp_gomp_team *team = t ? t->level[t->depth].team : NULL;
    if (!team || !team->legacy || team->primary != t) {
        PP_GOMP_REAL(GOMP_parallel_end)();
        return;
    }
    pp_gomp_team_finish(t, team);
    PP_GOMP_REAL(GOMP_parallel_end)();
    pp_gomp_join(team);
}
