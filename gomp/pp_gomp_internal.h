/* Declarations shared by the libgomp interposer's own files (not an API).
 *
 * libpompprof_gomp.so is preloaded (LD_PRELOAD) into a program built by gcc
 * or gfortran for libgomp.  It defines the GOMP_* entry points the compiler
 * calls and the omp_*_lock routines; each forwards to libgomp's own
 * definition (pp_gomp_real, resolved once at library start) and turns what
 * it sees into the engine's events (profile/), as pomp2/ turns OPARI2's
 * calls into them.  Outlined functions are wrapped: a parallel region's
 * function runs through a trampoline that knows the team (pp_gomp_team, on
 * the encountering thread's stack while GOMP_parallel runs), a task's body
 * through one that reads a head the interposer put in front of the task's
 * argument block (pp_gomp_task_head).  Constructs are known by the return
 * address of the interposed call (callsite/), named at the end.
 *
 * State lives per thread (pp_gomp_thread, reached through an initial-exec
 * thread-local pointer) and per implicit task the thread runs
 * (pp_gomp_level): the event path takes no lock, allocates nothing once a
 * thread has its state, makes no system call and reads the clock once. */
#ifndef PP_GOMP_INTERNAL_H
#define PP_GOMP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callsite/pp_callsite.h"
#include "profile/pp_profile.h"

/* ---- libgomp's own definitions ------------------------------------------- */

/* The OpenMP lock types: the interposer only passes the locks on (omp.h is
 * not needed, nor is the lock's layout). */
typedef struct pp_gomp_lock omp_lock_t;
typedef struct pp_gomp_nest_lock omp_nest_lock_t;

typedef struct pp_gomp_real_table {
#define PP_GOMP_ENTRY(ret, name, params, version) ret(*name) params;
#include "gomp/pp_gomp_entries.h"
#undef PP_GOMP_ENTRY
} pp_gomp_real_table;

/* Resolved by the library's constructor (pp_gomp_start.c); an entry that
 * another library's constructor reaches earlier resolves them first. */
extern pp_gomp_real_table pp_gomp_real;
void pp_gomp_resolve(void);
#define PP_GOMP_REAL(name) \
    (__builtin_expect(pp_gomp_real.name != NULL, 1) ? pp_gomp_real.name \
                                                    : (pp_gomp_resolve(), pp_gomp_real.name))

/* The interposer measures (libgomp found, POMPPROF_ENABLE not 0, the program
 * not measured by OPARI2 already): set once, at start or late (below). */
extern bool pp_gomp_on;
/* No libgomp at start: the program may load it later (dlopen: a plugin, a
 * Python extension built with gcc -fopenmp), and the first entry reached
 * after that starts measuring (pp_gomp_start_late: whether it measures). */
extern bool pp_gomp_waiting;
bool pp_gomp_start_late(void);
extern bool pp_gomp_run_hold; /* pp_gomp_task.c */

/* A lock routine was measured (constructs: pp_callsite_count): for the line
 * a run that measured nothing gets at its end. */
extern bool pp_gomp_measured;
/* target and teams regions met, which are not measured (pp_gomp_off.c) */
extern unsigned pp_gomp_unmeasured;

/* ---- teams ---------------------------------------------------------------- */

/* When the teams a thread encountered ended: a worker's end of the team's
 * barrier and implicit task is not visible (it goes on waiting inside
 * libgomp for its next team), so it ends when the team's primary thread saw
 * the team end, published here (one record per nesting depth of the
 * primary, reused by its next region there: the last two generations
 * kept, tagged, no lock). */
typedef struct pp_gomp_ended {
    uint64_t generation; /* regions this record served (the primary's own) */
    struct {
        uint64_t generation, time;
    } at[2];
} pp_gomp_ended;

/* How a thread's implicit task ends: in the barrier libgomp waits in after
 * the function (a worksharing construct's, when it serves one; else the
 * region's), the worksharing construct it serves (PP_REGION_INVALID:
 * none), the waiting task. */
