/* Reading the definitions a traced run saved while it ran
 * (trace/pp_trace_save.c describes the lines; the job layer's own go to
 * the trace layer, pp_trace_resume_job_line), and completing them for the
 * conversion. */
#define _GNU_SOURCE
#include "salvage/pp_salvage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Split line (no newline) at tabs into at most max fields, undoing the
 * escapes in place; returns the number of fields. */
static unsigned pp_salvage_defs_split(char *line, char **fields, unsigned max)
{
    unsigned n = 0;
    char *out = line;
    fields[n++] = out;
    for (char *p = line; *p; p++) {
        if (*p == '\t') {
            *out++ = '\0';
            if (n == max)
                return n;
            fields[n++] = out;
        } else if (*p == '\\' && p[1]) {
            p++;
            *out++ = *p == 't' ? '\t' : *p == 'n' ? '\n' : *p;
        } else {
            *out++ = *p;
        }
    }
    *out = '\0';
    return n;
}

static char *pp_salvage_dup(const char *s)
{
    return s && *s ? pp_salvage_strdup(s) : NULL;
}

/* Room for region ids below n. */
static void pp_salvage_defs_regions(pp_salvage_defs *d, uint32_t n)
{
    if (n <= d->n_regions)
        return;
    if (n > d->cap_regions) {
        uint32_t cap = d->cap_regions ? d->cap_regions : 64;
        while (cap < n)
            cap *= 2;
        pp_trace_region *r = pp_salvage_check(realloc(d->regions, cap * sizeof *r));
        memset(r + d->cap_regions, 0, (cap - d->cap_regions) * sizeof *r);
        d->regions = r;
        d->cap_regions = cap;
    }
    d->n_regions = n;
}

static void pp_salvage_region_free(pp_trace_region *r)
{
    free((char *)r->name), free((char *)r->file), free((char *)r->paradigm);
    free((char *)r->role), free((char *)r->description);
}

void pp_salvage_defs_fact(pp_salvage_defs *d, const char *key, const char *value)
{
    uint32_t i = 0;
    while (i < d->n_facts && strcmp(d->fact_keys[i], key))
        i++;
    char *v = pp_salvage_strdup(value);
    if (i < d->n_facts) {
        free(d->fact_values[i]);
        d->fact_values[i] = v;
        return;
    }
    d->fact_keys = pp_salvage_check(realloc(d->fact_keys, (i + 1) * sizeof *d->fact_keys));
    d->fact_values = pp_salvage_check(realloc(d->fact_values, (i + 1) * sizeof *d->fact_values));
    d->fact_keys[i] = pp_salvage_strdup(key);
    d->fact_values[i] = v;
    d->n_facts++;
}

const char *pp_salvage_defs_fact_of(const pp_salvage_defs *d, const char *key)
{
    for (uint32_t i = 0; i < d->n_facts; i++)
        if (!strcmp(d->fact_keys[i], key))
            return d->fact_values[i];
    return NULL;
}

static void pp_salvage_defs_metric(pp_salvage_defs *d, unsigned long i, const char *name)
{
    if (i >= PP_TRACE_METRICS_MAX)
        return;
    if (i >= d->n_metrics) {
        d->metrics = pp_salvage_check(realloc(d->metrics, (i + 1) * sizeof *d->metrics));
        memset(d->metrics + d->n_metrics, 0, (i + 1 - d->n_metrics) * sizeof *d->metrics);
        d->n_metrics = (uint32_t)i + 1;
    }
    free(d->metrics[i]);
    d->metrics[i] = pp_salvage_strdup(name);
}

/* "region <id> <name> <file> <paradigm> <role> <description> <begin> <end>" */
static void pp_salvage_defs_region(pp_salvage_defs *d, char **f)
{
    unsigned long id = strtoul(f[1], NULL, 10);
    if (id >= (1u << 22))
        return;
    pp_salvage_defs_regions(d, (uint32_t)id + 1);
    pp_trace_region *r = &d->regions[id];
    pp_salvage_region_free(r);
    *r = (pp_trace_region){pp_salvage_dup(f[2]), pp_salvage_dup(f[3]), pp_salvage_dup(f[4]),
                           pp_salvage_dup(f[5]), pp_salvage_dup(f[6]), atoi(f[7]), atoi(f[8])};
}

