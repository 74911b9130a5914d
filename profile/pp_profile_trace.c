/* The trace beside the profile (POMPPROF_TRACE=1, doc/trace.md): where it
 * goes, and what it is told at the end.  The events themselves reach trace/
 * from the event path through each location's trace buffer. */
#include "profile/pp_profile_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pp_config.h"
#include "lib/pp_counters.h"
#include "lib/pp_message.h"
#include "lib/pp_timer.h"
#include "profile/pp_profile_output.h"
#include "profile/pp_profile_runfacts.h"

void pp_profile_trace_start(uint64_t now)
{
    const pp_config *cfg = pp_config_get();
    if (!cfg->trace)
        return;
    /* the profile's own directory (the same rules, decided now: raw trace
     * files are written while the program runs) */
    char dir[PATH_MAX], file[PATH_MAX], err[PATH_MAX + 64];
    if (pp_profile_output_target(cfg->output, pp_profile_g.program, dir, sizeof dir, file,
                                 sizeof file, err, sizeof err) != 0) {
        pp_message_warn("trace: %s; no trace is written (the profile is not affected)", err);
        return;
    }
    pp_trace_start(dir, cfg->trace_buffer, now);
}

#define PP_TRACE_FACTS_MAX 256

typedef struct pp_trace_facts {
    char *keys[PP_TRACE_FACTS_MAX], *values[PP_TRACE_FACTS_MAX];
    uint32_t n;
} pp_trace_facts;

static int pp_profile_trace_fact(void *user, const char *key, const char *value)
{
    pp_trace_facts *f = user;
    if (f->n == PP_TRACE_FACTS_MAX)
        return 0;
    f->keys[f->n] = strdup(key);
    f->values[f->n] = strdup(value);
    if (f->keys[f->n] && f->values[f->n])
        f->n++;
    else
        free(f->keys[f->n]), free(f->values[f->n]);
    return 0;
}

void pp_profile_trace_finish(uint64_t now)
{
    if (!pp_trace_active())
        return;
    uint32_t n = pp_profile_region_count();
    pp_trace_region *regions = calloc(n ? n : 1, sizeof *regions);
    const char *metrics[PP_COUNTERS_MAX];
    pp_trace_defs defs = {
        .regions = regions,
        .n_regions = regions ? n : 0,
        .metrics = metrics,
        .n_metrics = pp_profile_g.n_ctr,
        .program = pp_profile_g.program,
        .t_end = now,
        .ticks_per_second = pp_timer_ticks_per_second(),
        .wall_t0 = pp_profile_g.wall_init,
    };
    pp_trace_facts *facts = calloc(1, sizeof *facts);
    if (facts) {
        pp_profile_trace_fact(facts, "command_line", pp_profile_g.command_line ? pp_profile_g.command_line : "");
        pp_profile_trace_fact(facts, "date", pp_profile_g.date);
        pp_profile_runfacts_each(pp_profile_trace_fact, facts);
        defs.fact_keys = (const char *const *)facts->keys;
        defs.fact_values = (const char *const *)facts->values;
        defs.n_facts = facts->n;
    }
    for (uint32_t i = 0; i < pp_profile_g.n_ctr && i < PP_COUNTERS_MAX; i++)
        metrics[i] = pp_counters_name((int)i);
    for (uint32_t i = 0; regions && i < n; i++) {
        const pp_region_rec *r = pp_profile_region_get(i);
        regions[i] = (pp_trace_region){r->name,        r->file,       r->paradigm, r->role,
                                       r->description, r->begin_line, r->end_line};
    }
    /* without the memory for the region list the raw files are removed
     * and no archive is written */
    pp_trace_finish(regions ? &defs : NULL);
    free(regions);
    for (uint32_t i = 0; facts && i < facts->n; i++)
        free(facts->keys[i]), free(facts->values[i]);
    free(facts);
}