typedef struct pp_gomp_final {
    pp_region_id barrier, ws, parallel;
    pp_task_handle waits;
} pp_gomp_final;
/* All of it ends at `end` (pp_gomp_thread.c). */
void pp_gomp_final_end(const pp_gomp_final *f, uint64_t end);

/* A parallel region, on the encountering thread's stack while the real
 * GOMP_parallel runs (the team's threads read it in the trampoline); for
 * the API of gcc before 4.9 in the encountering thread's state
 * (pp_gomp_thread.legacy) from GOMP_parallel_start to GOMP_parallel_end. */
typedef struct pp_gomp_team {
    /* first: libgomp reads the first word of a region's data for
     * GOMP_parallel_reductions (the reductions' address): its copy */
    void *data0;
    void (*fn)(void *);
    void *data;
    int64_t fork_context;
    pp_callsite *parallel;
    pp_callsite *barrier; /* the region's implicit barrier */
    pp_callsite *ws;      /* a combined loop or sections construct, else NULL */
    struct pp_gomp_thread *primary;
    pp_gomp_ended *ended;
    uint64_t generation;
    bool primary_ran;         /* the primary's implicit task ran the trampoline */
    bool legacy;              /* started by GOMP_parallel_start (gcc before 4.9) */
    pp_task_handle forking;   /* the task that forked */
    pp_gomp_final primary_final; /* how it ends, when the region ends */
} pp_gomp_team;

/* ---- per thread and implicit task ---------------------------------------- */

/* the worksharing construct open on an implicit task (they never nest
 * closely: one at a time) */
enum {
    PP_GOMP_WS_OPEN = 1,      /* begun, its end not seen */
    PP_GOMP_WS_BODY = 2,      /* a single this thread executes: sblock open */
    PP_GOMP_WS_COPY = 4,      /* a single with copyprivate (its barrier is no region) */
    PP_GOMP_WS_SECTION = 8,   /* a section open */
    PP_GOMP_WS_ENDED = 16,    /* ended without its barrier: closed by the next event,
                                 or its barrier nests in it */
    PP_GOMP_WS_COMBINED = 32, /* a combined parallel loop or sections */
};

typedef struct pp_gomp_level {
    pp_gomp_team *team; /* NULL at level 0 (outside any parallel region) */
    pp_callsite *ws;
    uint32_t ws_state;
    uint32_t n_ws; /* worksharing constructs begun on this implicit task */
    uint64_t ws_end; /* PP_GOMP_WS_ENDED: when */
    uint32_t met[PP_CALLSITE_KINDS]; /* constructs of each kind it met (for names) */
    const void *outer_body;   /* the trampolines' thread-local facts before it */
    uint32_t outer_in_task;
} pp_gomp_level;

#define PP_GOMP_LEVELS 64 /* nested parallel regions a thread keeps */
#define PP_GOMP_OPEN 64   /* nested critical, ordered, atomic, taskgroup */
#define PP_GOMP_RECENT 16 /* call sites a thread keeps at hand (a power of two) */

typedef struct pp_gomp_thread {
    void *location; /* the engine's location of the thread */
    /* the thread's own words, for the end's hook: NULL once the thread has
     * ended (its thread-local block is gone); reading: the hook reads them
     * (the ending thread waits) */
    struct pp_gomp_words *words;
    uint32_t reading;
    struct pp_gomp_thread *next; /* every thread's state, for the end */
    uint32_t off;   /* inside target or teams (not measured): > 0 */
    uint32_t depth; /* level[depth] is the implicit task running now */
    pp_gomp_level level[PP_GOMP_LEVELS];
    pp_gomp_ended ended[PP_GOMP_LEVELS]; /* teams this thread encountered, by depth */
    pp_gomp_team legacy[PP_GOMP_LEVELS]; /* GOMP_parallel_start's teams, by depth */
    /* a worker's last team: its barrier and implicit task end when the team
     * did (closed at the thread's next team, or at the end) */
    struct {
        pp_gomp_ended *ended; /* NULL: none open */
        uint64_t generation;
        pp_gomp_final final;
    } last;
    /* constructs with an end call of their own, open on this thread */
    pp_callsite *open[PP_GOMP_OPEN];
    uint32_t n_open;
    /* the constructs of the call sites met last, by return address
     * (pp_gomp_site_of; direct-mapped, no tail calls) */
    struct {
        const void *ra;
        pp_callsite *c;
    } recent[PP_GOMP_RECENT];
} pp_gomp_thread;

