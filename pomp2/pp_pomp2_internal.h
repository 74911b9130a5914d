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
    pp_pomp2_store_current_task(old_task);
    pp_profile_enter(region);
}

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
#include "pomp2/pp_pomp2_lock_table.h"
#undef PP_POMP2_LOCK_CALL
#undef PP_POMP2_LOCK_TEST
    PP_LOCK_N
};

/* The wrapper region of lock call `which` (valid once the adapter is
 * initialized), so both language bindings share the same regions. */
pp_region_id pp_pomp2_lock_region_id(int which);

/* Measure one lock call as its wrapper region (C and Fortran lock entry
 * points alike); the region ids exist once the adapter is initialized. */
#define PP_POMP2_LOCK_WRAP(which, call)                      \
    do {                                                     \
        pp_pomp2_ensure_init();                              \
        pp_profile_enter(pp_pomp2_lock_region_id(which));    \
        call;                                                \
        pp_profile_exit(pp_pomp2_lock_region_id(which));     \
    } while (0)

#endif
