/* POMP2 tasks: creation, execution, taskwait.
 *
 * Task handles come from the engine (unique per thread without a global
 * lock).  Creation and taskwait are scheduling points: *_begin stores the
 * creating task into the caller's pomp2_old_task, *_end hands it back and the
 * engine switches back to it if other tasks ran meanwhile.  Untied tasks are
 * measured like tied ones (the engine warns once).
 *
 * Undeferred tasks (a false if clause, tasks inside a final task) arrive
 * like all others: OPARI2 guards every task call with "if (pomp2_if)", and
 * the pompprof wrapper removes that guard, so such an instance begins and
 * ends on the creating thread between Task_create_begin and _end, with its
 * stub below the creation, as a task run at a taskwait has its stub there. */
#include <opari2/pomp2_lib.h>

#include "pomp2/pp_pomp2_internal.h"
#include "pomp2/pp_pomp2_region.h"

POMP2_Task_handle POMP2_Get_new_task_handle(void)
{
    pp_pomp2_ensure_init();
    return (POMP2_Task_handle)pp_profile_task_new_handle();
}

/* Each hot entry point below comes in three functions, which
 * PP_POMP2_HOT_ENTRY(name, params, args, ctc, event) makes from one line of
 * what it does (event, an engine call that reads the handle's entry r):
 * - POMP2_<name>: OPARI2's form.  A handle not assigned yet (or a NULL
 *   address, which hand-written calls may pass: pp_pomp2_region_known) goes
 *   to the cold twin; else event runs, a tail call into the engine that
 *   needs no stack frame;
 * - POMP2_<name>_wrapped: the form the wrapper's code calls instead
 *   (doc/wrapper.md): its handle address is never NULL (a handle the
 *   wrapper defines), so it tests only the handle;
 * - pp_pomp2_<name>_cold: out of line, assigns the handle (from ctc, the
 *   construct's string where the entry point has one, else NULL) and does
 *   the same. */
#define PP_POMP2_COLD static __attribute__((noinline, cold))
#define PP_POMP2_HOT_FORM(fn, entry, name, params, args, event)                                    \
    void fn params                                                                                 \
    {                                                                                              \
        pp_pomp2_region *r = entry(pomp2_handle);                                                  \
        if (__builtin_expect(r == NULL, 0))                                                        \
            pp_pomp2_##name##_cold args;                                                           \
        else                                                                                       \
            event;                                                                                 \
    }