/* The thread's own words, in one thread-local block (one address for all):
 * - thread: its state (NULL until its first event);
 * - body, in_task: what the trampolines running on this thread tell the
 *   entry points: the outlined body running now (for a tail call out of
 *   it) and whether an explicit task's body runs (its events leave the
 *   implicit task's worksharing construct alone), so a task's trampoline
 *   sets them without looking up the thread's state. */
typedef struct pp_gomp_words {
    struct pp_gomp_thread *thread;
    const void *body;
    uint32_t in_task;
    /* - held: a task creation whose start GOMP_task holds back while libgomp
     *   runs (pp_gomp_task.c): when no task ran meanwhile, its start and end
     *   are one engine event at its return; a trampoline that runs first
     *   records the start (pp_gomp_held_flush) and writes the creating
     *   task's handle to *creator, for the creation's end. */
    struct {
        pp_task_handle task; /* 0: none held */
        uint64_t time;       /* the creation's start */
        pp_region_id region; /* its "create task" region */
        pp_task_handle *creator;
    } held;
    /* - run: a task's begin its trampoline holds back while the program's
     *   function runs (pp_gomp_task.c): when nothing of the interposer's ran
     *   meanwhile (a leaf task), its begin and end are one engine event at
     *   its end; every entry point that records an event records the begin
     *   first (pp_gomp_run_flush, through pp_gomp_self and GOMP_task). */
    struct {
        pp_task_handle task; /* 0: none held; PP_GOMP_RUN_OFF: none ever */
        uint64_t time;       /* the task's begin */
        pp_region_id region; /* its task construct's */
    } run;
} pp_gomp_words;

/* Held words another thread reads: the end's hook records what a thread
 * still holds when the run ends (pp_gomp_held_at_end), while the thread may
 * go on.  A held task's handle is its word's sequence number: the other
 * words are written while it is 0, then it is published; the reader takes
 * them only if the handle is the same before and after (handles are
 * unique).  On x86 the fences and atomic stores are plain moves. */
static inline void pp_gomp_hold_publish(pp_task_handle *word, pp_task_handle task)
{
    __atomic_store_n(word, task, __ATOMIC_RELEASE);
}
static inline void pp_gomp_hold_retract(pp_task_handle *word)
{
    __atomic_store_n(word, 0, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE); /* before the next holder's words */
}

/* run.task of a thread whose trampolines hold nothing back (counters, or a
 * clock that is no TSC: pp_gomp_run_hold), set with its state: no handle
 * of a measured task (those are positive as signed numbers; the ones made
 * while measurement is off are not, and their events record nothing), so
 * the trampolines' one test of the held words sends them the other way, and
 * the flushes, which test for a positive handle, leave it. */
#define PP_GOMP_RUN_OFF ((pp_task_handle)-1)
extern __thread pp_gomp_words pp_gomp_mine __attribute__((tls_model("initial-exec")));

/* Record the calling thread's held task begin (pp_gomp_words.run), if any:
 * before any other event of the thread's, and at exit. */
void pp_gomp_run_flush_slow(pp_gomp_words *w);
static inline void pp_gomp_run_flush(pp_gomp_words *w)
{
    if (__builtin_expect((int64_t)w->run.task > 0, 0))
        pp_gomp_run_flush_slow(w);
}

pp_gomp_thread *pp_gomp_thread_create(void);
pp_gomp_thread *pp_gomp_threads(void);

/* The calling thread's state for an event, NULL when it is not measured
 * (the interposer off, the thread inside target or teams). */
