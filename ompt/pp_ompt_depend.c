/* The dependences of a task as the engine's dependence interface wants them
 * (its header from the "Dependent tasks" work, included below when it
 * exists): kept in this one function, so the OMPT side is connected wherever
 * that interface exists and compiles to nothing where it does not yet.
 *
 * OMPT gives an address and a type per dependence, no size: size 0 is
 * passed.  A depobj arrives already resolved to its dependence (libomp
 * reports the dependence the object holds).  A taskwait with depend clauses
 * arrives as a pseudo task (ompt_task_taskwait) whose dependences are the
 * taskwait's (pp_ompt_task.c). */
#include "ompt/pp_ompt_internal.h"

#if __has_include("profile/pp_profile_depend.h")
#include "profile/pp_profile_depend.h"
#define PP_OMPT_HAVE_DEPEND 1
#endif

#if PP_OMPT_HAVE_DEPEND
static uint32_t pp_ompt_depend_kind(ompt_dependence_type_t type)
{
    switch (type) {
    case ompt_dependence_type_in: return PP_DEPEND_IN;
    case ompt_dependence_type_out: return PP_DEPEND_OUT;
    case ompt_dependence_type_inout: return PP_DEPEND_INOUT;
    case ompt_dependence_type_mutexinoutset: return PP_DEPEND_MUTEXINOUTSET;
    case ompt_dependence_type_inoutset: return PP_DEPEND_INOUTSET;
    default: return PP_DEPEND_UNKNOWN;
    }
}
#endif

void pp_ompt_depend(uint64_t task_value, const ompt_dependence_t *deps, int n)
{
#if PP_OMPT_HAVE_DEPEND
    pp_depend items[64];
    uint32_t m = n < 64 ? (uint32_t)n : 64; /* more than 64 on one task: the first 64 */
    for (uint32_t i = 0; i < m; i++)
        items[i] = (pp_depend){(uint64_t)(uintptr_t)deps[i].variable.ptr, 0,
                               pp_ompt_depend_kind(deps[i].dependence_type)};
    if (pp_ompt_is_taskwait_depend(task_value))
        pp_profile_taskwait_depend(items, m);
    else if (task_value & PP_OMPT_EXPLICIT)
        pp_profile_task_depend(pp_ompt_engine_handle(task_value), items, m);
#else
    (void)task_value, (void)deps, (void)n;
#endif
}
