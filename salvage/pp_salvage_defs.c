/* Reading the definitions a traced run saved while it ran
 * (trace/pp_trace_save.c describes the lines). */
#define _GNU_SOURCE
#include "salvage/pp_salvage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Split line (no newline) at tabs into at most max fields, undoing the
 * escapes in place; returns the number of fields. */
unsigned pp_salvage_defs_split(char *line, char **fields, unsigned max)
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
    return s && *s ? strdup(s) : NULL;
}

int pp_salvage_defs_regions(pp_salvage_defs *d, uint32_t n)
{
    if (n <= d->n_regions)
        return 0;
    if (n > d->cap_regions) {
        uint32_t cap = d->cap_regions ? d->cap_regions : 64;
        while (cap < n)
            cap *= 2;
        pp_trace_region *r = realloc(d->regions, cap * sizeof *r);
        if (!r)
            return -1;
        memset(r + d->cap_regions, 0, (cap - d->cap_regions) * sizeof *r);
        d->regions = r;
        d->cap_regions = cap;
    }
    d->n_regions = n;
    return 0;
}

static void pp_salvage_region_free(pp_trace_region *r)
{
    free((char *)r->name), free((char *)r->file), free((char *)r->paradigm);
    free((char *)r->role), free((char *)r->description);
}

int pp_salvage_defs_fact(pp_salvage_defs *d, const char *key, const char *value)
{
    uint32_t i = 0;
    while (i < d->n_facts && strcmp(d->fact_keys[i], key))
        i++;
    char *v = strdup(value);
    if (!v)
        return -1;
    if (i < d->n_facts) {
        free(d->fact_values[i]);
        d->fact_values[i] = v;
        return 0;
    }
    char **k = realloc(d->fact_keys, (i + 1) * sizeof *k);
    if (k)
        d->fact_keys = k;
    char **vs = realloc(d->fact_values, (i + 1) * sizeof *vs);
    if (vs)
        d->fact_values = vs;
    if (!k || !vs || !(d->fact_keys[i] = strdup(key))) {
        free(v);
        return -1;
    }
    d->fact_values[i] = v;
    d->n_facts++;
    return 0;
}

static int pp_salvage_line(pp_salvage_defs *d, char *line)
{
    char *f[9];
    unsigned n = pp_salvage_defs_split(line, f, 9);
    if (!strcmp(f[0], "program") && n == 2) {
        free(d->program);
        return (d->program = strdup(f[1])) ? 0 : -1;
    }
    if (!strcmp(f[0], "pid") && n == 2) {
        d->pid = strtol(f[1], NULL, 10);
        return 0;
    }
    if (!strcmp(f[0], "clock") && n == 4) {
        d->t0 = strtoull(f[1], NULL, 10);
        d->wall_t0 = strtod(f[2], NULL);
        d->ticks_per_second = strtod(f[3], NULL);
        d->have_clock = d->ticks_per_second > 0;
        return 0;
    }
    if (!strcmp(f[0], "fact") && n == 3)
        return pp_salvage_defs_fact(d, f[1], f[2]);
    if (!strcmp(f[0], "metric") && n == 3) {
        unsigned long i = strtoul(f[1], NULL, 10);
        if (i >= PP_TRACE_METRICS_MAX)
            return 0;
        if (i >= d->n_metrics) {
            char **m = realloc(d->metrics, (i + 1) * sizeof *m);
            if (!m)
                return -1;
            memset(m + d->n_metrics, 0, (i + 1 - d->n_metrics) * sizeof *m);
            d->metrics = m;
            d->n_metrics = (uint32_t)i + 1;
        }
        free(d->metrics[i]);
        return (d->metrics[i] = strdup(f[2])) ? 0 : -1;
    }
    if (!strcmp(f[0], "region") && n == 9) {
        unsigned long id = strtoul(f[1], NULL, 10);
        if (id >= (1u << 22) || pp_salvage_defs_regions(d, (uint32_t)id + 1) != 0)
            return -1;
        pp_trace_region *r = &d->regions[id];
        pp_salvage_region_free(r);
        *r = (pp_trace_region){pp_salvage_dup(f[2]), pp_salvage_dup(f[3]), pp_salvage_dup(f[4]),
                               pp_salvage_dup(f[5]), pp_salvage_dup(f[6]), atoi(f[7]),
                               atoi(f[8])};
        return r->name ? 0 : -1;
    }
    if (d->job)
        return pp_salvage_job_line(d, f, n) < 0 ? -1 : 0;
    return 0; /* a kind of a later version: not needed */
}

int pp_salvage_defs_read(const char *path, pp_salvage_defs *d, char *why, size_t why_size)
{
    pp_trace_jobstate *job = d->job; /* set by the caller for a rank of a job */
    memset(d, 0, sizeof *d);
    d->job = job;
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
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
        if (len == 0 || line[len - 1] != '\n')
            break; /* the last line was cut by the interruption */
        line[len - 1] = '\0';
        rc = pp_salvage_line(d, line);
    }
    free(line);
    fclose(f);
    if (rc != 0) {
        snprintf(why, why_size, "out of memory reading %s", path);
        return -1;
    }
    if (!d->have_clock) {
        snprintf(why, why_size, "%s does not hold the trace's clock (the run ended while its "
                 "trace started): nothing to salvage", path);
        return -1;
    }
    return 0;
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
