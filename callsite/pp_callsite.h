/* pp_callsite: OpenMP constructs known by the code address of a call into
 * the runtime, for the event sources that see no source position on the
 * event path (ompt/: OMPT's codeptr_ra; gomp/: the return address of an
 * interposed GOMP_* call).
 *
 * A call site of one kind is one construct: the registry defines its engine
 * regions the first time any thread meets it, under provisional names (the
 * address), and each thread interns the call sites it meets in a table of
 * its own, so the event path takes no lock and allocates nothing once a
 * thread knows a construct.  At the end (pp_callsite_names_finalize, an end
 * hook of the engine) every call site is resolved once to a source position
 * and its regions are renamed as OPARI2 names them ("!$omp task @fib.c:9");
 * call sites that turn out to be one construct become one region. */
#ifndef PP_CALLSITE_H
#define PP_CALLSITE_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/pp_profile.h"

/* What the call site starts, waits for or ends.  A kind is the construct the
 * region is named after: its words in the name ("single", "implicit
 * barrier") and its directive in the source (the line the name takes). */
typedef enum pp_callsite_kind {
    PP_CALLSITE_PARALLEL,
    PP_CALLSITE_LOOP,
    PP_CALLSITE_SECTIONS,
    PP_CALLSITE_SINGLE,
    PP_CALLSITE_WORKSHARE,
    PP_CALLSITE_TASKLOOP,
    PP_CALLSITE_MASKED,
    PP_CALLSITE_BARRIER,
    PP_CALLSITE_IMPLICIT_BARRIER,
    /* a barrier call whose construct only the source tells: an explicit
     * barrier where a barrier directive is written, else the implicit
     * barrier of the construct above it (a statically scheduled loop, of
     * which a libgomp program calls nothing else) */
    PP_CALLSITE_ANY_BARRIER,
    PP_CALLSITE_TASKWAIT,
    PP_CALLSITE_TASKWAIT_DEPEND, /* a taskwait with depend clauses */
    PP_CALLSITE_TASKGROUP,
    PP_CALLSITE_REDUCTION,
    PP_CALLSITE_CRITICAL,
    PP_CALLSITE_ORDERED,
    PP_CALLSITE_TASK,
    PP_CALLSITE_UNTIED_TASK,
    PP_CALLSITE_TASKYIELD,
    PP_CALLSITE_FLUSH,
    PP_CALLSITE_ATOMIC,
    PP_CALLSITE_TASKLOOP_TASK,      /* a task a taskloop made for a chunk of its loop */
    PP_CALLSITE_TASKLOOP_GENERATOR, /* a task libomp made to create some of them */
    PP_CALLSITE_KINDS
} pp_callsite_kind;

/* One construct: a code address of one kind, with the engine regions it
 * needs (main: the construct; inner: "single sblock", "critical sblock",
 * "create task"...; else main).  Immutable once published; never freed. */
typedef struct pp_callsite {
    const void *codeptr;
    pp_callsite_kind kind;
    uint32_t index; /* in the global table (pp_callsite_at) */
    pp_region_id main, inner;
    /* PP_CALLSITE_TASKWAIT_DEPEND only: the wait was an if(0) task's (its
     * name takes the task's line); the one field written after publication
     * (a relaxed store on the event path, read when names are made) */
    bool if0_task;
    /* Where the construct stands in the implicit task that met it, as an
     * event source reports it (pp_callsite_place): the parallel construct of
     * that task (its index + 1) in the high half, the construct's ordinal
     * among those of its kind the task met in the low half; 0 until
     * reported, PP_CALLSITE_PLACES when it differed between reports.  Names
     * use it where the line table cannot tell consecutive constructs apart
     * (pp_callsite_names.c). */
    uint64_t place;
    /* The construct's outlined body (a parallel region's or a task's
     * function), when the event source knows it: its first instruction has
     * the directive's line, which names the construct better than the call
     * (gcc -O2 gives a call the line of the code before it).  Set once. */
    const void *body;
    /* codeptr is the entry of a function whose tail call into the runtime
     * made the construct (its return address was the event source's own
     * code, which called the function); set once, when made. */
    bool tail_body;
    /* PP_CALLSITE_TASKLOOP_GENERATOR only: the taskloop task construct its
     * tasks were created as, whose creation region they are in (set when a
     * generator is first seen, always to the same value) */
    struct pp_callsite *created_as;
} pp_callsite;

#define PP_CALLSITE_PLACES UINT64_MAX

