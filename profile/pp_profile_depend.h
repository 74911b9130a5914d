/* pp_profile_depend: the dependences of tasks (depend clauses), as an event
 * source hands them to the engine (doc/trace.md, "Dependences").
 *
 * The wrapper's inserted code (and the OMPT event source) calls these right
 * after the event they belong to; they read no clock: a record takes the
 * time of the thread's last event.  Each list item goes into the trace as it
 * was given (POMPPROF_TRACE=1), and the profile counts the items per call
 * path (the metric "dependences", at the task construct's creation region).
 * Without a profile running they do nothing. */
#ifndef PP_PROFILE_DEPEND_H
#define PP_PROFILE_DEPEND_H

#include <stdint.h>

#include "profile/pp_profile.h"

/* The dependence types of OpenMP 5.x; UNKNOWN: the list item's storage was
 * not recorded (the wrapper could not evaluate it without evaluating an
 * expression twice): the replay then cannot know what the task waits for. */
typedef enum pp_depend_kind {
    PP_DEPEND_IN = 1,
    PP_DEPEND_OUT,
    PP_DEPEND_INOUT,
    PP_DEPEND_MUTEXINOUTSET,
    PP_DEPEND_INOUTSET,
    PP_DEPEND_UNKNOWN
} pp_depend_kind;

/* One list item: the storage it designates (address, size in bytes) and its
 * type (a pp_depend_kind).  A depobj's item is the one it was initialised
 * or updated with. */
typedef struct pp_depend {
    uint64_t addr;
    uint64_t size;
    uint32_t kind;
} pp_depend;

/* the dependences of the task this thread just created, in clause order;
 * depobj already resolved; no clock read (the record takes the thread's
 * last event's time) */
void pp_profile_task_depend(pp_task_handle task, const pp_depend *items, uint32_t n);
/* the taskwait depend this thread is entering (called before the
 * taskwait's own begin event, if it has one) */
void pp_profile_taskwait_depend(const pp_depend *items, uint32_t n);

#endif
