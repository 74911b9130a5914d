/* trace/ internals shared by its files, lowest first:
 *
 *   pp_trace_buffer.c       start, the threads' buffers, flushes, the stop
 *   pp_trace_crash.c        a crash: the buffers' records saved as tails
 *   pp_trace_source.c       reading one thread's records back at the end
 *   pp_trace_otf2_api.c     the OTF2 library, loaded when a trace starts
 *   pp_trace_otf2_defs.c    the archive's global definitions
 *   pp_trace_otf2_events.c  one thread's records as OTF2 events
 *   pp_trace_finish.c       the end: archive, budget, clean-up
 *   pp_trace_job.c          a rank of a job (pp_trace_job.h): its clock, its
 *                           communicators, its raw files in the job's directory
 *   pp_trace_rankdefs.c     a rank's definitions as bytes and back
 *   pp_trace_unify.c        every rank's definitions as the job's
 *   pp_trace_otf2_mpi.c     MPI records as OTF2's MPI events
 *   pp_trace_otf2_job.c     the job's archive, written by all ranks together
 *   pp_trace_otf2_jobdefs.c its global and local definitions
 *   pp_trace_resume.c       raw files another process left, read back and
 *                           converted (pp_trace_resume.h, pompprof-salvage)
 *   pp_trace_resume_job.c   a job's: its ranks into one archive
 *
 * Nothing here knows the engine (test/unit/trace/test_trace_layers.py
 * checks that trace objects use no profile or adapter symbol). */
#ifndef PP_TRACE_INTERNAL_H
#define PP_TRACE_INTERNAL_H

#include "config.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/pp_trace.h"
#include "trace/pp_trace_resume.h"

/* ---- a rank of a job (pp_trace_job.c) --------------------------------------- */

/* An offset to rank 0's clock (pp_trace_job_sync). */
typedef struct pp_trace_sync {
    uint64_t time;
    int64_t offset;
    double sd;
} pp_trace_sync;
#define PP_TRACE_SYNCS 16

/* A communicator of the MPI layer (pp_trace_job_comm). */
typedef struct pp_trace_comm {
    uint32_t index, parent;
    uint64_t key;
    char *name;
    uint32_t n;
    uint32_t *world;
} pp_trace_comm;

typedef struct pp_trace_jobstate {
    int active;             /* this process is a rank of a job */
    int rank, size;
    int together;           /* pp_trace_job_end: the finish writes the job's archive */
    int (*set_collectives)(void *archive, void *user);
    void *user;
    /* OTF2's collectives, once the job layer registered them (pp_trace_job_collectives) */
    const void *coll_callbacks;
    void *coll_data, *coll_global;
    /* POMPPROF_TEST_CLOCK_SKEW on this rank: t + offset + drift * (t - base) */
    int skewed;
    double skew_offset, skew_drift;
    uint64_t skew_base;
    pp_trace_sync syncs[PP_TRACE_SYNCS];
    uint32_t n_syncs;
    pp_trace_comm *comms;   /* by index (n 0: not defined) */
    uint32_t n_comms;
} pp_trace_jobstate;

/* ---- the process-wide state (pp_trace_buffer.c) ---------------------------- */

typedef struct pp_trace_state {
    pthread_mutex_t lock;   /* buffer list and start only */
    int active;
    int stopped;            /* atomic: a write failed, nothing more is written */
    uint64_t stop_time;     /* ticks: records after this are incomplete (UINT64_MAX: none) */
    char dir[PATH_MAX];     /* where the archive goes */
    char name[64];          /* the archive's name: traces, traces.1, ... */
    char raw_dir[PATH_MAX]; /* DIR/<name>.raw: the raw files while the program runs */
    char reserve[PATH_MAX]; /* a file holding disk space for the definitions ("" none) */
    uint64_t reserve_bytes;
    char anchor[PATH_MAX];  /* DIR/<name>.otf2 */
    size_t buffer_words;
    uint64_t t0;
    uint64_t fsize_limit;   /* RLIMIT_FSIZE in bytes (UINT64_MAX: none) */
    uint64_t lock_order;    /* atomic */
    pp_trace_buf *first, *last;
    uint32_t n_buffers;
    pid_t pid;              /* the traced process: a child after fork() writes nothing */
    int save_fd;            /* DIR/<name>.raw/defs (pp_trace_save.c), -1 none */
    int salvage;            /* converting another process's raw files (pompprof-salvage):
                               they are kept until the archive is complete */
    int name_index;         /* name: traces (0), traces.K (K) */
    pp_trace_jobstate job;  /* a rank of a job (pp_trace_job.c) */
} pp_trace_state;

extern pp_trace_state pp_trace_g;

/* Disk space held back while the program runs, for the archive's
 * definitions at the end: this much, or a quarter of the free space when
 * that is less. */
