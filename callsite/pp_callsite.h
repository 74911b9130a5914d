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
} pp_callsite;

/* The construct of (codeptr, kind), made on first use (the thread's own
 * table first, then the global registry under a lock once per thread and
 * construct).  NULL only when out of memory. */
pp_callsite *pp_callsite_get(const void *codeptr, pp_callsite_kind kind);
/* By index (lock-free), NULL for an unknown index. */
pp_callsite *pp_callsite_at(uint32_t index);
/* How many constructs exist. */
uint32_t pp_callsite_count(void);

/* Names at the end: every construct's regions renamed after its source
 * position (register it with pp_profile_at_end). */
void pp_callsite_names_finalize(void);

#endif