static inline pp_gomp_thread *pp_gomp_self(void)
{
    pp_gomp_thread *t = pp_gomp_mine.thread;
    pp_gomp_run_flush(&pp_gomp_mine);
    if (__builtin_expect(t != NULL, 1))
        return t->off ? NULL : t;
    if (pp_gomp_on ||
        (__builtin_expect(__atomic_load_n(&pp_gomp_waiting, __ATOMIC_RELAXED), 0) &&
         pp_gomp_start_late()))
        return pp_gomp_thread_create();
    return NULL;
}

/* The level of the implicit task running now (depth stays below
 * PP_GOMP_LEVELS: deeper regions are not measured). */
static inline pp_gomp_level *pp_gomp_level_of(pp_gomp_thread *t)
{
    return &t->level[t->depth];
}

/* The interposer's own code, where a return address is that of a call the
 * program's outlined body made as a tail call (set at start). */
extern uintptr_t pp_gomp_text_lo, pp_gomp_text_size;

/* The construct of the interposed call's return address ra.  A return
 * address inside the interposer's trampolines belongs to a tail call of
 * the outlined body they run (pp_gomp_mine.body): that body is the construct's
 * address, marked so for its name (callsite/pp_callsite_tail.c). */
pp_callsite *pp_gomp_site_tail(const void *ra, pp_callsite_kind kind);
static inline pp_callsite *pp_gomp_site(const void *ra, pp_callsite_kind kind)
{
    if (__builtin_expect((uintptr_t)ra - pp_gomp_text_lo < pp_gomp_text_size, 0))
        return pp_gomp_site_tail(ra, kind);
    return pp_callsite_get(ra, kind);
}

/* pp_gomp_site through t's recent call sites: a load and two compares when
 * the call site is among them (a tail call never is: its construct depends
 * on the body that runs). */
pp_callsite *pp_gomp_site_recent_miss(pp_gomp_thread *t, const void *ra, pp_callsite_kind kind);
static inline pp_callsite *pp_gomp_site_of(pp_gomp_thread *t, const void *ra,
                                           pp_callsite_kind kind)
{
    uintptr_t a = (uintptr_t)ra;
    unsigned i = (unsigned)(a ^ (a >> 4)) & (PP_GOMP_RECENT - 1);
    pp_callsite *c = t->recent[i].c;
    if (__builtin_expect(t->recent[i].ra == ra && c->kind == kind, 1))
        return c;
    return pp_gomp_site_recent_miss(t, ra, kind);
}

/* The begin of a construct at return address ra (after settling the level:
 * inside_single, see pp_gomp_settle): its construct, NULL when the thread is
 * not measured. */
static inline pp_callsite *pp_gomp_begin(const void *ra, pp_callsite_kind kind,
                                         bool inside_single);

/* A scheduling point at the call site: enter, wait in libgomp (real_call),
 * leave with the task that waited resumed. */
#define PP_GOMP_SCHEDULING_POINT(kind, inside_single, real_call)                             \
    do {                                                                                     \
        pp_callsite *c_ =                                                                    \
            pp_gomp_begin(__builtin_return_address(0), (kind), (inside_single));             \
        if (!c_) {                                                                           \
            real_call;                                                                       \
            break;                                                                           \
        }                                                                                    \
        pp_task_handle waits_;                                                               \
        pp_profile_scheduling_enter(c_->main, &waits_);                                      \
        real_call;                                                                           \
        pp_profile_exit_resume(c_->main, waits_);                                            \
    } while (0)

/* Constructs with an end call of their own: push at the begin, pop the
 * innermost of its kind at the end (NULL when its begin was not seen). */
static inline void pp_gomp_open_push(pp_gomp_thread *t, pp_callsite *c)
{
    if (__builtin_expect(t->n_open < PP_GOMP_OPEN, 1))
        t->open[t->n_open] = c;
    t->n_open++; /* counted beyond the bound, so pushes and pops stay paired */
}
pp_callsite *pp_gomp_open_pop(pp_gomp_thread *t, pp_callsite_kind kind);

/* Settle the level's worksharing construct before an event that cannot be
 * part of it: one that ended without its barrier closes where it ended, a
 * single whose body this thread runs (a nowait single) ends now (its body's
 * end is not visible).  inside_single: the event may be inside a single's
 * body (task constructs, critical, locks, nested parallel regions), which
 * leaves an executing single open. */
