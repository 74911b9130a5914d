/* Declarations shared by the OMPT layer's own files (not an API).
 *
 * The layer turns OMPT callbacks into the engine's events (profile/), as
 * pomp2/ turns POMP2 calls into them.  State lives where OMPT hands it back:
 * - a task's ompt_data_t holds its handle (pp_ompt_handle.h: the
 *   construct and what the layer must know of the task are packed into it,
 *   so nothing is allocated per task and nothing needs freeing when a task
 *   ends on another thread than the one that created it);
 * - a parallel region's ompt_data_t points at a record on the encountering
 *   thread (the fork context the team's threads need);
 * - a thread's ompt_data_t points at its pp_ompt_thread, which the callbacks
 *   reach through an initial-exec thread-local copy of that pointer (asking
 *   the runtime with ompt_get_thread_data would cost a call per event).
 * Constructs are known by their code address (codeptr_ra); each thread
 * keeps those it met last in a small cache, in front of a table of its own
 * (callsite/pp_callsite.h), so the event path takes no lock; names come at
 * the end (callsite/pp_callsite_names.c). */
#ifndef PP_OMPT_INTERNAL_H
#define PP_OMPT_INTERNAL_H

#include <omp-tools.h>
#include <stdbool.h>
#include <stdint.h>

#include "callsite/pp_callsite.h"
#include "lib/pp_timer.h"
#include "ompt/pp_ompt_handle.h"
#include "profile/pp_profile.h"

/* Constructs: callsite/pp_callsite.h.  A task's value carries its
 * construct's index, in PP_OMPT_INDEX_BITS. */
_Static_assert(PP_CALLSITE_MAX <= PP_OMPT_MAX_CONSTRUCTS, "a value holds every index");

/* ---- per thread ---------------------------------------------------------------- */

#define PP_OMPT_NEST 64   /* nested parallel regions a thread keeps */
#define PP_OMPT_OPEN 256  /* open constructs a thread keeps (the taskwaits of tasks
                           * that run inside other tasks' waits among them) */
#define PP_OMPT_CACHE 64  /* constructs in a thread's cache */

typedef struct pp_ompt_parallel {
    int64_t fork_context;
    pp_callsite *construct;
    pp_task_handle forking_task;
    uint64_t generation; /* parallel regions this record served */
    /* when the team's primary thread ended its implicit task, for the last
     * two generations (a record is reused by the encountering thread's next
     * region while the workers may still report the previous one's end) */
    struct {
        uint64_t generation, time;
    } ended[2];
} pp_ompt_parallel;

/* An implicit task this thread runs: its team's record and generation, and
 * where its constructs begin on the thread's stack of open ones. */
typedef struct pp_ompt_implicit {
    pp_callsite *construct;
    pp_ompt_parallel *parallel;
    uint64_t generation;
    uint32_t open_base;
    bool primary;
} pp_ompt_implicit;

/* A construct the event path met last at a slot of the thread's cache. */
typedef struct pp_ompt_cached {
    const void *codeptr;
    pp_callsite *c;
} pp_ompt_cached;

/* Where a thread's taskloop tasks come from (pp_ompt_taskloop.c): a
 * taskloop creating its tasks, or a generator task of libomp's creating
 * some of them, on this thread.  The runtime reports both kinds of creation
 * with the taskloop's encountering task, not with the generator. */
typedef struct pp_ompt_source {
    ompt_data_t *encountering; /* the taskloop's encountering task */
    ompt_data_t *generator;    /* the generator task, NULL for the taskloop itself */
    pp_callsite *tasks;  /* the taskloop task construct */
} pp_ompt_source;

/* Open constructs on a thread's stack: the construct, tags in its low bits. */
#define PP_OMPT_OPEN_EXECUTES 1u /* a single this thread executes */
#define PP_OMPT_OPEN_GROUPED 2u  /* a taskloop in its taskgroup's place: that ends it */
#define PP_OMPT_OPEN_BARRIER 4u  /* a worksharing construct whose implicit barrier is the
                                  * entry above it: it ends with that barrier */
#define PP_OMPT_OPEN_TAGS 7u
_Static_assert(_Alignof(pp_callsite) > PP_OMPT_OPEN_TAGS, "room for the tags");

