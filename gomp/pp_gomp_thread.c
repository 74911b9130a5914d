/* Each thread's state (pp_gomp_internal.h): made at the thread's first
 * event, reached through an initial-exec thread-local pointer, linked into
 * one list for the end.  Also what ends constructs whose end the runtime
 * does not show: a worksharing construct's pending end, a worker's last
 * team. */
#include "gomp/pp_gomp_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "lib/pp_message.h"
#include "lib/pp_timer.h"
#include "profile/pp_profile_names.h"

__thread pp_gomp_words pp_gomp_mine __attribute__((tls_model("initial-exec")));
static pp_gomp_thread *pp_gomp_thread_list;
/* A thread's state, kept until its end (pp_gomp_thread_gone). */
static pthread_key_t pp_gomp_thread_key;
static bool pp_gomp_thread_key_made;

/* A thread ends: its words go with it.  The end's hook may be reading
 * them: wait until it has (a handshake of two words, each side writing its
 * own first). */
static void pp_gomp_thread_gone(void *state)
{
    pp_gomp_thread *t = state;
    __atomic_store_n(&t->words, NULL, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&t->reading, __ATOMIC_SEQ_CST))
        sched_yield();
}

void pp_gomp_thread_start(void)
{
    pp_gomp_thread_key_made = pthread_key_create(&pp_gomp_thread_key, pp_gomp_thread_gone) == 0;
}

pp_gomp_thread *pp_gomp_threads(void)
{
    return __atomic_load_n(&pp_gomp_thread_list, __ATOMIC_ACQUIRE);
}

pp_gomp_thread *pp_gomp_thread_create(void)
{
    pp_gomp_thread *t = calloc(1, sizeof *t);
    if (!t) {
        PP_WARN_ONCE("out of memory for a thread's state; that thread is not measured");
        return NULL;
    }
    t->location = pp_profile_location_ref();
    if (pp_gomp_thread_key_made && pthread_setspecific(pp_gomp_thread_key, t) == 0)
        t->words = &pp_gomp_mine;
    t->next = __atomic_load_n(&pp_gomp_thread_list, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&pp_gomp_thread_list, &t->next, t, 1, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED)) {
    }
    if (!pp_gomp_run_hold)
        pp_gomp_mine.run.task = PP_GOMP_RUN_OFF;
    pp_gomp_mine.thread = t;
    return t;
}

pp_callsite *pp_gomp_site_recent_miss(pp_gomp_thread *t, const void *ra, pp_callsite_kind kind)
{
    pp_callsite *c = pp_gomp_site(ra, kind);
    if (c && (uintptr_t)ra - pp_gomp_text_lo >= pp_gomp_text_size) {
        uintptr_t a = (uintptr_t)ra;
        unsigned i = (unsigned)(a ^ (a >> 4)) & (PP_GOMP_RECENT - 1);
        t->recent[i].ra = ra;
        t->recent[i].c = c;
    }
    return c;
}

pp_callsite *pp_gomp_site_tail(const void *ra, pp_callsite_kind kind)
{
    if (!pp_gomp_mine.body)
        return pp_callsite_get(ra, kind);
    pp_callsite *c = pp_callsite_get(pp_gomp_mine.body, kind);
    if (c && !__atomic_load_n(&c->tail_body, __ATOMIC_RELAXED))
        __atomic_store_n(&c->tail_body, true, __ATOMIC_RELAXED);
    return c;
}

pp_callsite *pp_gomp_open_pop(pp_gomp_thread *t, pp_callsite_kind kind)
{
    uint32_t n = t->n_open;
    if (n > PP_GOMP_OPEN) { /* nested deeper than we keep */
        t->n_open--;
        return NULL;
    }
    for (uint32_t i = n; i-- > 0;) {
        if (t->open[i] && t->open[i]->kind == kind) {
            t->n_open = i; /* those opened inside it lost their ends */
            return t->open[i];
        }
    }
    PP_WARN_ONCE("the end of an OpenMP construct whose begin was not seen on this thread; "
                 "ignored");
    return NULL;
}