void pp_gomp_settle_slow(pp_gomp_level *lv, bool inside_single, uint64_t now); /* now 0: read */
static inline void pp_gomp_settle(pp_gomp_thread *t, bool inside_single)
{
    if (pp_gomp_mine.in_task)
        return; /* an explicit task's event: the implicit task waits meanwhile */
    pp_gomp_level *lv = pp_gomp_level_of(t);
    uint32_t s = lv->ws_state;
    if (__builtin_expect((s & PP_GOMP_WS_ENDED) || ((s & PP_GOMP_WS_BODY) && !inside_single), 0))
        pp_gomp_settle_slow(lv, inside_single, 0);
}

static inline pp_callsite *pp_gomp_begin(const void *ra, pp_callsite_kind kind,
                                         bool inside_single)
{
    pp_gomp_thread *t = pp_gomp_self();
    if (!t)
        return NULL;
    pp_gomp_settle(t, inside_single);
    return pp_gomp_site_of(t, ra, kind);
}

/* ---- the parts ------------------------------------------------------------ */

/* A loop, sections or single construct begins at ra on t's implicit task
 * (its region entered, the level's construct from now on); NULL when not
 * measured.  ws_wait_begin/_end: its implicit barrier, libgomp's wait
 * between them; the construct ends with the barrier (pp_gomp_worksharing.c). */
pp_gomp_level *pp_gomp_ws_begin(pp_gomp_thread *t, const void *ra, pp_callsite_kind kind);
pp_callsite *pp_gomp_ws_wait_begin(pp_gomp_level *lv, pp_task_handle *waits);
void pp_gomp_ws_wait_end(pp_gomp_level *lv, pp_callsite *barrier, pp_task_handle waits);
/* The open construct of kind on the calling thread's implicit task, NULL
 * when none (the thread is not measured, or its begin was not seen). */
pp_gomp_level *pp_gomp_ws_open(pp_callsite_kind kind);
/* It ended without its barrier: the level's next event settles it. */
void pp_gomp_ws_nowait(pp_gomp_level *lv);

/* An end with libgomp's barrier in it (real_call); result: what it returns. */
#define PP_GOMP_WS_END(kind, real_call)                                                        \
    do {                                                                                       \
        pp_gomp_level *lv_ = pp_gomp_ws_open(kind);                                            \
        if (!lv_) {                                                                            \
            real_call;                                                                         \
            break;                                                                             \
        }                                                                                      \
        pp_task_handle waits_;                                                                 \
        pp_callsite *b_ = pp_gomp_ws_wait_begin(lv_, &waits_);                                 \
        real_call;                                                                             \
        pp_gomp_ws_wait_end(lv_, b_, waits_);                                                  \
    } while (0)

#define PP_GOMP_WS_END_NOWAIT(kind, real_call)                                                 \
    do {                                                                                       \
        pp_gomp_level *lv_ = pp_gomp_ws_open(kind);                                            \
        if (lv_)                                                                               \
            pp_gomp_ws_nowait(lv_);                                                            \
        real_call;                                                                             \
    } while (0)

/* The lock routines' regions, defined at start (pp_gomp_lock.c). */
void pp_gomp_lock_define_regions(void);

/* The dependences of a task just created, or of a taskwait depend, from
 * GOMP_task's depend array (pp_gomp_depend.c). */
void pp_gomp_depend(pp_task_handle task, void **depend);
void pp_gomp_taskwait_depend_items(void **depend);

/* A worker's last team, closed when the team ended (pp_gomp_thread.c). */
void pp_gomp_close_last_team(pp_gomp_thread *t, uint64_t now);
/* End hook: every worker's last team closed at its team's end. */
void pp_gomp_close_ended_teams(void);
/* The end's hook that records what threads still hold (pp_gomp_words),
 * and what it needs at start (pp_gomp_thread.c). */
void pp_gomp_held_at_end(void);
void pp_gomp_thread_start(void);

#endif