typedef struct pp_ompt_thread {
    uint32_t number;  /* the thread's location index in the engine */
    void *location;   /* the engine's location of the thread */
    struct pp_ompt_thread *next; /* every thread's state, for the end */
    uint32_t counter;    /* task handles made by this thread */
    /* what the fast paths must know, in one word (pp_ompt_pending_update):
     * 0, nothing waits for the thread's next event; PP_OMPT_PENDING_CREATE,
     * _RUN or _WAIT, one of the events the fast paths hold back until the
     * next one (below); anything else (another bit), the general paths:
     * something else waits for the next event, a taskloop creates tasks
     * here, or, for good, the thread is beyond the limit of task handles or
     * the clock is no time-stamp counter (pp_ompt_fast_now) */
    uint32_t pending;
    uint64_t value_base; /* pp_ompt_value_base of the thread: 0, its tasks are not measured */
    pp_ompt_cached cache[PP_OMPT_CACHE];
    /* parallel regions this thread encountered and that are still open */
    pp_ompt_parallel parallel[PP_OMPT_NEST];
    uint32_t n_parallel;
    /* the parallel construct of each implicit task this thread runs */
    pp_ompt_implicit implicit[PP_OMPT_NEST];
    uint32_t n_implicit;
    /* open worksharing, masked, critical, ordered, synchronization
     * constructs: their end may carry another code address than their
     * begin, so it closes the innermost one of its kind (they nest on a
     * thread), of the innermost implicit task's (those from open_base on) */
    uintptr_t open[PP_OMPT_OPEN];
    uint32_t n_open, open_base;
    /* waiting for the next event: a worksharing construct whose end waits
     * for its implicit barrier (the barrier nests inside it, as with
     * OPARI2), or a deferred task's creation that waits for its dependences */
    pp_callsite *ws_pending;
    uint64_t ws_pending_end;
    pp_callsite *wait_done;  /* a taskwait depend's, just completed */
    /* a taskloop task whose begin waits for the next event: a generator
     * creates tasks before anything else (pp_ompt_taskloop.c) */
    ompt_data_t *begin_task;
    uint64_t begin_time;
    /* a taskgroup whose begin waits for the next event: a taskloop's own
     * taskgroup becomes the taskloop's region */
    const void *group_codeptr;
    uint64_t group_time;
    bool group_pending;
    pp_ompt_source sources[PP_OMPT_NEST];
    uint32_t n_sources;
    /* teams of a league (host teams) this thread runs: teams are not
     * measured, nor anything inside them (as in OPARI2 mode) */
    uint32_t league;
    /* the thread's own initial task runs (an initial task that begins
     * meanwhile is a league team's) */
    uint32_t initial_open;
    /* held back by the fast paths until the next event, which does both in
     * one engine call if it is the second half (pp_ompt_task.c,
     * pp_ompt_parallel.c), else settles them first: an undeferred task's
     * creation (its begin comes next), a taskwait's begin (its end comes
     * next when no task runs inside it) */
    ompt_data_t *create_task;
    pp_callsite *create_c;
    uint64_t create_time;
    /* the same task's begin, held back too (run_held: its value is made,
     * run_value), until its end (one engine call for the whole task) or
     * another event */
    bool run_held;
    uint64_t run_value;
    uint64_t run_time;
    pp_callsite *wait_c;
    uint64_t wait_time;
} pp_ompt_thread;

#define PP_OMPT_PENDING_OTHER 1u
#define PP_OMPT_PENDING_CREATE 2u
#define PP_OMPT_PENDING_WAIT 4u
#define PP_OMPT_PENDING_RUN 8u
#define PP_OMPT_PENDING_HELD (PP_OMPT_PENDING_CREATE | PP_OMPT_PENDING_WAIT | PP_OMPT_PENDING_RUN)

/* The held events' words are read by another thread too: the end's hook
 * records what a thread still holds when the run ends (pp_ompt_held_at_end),
 * while the thread may go on.  pending is their sequence word: a held
 * event's words (create_c, create_time, run_value, run_time, wait_c,
 * wait_time) are written before pending shows it (pp_ompt_pending_set), and
 * pending stops showing it before they are recorded or overwritten
 * (pp_ompt_hold_retract); the hook takes them only if pending and their
 * times, unique per hold, read the same before and after.  On x86 these
 * are plain moves. */
