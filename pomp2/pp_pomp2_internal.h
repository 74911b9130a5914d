/* Declarations shared by the adapter's own files (not part of any API). */
#ifndef PP_POMP2_INTERNAL_H
#define PP_POMP2_INTERNAL_H

#include <opari2/pomp2_lib.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/pp_profile.h"

/* The threadprivate fork context (defined in pp_pomp2_entry.c). */
extern __thread int64_t pomp_tpd;

/* Store the current task into the caller's pomp2_old_task (NULL allowed:
 * hand-written calls may pass none), which the matching *_end / *_exit /
 * join hands back. */
static inline void pp_pomp2_store_current_task(POMP2_Task_handle *old_task)
{
    if (old_task)
        *old_task = (POMP2_Task_handle)pp_profile_task_current();
}

/* Begin a task scheduling point (barrier, implicit barrier, taskwait, task
 * creation): remember the current task, then enter region. */
static inline void pp_pomp2_scheduling_point_begin(POMP2_Task_handle *old_task,
                                                   pp_region_id region)
{
    pp_profile_scheduling_enter(region, (pp_task_handle *)old_task);
}

/* pompprof's merged calls for adjacent task events (pp_pomp2_task.c); the
 * wrapper's prelude declares them in the code it instruments. */
void POMP2_Task_create_next(POMP2_Region_handle *ended, POMP2_Task_handle resumed,
                            POMP2_Region_handle *created, POMP2_Task_handle *new_task,
                            const char ctc_string[]);
void POMP2_Task_create_end_wait(POMP2_Region_handle *ended, POMP2_Task_handle resumed,
                                POMP2_Region_handle *wait, const char ctc_string[]);

/* The engine key of a parameter name of len bytes, from a per-thread cache
 * (pp_pomp2_param.c); PP_PARAM_INVALID when out of memory. */
pp_param_key pp_pomp2_param_key(const char *name, size_t len);

/* Define the omp_*_lock wrapper regions (pp_pomp2_lock.c); called once from
 * the adapter's initialization. */
void pp_pomp2_lock_define_regions(void);

/* The lock calls wrapped as regions: PP_LOCK_INIT_LOCK ... (one per row of
 * pp_pomp2_lock_table.h), then PP_LOCK_N. */
enum {
#define PP_POMP2_LOCK_CALL(name, NAME, Name, lock_type) PP_LOCK_##NAME,
#define PP_POMP2_LOCK_TEST(name, NAME, Name, lock_type) PP_LOCK_##NAME,
#define PP_POMP2_LOCK_HINT(name, NAME, Name, lock_type, plain, PLAIN) PP_LOCK_##NAME,
#include "pomp2/pp_pomp2_lock_table.h"
#undef PP_POMP2_LOCK_CALL
#undef PP_POMP2_LOCK_TEST
#undef PP_POMP2_LOCK_HINT
    PP_LOCK_N
};

/* The wrapper region of lock call `which` (valid once the adapter is
 * initialized), so both language bindings share the same regions. */
pp_region_id pp_pomp2_lock_region_id(int which);

/* What a lock call does to its lock, for the trace: set_lock and
 * set_nest_lock acquire it when they return, unset_lock and unset_nest_lock
 * release it when they are called, the test calls acquire it when they
 * return nonzero (a constant for each call: the branches fold away). */
static inline int pp_pomp2_lock_releases(int which)
{
    return which == PP_LOCK_UNSET_LOCK || which == PP_LOCK_UNSET_NEST_LOCK;
}
static inline int pp_pomp2_lock_acquires(int which)
{
    return which == PP_LOCK_SET_LOCK || which == PP_LOCK_SET_NEST_LOCK;
}
static inline int pp_pomp2_lock_tests(int which)
{
    return which == PP_LOCK_TEST_LOCK || which == PP_LOCK_TEST_NEST_LOCK;
}

/* Measure one lock call on lock as its wrapper region (C and Fortran lock
 * entry points alike); got: after the call, whether a test call got the
 * lock.  The region ids exist once the adapter is initialized. */
#define PP_POMP2_LOCK_WRAP(which, lock, call, got)                                        \
    do {                                                                                  \
        pp_pomp2_ensure_init();                                                           \
        pp_region_id pp_r_ = pp_pomp2_lock_region_id(which);                              \
        if (pp_pomp2_lock_releases(which))                                                \
            pp_profile_enter_release(pp_r_, (lock));                                      \
        else                                                                              \
            pp_profile_enter(pp_r_);                                                      \
        call;                                                                             \
        if (pp_pomp2_lock_acquires(which) || (pp_pomp2_lock_tests(which) && (got)))       \
            pp_profile_exit_acquire(pp_r_, (lock));                                       \
        else                                                                              \
            pp_profile_exit(pp_r_);                                                       \
    } while (0)

#endif