void pp_gomp_settle_slow(pp_gomp_level *lv, bool inside_single, uint64_t now)
{
    pp_callsite *c = lv->ws;
    uint32_t s = lv->ws_state;
    if (s & PP_GOMP_WS_ENDED) {
        pp_profile_exit_at(c->main, lv->ws_end);
    } else if ((s & PP_GOMP_WS_BODY) && !inside_single) {
        /* a nowait single's body ends with the first event that cannot be
         * inside it (its end is not visible) */
        if (!now)
            now = pp_timer_now();
        pp_profile_exit_at(c->inner, now);
        pp_profile_exit_at(c->main, now);
    } else {
        return;
    }
    lv->ws = NULL;
    lv->ws_state = 0;
}

/* When the team of `ended` (generation g) ended, UINT64_MAX when its primary
 * has not published it (or has reused the record since). */
static uint64_t pp_gomp_team_end(const pp_gomp_ended *ended, uint64_t g)
{
    unsigned k = (unsigned)(g & 1);
    if (__atomic_load_n(&ended->at[k].generation, __ATOMIC_ACQUIRE) != g)
        return UINT64_MAX;
    uint64_t time = __atomic_load_n(&ended->at[k].time, __ATOMIC_RELAXED);
    /* a time of another generation (read across a reuse) is never taken */
    if (__atomic_load_n(&ended->at[k].generation, __ATOMIC_ACQUIRE) != g)
        return UINT64_MAX;
    return time;
}

void pp_gomp_final_end(const pp_gomp_final *f, uint64_t end)
{
    pp_profile_task_switch_to_at(f->waits, end);
    pp_profile_exit_at(f->barrier, end);
    if (f->ws != PP_REGION_INVALID)
        pp_profile_exit_at(f->ws, end);
    pp_profile_parallel_end_at(f->parallel, end);
}

void pp_gomp_close_last_team(pp_gomp_thread *t, uint64_t now)
{
    uint64_t end = pp_gomp_team_end(t->last.ended, t->last.generation);
    if (end > now)
        end = now;
    t->last.ended = NULL;
    pp_gomp_final_end(&t->last.final, end);
}

void pp_gomp_close_ended_teams(void)
{
    for (pp_gomp_thread *t = pp_gomp_threads(); t; t = t->next) {
        if (!t->last.ended)
            continue;
        uint64_t end = pp_gomp_team_end(t->last.ended, t->last.generation);
        if (end != UINT64_MAX)
            pp_profile_location_close_at(t->location, end);
    }
}

/* One held record of another thread's words (handle, region, time), read
 * as pp_gomp_hold_publish wrote it: its handle, or 0 when none is held or
 * the thread changed it meanwhile. */
static pp_task_handle pp_gomp_held_read(const pp_task_handle *task_word,
                                        const pp_region_id *region_word,
                                        const uint64_t *time_word, pp_region_id *region,
                                        uint64_t *time)
{
    pp_task_handle task = __atomic_load_n(task_word, __ATOMIC_ACQUIRE);
    if ((int64_t)task <= 0)
        return 0;
    *region = __atomic_load_n(region_word, __ATOMIC_RELAXED);
    *time = __atomic_load_n(time_word, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(task_word, __ATOMIC_RELAXED) == task ? task : 0;
}

/* What a thread holds when the run ends (pp_gomp_words: a task's begin
 * while its body runs, a creation's start while libgomp runs), recorded on
 * its location as the thread would have: the begin first.  Without this the
 * run would end without that task's instance (exit() on another thread
 * while the task's body runs). */
static void pp_gomp_held_take(pp_gomp_thread *t, const pp_gomp_words *w)
{
    pp_region_id region;
    uint64_t time;
    pp_task_handle task =
        pp_gomp_held_read(&w->run.task, &w->run.region, &w->run.time, &region, &time);
    if (task)
        pp_profile_location_task_begin_at(t->location, region, task, time);
    task = pp_gomp_held_read(&w->held.task, &w->held.region, &w->held.time, &region, &time);
    if (task)
        pp_profile_location_task_create_enter_at(t->location, region, task, time);
}

void pp_gomp_held_at_end(void)
{
    for (pp_gomp_thread *t = pp_gomp_threads(); t; t = t->next) {
        __atomic_store_n(&t->reading, 1, __ATOMIC_SEQ_CST);
        const pp_gomp_words *w = __atomic_load_n(&t->words, __ATOMIC_SEQ_CST);
        if (w)
            pp_gomp_held_take(t, w);
        __atomic_store_n(&t->reading, 0, __ATOMIC_RELEASE);
    }
}