#define PP_OMPT_HOLD_STORE(field, value) __atomic_store_n(&(field), (value), __ATOMIC_RELAXED)
static inline void pp_ompt_pending_set(pp_ompt_thread *t, uint32_t pending)
{
    __atomic_store_n(&t->pending, pending, __ATOMIC_RELEASE);
}
static inline void pp_ompt_hold_retract(pp_ompt_thread *t)
{
    __atomic_store_n(&t->pending, t->pending & ~PP_OMPT_PENDING_HELD, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE); /* before the words change */
}

/* The clock of the fast paths: the time-stamp counter, read without the
 * test of the source that pp_timer_now makes (and without its call, which
 * would cost the callbacks a stack frame).  The fast paths run only where
 * it is the source: elsewhere every thread's pending word keeps them off
 * (pp_ompt_pending_update; the source is chosen before the first thread's
 * state is made, and does not change). */
static inline uint64_t pp_ompt_fast_now(void)
{
    return pp_timer_tsc();
}

/* What the thread's fast paths must know (t->pending), after a change. */
static inline void pp_ompt_pending_update(pp_ompt_thread *t)
{
    bool other = t->ws_pending || t->wait_done || t->begin_task || t->group_pending ||
                 t->n_sources || t->league || !t->value_base ||
                 (PP_TIMER_HAVE_TSC && !pp_timer_is_tsc());
    pp_ompt_pending_set(
        t, (other ? PP_OMPT_PENDING_OTHER : 0) |
               (t->create_task ? (t->run_held ? PP_OMPT_PENDING_RUN : PP_OMPT_PENDING_CREATE)
                               : 0) |
               (t->wait_c ? PP_OMPT_PENDING_WAIT : 0));
}

/* The slot of (codeptr, kind) in a thread's cache: the code address's low
 * bits (the constructs a thread meets in turn lie a few bytes to a few
 * kilobytes apart, so their low bits differ; a product would spread them
 * better at three instructions more per event), the kind folded in. */
static inline uint32_t pp_ompt_cache_slot(const void *codeptr, pp_callsite_kind kind)
{
    return (uint32_t)(((uintptr_t)codeptr ^ (uintptr_t)kind * 0x15u) & (PP_OMPT_CACHE - 1));
}

/* The construct of (codeptr, kind) in thread t's cache, NULL if not there
 * (the fast paths: the general path then fills it). */
static inline pp_callsite *pp_ompt_construct_cached(pp_ompt_thread *t, const void *codeptr,
                                                         pp_callsite_kind kind)
{
    pp_ompt_cached *e = &t->cache[pp_ompt_cache_slot(codeptr, kind)];
    pp_callsite *c = e->c;
    return c != NULL && e->codeptr == codeptr && c->kind == kind ? c : NULL;
}

/* Where a construct of kind that libomp reports at codeptr lies
 * (pp_ompt_callsite.c): codeptr itself (*how AS_IS); the program's call of
 * the construct's GOMP_ entry point, found on the stack, where codeptr is
 * an address libomp kept from another entry or one inside libomp (STACK);
 * the outlined body of the implicit task's parallel region, which reached
 * the runtime by a tail call (TAIL_BODY). */
enum { PP_OMPT_SITE_AS_IS, PP_OMPT_SITE_STACK, PP_OMPT_SITE_TAIL_BODY };
const void *pp_ompt_gomp_callsite(const void *codeptr, pp_callsite_kind kind,
                                  const pp_callsite *parallel, int *how);

/* The construct of (codeptr, kind) for thread t: its cache, else
 * pp_callsite_get (which makes it on first use).  NULL only when out of
 * memory or beyond the registry's limit. */
static inline pp_callsite *pp_ompt_construct_find(pp_ompt_thread *t, const void *codeptr,
                                                       pp_callsite_kind kind)
{
    pp_callsite *c = pp_ompt_construct_cached(t, codeptr, kind);
    if (__builtin_expect(c != NULL, 1))
        return c;
    /* a codeptr that is not the construct's own is never cached: the next
     * event that reports it may be another construct's */
    int how;
    const pp_callsite *parallel = t->n_implicit > 0 && t->n_implicit <= PP_OMPT_NEST
                                      ? t->implicit[t->n_implicit - 1].construct
                                      : NULL;
    const void *site = pp_ompt_gomp_callsite(codeptr, kind, parallel, &how);
    if (how != PP_OMPT_SITE_AS_IS) {
        c = pp_callsite_get(site, kind);
        if (c && how == PP_OMPT_SITE_TAIL_BODY && !__atomic_load_n(&c->tail_body, __ATOMIC_RELAXED))
            __atomic_store_n(&c->tail_body, true, __ATOMIC_RELAXED);
        return c;
    }
    if ((c = pp_callsite_get(codeptr, kind)) != NULL)
        t->cache[pp_ompt_cache_slot(codeptr, kind)] = (pp_ompt_cached){codeptr, c};
    return c;
}

