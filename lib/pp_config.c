#include "lib/pp_config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pp_message.h"

static int pp_config_bad(const char *var, const char *value, const char *accepted)
{
    pp_message_warn("%s='%s' is invalid (accepted: %s); using the default", var, value, accepted);
    return 1;
}

static int pp_config_parse_bool(const char *var, const char *v, bool *out)
{
    if (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on"))
        *out = true;
    else if (!strcmp(v, "0") || !strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcasecmp(v, "off"))
        *out = false;
    else
        return pp_config_bad(var, v, "1, 0, yes, no, true, false, on, off");
    return 0;
}

static int pp_config_parse_uint(const char *var, const char *v, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)v[0]))
        return pp_config_bad(var, v, "a whole number");
    unsigned long x = strtoul(v, &end, 10);
    if (errno || *end || x > max)
        return pp_config_bad(var, v, "a whole number");
    *out = x;
    return 0;
}

/* A whole number from lo to hi, said so when it is not. */
static int pp_config_parse_range(const char *var, const char *v, unsigned long lo,
                                 unsigned long hi, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long x = isdigit((unsigned char)v[0]) ? strtoul(v, &end, 10) : 0;
    if (!isdigit((unsigned char)v[0]) || errno || *end || x < lo || x > hi) {
        char accepted[64];
        snprintf(accepted, sizeof accepted, "a whole number from %lu to %lu", lo, hi);
        return pp_config_bad(var, v, accepted);
    }
    *out = x;
    return 0;
}

static int pp_config_parse_size(const char *var, const char *v, size_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)v[0]))
        return pp_config_bad(var, v, "a size in bytes with optional k, M or G suffix, e.g. 512M");
    unsigned long long x = strtoull(v, &end, 10);
    unsigned long long mult = 1;
    if (*end == 'k' || *end == 'K')
        mult = 1ull << 10, end++;
    else if (*end == 'm' || *end == 'M')
        mult = 1ull << 20, end++;
    else if (*end == 'g' || *end == 'G')
        mult = 1ull << 30, end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (errno || *end || x > SIZE_MAX / mult)
        return pp_config_bad(var, v, "a size in bytes with optional k, M or G suffix, e.g. 512M");
    *out = (size_t)(x * mult);
    return 0;
}

/* Comma-separated event names, blanks around them ignored.  A name is
 * whatever PAPI accepts: presets (PAPI_TOT_INS), native and component events
 * with colons, dashes, dots, '=' or '+' (perf::PAGE-FAULTS,
 * rapl:::PACKAGE_ENERGY:PACKAGE0, ...); so only blanks inside a name, empty
 * names and names longer than PAPI's limit are refused here. */
