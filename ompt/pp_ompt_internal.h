/* Declarations shared by the OMPT layer's own files (not an API).
 *
 * The layer turns OMPT callbacks into the engine's events (profile/), as
 * pomp2/ turns POMP2 calls into them.  State lives where OMPT hands it back:
 * - a task's ompt_data_t holds its engine handle (pp_ompt_handle below: the
 *   construct and what the layer must know of the task are packed into it,
 *   so nothing is allocated per task and nothing needs freeing when a task
 *   ends on another thread than the one that created it);
 * - a parallel region's ompt_data_t points at a record on the encountering
 *   thread (the fork context the team's threads need);
 * - a thread's ompt_data_t points at its pp_ompt_thread, which the callbacks
 *   reach through an initial-exec thread-local copy of that pointer (asking
 *   the runtime with ompt_get_thread_data would cost a call per event).
 * Constructs are known by their code address (codeptr_ra); each thread
 * interns the addresses it meets in a table of its own (callsite/), so the
 * event path takes no lock; names come at the end (pp_callsite_names.c). */
#ifndef PP_OMPT_INTERNAL_H
#define PP_OMPT_INTERNAL_H

#include <omp-tools.h>
#include <stdbool.h>
#include <stdint.h>

#include "callsite/pp_callsite.h"
#include "profile/pp_profile.h"

/* ---- per thread ---------------------------------------------------------------- */

#define PP_OMPT_NEST 64 /* nested parallel regions / mutexes a thread keeps */

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

/* An implicit task this thread runs: its team's record and generation. */
typedef struct pp_ompt_implicit {
    pp_callsite *construct;
    pp_ompt_parallel *parallel;
    uint64_t generation;
    bool primary;
} pp_ompt_implicit;

typedef struct pp_ompt_thread {
    uint32_t number;  /* the thread's location index in the engine */
    void *location;   /* the engine's location of the thread */
    struct pp_ompt_thread *next; /* every thread's state, for the end */
    uint32_t counter; /* task handles made by this thread */
    /* parallel regions this thread encountered and that are still open */
    pp_ompt_parallel parallel[PP_OMPT_NEST];
    uint32_t n_parallel;
    /* the parallel construct of each implicit task this thread runs */
    pp_ompt_implicit implicit[PP_OMPT_NEST];
    uint32_t n_implicit;
    /* open worksharing, masked, critical and ordered constructs: their end
     * carries another code address than their begin, so it closes the
     * innermost one (they nest on a thread) */
    pp_callsite *open[PP_OMPT_NEST];
    bool open_executes[PP_OMPT_NEST]; /* a single this thread executes */
    uint32_t n_open;
    /* a worksharing construct whose end waits for its implicit barrier (the
     * barrier nests inside it, as with OPARI2) */
    pp_callsite *ws_pending;
    uint64_t ws_pending_end;
    pp_callsite *ws_barrier; /* the construct the open barrier closes */
    pp_callsite *wait_done; /* a taskwait depend's, just completed */
} pp_ompt_thread;

/* Push a construct that has begun; pop the innermost one of that kind
 * (NULL, with one warning, when none is open: its begin was not seen). */
static inline void pp_ompt_open_push(pp_ompt_thread *t, pp_callsite *c)
{
    if (__builtin_expect(t->n_open < PP_OMPT_NEST, 1)) {
        t->open[t->n_open] = c;
        t->open_executes[t->n_open] = false;
    }
    t->n_open++; /* counted beyond the bound, so pushes and pops stay paired */
}
pp_callsite *pp_ompt_open_pop_slow(pp_ompt_thread *t, pp_callsite_kind kind);
static inline pp_callsite *pp_ompt_open_pop(pp_ompt_thread *t, pp_callsite_kind kind)
{
    uint32_t n = t->n_open;
    if (__builtin_expect(n > 0 && n <= PP_OMPT_NEST && t->open[n - 1] &&
                             t->open[n - 1]->kind == kind, 1)) {
        t->n_open = n - 1;
        return t->open[n - 1];
    }
    return pp_ompt_open_pop_slow(t, kind);
}

extern __thread pp_ompt_thread *pp_ompt_tls __attribute__((tls_model("initial-exec")));
pp_ompt_thread *pp_ompt_thread_create(void);
/* The first of every thread's state (linked through next). */
pp_ompt_thread *pp_ompt_threads(void);
/* At the end: a worker whose last team ended still has it open (libomp
 * reports the end at the next fork only): close it when the team ended. */
