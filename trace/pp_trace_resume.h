/* Resuming a trace from the raw files a run left when it never reached its
 * end (doc/trace.md, "Salvaging an interrupted trace"): pompprof-salvage's
 * way into this layer, which keeps the raw format, the tails a crash saves
 * and the conversion to itself.
 *
 * One process's leftovers -- the run's DIR/<name>.raw, or a rank's
 * DIR/<name>.raw/rank<r> of a job -- are read as a pp_trace_resume: the
 * threads' raw files, each with the tail a crash saved beside it, and the
 * lines of the definitions file that the job layer wrote.  The caller reads
 * the rest of the definitions file (trace/pp_trace_save.c) and hands them
 * over as a pp_trace_defs.  A single process's archive is then written as
 * its run's end would have written it (pp_trace_resume_write); a job's,
 * rank after rank into its one archive (pp_trace_resume_job_*). */
#ifndef PP_TRACE_RESUME_H
#define PP_TRACE_RESUME_H

#include <stddef.h>
#include <stdint.h>

#include "trace/pp_trace.h"

/* What one thread left. */
typedef struct pp_trace_resume_thread {
    uint32_t location;
    uint64_t last;          /* ticks of its latest record (none: the trace's start) */
    uint64_t records;       /* its whole records, its tail's included */
    uint64_t tail_records;  /* of them, from its tail */
    int saved;              /* a crash saved its buffer (a tail): nothing of it is missing */
} pp_trace_resume_thread;

/* One process's raw files. */
typedef struct pp_trace_resume pp_trace_resume;

/* For the raw directory raw_dir; NULL when out of memory or when the path
 * does not fit. */
pp_trace_resume *pp_trace_resume_new(const char *raw_dir);
void pp_trace_resume_free(pp_trace_resume *r);

/* A line of the definitions file (its kind f[0], then n - 1 fields, escapes
 * undone) that the job layer wrote (pp_trace_job.c): 1 kept, 0 not such a
 * line, -1 out of memory. */
int pp_trace_resume_job_line(pp_trace_resume *r, char **f, unsigned n);
/* What those lines said: the job's size (0: not a rank of a job), and the
 * time of the rank's "end" (it ended alone, having written all it held to
 * its raw files; 0: it did not). */
int pp_trace_resume_job_size(const pp_trace_resume *r);
uint64_t pp_trace_resume_job_end(const pp_trace_resume *r);

/* Read the threads' raw files and their tails: a record cut by the
 * interruption ends a file; a file not of this pompprof is left out with
 * one line.  0, or -1 (errno set) when the directory cannot be read. */
int pp_trace_resume_scan(pp_trace_resume *r);
/* The threads read, by location (n: how many). */
const pp_trace_resume_thread *pp_trace_resume_threads(const pp_trace_resume *r, uint32_t *n);
/* The highest region id a record names (UINT32_MAX: none): the definitions
 * must name every region up to it. */
uint32_t pp_trace_resume_max_region(const pp_trace_resume *r);

/* Write the archive DIR/<name>.otf2 of r's threads, timestamps from t0, as
 * the run's end would have (pp_trace_finish; defs->t_end: the last record).
 * Returns 0 complete, 1 shorter (said why in one line), -1 none (said why);
 * r's raw files go only once the archive is complete. */
int pp_trace_resume_write(pp_trace_resume *r, const char *dir, const char *name, uint64_t t0,
                          const pp_trace_defs *defs);

/* ---- a job: its ranks' raw files into its one archive --------------------------------- */

typedef struct pp_trace_resume_job pp_trace_resume_job;

/* Open the archive DIR/<name>.otf2; NULL (why in why) when it cannot be. */
pp_trace_resume_job *pp_trace_resume_job_open(const char *dir, const char *name, char *why,
                                              size_t why_size);
/* Convert rank's threads (r, timestamps from t0, defs its definitions)
 * into the archive, after the ranks converted before: 0, or -1. */
int pp_trace_resume_job_rank(pp_trace_resume_job *w, pp_trace_resume *r, int rank, uint64_t t0,
                             const pp_trace_defs *defs);
/* Seconds from the first to the last record of the ranks converted so far
 * (on rank 0's clock). */
double pp_trace_resume_job_seconds(const pp_trace_resume_job *w);
/* Write the job's definitions (size ranks, those not converted named
 * missing by their absence) and the archive's properties (facts' fact_keys
 * and fact_values), and close it: 0 complete, -1 none (nothing of it is
 * left).  w is freed either way. */
int pp_trace_resume_job_close(pp_trace_resume_job *w, int size, const pp_trace_defs *facts);

/* Remove r's raw files, the tails, the definitions file, the reserve and
 * the directory (once the archive holding them is complete). */
void pp_trace_resume_remove(pp_trace_resume *r);

#endif
