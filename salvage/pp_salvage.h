/* pompprof-salvage: the raw trace files a run left when it never reached
 * its end (a crash, SIGKILL) made into an OTF2 archive, with the trace
 * layer's own conversion (doc/trace.md, "Salvaging an interrupted trace").
 * It reaches the trace layer through its public headers only: the raw
 * files are read and converted by trace/pp_trace_resume.h.
 *
 *   pp_salvage_main.c   the command line, and a single process's raw files
 *   pp_salvage_job.c    a job's: its ranks' raw files into one archive
 *   pp_salvage_defs.c   the definitions file a traced run writes
 *   pp_salvage_say.c    the line on what was salvaged and what is missing
 *   pp_salvage_util.c   messages, memory, whether the writer still runs */
#ifndef PP_SALVAGE_H
#define PP_SALVAGE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/pp_trace.h"
#include "trace/pp_trace_resume.h"

/* ---- the tool's policies (pp_salvage_util.c) -------------------------------------------- */

/* One line "pompprof-salvage: <why>" on stderr, and exit status 2: nothing
 * was written. */
void pp_salvage_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Memory: a command-line tool that runs out of it says so in that line.
 * p itself, or the exit when p is NULL. */
void *pp_salvage_check(void *p);
char *pp_salvage_strdup(const char *s);
/* Whether the process that wrote a raw directory is still running (same
 * host as the definitions' "host" fact; a zombie counts as ended). */
int pp_salvage_process_alive(long pid, const char *host);

/* ---- what is salvaged ------------------------------------------------------------------ */

/* The raw directory DIR/<name>.raw and the archive it becomes. */
typedef struct pp_salvage_target {
    char raw_dir[PATH_MAX];
    char dir[PATH_MAX];
    char name[64];
    char anchor[PATH_MAX + 72]; /* DIR/<name>.otf2 */
} pp_salvage_target;

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
} pp_salvage_defs;

/* Read path into d, the job layer's lines into r: 0, or -1 with why (the
 * file is missing or holds no clock). */
int pp_salvage_defs_read(const char *path, pp_salvage_defs *d, pp_trace_resume *r, char *why,
                         size_t why_size);
/* Set fact key to value (replacing an earlier one). */
void pp_salvage_defs_fact(pp_salvage_defs *d, const char *key, const char *value);
/* The value of fact key, NULL none. */
const char *pp_salvage_defs_fact_of(const pp_salvage_defs *d, const char *key);
/* Name what the records use but the definitions lack: regions up to
 * max_region (UINT32_MAX: none) and metrics, by number. */
void pp_salvage_defs_complete(pp_salvage_defs *d, uint32_t max_region);
/* d as the trace layer's definitions, the trace ending at t_end (ticks). */
pp_trace_defs pp_salvage_defs_trace(const pp_salvage_defs *d, uint64_t t_end);
void pp_salvage_defs_free(pp_salvage_defs *d);

/* ---- the lines said (pp_salvage_say.c) -------------------------------------------------- */

/* What one process's threads left, summed. */
typedef struct pp_salvage_sum {
    uint32_t threads, unsaved;  /* unsaved: threads whose buffer no crash saved */
    uint64_t records, tail_records;
    uint64_t last;              /* ticks of the latest record (t0 when none) */
} pp_salvage_sum;
pp_salvage_sum pp_salvage_sum_of(const pp_trace_resume *r, uint64_t t0);

/* A single process: its threads, its records, and what is missing --
 * nothing when a crash saved every buffer, else how long before the
 * trace's last record each thread without a saved buffer stops. */
void pp_salvage_say_process(const pp_trace_resume *r, const pp_salvage_defs *d);
/* Append to line (size bytes, *at used) for each of r's threads without a
 * saved buffer: " thread L stops S s" (comma separated), S before last. */
void pp_salvage_say_stops(char *line, size_t size, size_t *at, const pp_trace_resume *r,
                          uint64_t last, double ticks_per_second);

/* ---- a job's raw files (pp_salvage_job.c) ----------------------------------------------- */

/* Whether raw_dir holds a job's ranks (rank<r> directories). */
int pp_salvage_is_job(const char *raw_dir);
/* Salvage a job's raw files into its one archive; the exit status. */
int pp_salvage_job(const pp_salvage_target *t);

#endif