/* One line (no newline): 0, or -1 out of memory (a job line). */
static int pp_salvage_line(pp_salvage_defs *d, pp_trace_resume *r, char *line)
{
    char *f[9];
    unsigned n = pp_salvage_defs_split(line, f, 9);
    if (!strcmp(f[0], "program") && n == 2) {
        free(d->program);
        d->program = pp_salvage_strdup(f[1]);
    } else if (!strcmp(f[0], "pid") && n == 2) {
        d->pid = strtol(f[1], NULL, 10);
    } else if (!strcmp(f[0], "clock") && n == 4) {
        d->t0 = strtoull(f[1], NULL, 10);
        d->wall_t0 = strtod(f[2], NULL);
        d->ticks_per_second = strtod(f[3], NULL);
        d->have_clock = d->ticks_per_second > 0;
    } else if (!strcmp(f[0], "fact") && n == 3) {
        pp_salvage_defs_fact(d, f[1], f[2]);
    } else if (!strcmp(f[0], "metric") && n == 3) {
        pp_salvage_defs_metric(d, strtoul(f[1], NULL, 10), f[2]);
    } else if (!strcmp(f[0], "region") && n == 9) {
        pp_salvage_defs_region(d, f);
    } else if (r) {
        return pp_trace_resume_job_line(r, f, n) < 0 ? -1 : 0;
    }
    return 0; /* a kind of a later version: not needed */
}

int pp_salvage_defs_read(const char *path, pp_salvage_defs *d, pp_trace_resume *r, char *why,
                         size_t why_size)
{
    memset(d, 0, sizeof *d);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, why_size, "%s is missing: the run was traced by a pompprof older than "
                 "this one, or its trace start failed; its raw records name regions by number "
                 "only and cannot be converted", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        if (len == 0 || line[len - 1] != '\n')
            break; /* the last line was cut by the interruption */
        line[len - 1] = '\0';
        if (pp_salvage_line(d, r, line) != 0)
            pp_salvage_die("out of memory");
    }
    free(line);
    fclose(f);
    if (!d->have_clock) {
        snprintf(why, why_size, "%s does not hold the trace's clock (the run ended while its "
                 "trace started): nothing to salvage", path);
        return -1;
    }
    return 0;
}

void pp_salvage_defs_complete(pp_salvage_defs *d, uint32_t max_region)
{
    if (max_region != UINT32_MAX)
        pp_salvage_defs_regions(d, max_region + 1);
    for (uint32_t i = 0; i < d->n_regions; i++)
        if (!d->regions[i].name) {
            char name[48];
            snprintf(name, sizeof name, "region %u (not saved)", i);
            d->regions[i] = (pp_trace_region){.name = pp_salvage_strdup(name),
                                              .paradigm = pp_salvage_strdup("user"),
                                              .role = pp_salvage_strdup("unknown"),
                                              .begin_line = -1, .end_line = -1};
        }
    for (uint32_t i = 0; i < d->n_metrics; i++)
        if (!d->metrics[i]) {
            char name[32];
            snprintf(name, sizeof name, "metric %u", i);
            d->metrics[i] = pp_salvage_strdup(name);
        }
}

pp_trace_defs pp_salvage_defs_trace(const pp_salvage_defs *d, uint64_t t_end)
{
    return (pp_trace_defs){
        .regions = d->regions,
        .n_regions = d->n_regions,
        .metrics = (const char *const *)d->metrics,
        .n_metrics = d->n_metrics,
        .program = d->program,
        .host = pp_salvage_defs_fact_of(d, "host"), /* the run's machine, not the salvager's */
        .pid = d->pid,
        .t_end = t_end,
        .ticks_per_second = d->ticks_per_second,
        .wall_t0 = d->wall_t0,
        .fact_keys = (const char *const *)d->fact_keys,
        .fact_values = (const char *const *)d->fact_values,
        .n_facts = d->n_facts,
    };
}

void pp_salvage_defs_free(pp_salvage_defs *d)
{
    for (uint32_t i = 0; i < d->n_regions; i++)
        pp_salvage_region_free(&d->regions[i]);
    free(d->regions);
    for (uint32_t i = 0; i < d->n_metrics; i++)
        free(d->metrics[i]);
    free(d->metrics);
    for (uint32_t i = 0; i < d->n_facts; i++)
        free(d->fact_keys[i]), free(d->fact_values[i]);
    free(d->fact_keys), free(d->fact_values);
    free(d->program);
    memset(d, 0, sizeof *d);
}