/* The stack of open constructs.  push: a construct that began (NULL: not
 * measured, still paired with its end); beyond PP_OMPT_OPEN only counted. */
static inline void pp_ompt_open_push(pp_ompt_thread *t, pp_callsite *c, uintptr_t tags)
{
    if (__builtin_expect(t->n_open < PP_OMPT_OPEN, 1))
        t->open[t->n_open] = (uintptr_t)c | tags;
    t->n_open++;
}
static inline pp_callsite *pp_ompt_open_at(const pp_ompt_thread *t, uint32_t i)
{
    return (pp_callsite *)(t->open[i] & ~(uintptr_t)PP_OMPT_OPEN_TAGS);
}
/* The innermost open construct of the innermost implicit task, NULL if
 * none (or beyond the bound); its tags into *tags. */
static inline pp_callsite *pp_ompt_open_top(const pp_ompt_thread *t, uintptr_t *tags)
{
    uint32_t n = t->n_open;
    if (n <= t->open_base || n > PP_OMPT_OPEN)
        return NULL;
    *tags = t->open[n - 1] & PP_OMPT_OPEN_TAGS;
    return pp_ompt_open_at(t, n - 1);
}
/* Pop the innermost open construct of kind (of the innermost implicit
 * task): NULL, with one warning, when none is open (its begin was not
 * seen); *tags (unless NULL) gets its tags. */
pp_callsite *pp_ompt_open_pop_slow(pp_ompt_thread *t, pp_callsite_kind kind, uintptr_t *tags);
static inline pp_callsite *pp_ompt_open_pop(pp_ompt_thread *t, pp_callsite_kind kind,
                                                  uintptr_t *tags)
{
    uintptr_t top_tags = 0;
    pp_callsite *c = pp_ompt_open_top(t, &top_tags);
    if (__builtin_expect(c != NULL && c->kind == kind, 1)) {
        t->n_open--;
        if (tags)
            *tags = top_tags;
        return c;
    }
    return pp_ompt_open_pop_slow(t, kind, tags);
}

extern __thread pp_ompt_thread *pp_ompt_tls __attribute__((tls_model("initial-exec")));
pp_ompt_thread *pp_ompt_thread_create(void);
/* The first of every thread's state (linked through next). */
pp_ompt_thread *pp_ompt_threads(void);
/* At the end: a worker whose last team ended still has it open (libomp
 * reports the end at the next fork only): close it when the team ended. */
void pp_ompt_close_ended_teams(void);
/* At the end: what each thread still holds back (pending's held events:
 * an undeferred task's creation and begin while its body runs, a
 * taskwait's begin while the thread waits), recorded on its location at
 * their times; also on the crash path (a fatal signal ends the run). */
void pp_ompt_held_at_end(void);

static inline pp_ompt_thread *pp_ompt_self(void)
{
    pp_ompt_thread *t = pp_ompt_tls;
    return __builtin_expect(t != NULL, 1) ? t : pp_ompt_thread_create();
}

/* ---- task handles (pp_ompt_handle.h) ------------------------------------------------ */

static inline pp_callsite *pp_ompt_task_construct(uint64_t value)
{
    return pp_callsite_of(pp_ompt_value_index(value));
}

/* The task of value goes on on this thread (the end of a scheduling point,
 * a task resumed): a switch, or for a moving task also a move from another
 * thread (its value then takes the new reference). */
void pp_ompt_resume(ompt_data_t *task_data, uint64_t now);

/* ---- callbacks ---------------------------------------------------------------------- */

/* Register every callback the layer handles (the others are not asked
 * for); what the runtime cannot deliver is reported in one line. */
void pp_ompt_register(ompt_set_callback_t set_callback);

