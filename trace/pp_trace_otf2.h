/* The OTF2 side of the end of the run, shared by pp_trace_otf2_defs.c,
 * pp_trace_otf2_events.c and pp_trace_finish.c (only built with OTF2). */
#ifndef PP_TRACE_OTF2_H
#define PP_TRACE_OTF2_H

#include <otf2/otf2.h>
#include <stdarg.h>

#include "trace/pp_trace_internal.h"
#include "trace/pp_trace_otf2_api.h"
#include "trace/pp_trace_rankdefs.h"

/* A thread team's communicator: one per fork context (the engine's fork
 * path), its members the threads that began a team with it. */
typedef struct pp_trace_team {
    uint64_t ctx;
    uint32_t region; /* the parallel region, for the name */
    uint8_t *member; /* by location index */
} pp_trace_team;

typedef struct pp_trace_lock {
    uint64_t addr;
    uint32_t id;
} pp_trace_lock;

/* The events written, for their sizes (pp_trace_conv.size). */
enum pp_trace_ev {
    PP_EV_ENTER, PP_EV_LEAVE, PP_EV_FORK, PP_EV_JOIN, PP_EV_TEAM_BEGIN, PP_EV_TEAM_END,
    PP_EV_TASK_CREATE, PP_EV_TASK_SWITCH, PP_EV_TASK_COMPLETE, PP_EV_ACQUIRE, PP_EV_RELEASE,
    PP_EV_METRIC, PP_EV_PARAM, PP_EV_MPI, PP_EV_N
};

typedef struct pp_trace_conv {
    OTF2_Archive *archive;
    const pp_trace_defs *defs;
    uint32_t n_locations;      /* the highest location index + 1 */
    /* a rank of a job (pp_trace_job.h): its clock, and its location i is the
     * job's loc_offset + i (also as the creating thread of its tasks); MPI
     * records become MPI events (NULL: not a job, they are dropped) */
    const pp_trace_jobstate *job;
    uint64_t loc_offset;
    uint64_t *events;          /* events written, by location index */
    uint8_t *defined;          /* locations that have events, by index */
    uint32_t flush_region;     /* the flush's region id (after the engine's), then the
                                  trace start's */
    uint64_t t_end;            /* where every location's trace ends (ticks) */
    pp_trace_team *teams;      /* comm id = index + 1 (comm 0: all threads) */
    uint32_t n_teams, cap_teams;
    pp_trace_lock *locks;      /* open addressing by address */
    uint32_t n_locks, cap_locks;
    uint64_t cut_locations;    /* locations cut short by the disk budget */
    double cut_at;             /* the earliest such cut, seconds into the run */
    int otf2_failed;           /* the OTF2 library reported an error */
    uint32_t depend_max;       /* the most dependences of one event: the attributes
                                  defined for them */
    /* the most bytes each event can take in a file, its timestamp included
     * (OTF2's own estimate from the numbers of definitions) */
    uint32_t size[PP_EV_N];
} pp_trace_conv;

/* Dependences (DEPEND, TASKWAIT_DEPEND records) in OTF2: each list item is
 * three attributes, in this order, of the ThreadTaskCreate of its task (a
 * taskwait depend's: of the next event of its thread, normally the Enter
 * of the taskwait region); an event with n items carries 3n attributes. */
enum pp_trace_attr {
    PP_ATTR_DEPEND_ADDR,  /* UINT64: the list item's address */
    PP_ATTR_DEPEND_SIZE,  /* UINT64: its size in bytes */
    PP_ATTR_DEPEND_KIND,  /* UINT8: a pp_depend_kind (1 in ... 6 unknown) */
    PP_ATTR_N
};
/* The most items one event carries (the attributes' definitions must fit
 * in the room kept for them): an item beyond replaces the last one's kind
 * by unknown. */
#define PP_TRACE_DEPEND_ITEMS_MAX 256
/* At most what one item's attributes add to an event. */
#define PP_TRACE_DEPEND_BYTES 48

/* Fill c->size (c->n_locations and c->defs set). */
void pp_trace_otf2_event_sizes(pp_trace_conv *c);

/* The thread team communicator of fork context ctx, with location loc a
 * member; UINT32_MAX when out of memory. */
uint32_t pp_trace_team_comm(pp_trace_conv *c, uint64_t ctx, uint32_t region, uint32_t loc);
/* The OTF2 lock id of a lock's address (dense, from 0). */
uint32_t pp_trace_lock_id(pp_trace_conv *c, uint64_t addr);

/* How many bytes location b's events may take in its file: the disk's free
 * space (plus what reading b's raw file gives back, s->punched) minus what
 * the definitions need, and the file size limit. */
typedef struct pp_trace_budget {
    uint64_t free_at_start;
    uint64_t margin;
    uint64_t limit;
} pp_trace_budget;

/* Write the events of buffer b (location b->location).  Returns 0, or -1
 * when its raw records could not be read (what was written stays valid). */
int pp_trace_otf2_location(pp_trace_conv *c, pp_trace_buf *b, const pp_trace_budget *budget);

/* ---- MPI records (pp_trace_otf2_mpi.c) ----------------------------------------------------- */

