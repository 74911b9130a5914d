/* pp_trace: the event trace of POMPPROF_TRACE=1 (doc/trace.md).
 *
 * A layer below the engine: profile/ hands it every event with the
 * timestamp the engine already read; this layer knows nothing of call trees
 * or POMP2.  Each thread writes fixed-size records into its own buffer
 * (no lock, no allocation, no system call); a full buffer is written to the
 * thread's raw file during the run (a "flush", recorded as a region of its
 * own); at the end of the run pp_trace_finish turns the raw files into one
 * OTF2 archive, DIR/traces.otf2 plus DIR/traces/.
 *
 * A write that fails (disk full, file size limit, I/O error) stops the trace
 * at that moment for all threads with one "pompprof:" line; what was
 * recorded before stays in memory and still reaches the archive as far as
 * the disk allows, and the archive is always a complete, readable one. */
#ifndef PP_TRACE_H
#define PP_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "trace/pp_trace_record.h"

/* One thread's buffer.  The event path touches pos, limit and t0 only. */
typedef struct pp_trace_buf pp_trace_buf;
struct pp_trace_buf {
    uint64_t *pos;   /* next free word */
    uint64_t *limit; /* a record ending past this flushes the buffer */
    uint64_t t0;     /* ticks at the start of the trace */
    /* ---- private to pp_trace_buffer.c and the conversion ---- */
    uint64_t *start, *end;
    uint64_t *kept_end;   /* after a failed write: the end of the records kept */
    int fd;               /* the raw file, -1 once closed */
    int stopped;          /* no more records are kept (the trace stopped) */
    uint64_t file_bytes;  /* bytes of the raw file that are complete */
    uint64_t flushes;
    uint32_t location;
    uint64_t initial_task;
    pp_trace_buf *next;   /* all buffers, in order of creation */
    uint64_t scratch[2 * PP_TRACE_RECORD_MAX_WORDS]; /* records dropped after a stop */
};

/* Start tracing into directory dir (created if missing; the profile goes
 * there too): buffers of buffer_bytes per thread, timestamps relative to t0.
 * Returns 0, or -1 after one "pompprof:" line (no OTF2 in this build, the
 * directory cannot be written, no memory): the run goes on untraced. */
int pp_trace_start(const char *dir, size_t buffer_bytes, uint64_t t0);

/* Nonzero between a successful pp_trace_start and the end. */
int pp_trace_active(void);

/* The calling thread's buffer, for the thread with this location index and
 * implicit task; NULL when not tracing or when the buffer or its file cannot
 * be had (one line; that thread goes untraced). */
pp_trace_buf *pp_trace_thread_start(uint32_t location, uint64_t initial_task);

/* A crash (in the signal handler, async-signal-safe): every thread's
 * records still in memory written beside its raw file (pp_trace_crash.c),
 * for pompprof-salvage when the run does not write its archive. */
void pp_trace_crash_save(void);

/* Write the buffer's records to its raw file and start over (the event
 * path's slow part; runs on the buffer's own thread). */
void pp_trace_flush(pp_trace_buf *b);

/* The trace's own start (directories, files, the first buffer) took from
 * since until now: recorded on b as the region "pompprof trace start", so
 * that time shows as measurement, not as the program's. */
void pp_trace_started(pp_trace_buf *b, uint64_t since);

/* ---- the event path: one record, no clock read ------------------------------- */

static inline uint64_t *pp_trace_claim(pp_trace_buf *b, uint64_t now, unsigned kind)
{
    uint64_t *p = b->pos;
    p[0] = (now - b->t0) << 8 | kind;
    return p;
}

static inline void pp_trace_commit(pp_trace_buf *b, uint64_t *end)
{
    b->pos = end;
    if (__builtin_expect(end > b->limit, 0))
        pp_trace_flush(b);
}

static inline void pp_trace_put(pp_trace_buf *b, uint64_t now, unsigned kind, uint64_t a)
{
    uint64_t *p = pp_trace_claim(b, now, kind);
    p[1] = a;
    pp_trace_commit(b, p + 2);
}

static inline void pp_trace_put2(pp_trace_buf *b, uint64_t now, unsigned kind, uint64_t a,
                                 uint64_t x)
{
    uint64_t *p = pp_trace_claim(b, now, kind);
    p[1] = a;
    p[2] = x;
    pp_trace_commit(b, p + 3);
}

