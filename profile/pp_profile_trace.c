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

static int pp_profile_trace_save_fact(void *user, const char *key, const char *value)
{
    (void)user;
    pp_trace_save_fact(key, value);
    return 0;
}

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
    if (pp_trace_start(dir, cfg->trace_buffer, now) != 0)
        return;
    /* what converting the raw files needs, saved now, should the run never
     * reach pp_profile_trace_finish (regions defined later follow as they
     * are defined) */
    pp_trace_save_program(pp_profile_g.program);
    pp_trace_save_clock(now, pp_profile_g.wall_init, pp_timer_ticks_per_second());
    for (uint32_t i = 0; i < pp_profile_g.n_ctr && i < PP_COUNTERS_MAX; i++)
        pp_trace_save_metric(i, pp_counters_name((int)i));
    pp_trace_save_fact("command_line", pp_profile_g.command_line ? pp_profile_g.command_line : "");
    pp_trace_save_fact("date", pp_profile_g.date);
    pp_profile_runfacts_each(pp_profile_trace_save_fact, NULL);
    for (uint32_t i = 0, n = pp_profile_region_count(); i < n; i++)
        pp_profile_region_save(i);
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

/* The parameter sets for the trace's PARAMS records: names by key, the
 * values of every set (what pp_output_parameters writes into the profile). */
typedef struct pp_trace_params_out {
    const char **names;
    uint32_t n_names;
    uint32_t *first;
    pp_trace_param *values;
    uint32_t n_psets;
} pp_trace_params_out;

static int pp_profile_trace_params(pp_trace_params_out *o)
{
    uint32_t n_psets = pp_profile_pset_count(), total = 0, max_key = 0;
    for (uint32_t p = 0; p < n_psets; p++) {
        const pp_param_entry *e;
        uint32_t n = pp_profile_pset_entries(p, &e);
        total += n;
        for (uint32_t i = 0; i < n; i++)
            if (e[i].key + 1 > max_key)
                max_key = e[i].key + 1;
    }
    o->first = calloc(n_psets + 1, sizeof *o->first);
    o->values = calloc(total ? total : 1, sizeof *o->values);
    o->names = calloc(max_key ? max_key : 1, sizeof *o->names);
    if (!o->first || !o->values || !o->names)
        return -1;
    for (uint32_t k = 0; k < max_key; k++)
        o->names[k] = pp_profile_param_name(k);
    o->n_names = max_key;
    uint32_t j = 0;
    for (uint32_t p = 0; p < n_psets; p++) {
        const pp_param_entry *e;
        uint32_t n = pp_profile_pset_entries(p, &e);
        o->first[p] = j;
        for (uint32_t i = 0; i < n; i++, j++) {
            o->values[j].param = e[i].key;
            o->values[j].is_string = e[i].val.type != PP_PARAM_INT64;
            o->values[j].value = e[i].val.v;
            o->values[j].str = e[i].val.type == PP_PARAM_STRING ? e[i].val.str : "<other>";
        }
    }
    o->first[n_psets] = j;
    o->n_psets = n_psets;
    return 0;
}

void pp_profile_trace_finish(uint64_t now, double ticks_per_second)
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
        .ticks_per_second = ticks_per_second > 0 ? ticks_per_second : pp_timer_ticks_per_second(),
        .wall_t0 = pp_profile_g.wall_init,
    };
    pp_trace_params_out params = {0};
    if (pp_profile_trace_params(&params) == 0) {
        defs.param_names = params.names;
        defs.n_params = params.n_names;
        defs.pset_first = params.first;
        defs.pset_values = params.values;
        defs.n_psets = params.n_psets;
    }
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
    for (uint32_t i = 0; regions && i < n; i++)
        pp_profile_region_as_trace(i, &regions[i]);
    /* without the memory for the region list the raw files are removed
     * and no archive is written */
    pp_trace_finish(regions ? &defs : NULL);
    free(regions);
    free(params.names);
    free(params.first);
    free(params.values);
    for (uint32_t i = 0; facts && i < facts->n; i++)
        free(facts->keys[i]), free(facts->values[i]);
    free(facts);
}