/* One location's conversion, as pp_trace_otf2_events.c keeps it. */
typedef struct pp_conv_loc pp_conv_loc;
/* Its writer and its current time (already on the rank's trace clock). */
OTF2_EvtWriter *pp_conv_writer(pp_conv_loc *l);
uint64_t pp_conv_time(const pp_conv_loc *l);
pp_trace_conv *pp_conv_of(pp_conv_loc *l);
/* Room for one more event of n bytes in the location's budget (0: the
 * location's trace ends here), and the count of one written. */
int pp_conv_event_room(pp_conv_loc *l, unsigned n);
void pp_conv_event_count(pp_conv_loc *l, OTF2_ErrorCode e);

/* A PP_TRACE_MPI_* record as its OTF2 MPI event (communicator i of the MPI
 * layer as PP_TRACE_MPI_COMM_BASE + i, which the rank's mapping table makes
 * the job's). */
void pp_trace_otf2_mpi_record(pp_conv_loc *l, const uint64_t *rec);

/* Writing global definitions (pp_trace_otf2_defs.c), shared with a job's
 * (pp_trace_otf2_jobdefs.c): strings numbered as they are written. */
typedef struct pp_defs_strings {
    OTF2_GlobalDefWriter *w;
    uint32_t next;
    int failed;
} pp_defs_strings;
OTF2_StringRef pp_defs_string(pp_defs_strings *s, const char *text);
void pp_defs_region(pp_defs_strings *s, OTF2_RegionRef id, const pp_trace_region *r);
/* the PAPI metrics of c->defs; the dependence attributes up to c->depend_max */
void pp_defs_metrics(pp_trace_conv *c, pp_defs_strings *s);
void pp_defs_attributes(pp_trace_conv *c, pp_defs_strings *s);
/* the trace's own regions: the flush, the start */
extern const pp_trace_region pp_trace_flush_region, pp_trace_start_region;

/* The global definitions, and every location's (empty) local ones. */
int pp_trace_otf2_definitions(pp_trace_conv *c);
/* Bytes the definitions will take at most (for the disk budget). */
uint64_t pp_trace_otf2_definitions_size(const pp_trace_defs *defs, uint32_t n_locations);

/* Parameters: parameter i is OTF2 parameter i, its name string 1 + i; value
 * j of pset_values is string 1 + n_params + j (as text, also a number's, for
 * a parameter that took a string somewhere: OTF2 gives a parameter one type). */
static inline uint32_t pp_trace_param_string(const pp_trace_defs *d, uint32_t j)
{
    return 1 + d->n_params + j;
}
/* Whether parameter i is a string parameter (any of its values is one). */
int pp_trace_param_is_string(const pp_trace_defs *d, uint32_t i);

/* A task handle as OTF2 identifies tasks: the creating thread (the handle's
 * location index) and its generation number (the handle's counter).  Thread
 * team: comm 0, all threads, whose ranks are the location indices. */
static inline uint32_t pp_trace_task_thread(uint64_t h)
{
    return (uint32_t)(h >> 40) - 1;
}
/* The same in a rank of a job: the thread's number among all the job's. */
static inline uint32_t pp_trace_task_thread_of(const pp_trace_conv *c, uint64_t h)
{
    return (uint32_t)c->loc_offset + pp_trace_task_thread(h);
}
static inline uint32_t pp_trace_task_generation(uint64_t h)
{
    return (uint32_t)h;
}

/* ---- shared by the archive's writers (pp_trace_finish.c) ------------------------------ */

/* OTF2's errors as c->otf2_failed (user: the pp_trace_conv), not on stderr. */
OTF2_ErrorCode pp_trace_otf2_error(void *user, const char *file, uint64_t line,
                                   const char *function, OTF2_ErrorCode code, const char *fmt,
                                   va_list va);
extern const OTF2_FlushCallbacks pp_trace_flush_callbacks;
/* Free bytes in the trace's directory. */
uint64_t pp_trace_free_bytes(void);
void pp_trace_conv_free(pp_trace_conv *c);
/* The run's facts as the archive's properties POMPPROF::<KEY>. */
void pp_trace_write_facts(pp_trace_conv *c, const pp_trace_defs *defs);

/* ---- a job's archive (pp_trace_otf2_job.c, pp_trace_otf2_jobdefs.c) ---------------------- */

/* Write the job's archive together with the other ranks (pp_trace_job_end). */
int pp_trace_write_job_archive(const pp_trace_defs *defs);
/* Convert this process's threads (pp_trace_g's buffers) into c's archive as
 * the rank's locations: 0, or -1 a raw file could not be read. */
int pp_trace_job_convert(pp_trace_conv *c, uint64_t free_share);
/* The rank's definitions after its conversion (deep copies): 0 or -1. */
int pp_trace_job_summary(const pp_trace_conv *c, const pp_trace_jobstate *j, pp_trace_rank *r);
/* The job's global definitions (rank 0), a rank's local ones. */
int pp_trace_otf2_job_globals(OTF2_Archive *archive, const pp_trace_jobdefs *u);
int pp_trace_otf2_job_locals(OTF2_Archive *archive, const pp_trace_rank *r,
                             const pp_trace_jobmap *m);
/* Remove the files of a rank's locations (first .. first + n), and with
 * global also the anchor and global definitions. */
void pp_trace_job_remove(uint64_t first, uint32_t n, int global);

#endif