/* Report c's outlined body (the first report stays). */
static inline void pp_callsite_body(pp_callsite *c, const void *body)
{
    if (__builtin_expect(__atomic_load_n(&c->body, __ATOMIC_RELAXED) == NULL, 0))
        __atomic_store_n(&c->body, body, __ATOMIC_RELAXED);
}

/* Report c met as the ordinal-th construct of its kind of an implicit task
 * of the parallel construct scope (NULL: outside any).  One load and compare
 * when nothing changes. */
void pp_callsite_place_slow(pp_callsite *c, uint64_t place);
static inline void pp_callsite_place(pp_callsite *c, const pp_callsite *scope, uint32_t ordinal)
{
    uint64_t place = (uint64_t)(scope ? scope->index + 1 : 0) << 32 | ordinal;
    if (__builtin_expect(__atomic_load_n(&c->place, __ATOMIC_RELAXED) != place, 0))
        pp_callsite_place_slow(c, place);
}

/* The constructs a thread met: open addressing, (codeptr, kind) ->
 * construct, grown at a miss, kept until the end (pp_callsite_registry.c). */
typedef struct pp_callsite_slot {
    const void *codeptr;
    uintptr_t kind1; /* kind + 1; 0: empty slot */
    pp_callsite *c;
} pp_callsite_slot;
typedef struct pp_callsite_table {
    pp_callsite_slot *slots;
    uint32_t shift; /* 64 - log2(n_slots): a home slot is the hash's top bits */
    uint32_t n_slots, n_used;
} pp_callsite_table;
extern __thread pp_callsite_table pp_callsite_mine __attribute__((tls_model("initial-exec")));

/* Fibonacci hashing: the product's top bits are the best mixed (call sites
 * of one function differ in their low bits only). */
static inline uint64_t pp_callsite_hash(const void *codeptr, pp_callsite_kind kind)
{
    return ((uint64_t)(uintptr_t)codeptr ^ ((uint64_t)kind << 56)) * 0x9E3779B97F4A7C15ull;
}

/* The construct of (codeptr, kind), made on first use: the thread's own
 * table (its home slot inline, a probe further or the global registry under
 * a lock, once per thread and construct, in pp_callsite_get_slow).  NULL
 * only when out of memory. */
pp_callsite *pp_callsite_get_slow(const void *codeptr, pp_callsite_kind kind);
static inline pp_callsite *pp_callsite_get(const void *codeptr, pp_callsite_kind kind)
{
    pp_callsite_table *t = &pp_callsite_mine;
    if (__builtin_expect(t->slots != NULL, 1)) {
        const pp_callsite_slot *s = &t->slots[pp_callsite_hash(codeptr, kind) >> t->shift];
        if (__builtin_expect(s->codeptr == codeptr && s->kind1 == (uintptr_t)kind + 1, 1))
            return s->c;
    }
    return pp_callsite_get_slow(codeptr, kind);
}
/* By index (lock-free), NULL for an unknown index. */
pp_callsite *pp_callsite_at(uint32_t index);
/* By an index an event source kept (lock-free, unchecked: only an index
 * the registry handed out, which reached the reading thread through the
 * runtime's own synchronization).  At most PP_CALLSITE_MAX constructs. */
#define PP_CALLSITE_CHUNK_BITS 10
#define PP_CALLSITE_CHUNK (1u << PP_CALLSITE_CHUNK_BITS)
#define PP_CALLSITE_INDEX_BITS 20
#define PP_CALLSITE_MAX (1u << PP_CALLSITE_INDEX_BITS)
extern pp_callsite *pp_callsite_chunks_[] __attribute__((visibility("hidden")));
static inline pp_callsite *pp_callsite_of(uint32_t index)
{
    return &pp_callsite_chunks_[index >> PP_CALLSITE_CHUNK_BITS]
                               [index & (PP_CALLSITE_CHUNK - 1)];
}
/* How many constructs exist. */
uint32_t pp_callsite_count(void);

/* Names at the end: every construct's regions renamed after its source
 * position (register it with pp_profile_at_end). */
void pp_callsite_names_finalize(void);

/* At the end of a run, before the engine writes the profile: when no
 * construct was met and the event source measured nothing else
 * (other_events false), say so in one line, with the target and teams
 * regions that ran unmeasured, and discard the profile.  True when so. */
bool pp_callsite_unmeasured_run(bool other_events, unsigned unmeasured);

/* Whether OPARI2 measures this program: libpompprof's POMP2 layer is in the
 * process (linked, or opened with a plugin built with the wrapper), and the
 * event source (`source`: "the OMPT tool") stays off; said in one line when
 * say. */
bool pp_callsite_opari2_measures(const char *source, bool say);

#endif