static int pp_config_parse_metrics(const char *var, const char *v, pp_config *cfg)
{
    char accepted[128];
    snprintf(accepted, sizeof accepted,
             "up to %d comma-separated PAPI event names, e.g. PAPI_TOT_INS,perf::PAGE-FAULTS",
             PP_CONFIG_METRICS_MAX);
    cfg->n_metrics = 0;
    const char *p = v;
    for (;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        while (p < end && isspace((unsigned char)*p))
            p++;
        while (end > p && isspace((unsigned char)end[-1]))
            end--;
        size_t len = (size_t)(end - p);
        int ok = len > 0 && len < sizeof cfg->metrics[0] && cfg->n_metrics < PP_CONFIG_METRICS_MAX;
        for (size_t i = 0; ok && i < len; i++)
            ok = isgraph((unsigned char)p[i]);
        if (!ok) {
            cfg->n_metrics = 0;
            return pp_config_bad(var, v, accepted);
        }
        memcpy(cfg->metrics[cfg->n_metrics], p, len);
        cfg->metrics[cfg->n_metrics][len] = '\0';
        cfg->n_metrics++;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

int pp_config_from_env(pp_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->enable = true;
    cfg->timer = PP_TIMER_AUTO;
    cfg->max_parameter_values = PP_CONFIG_PARAMETER_VALUES_DEFAULT;
    cfg->trace_buffer = PP_CONFIG_TRACE_BUFFER_DEFAULT;
    int bad = 0;
    const char *v;

    if ((v = getenv("POMPPROF_VERBOSE")) && *v) {
        unsigned long x;
        if (pp_config_parse_uint("POMPPROF_VERBOSE", v, 2, &x) == 0)
            cfg->verbose = (int)x;
        else
            bad++;
    }
    if ((v = getenv("POMPPROF_ENABLE")) && *v)
        bad += pp_config_parse_bool("POMPPROF_ENABLE", v, &cfg->enable);
    if ((v = getenv("POMPPROF_OUTPUT"))) {
        if (*v)
            cfg->output = v;
        else
            bad += pp_config_bad("POMPPROF_OUTPUT", v, "a directory or a file name ending in .cubex");
    }
    if ((v = getenv("POMPPROF_TIMER")) && *v) {
        if (!strcmp(v, "tsc")) {
            if (PP_TIMER_HAVE_TSC)
                cfg->timer = PP_TIMER_TSC;
            else
                bad += pp_config_bad("POMPPROF_TIMER", v, "clock (this CPU has no TSC)");
        } else if (!strcmp(v, "clock")) {
            cfg->timer = PP_TIMER_CLOCK;
        } else {
            bad += pp_config_bad("POMPPROF_TIMER", v, "tsc, clock");
        }
    }
    if ((v = getenv("POMPPROF_METRICS")) && *v)
        bad += pp_config_parse_metrics("POMPPROF_METRICS", v, cfg);
    if ((v = getenv("POMPPROF_MAX_DEPTH")) && *v) {
        unsigned long x = 0;
        if (pp_config_parse_uint("POMPPROF_MAX_DEPTH", v, 100000, &x))
            bad++;
        else if (x == 0)
            bad += pp_config_bad("POMPPROF_MAX_DEPTH", v, "a whole number from 1 to 100000");
        else
            cfg->max_depth = (unsigned)x;
    }
    if ((v = getenv("POMPPROF_MEMORY")) && *v)
        bad += pp_config_parse_size("POMPPROF_MEMORY", v, &cfg->memory_limit);
    if ((v = getenv("POMPPROF_MAX_PARAMETER_VALUES")) && *v) {
        unsigned long x = 0;
        if (pp_config_parse_range("POMPPROF_MAX_PARAMETER_VALUES", v, 1,
                                  PP_CONFIG_PARAMETER_VALUES_MAX, &x))
            bad++;
        else
            cfg->max_parameter_values = (unsigned)x;
    }
    if ((v = getenv("POMPPROF_TRACE")) && *v)
        bad += pp_config_parse_bool("POMPPROF_TRACE", v, &cfg->trace);
    if ((v = getenv("POMPPROF_TRACE_BUFFER")) && *v) {
        size_t x = 0;
        if (pp_config_parse_size("POMPPROF_TRACE_BUFFER", v, &x))
            bad++;
        else if (x < PP_CONFIG_TRACE_BUFFER_MIN || x > ((size_t)1 << 40))
            bad += pp_config_bad("POMPPROF_TRACE_BUFFER", v,
                                 "a size per thread from 16k to 1024G, e.g. 8M");
        else
            cfg->trace_buffer = x;
    }
    if ((v = getenv("POMPPROF_FILTER")) && *v)
        cfg->filter = v;
    return bad;
}

static pp_config pp_config_global;
static pthread_once_t pp_config_once = PTHREAD_ONCE_INIT;

static void pp_config_load_global(void)
{
    pp_config_from_env(&pp_config_global);
    pp_message_set_verbosity(pp_config_global.verbose);
}

const pp_config *pp_config_get(void)
{
    pthread_once(&pp_config_once, pp_config_load_global);
    return &pp_config_global;
}
