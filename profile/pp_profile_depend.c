/* The dependences of tasks (pp_profile_depend.h): one trace record per list
 * item, and their count per call path as the extra metric "dependences".
 *
 * Like a parameter call, these read no clock: the records take the time of
 * the thread's last event (the task creation they follow), so the cost is a
 * few stores per item on the creating thread. */
#include "profile/pp_profile_depend.h"

#include "profile/pp_profile_internal.h"

/* The metric's index, defined on the first dependence (a profile without
 * any shows no such metric); -1 before. */
static int pp_depend_metric = -1;

static int pp_depend_metric_index(void)
{
    int m = __atomic_load_n(&pp_depend_metric, __ATOMIC_ACQUIRE);
    /* a test's reset forgets the definitions: define it again then */
    if (PP_LIKELY(m >= 0 && (uint32_t)m < pp_profile_extra_count()))
        return m;
    m = pp_profile_extra_define(
        "dependences", "Dependences", "#",
        "Dependences (list items of depend clauses) of the tasks created at this call path, or "
        "of the taskwait depend constructs entered there");
    __atomic_store_n(&pp_depend_metric, m, __ATOMIC_RELEASE);
    return m;
}

/* Inside an event: the records and the count on loc. */
static void pp_depend_record(pp_location *loc, unsigned kind, pp_task_handle task,
                             const pp_depend *items, uint32_t n)
{
    if (n == 0 || items == NULL)
        return;
    if (PP_UNLIKELY(loc->trace != NULL))
        for (uint32_t i = 0; i < n; i++) {
            uint32_t k = items[i].kind;
            if (k < PP_DEPEND_IN || k > PP_DEPEND_UNKNOWN)
                k = PP_DEPEND_UNKNOWN;
            pp_trace_put3(loc->trace, loc->last, kind, task, items[i].addr,
                          pp_trace_depend_word(items[i].size, k));
        }
    int m = pp_depend_metric_index();
    if (m >= 0)
        pp_profile_extra_add_loc(loc, m, n);
}

void pp_profile_task_depend(pp_task_handle task, const pp_depend *items, uint32_t n)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_depend_record(loc, PP_TRACE_DEPEND, task, items, n);
    pp_profile_event_end();
}

void pp_profile_taskwait_depend(const pp_depend *items, uint32_t n)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_depend_record(loc, PP_TRACE_TASKWAIT_DEPEND, loc->current->handle, items, n);
    pp_profile_event_end();
}

_Static_assert(PP_DEPEND_UNKNOWN == PP_DEPEND_UNKNOWN_KIND, "the trace's unknown kind");
