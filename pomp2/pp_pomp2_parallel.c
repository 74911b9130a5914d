/* POMP2 parallel regions and barriers.
 *
 * Order of events for one parallel construct:
 *   fork (encountering thread) -> begin (each team thread) -> ... ->
 *   implicit barrier enter/exit -> end (each team thread) -> join (encountering).
 * Barriers are task scheduling points: enter stores the current task into
 * the caller's pomp2_old_task, exit hands it back so the engine can tell
 * whether other tasks ran in between. */
#include <opari2/pomp2_lib.h>

#include "pomp2/pp_pomp2_internal.h"
#include "pomp2/pp_pomp2_region.h"

void POMP2_Parallel_fork(POMP2_Region_handle *pomp2_handle, int if_clause, int num_threads,
                         POMP2_Task_handle *pomp2_old_task, const char ctc_string[])
{
    pp_pomp2_region *r = pp_pomp2_region_of(pomp2_handle, ctc_string);
    pp_pomp2_store_current_task(pomp2_old_task);
    /* copyin(pomp_tpd) hands this to every thread of the new team */
    pomp_tpd = pp_profile_fork(r->main, if_clause ? num_threads : 1);
}

void POMP2_Parallel_begin(POMP2_Region_handle *pomp2_handle)
{
    pp_pomp2_region *r = pp_pomp2_region_of(pomp2_handle, NULL);
    pp_profile_parallel_begin(r->main, pomp_tpd);
}

void POMP2_Parallel_end(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_parallel_end(pp_pomp2_region_of(pomp2_handle, NULL)->main);
}

void POMP2_Parallel_join(POMP2_Region_handle *pomp2_handle, POMP2_Task_handle pomp2_old_task)
{
    pp_profile_join(pp_pomp2_region_of(pomp2_handle, NULL)->main,
                    (pp_task_handle)pomp2_old_task);
}

void POMP2_Barrier_enter(POMP2_Region_handle *pomp2_handle, POMP2_Task_handle *pomp2_old_task,
                         const char ctc_string[])
{
    pp_pomp2_scheduling_point_begin(pomp2_old_task,
                                    pp_pomp2_region_of(pomp2_handle, ctc_string)->main);
}

void POMP2_Barrier_exit(POMP2_Region_handle *pomp2_handle, POMP2_Task_handle pomp2_old_task)
{
    pp_pomp2_region *r = pp_pomp2_region_of(pomp2_handle, NULL);
    pp_profile_switch_exit((pp_task_handle)pomp2_old_task, r->main);
}

void POMP2_Implicit_barrier_enter(POMP2_Region_handle *pomp2_handle,
                                  POMP2_Task_handle *pomp2_old_task)
{
    pp_pomp2_scheduling_point_begin(pomp2_old_task,
                                    pp_pomp2_region_of(pomp2_handle, NULL)->barrier);
}

void POMP2_Implicit_barrier_exit(POMP2_Region_handle *pomp2_handle,
                                 POMP2_Task_handle pomp2_old_task)
{
    pp_pomp2_region *r = pp_pomp2_region_of(pomp2_handle, NULL);
    pp_profile_switch_exit((pp_task_handle)pomp2_old_task, r->barrier);
}