void pp_ompt_parallel_register(ompt_set_callback_t set, const char **missing, int *n_missing);
void pp_ompt_task_register(ompt_set_callback_t set, const char **missing, int *n_missing);
void pp_ompt_mutex_register(ompt_set_callback_t set, const char **missing, int *n_missing);
void pp_ompt_mutex_define_regions(void);
/* A lock was initialized (measured): for a run that met no construct. */
extern bool pp_ompt_locks_used;
/* Teams constructs (leagues) that ran: not measured (pp_ompt_parallel.c),
 * counted for the word at the end when nothing else was measured. */
extern unsigned pp_ompt_leagues;

/* Ask for one callback; a runtime that will never deliver it gets its name
 * into missing. */
void pp_ompt_want(ompt_set_callback_t set, ompt_callbacks_t which, ompt_callback_t fn,
                  const char *name, const char **missing, int *n_missing);

/* What waits for the thread's next event is settled first (pp_ompt_settle) by every
 * callback (except an implicit barrier's begin, which takes a worksharing
 * construct's end into its own): a worksharing construct's end, which
 * waited for its implicit barrier (nowait: it ends where it ended); a
 * deferred task's creation, which waited for its dependences callback (so
 * their records follow the creation, as in OPARI2 mode); a taskloop task's
 * begin (it began as a chunk, since the event is no creation by a generator)
 * and a taskgroup's (it is no taskloop's).  The taskloop's own events settle
 * the last two otherwise (pp_ompt_taskloop.c). */
void pp_ompt_settle_slow(pp_ompt_thread *t);
static inline void pp_ompt_settle(pp_ompt_thread *t)
{
    if (__builtin_expect(t->pending != 0, 0))
        pp_ompt_settle_slow(t);
}

/* The calling thread's state for an event to measure: NULL when it has
 * none, or while it runs a team of a league. */
static inline pp_ompt_thread *pp_ompt_measured(void)
{
    pp_ompt_thread *t = pp_ompt_self();
    return t && !t->league ? t : NULL;
}

/* The same for an event that is no implicit barrier, settled. */
static inline pp_ompt_thread *pp_ompt_event_thread(void)
{
    pp_ompt_thread *t = pp_ompt_measured();
    if (t)
        pp_ompt_settle(t);
    return t;
}

/* ---- taskloops (pp_ompt_taskloop.c) ----------------------------------------------- */

/* Where code lies (pp_ompt_callsite.c; known from initialize on, which
 * gets libomp's lookup function): a code address in libomp is no position in
 * the program; the program's call site of a taskloop entry point of
 * libomp's, found on the stack inside a taskloop's callback (NULL: not found
 * for certain). */
void pp_ompt_callsite_init(ompt_function_lookup_t lookup);
bool pp_ompt_in_runtime(const void *codeptr);
const void *pp_ompt_taskloop_callsite(void);
/* The taskloop task construct of a task created with encountering task enc
 * on thread t, when a taskloop or a generator creates it; else NULL. */
pp_callsite *pp_ompt_taskloop_source(pp_ompt_thread *t, ompt_data_t *enc);
/* The begin of taskloop task `task` (value, construct c) waits for the next
 * event; settled by pp_ompt_taskloop_begin (as a chunk, or as a generator
 * when that event is a creation of the generator's). */
void pp_ompt_taskloop_defer(pp_ompt_thread *t, ompt_data_t *task, uint64_t now);
void pp_ompt_taskloop_begin(pp_ompt_thread *t, bool generator, ompt_data_t *enc);
/* A generator task ended on this thread. */
void pp_ompt_taskloop_generator_end(pp_ompt_thread *t, ompt_data_t *generator);
/* A taskgroup begins (its region waits for the next event), a taskloop
 * (work) begins or ends, a taskgroup ends: pp_ompt_taskloop.c handles the
 * taskloop's regions. */
void pp_ompt_taskgroup_defer(pp_ompt_thread *t, const void *codeptr, uint64_t now);
void pp_ompt_taskgroup_settle(pp_ompt_thread *t);
void pp_ompt_taskloop_work(pp_ompt_thread *t, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *enc, const void *codeptr, uint64_t now);

/* The dependences of a task just created (pp_ompt_depend.c). */
void pp_ompt_depend(uint64_t task_value, const ompt_dependence_t *deps, int n);

#endif
