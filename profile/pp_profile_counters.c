/* Hardware counters on the event path (only when POMPPROF_METRICS named
 * countable events: the no-counter path never gets here).  Counter values
 * follow the time rules: inclusive per node, and an explicit task's counts
 * while it is suspended are skipped with the same "virtual clock" offset
 * (t->csusp) as its time. */
#include "profile/pp_profile_internal.h"

#include "lib/pp_counters.h"

static void pp_profile_counters_read(pp_location *loc, uint64_t *vals)
{
    pp_counters_read(loc->counter_set, vals);
    /* the trace gets the values with the event they were read for */
    if (loc->trace)
        pp_trace_metrics(loc->trace, loc->n_ctr, vals);
}

void pp_profile_counters_enter(pp_location *loc, pp_task *t, pp_node *n)
{
    uint64_t v[PP_COUNTERS_MAX];
    uint32_t k = loc->n_ctr;
    pp_profile_counters_read(loc, v);
    for (uint32_t i = 0; i < k; i++)
        n->ctr[i] = v[i] - (t->csusp ? t->csusp[i] : 0);
}

void pp_profile_counters_exit(pp_location *loc, pp_task *t, pp_node *n)
{
    uint64_t v[PP_COUNTERS_MAX];
    uint32_t k = loc->n_ctr;
    pp_profile_counters_read(loc, v);
    for (uint32_t i = 0; i < k; i++)
        n->ctr[k + i] += v[i] - (t->csusp ? t->csusp[i] : 0) - n->ctr[i];
}

void pp_profile_counters_suspend(pp_location *loc, pp_task *t)
{
    uint32_t k = loc->n_ctr;
    if (t->csusp)
        pp_profile_counters_read(loc, t->csusp + k);
}

void pp_profile_counters_resume(pp_location *loc, pp_task *t)
{
    uint64_t v[PP_COUNTERS_MAX];
    uint32_t k = loc->n_ctr;
    if (!t->csusp)
        return;
    pp_profile_counters_read(loc, v);
    for (uint32_t i = 0; i < k; i++)
        t->csusp[i] += v[i] - t->csusp[k + i];
}