void pp_ompt_close_ended_teams(void);

static inline pp_ompt_thread *pp_ompt_self(void)
{
    pp_ompt_thread *t = pp_ompt_tls;
    return __builtin_expect(t != NULL, 1) ? t : pp_ompt_thread_create();
}

/* ---- task handles ----------------------------------------------------------------
 *
 * An explicit task's ompt_data_t value:
 *   bit 63      set (engine handles of implicit tasks never have it)
 *   bit 62      begun (the engine knows the task; cleared in the handle given
 *               to the engine)
 *   bit 61      undeferred: its creation region stays open until it completes
 *   bit 60      ended (a detached task whose body finished)
 *   bit 59      moving: an untied deferred task, which libomp may resume on
 *               another thread: from its first run on, bits 0-47 hold the
 *               engine's reference to it (profile/pp_profile_migrate.h), not
 *               construct, thread and counter
 *   bits 39-59  the construct's index
 *   bits 0-38   the creating thread's engine location (11 bits) and that
 *               thread's task counter (28 bits; it wraps after 268 M tasks, so a task would have to
 *               stay active across 268 M later creations on its creating
 *               thread to share a handle)
 * Implicit tasks' values are the engine's own handles. */
#define PP_OMPT_EXPLICIT (1ull << 63)
#define PP_OMPT_BEGUN (1ull << 62)
#define PP_OMPT_UNDEFERRED (1ull << 61)
#define PP_OMPT_ENDED (1ull << 60)
#define PP_OMPT_MOVING (1ull << 59)
#define PP_OMPT_REF_MASK ((1ull << 48) - 1)
#define PP_OMPT_INDEX_SHIFT 39
#define PP_OMPT_INDEX_MASK ((1ull << 21) - 1)

/* The engine handle of an explicit task's value follows the engine's own
 * convention (the creating location's index + 1 in the top 24 bits, so a
 * trace names the creating thread), with bit 31 set so it never equals a
 * handle the engine made itself (its counter, the trace's generation number
 * in the low 32 bits, counts the location's implicit tasks); of an implicit
 * task's value: the value. */
static inline pp_task_handle pp_ompt_engine_handle(uint64_t value)
{
    if (!(value & PP_OMPT_EXPLICIT))
        return value;
    return (((value >> 28) & 0x7ff) + 1) << 40 | 1ull << 31 | (value & 0xfffffff);
}
static inline pp_callsite *pp_ompt_task_construct(uint64_t value)
{
    return pp_callsite_at((uint32_t)((value >> PP_OMPT_INDEX_SHIFT) & PP_OMPT_INDEX_MASK));
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

/* Ask for one callback; a runtime that will never deliver it gets its name
 * into missing. */
void pp_ompt_want(ompt_set_callback_t set, ompt_callbacks_t which, ompt_callback_t fn,
                  const char *name, const char **missing, int *n_missing);

/* A worksharing construct's end waits for the thread's next event: if that
 * is the construct's implicit barrier, the barrier nests inside it;
 * otherwise (nowait) the construct ends where it ended.  Every callback that
 * is not such a barrier calls this first.  A deferred task with dependences
 * leaves its creation pending here too, until its dependences callback (or
 * the next event), so their records follow the creation as in OPARI2 mode. */
void pp_ompt_ws_flush_slow(pp_ompt_thread *t);
static inline void pp_ompt_ws_flush(pp_ompt_thread *t)
{
    if (__builtin_expect(t->ws_pending != NULL, 0))
        pp_ompt_ws_flush_slow(t);
}

/* The calling thread's state for an event that is no implicit barrier:
 * a worksharing end that waited for one is settled first (NULL: no state). */
static inline pp_ompt_thread *pp_ompt_event_thread(void)
{
    pp_ompt_thread *t = pp_ompt_self();
    if (t)
        pp_ompt_ws_flush(t);
    return t;
}

/* The value of the pseudo task of a taskwait depend (pp_ompt_task.c): bit 0
 * set, below any engine handle. */
static inline bool pp_ompt_is_taskwait_depend(uint64_t value)
{
    return (value & 1) && value < (1ull << 40);
}

/* The dependences of a task just created (pp_ompt_depend.c). */
void pp_ompt_depend(uint64_t task_value, const ompt_dependence_t *deps, int n);

#endif
