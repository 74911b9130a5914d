#include "lib/pp_config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/pp_message.h"
#include "lib/pp_nearest.h"

extern char **environ;

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
    char accepted[160];
    snprintf(accepted, sizeof accepted,
             "comma-separated PAPI event names, e.g. PAPI_TOT_INS,perf::PAGE-FAULTS; pompprof "
             "counts at most %d events",
             PP_COUNTERS_MAX);
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

/* Every POMPPROF_* variable pompprof reads: the library's settings, then
 * the wrapper's and the tools' (they share the environment of a build). */
static const char *const pp_config_known[] = {
    "POMPPROF_VERBOSE", "POMPPROF_ENABLE", "POMPPROF_OUTPUT", "POMPPROF_TIMER",
    "POMPPROF_METRICS", "POMPPROF_MAX_DEPTH", "POMPPROF_MEMORY",
    "POMPPROF_MAX_PARAMETER_VALUES", "POMPPROF_TRACE", "POMPPROF_TRACE_BUFFER",
    "POMPPROF_LIBDIR", "POMPPROF_INCDIR", "POMPPROF_REPLAY", "POMPPROF_FILTER",
    "POMPPROF_FUNCTIONS", "POMPPROF_COSTS", "POMPPROF_MERGE_CALLS", "POMPPROF_WRAPPER_COUNTS",
    "POMPPROF_GCC_PLUGIN", "POMPPROF_TEST_CLOCK_SKEW", "POMPPROF_CRASH_WAIT",
    "POMPPROF_RUN_PID", /* set by pompprof run for the OMPT tool (ompt/pp_ompt_start.c) */
};
#define PP_CONFIG_KNOWN (sizeof pp_config_known / sizeof pp_config_known[0])

/* Whether an environment variable's name looks meant for pompprof: POMPPROF_
 * in any case (pompprof_trace), or a prefix one letter or two off
 * (POMPROF_TRACE, POMPPROFF_TRACE) before a known setting's rest. */
static int pp_config_meant_for_us(const char *name)
{
    if (!strncasecmp(name, "POMPPROF_", 9))
        return 1;
    const char *us = strchr(name, '_');
    if (!us || us - name < 5 || us - name > 10)
        return 0;
    char prefix[16];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(us - name), name);
    if (pp_nearest_distance(prefix, "POMPPROF") > 2)
        return 0;
    for (size_t i = 0; i < PP_CONFIG_KNOWN; i++)
        if (!strcasecmp(us, pp_config_known[i] + 8))
            return 1;
    return 0;
}

/* A misspelt setting (POMPPROF_METRIC=..., pompprof_trace=1, POMPROF_TRACE=1)
 * would be ignored without a word: one line for each variable meant for
 * pompprof that is not a setting, with the nearest known name. */
static void pp_config_check_names(void)
{
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
        if (!pp_config_meant_for_us(name))
            continue;
        size_t i = 0;
        while (i < PP_CONFIG_KNOWN && strcmp(pp_config_known[i], name) != 0)
            i++;
        if (i < PP_CONFIG_KNOWN)
            continue;
        pp_nearest near;
        pp_nearest_begin(&near, name);
        for (i = 0; i < PP_CONFIG_KNOWN; i++)
            pp_nearest_offer(&near, pp_config_known[i]);
        const char *guess = pp_nearest_result(&near);
        if (guess)
            pp_message_warn("%s is not a pompprof setting and is ignored; did you mean %s?", name,
                            guess);
        else
            pp_message_warn("%s is not a pompprof setting and is ignored (the settings: README.md, "
                            "\"Settings\")",
                            name);
    }
}

/* POMPPROF_OUTPUT names a file when it ends in .cubex, else a directory: a
 * name that looks like a file of another extension (e8.cube, run.cubx) is
 * a directory too, which the user may not expect; say so. */
static void pp_config_check_output(const char *v)
{
    const char *base = strrchr(v, '/');
    base = base ? base + 1 : v;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base || !strcmp(dot, ".cubex"))
        return;
    if (!strncasecmp(dot, ".cub", 4) || !strcasecmp(dot, ".cubex"))
        pp_message_warn("POMPPROF_OUTPUT='%s' does not end in .cubex, so it is a directory: the "
                        "profile goes to %s/profile.cubex (a file name ends in .cubex)",
                        v, v);
}

/* RANK:OFFSET:DRIFT (test only, doc/trace.md): rank RANK's trace clock runs
 * OFFSET seconds ahead (negative: behind) and gains DRIFT parts per million. */
static int pp_config_parse_skew(const char *name, const char *v, pp_config *cfg)
{
    char *end;
    errno = 0;
    long rank = strtol(v, &end, 10);
    double offset = 0, drift = 0;
    int ok = end != v && *end == ':' && rank >= 0 && rank < 1 << 30;
    if (ok) {
        const char *p = end + 1;
        offset = strtod(p, &end);
        ok = end != p && *end == ':' && offset > -1000 && offset < 1000;
    }
    if (ok) {
        const char *p = end + 1;
        drift = strtod(p, &end);
        ok = end != p && !*end && drift > -100000 && drift < 100000;
    }
    if (!ok || errno)
        return pp_config_bad(name, v, "RANK:OFFSET_SECONDS:DRIFT_PPM, e.g. 1:-0.25:2000 (a test "
                                      "setting)");
    cfg->skew_rank = (int)rank;
    cfg->skew_offset = offset;
    cfg->skew_drift_ppm = drift;
    return 0;
}

int pp_config_from_env(pp_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->skew_rank = -1;
    cfg->enable = true;
    cfg->timer = PP_TIMER_AUTO;
    cfg->max_parameter_values = PP_CONFIG_PARAMETER_VALUES_DEFAULT;
    cfg->trace_buffer = PP_CONFIG_TRACE_BUFFER_DEFAULT;
    cfg->crash_wait = PP_CONFIG_CRASH_WAIT_DEFAULT;
    int bad = 0;
    const char *v;

    if ((v = getenv("POMPPROF_VERBOSE")) && *v) {
        unsigned long x;
        if (pp_config_parse_range("POMPPROF_VERBOSE", v, 0, 2, &x) == 0)
            cfg->verbose = (int)x;
        else
            bad++;
    }
    if ((v = getenv("POMPPROF_ENABLE")) && *v)
        bad += pp_config_parse_bool("POMPPROF_ENABLE", v, &cfg->enable);
    if ((v = getenv("POMPPROF_OUTPUT"))) {
        if (*v) {
            cfg->output = v;
            pp_config_check_output(v);
        } else
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
        if (pp_config_parse_range("POMPPROF_MAX_DEPTH", v, 1, 100000, &x))
            bad++;
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
    if ((v = getenv("POMPPROF_CRASH_WAIT")) && *v) {
        unsigned long x;
        if (pp_config_parse_range("POMPPROF_CRASH_WAIT", v, 0, 3600, &x) == 0)
            cfg->crash_wait = (unsigned)x;
        else
            bad++;
    }
    if ((v = getenv("POMPPROF_FILTER")) && *v)
        cfg->filter = v;
    if ((v = getenv("POMPPROF_TEST_CLOCK_SKEW")) && *v)
        bad += pp_config_parse_skew("POMPPROF_TEST_CLOCK_SKEW", v, cfg);
    pp_config_check_names();
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