#define PP_POMP2_HOT_ENTRY(name, params, args, ctc, event)                                         \
    PP_POMP2_COLD void pp_pomp2_##name##_cold params                                               \
    {                                                                                              \
        pp_pomp2_region *r = pp_pomp2_region_of(pomp2_handle, ctc);                                \
        event;                                                                                     \
    }                                                                                              \
    PP_POMP2_HOT_FORM(POMP2_##name, pp_pomp2_region_known, name, params, args, event)              \
    PP_POMP2_HOT_FORM(POMP2_##name##_wrapped, pp_pomp2_region_assigned, name, params, args, event)

/* A creation is a scheduling point (pp_pomp2_scheduling_point_begin) whose
 * enter also tells a trace which task is created; hand-written calls may
 * pass NULL for either task handle.  An undeferred task is measured like
 * the others (above): pomp2_if is not needed. */
PP_POMP2_HOT_ENTRY(Task_create_begin,
                   (POMP2_Region_handle *pomp2_handle, POMP2_Task_handle *pomp2_new_task,
                    POMP2_Task_handle *pomp2_old_task, int pomp2_if, const char ctc_string[]),
                   (pomp2_handle, pomp2_new_task, pomp2_old_task, pomp2_if, ctc_string),
                   ctc_string,
                   ((void)pomp2_if,
                    pp_profile_task_create_begin(r->inner, (pp_task_handle *)pomp2_new_task,
                                                 (pp_task_handle *)pomp2_old_task)))

PP_POMP2_HOT_ENTRY(Task_create_end,
                   (POMP2_Region_handle *pomp2_handle, POMP2_Task_handle pomp2_old_task),
                   (pomp2_handle, pomp2_old_task), NULL,
                   pp_profile_exit_resume(r->inner, (pp_task_handle)pomp2_old_task))

PP_POMP2_HOT_ENTRY(Task_begin,
                   (POMP2_Region_handle *pomp2_handle, POMP2_Task_handle pomp2_task),
                   (pomp2_handle, pomp2_task), NULL,
                   pp_profile_task_begin_tied(r->main, (pp_task_handle)pomp2_task))

PP_POMP2_HOT_ENTRY(Task_end, (POMP2_Region_handle *pomp2_handle), (pomp2_handle), NULL,
                   pp_profile_task_end(r->main))

void POMP2_Untied_task_begin(POMP2_Region_handle *pomp2_handle, POMP2_Task_handle pomp2_task)
{
    pp_profile_task_begin(pp_pomp2_region_of(pomp2_handle, NULL)->main,
                          (pp_task_handle)pomp2_task, true);
}

/* Only the begin of an untied task differs (it tells the engine, which warns
 * once); the other untied entry points are the tied ones under a second name. */
#define PP_POMP2_SAME_AS(tied) __typeof__(tied) __attribute__((alias(#tied)))
PP_POMP2_SAME_AS(POMP2_Task_create_begin) POMP2_Untied_task_create_begin;
PP_POMP2_SAME_AS(POMP2_Task_create_end) POMP2_Untied_task_create_end;
PP_POMP2_SAME_AS(POMP2_Task_end) POMP2_Untied_task_end;

/* pompprof's merged calls (not OPARI2's): when OPARI2's output has a task
 * creation's end and the next creation's or taskwait's begin with nothing
 * but declarations between them, the wrapper calls one of these instead of
 * the two (doc/wrapper.md), the end's arguments first.  The creating task's
 * handle that the second begin would store is the one the caller passes as
 * resumed, and the caller keeps it, so these store none.  Only the
 * wrapper's code calls them, always with the addresses of its handles, so
 * unlike the POMP2 entry points they need no test for a NULL address. */
PP_POMP2_COLD void pp_pomp2_task_create_next_cold(POMP2_Region_handle *ended,
                                                  POMP2_Task_handle resumed,
                                                  POMP2_Region_handle *created,
                                                  POMP2_Task_handle *new_task,
                                                  const char ctc_string[])
{
    pp_profile_exit_resume_create(pp_pomp2_region_of(ended, NULL)->inner, (pp_task_handle)resumed,
                                  pp_pomp2_region_of(created, ctc_string)->inner,
                                  (pp_task_handle *)new_task);
}

void POMP2_Task_create_next(POMP2_Region_handle *ended, POMP2_Task_handle resumed,
                            POMP2_Region_handle *created, POMP2_Task_handle *new_task,
                            const char ctc_string[])
{
    pp_pomp2_region *e = pp_pomp2_region_assigned(ended), *c = pp_pomp2_region_assigned(created);
    if (__builtin_expect(e == NULL || c == NULL, 0))
        pp_pomp2_task_create_next_cold(ended, resumed, created, new_task, ctc_string);
    else
        pp_profile_exit_resume_create(e->inner, (pp_task_handle)resumed, c->inner,
                                      (pp_task_handle *)new_task);
}

PP_POMP2_COLD void pp_pomp2_task_create_end_wait_cold(POMP2_Region_handle *ended,
                                                      POMP2_Task_handle resumed,
                                                      POMP2_Region_handle *wait,
                                                      const char ctc_string[])
{
    pp_profile_exit_resume_enter(pp_pomp2_region_of(ended, NULL)->inner, (pp_task_handle)resumed,
                                 pp_pomp2_region_of(wait, ctc_string)->main);
}

void POMP2_Task_create_end_wait(POMP2_Region_handle *ended, POMP2_Task_handle resumed,
                                POMP2_Region_handle *wait, const char ctc_string[])
{
    pp_pomp2_region *e = pp_pomp2_region_assigned(ended), *w = pp_pomp2_region_assigned(wait);
    if (__builtin_expect(e == NULL || w == NULL, 0))
        pp_pomp2_task_create_end_wait_cold(ended, resumed, wait, ctc_string);
    else
        pp_profile_exit_resume_enter(e->inner, (pp_task_handle)resumed, w->main);
}

/* A taskwait is measured as a barrier is (pp_pomp2_parallel.c): a scheduling
 * point in the entry's main region. */
PP_POMP2_HOT_ENTRY(Taskwait_begin,
                   (POMP2_Region_handle *pomp2_handle, POMP2_Task_handle *pomp2_old_task,
                    const char ctc_string[]),
                   (pomp2_handle, pomp2_old_task, ctc_string), ctc_string,
                   pp_pomp2_scheduling_point_begin(pomp2_old_task, r->main))

PP_POMP2_HOT_ENTRY(Taskwait_end,
                   (POMP2_Region_handle *pomp2_handle, POMP2_Task_handle pomp2_old_task),
                   (pomp2_handle, pomp2_old_task), NULL,
                   pp_profile_exit_resume(r->main, (pp_task_handle)pomp2_old_task))