#define PP_TRACE_RESERVE_BYTES ((uint64_t)1 << 20)

/* Record that writing failed at time `at` (ticks) with errno err on path:
 * the one line about it, and the stop for every thread. */
void pp_trace_stop(uint64_t at, int err, const char *path);

/* A path made like snprintf; 0, or -1 when it did not fit (start checks
 * that the directory leaves room for every name the trace uses). */
int pp_trace_path(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The archive name of number index: traces, traces.1, ... */
void pp_trace_name(char *buf, size_t size, unsigned index);

/* The raw file of location loc, and the tail a crash saved beside it
 * (pp_trace_crash.c; "" when the path does not fit); _in: in raw_dir
 * rather than the trace's. */
void pp_trace_raw_path(uint32_t loc, char *buf, size_t size);
void pp_trace_tail_path(uint32_t loc, char *buf, size_t size);
void pp_trace_raw_path_in(const char *raw_dir, uint32_t loc, char *buf, size_t size);
void pp_trace_tail_path_in(const char *raw_dir, uint32_t loc, char *buf, size_t size);

/* The definitions file (pp_trace_save.c): opened once the raw directory
 * exists (its first line: the pid), removed with the raw files. */
void pp_trace_save_open(void);
void pp_trace_save_close(void);
/* One line of the definitions file: kind, then n fields (escaped). */
void pp_trace_save_kind(const char *kind, unsigned n, const char *const *fields);

/* The time of a raw timestamp t on the rank's clock as its trace shows it
 * (POMPPROF_TEST_CLOCK_SKEW, pp_trace_job.h; t itself otherwise). */
static inline uint64_t pp_trace_clock(const pp_trace_jobstate *j, uint64_t t)
{
    if (!j->skewed)
        return t;
    double d = (double)t - (double)j->skew_base;
    return (uint64_t)((double)t + j->skew_offset + j->skew_drift * d);
}

/* Keep communicator index of the MPI layer (pp_trace_job_comm, and a
 * salvage reading the definitions file): 0, or -1 out of memory. */
int pp_trace_job_comm_keep(pp_trace_jobstate *j, uint32_t index, uint32_t parent, uint64_t key,
                           const char *name, const uint32_t *world, uint32_t n);
/* Forget the job's state (pp_trace_reset). */
void pp_trace_job_reset(void);
/* A rank that ends alone: every thread's records to its raw file, which
 * stay for pompprof-salvage (one line says so).  Returns -1 (no archive). */
int pp_trace_job_leave(uint64_t t_end);
/* Write the buffer's records to its raw file (no flush records): 0, or an errno. */
int pp_trace_spill(pp_trace_buf *b);

/* ---- resuming from raw files (pp_trace_resume.c, pp_trace_resume.h) ---------- */

struct pp_trace_resume {
    char raw_dir[PATH_MAX];
    pp_trace_buf *first;              /* the threads' buffers, by location */
    pp_trace_resume_thread *threads;  /* the same threads, as read */
    uint32_t n_threads, cap_threads;
    uint32_t n_locations;             /* the highest location + 1 */
    uint32_t max_region;              /* UINT32_MAX: none */
    pp_trace_jobstate job;            /* the job layer's lines of its definitions */
    uint64_t job_end;
};

/* This process converts another's raw files into DIR/<name>: the layer's
 * state as that process would have left it (pp_trace_g.salvage: the raw
 * files stay until the archive is complete).  0, or -1 (one line) when the
 * paths do not fit. */
int pp_trace_resume_begin(const char *dir, const char *name);
/* r's threads as the layer's buffers (timestamps from t0), and back. */
void pp_trace_resume_lend(pp_trace_resume *r, uint64_t t0);
void pp_trace_resume_return(void);

/* ---- reading records back (pp_trace_source.c) -------------------------------- */

typedef struct pp_trace_source {
    pp_trace_buf *b;
    int fd;                 /* the raw file, read from file_off */
    uint64_t file_off, file_end, punched;
    uint64_t *blk;          /* records read from the file, not yet handed out */
    size_t blk_pos, blk_n, blk_cap;
    int in_memory;          /* the file is done: the records left in memory */
    const uint64_t *mem, *mem_end;
} pp_trace_source;

/* Open b's records: its raw file (after the header), then what stayed in
 * memory.  Returns 0, or -1 (out of memory). */
int pp_trace_source_open(pp_trace_source *s, pp_trace_buf *b);
/* The next record (its words in *rec, its length in *words): 1; the end: 0;
 * an unreadable file: -1.  Disk space of the file's part that was read is
 * handed back to the file system as it goes (the archive needs it). */
int pp_trace_source_next(pp_trace_source *s, const uint64_t **rec, unsigned *words);
void pp_trace_source_close(pp_trace_source *s);

#endif