static inline void pp_trace_put3(pp_trace_buf *b, uint64_t now, unsigned kind, uint64_t a,
                                 uint64_t x, uint64_t y)
{
    uint64_t *p = pp_trace_claim(b, now, kind);
    p[1] = a;
    p[2] = x;
    p[3] = y;
    pp_trace_commit(b, p + 4);
}

static inline void pp_trace_put4(pp_trace_buf *b, uint64_t now, unsigned kind, uint64_t a,
                                 uint64_t x, uint64_t y, uint64_t z)
{
    uint64_t *p = pp_trace_claim(b, now, kind);
    p[1] = a;
    p[2] = x;
    p[3] = y;
    p[4] = z;
    pp_trace_commit(b, p + 5);
}

/* Counter values read together with the record just written (n <=
 * PP_TRACE_METRICS_MAX). */
static inline void pp_trace_metrics(pp_trace_buf *b, uint32_t n, const uint64_t *values)
{
    if (n > PP_TRACE_METRICS_MAX)
        n = PP_TRACE_METRICS_MAX;
    uint64_t *p = b->pos;
    p[0] = PP_TRACE_METRICS;
    p[1] = n;
    for (uint32_t i = 0; i < n; i++)
        p[2 + i] = values[i];
    pp_trace_commit(b, p + 2 + n);
}

/* The order number of a lock acquisition: process-wide, so it increases for
 * every lock (OTF2 wants it per lock). */
uint64_t pp_trace_lock_order(void);

/* ---- the end ---------------------------------------------------------------------- */

/* One value of a parameter set (pompprof_parameter_int64/_string). */
typedef struct pp_trace_param {
    uint32_t param;  /* index into pp_trace_defs.param_names */
    int is_string;   /* 1: str, 0: value */
    int64_t value;
    const char *str;
} pp_trace_param;

/* A region as the trace defines it (the profile's regions, same ids). */
typedef struct pp_trace_region {
    const char *name, *file, *paradigm, *role;
    const char *description; /* NULL, or e.g. "depend" for tasks with depend clauses */
    int begin_line, end_line;
} pp_trace_region;

typedef struct pp_trace_defs {
    const pp_trace_region *regions; /* id -> region */
    uint32_t n_regions;
    const char *const *metrics;     /* PAPI event names of METRICS records */
    uint32_t n_metrics;
    const char *program;            /* for the system tree and the archive */
    const char *host;               /* the machine's name; NULL: this one's */
    long pid;                       /* the traced process; 0: this one */
    uint64_t t_end;                 /* ticks at the end of measurement */
    double ticks_per_second;
    double wall_t0;                 /* seconds since 1970 at t0 */
    /* the run's facts (profile/pp_profile_runfacts.c), stored as archive
     * properties POMPPROF::<KEY> */
    const char *const *fact_keys, *const *fact_values;
    uint32_t n_facts;
    /* the parameters: names by id, and the values of each parameter set the
     * PARAMS records name (set p: pset_values[pset_first[p] .. pset_first[p + 1]),
     * n_psets + 1 offsets) */
    const char *const *param_names;
    uint32_t n_params;
    const uint32_t *pset_first;
    const pp_trace_param *pset_values;
    uint32_t n_psets;
} pp_trace_defs;

/* ---- definitions saved during the run (pp_trace_save.c) ------------------------ */

/* While tracing, each call appends one line to DIR/<name>.raw/defs, so
 * that the raw files of a run that never reaches pp_trace_finish (a crash,
 * SIGKILL) can still be converted (pompprof-salvage).  Never on the event
 * path: a region is saved when it is defined (or renamed), the rest at the
 * start.  Without an active trace they do nothing. */
void pp_trace_save_program(const char *program);
void pp_trace_save_clock(uint64_t t0, double wall_t0, double ticks_per_second);
void pp_trace_save_region(uint32_t id, const pp_trace_region *r);
void pp_trace_save_metric(uint32_t index, const char *name);
void pp_trace_save_fact(const char *key, const char *value);

/* Stop recording and write the archive (every thread has stopped sending
 * events); defs NULL: only remove the raw files.  Returns 0 when a complete
 * trace was written, 1 when a shorter one was (disk full: said in one line),
 * -1 when none was. */
int pp_trace_finish(const pp_trace_defs *defs);

/* The archive's anchor file (DIR/traces.otf2) once started, else "". */
const char *pp_trace_archive_path(void);

/* Tests: forget everything (buffers freed, files left alone). */
void pp_trace_reset(void);

#endif
