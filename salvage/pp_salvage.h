/* pompprof-salvage: the raw trace files a run left when it never reached
 * its end (a crash, SIGKILL) made into an OTF2 archive, with the trace
 * layer's own conversion (doc/trace.md, "Salvaging an interrupted trace"). */
#ifndef PP_SALVAGE_H
#define PP_SALVAGE_H

#include <stdint.h>

#include "trace/pp_trace.h"
#include "trace/pp_trace_internal.h"

/* The definitions file DIR/<name>.raw/defs (trace/pp_trace_save.c) read
 * back.  Strings are owned by the struct. */
typedef struct pp_salvage_defs {
    char *program;
    long pid;
    int have_clock;
    uint64_t t0;
    double wall_t0, ticks_per_second;
    pp_trace_region *regions;      /* by id; name NULL: never saved */
    uint32_t n_regions, cap_regions;
    char **metrics;
    uint32_t n_metrics;
    char **fact_keys, **fact_values;
    uint32_t n_facts;
    /* a rank of a job (pp_salvage_job.c): its lines of the file when job is set */
    pp_trace_jobstate *job;
    uint64_t job_end; /* its "end" line, 0 none */
} pp_salvage_defs;

/* Read path into d: 0, or -1 with why (the file is missing or unreadable). */
int pp_salvage_defs_read(const char *path, pp_salvage_defs *d, char *why, size_t why_size);
/* Set fact key to value (replacing an earlier one); -1 out of memory. */
int pp_salvage_defs_fact(pp_salvage_defs *d, const char *key, const char *value);
/* Make room for region ids below n (unsaved ones are named by number). */
int pp_salvage_defs_regions(pp_salvage_defs *d, uint32_t n);
void pp_salvage_defs_free(pp_salvage_defs *d);
/* Split a line at tabs into at most max fields, escapes undone in place. */
unsigned pp_salvage_defs_split(char *line, char **fields, unsigned max);

/* One raw thread file (pp_salvage_main.c): the buffer to convert, its latest
 * record time and highest region, its records counted; NULL when unusable. */
pp_trace_buf *pp_salvage_raw(const char *path, uint64_t *t_last, uint32_t *max_region,
                             uint64_t *records);
/* Whether the process that wrote the defs is still running (same host). */
int pp_salvage_process_alive(long pid, const pp_salvage_defs *d);

/* ---- a job's raw files (pp_salvage_job.c) ------------------------------------------- */

/* Whether raw_dir holds a job's ranks (rank<r> directories). */
int pp_salvage_is_job(const char *raw_dir);
/* A line of a rank's definitions file that is the job's (kind f[0]): 1 read,
 * 0 not a job line, -1 out of memory. */
int pp_salvage_job_line(pp_salvage_defs *d, char **f, unsigned n);
/* Salvage a job's raw files into its one archive (pp_trace_g names it); the
 * exit status of pompprof-salvage. */
int pp_salvage_job(const char *raw_dir);

#endif
