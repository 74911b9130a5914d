/* POMP2 tasks: creation, execution, taskwait.
 *
 * Task handles come from the engine (unique per thread without a global
 * lock).  Creation and taskwait are scheduling points: *_begin stores the
 * creating task into the caller's pomp2_old_task, *_end hands it back and the
 * engine switches back to it if other tasks ran meanwhile.  Untied tasks are
 * measured like tied ones (the engine warns once). */
#include <opari2/pomp2_lib.h>

#include "pomp2/pp_pomp2_region.h"

POMP2_Task_handle POMP2_Get_new_task_handle(void)
{
    pp_pomp2_ensure_init();
    return (POMP2_Task_handle)pp_profile_task_new_handle();
}

static inline void pp_pomp2_task_create_begin(void **slot, POMP2_Task_handle *new_task,
                                              POMP2_Task_handle *old_task, const char *ctc)
{
    pp_pomp2_region *r = pp_pomp2_region_of(slot, ctc);
    if (__builtin_expect(old_task && new_task, 1)) {
        *old_task = (POMP2_Task_handle)pp_profile_task_current();
        *new_task = (POMP2_Task_handle)pp_profile_task_new_handle();
    } else if (new_task) { /* hand-written calls may pass NULL */
        *new_task = (POMP2_Task_handle)pp_profile_task_new_handle();
    }
    pp_profile_enter(r->inner);
}

static inline void pp_pomp2_task_create_end(void **slot, POMP2_Task_handle old_task)
{
    pp_pomp2_region *r = pp_pomp2_region_of(slot, NULL);
    pp_profile_switch_exit((pp_task_handle)old_task, r->inner);
}

void POMP2_Task_create_begin(POMP2_Region_handle *pomp2_handle,
                             POMP2_Task_handle *pomp2_new_task,
                             POMP2_Task_handle *pomp2_old_task, int pomp2_if,
                             const char ctc_string[])
{
    (void)pomp2_if; /* OPARI2 skips all task calls when the if clause is false */
    pp_pomp2_task_create_begin(pomp2_handle, pomp2_new_task, pomp2_old_task, ctc_string);
}

void POMP2_Task_create_end(POMP2_Region_handle *pomp2_handle, POMP2_Task_handle pomp2_old_task)
{
    pp_pomp2_task_create_end(pomp2_handle, pomp2_old_task);
}

void POMP2_Task_begin(POMP2_Region_handle *pomp2_handle, POMP2_Task_handle pomp2_task)
{
    pp_profile_task_begin(pp_pomp2_region_of(pomp2_handle, NULL)->main,
                          (pp_task_handle)pomp2_task, false);
}

void POMP2_Task_end(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_task_end(pp_pomp2_region_of(pomp2_handle, NULL)->main);
}

void POMP2_Untied_task_create_begin(POMP2_Region_handle *pomp2_handle,
                                    POMP2_Task_handle *pomp2_new_task,
                                    POMP2_Task_handle *pomp2_old_task, int pomp2_if,
                                    const char ctc_string[])
{
    (void)pomp2_if;
    pp_pomp2_task_create_begin(pomp2_handle, pomp2_new_task, pomp2_old_task, ctc_string);
}

void POMP2_Untied_task_create_end(POMP2_Region_handle *pomp2_handle,
                                  POMP2_Task_handle pomp2_old_task)
{
    pp_pomp2_task_create_end(pomp2_handle, pomp2_old_task);
}

void POMP2_Untied_task_begin(POMP2_Region_handle *pomp2_handle, POMP2_Task_handle pomp2_task)
{
    pp_profile_task_begin(pp_pomp2_region_of(pomp2_handle, NULL)->main,
                          (pp_task_handle)pomp2_task, true);
}

void POMP2_Untied_task_end(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_task_end(pp_pomp2_region_of(pomp2_handle, NULL)->main);
}

void POMP2_Taskwait_begin(POMP2_Region_handle *pomp2_handle, POMP2_Task_handle *pomp2_old_task,
                          const char ctc_string[])
{
    pp_pomp2_region *r = pp_pomp2_region_of(pomp2_handle, ctc_string);
    if (pomp2_old_task) /* hand-written calls may pass NULL */
        *pomp2_old_task = (POMP2_Task_handle)pp_profile_task_current();
    pp_profile_enter(r->main);
}

void POMP2_Taskwait_end(POMP2_Region_handle *pomp2_handle, POMP2_Task_handle pomp2_old_task)
{
    pp_pomp2_region *r = pp_pomp2_region_of(pomp2_handle, NULL);
    pp_profile_switch_exit((pp_task_handle)pomp2_old_task, r->main);
}
