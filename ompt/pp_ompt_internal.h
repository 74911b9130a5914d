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
 * interns the addresses it meets in a table of its own (pp_ompt_construct.c),
 * so the event path takes no lock; names come at the end (pp_ompt_names.c). */
#ifndef PP_OMPT_INTERNAL_H
#define PP_OMPT_INTERNAL_H

#include <omp-tools.h>
#include <stdbool.h>
#include <stdint.h>

#include "ompt/pp_ompt_handle.h"
#include "profile/pp_profile.h"

/* ---- constructs ---------------------------------------------------------------- */

typedef enum pp_ompt_kind {
    PP_OMPT_PARALLEL,
    PP_OMPT_LOOP,
    PP_OMPT_SECTIONS,
    PP_OMPT_SINGLE,
    PP_OMPT_WORKSHARE,
    PP_OMPT_TASKLOOP,
    PP_OMPT_MASKED,
    PP_OMPT_BARRIER,
    PP_OMPT_IMPLICIT_BARRIER,
    PP_OMPT_TASKWAIT,
    PP_OMPT_TASKWAIT_DEPEND, /* libomp's pseudo task of a taskwait depend */
    PP_OMPT_TASKGROUP,
    PP_OMPT_REDUCTION,
    PP_OMPT_CRITICAL,
    PP_OMPT_ORDERED,
    PP_OMPT_TASK,
    PP_OMPT_UNTIED_TASK,
    PP_OMPT_TASKYIELD,
    PP_OMPT_FLUSH,
    PP_OMPT_KINDS
} pp_ompt_kind;

/* One construct: a code address of one kind, with the engine regions it
 * needs (main: the construct; inner: "single sblock", "critical sblock",
 * "create task"...; else main).  Immutable once published; never freed. */
typedef struct pp_ompt_construct {
    const void *codeptr;
    pp_ompt_kind kind;
    uint32_t index; /* in the global table (pp_ompt_construct_at) */
    pp_region_id main, inner;
    /* PP_OMPT_TASKWAIT_DEPEND only: the wait was an if(0) task's (an
     * undeferred task without dependences came right after it); the one
     * field written after publication (a relaxed store on the event path,
     * read when names are made at the end) */
    bool if0_task;
} pp_ompt_construct;

/* The construct of (codeptr, kind), made on first use (the thread's own table
 * first, then the global registry under a lock once per thread and
 * construct).  NULL only when out of memory. */
pp_ompt_construct *pp_ompt_construct_get(const void *codeptr, pp_ompt_kind kind);
/* By index (lock-free), NULL for an unknown index. */
pp_ompt_construct *pp_ompt_construct_at(uint32_t index);
/* How many constructs exist. */
uint32_t pp_ompt_construct_count(void);

/* ---- per thread ---------------------------------------------------------------- */

#define PP_OMPT_NEST 64 /* nested parallel regions / mutexes a thread keeps */

typedef struct pp_ompt_parallel {
    int64_t fork_context;
    pp_ompt_construct *construct;
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
    pp_ompt_construct *construct;
    pp_ompt_parallel *parallel;
    uint64_t generation;
    bool primary;
} pp_ompt_implicit;

typedef struct pp_ompt_slot {
    const void *codeptr;
    uintptr_t kind1; /* kind + 1; 0: empty slot */
    pp_ompt_construct *c;
} pp_ompt_slot;

typedef struct pp_ompt_thread {
    uint32_t number;  /* the thread's location index in the engine */
    void *location;   /* the engine's location of the thread */
    struct pp_ompt_thread *next; /* every thread's state, for the end */
    uint32_t counter;    /* task handles made by this thread */
    uint64_t value_base; /* pp_ompt_value_base of the thread: 0, its tasks are not measured */
    /* constructs met by this thread: open addressing, grown at a miss */
    pp_ompt_slot *slots;
    uint32_t n_slots, n_used;
    /* parallel regions this thread encountered and that are still open */
    pp_ompt_parallel parallel[PP_OMPT_NEST];
    uint32_t n_parallel;
    /* the parallel construct of each implicit task this thread runs */
    pp_ompt_implicit implicit[PP_OMPT_NEST];
    uint32_t n_implicit;
    /* open worksharing, masked, critical and ordered constructs: their end
     * carries another code address than their begin, so it closes the
     * innermost one (they nest on a thread) */
    pp_ompt_construct *open[PP_OMPT_NEST];
    bool open_executes[PP_OMPT_NEST]; /* a single this thread executes */
    uint32_t n_open;
    /* a worksharing construct whose end waits for its implicit barrier (the
     * barrier nests inside it, as with OPARI2) */
    pp_ompt_construct *ws_pending;
    uint64_t ws_pending_end;
    pp_ompt_construct *ws_barrier; /* the construct the open barrier closes */
    pp_ompt_construct *wait_done; /* a taskwait depend's, just completed */
} pp_ompt_thread;

/* Push a construct that has begun; pop the innermost one of that kind
 * (NULL, with one warning, when none is open: its begin was not seen). */
static inline void pp_ompt_open_push(pp_ompt_thread *t, pp_ompt_construct *c)
{
    if (__builtin_expect(t->n_open < PP_OMPT_NEST, 1)) {
        t->open[t->n_open] = c;
        t->open_executes[t->n_open] = false;
    }
    t->n_open++; /* counted beyond the bound, so pushes and pops stay paired */
}
pp_ompt_construct *pp_ompt_open_pop_slow(pp_ompt_thread *t, pp_ompt_kind kind);
static inline pp_ompt_construct *pp_ompt_open_pop(pp_ompt_thread *t, pp_ompt_kind kind)
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

/* ---- task handles (pp_ompt_handle.h) ------------------------------------------------ */

static inline pp_ompt_construct *pp_ompt_task_construct(uint64_t value)
{
    return pp_ompt_construct_at(pp_ompt_value_index(value));
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

/* The dependences of a task just created (pp_ompt_depend.c). */
void pp_ompt_depend(uint64_t task_value, const ompt_dependence_t *deps, int n);

/* Names at the end (pp_ompt_names.c). */
void pp_ompt_names_finalize(void);

#endif
