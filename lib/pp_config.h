/* pp_config: the POMPPROF_* environment variables, parsed once.
 *
 * An invalid value never stops the program: one "pompprof:" line names the
 * variable and the accepted values, and the default is used. */
#ifndef PP_CONFIG_H
#define PP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/pp_counters.h"
#include "lib/pp_timer.h"

/* POMPPROF_METRICS takes this many names; pp_counters keeps as many of them
 * as PAPI can count together, at most PP_COUNTERS_MAX (16, the one limit the
 * messages and the README state) and names the others. */
#define PP_CONFIG_METRICS_MAX PP_COUNTERS_NAMES_MAX
#define PP_CONFIG_PARAMETER_VALUES_DEFAULT 256
#define PP_CONFIG_PARAMETER_VALUES_MAX 1000000

typedef struct pp_config {
    bool enable;                 /* POMPPROF_ENABLE (default 1) */
    const char *output;          /* POMPPROF_OUTPUT, NULL = fresh directory per run */
    pp_timer_kind timer;         /* POMPPROF_TIMER: tsc | clock (default auto) */
    int n_metrics;               /* POMPPROF_METRICS: comma-separated PAPI names */
    char metrics[PP_CONFIG_METRICS_MAX][PP_COUNTERS_NAME_LEN];
    unsigned max_depth;          /* POMPPROF_MAX_DEPTH, 0 = unlimited */
    size_t memory_limit;         /* POMPPROF_MEMORY in bytes (k/M/G suffix), 0 = unlimited */
    unsigned max_parameter_values; /* POMPPROF_MAX_PARAMETER_VALUES: distinct values per
                                    * parameter and call path (default 256) */
    int verbose;                 /* POMPPROF_VERBOSE 0..2 */
    bool trace;                  /* POMPPROF_TRACE (default 0): an OTF2 trace beside the profile */
    size_t trace_buffer;         /* POMPPROF_TRACE_BUFFER: bytes per thread (k/M/G suffix) */
    const char *filter;          /* POMPPROF_FILTER: a filter file (Score-P syntax) for the
                                  * instrumented functions, NULL = none */
    /* POMPPROF_TEST_CLOCK_SKEW (test only, doc/trace.md): the trace clock of
     * MPI rank skew_rank (-1: none) runs skew_offset seconds ahead and gains
     * skew_drift_ppm parts per million */
    int skew_rank;
    double skew_offset, skew_drift_ppm;
    unsigned crash_wait;         /* POMPPROF_CRASH_WAIT: seconds a crashing program waits for
                                  * its profile and trace to be written (default 10; 0: only
                                  * the trace's raw records, pompprof-salvage converts them) */
} pp_config;

#define PP_CONFIG_CRASH_WAIT_DEFAULT 10

/* POMPPROF_TRACE_BUFFER: the default, and the least a thread's buffer may
 * hold (smaller values are rejected with the accepted range). */
#define PP_CONFIG_TRACE_BUFFER_DEFAULT ((size_t)8 << 20)
#define PP_CONFIG_TRACE_BUFFER_MIN ((size_t)16 << 10)

/* Fill cfg from the environment; returns the number of invalid variables. */
int pp_config_from_env(pp_config *cfg);

/* The process-wide configuration, parsed on first use. */
const pp_config *pp_config_get(void);

#endif
