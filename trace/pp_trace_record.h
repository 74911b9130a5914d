/* The raw trace records: what a thread's buffer holds and its raw file
 * receives at a flush, before the end of the run turns them into OTF2
 * (pp_trace_otf2_events.c).  doc/trace.md tells why raw first.
 *
 * A record is 2 to 5 64-bit words (METRICS: 2 + the number of values, at
 * most PP_TRACE_METRICS_MAX):
 *
 *   word 0   (ticks since the trace began) << 8 | kind
 *   word 1   a: the kind's first operand
 *   word 2-4 b, c, d: the operands of the longer kinds
 *
 * 56 bits of ticks last 278 days at 3 GHz.  A raw file starts with a header
 * (pp_trace_raw_header) and is then a plain sequence of records, so a file
 * cut at any record boundary is still a valid, shorter raw trace. */
#ifndef PP_TRACE_RECORD_H
#define PP_TRACE_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "lib/pp_counters.h"

enum pp_trace_kind {
    PP_TRACE_ENTER = 1,    /* a: region */
    PP_TRACE_LEAVE,        /* a: region */
    PP_TRACE_FORK,         /* a: threads requested */
    PP_TRACE_JOIN,         /* a: 0 */
    PP_TRACE_TEAM_BEGIN,   /* a: fork context, b: parallel region, c: the new implicit task */
    PP_TRACE_TEAM_END,     /* a: parallel region, b: the task that runs afterwards */
    PP_TRACE_TASK_CREATE,  /* a: the new task (its create region is the innermost open one) */
    PP_TRACE_TASK_BEGIN,   /* a: task, b: task region */
    PP_TRACE_TASK_END,     /* a: task, b: task region */
    PP_TRACE_TASK_SWITCH,  /* a: the task that resumes */
    PP_TRACE_LOCK_ACQUIRE, /* a: lock address, b: acquisition order (process-wide) */
    PP_TRACE_LOCK_RELEASE, /* a: lock address */
    PP_TRACE_METRICS,      /* a: n, then n counter values; time: the record before it */
    PP_TRACE_FLUSH_BEGIN,  /* a: 0 a flush, 1 the trace's start (pp_trace_started) */
    PP_TRACE_FLUSH_END,    /* a: as its begin */
    PP_TRACE_PARAMS,       /* a: the parameter set now in force (the engine's set id) */
    PP_TRACE_DEPEND,       /* a: the task created, b: address, c: pp_trace_depend_word */
    PP_TRACE_TASKWAIT_DEPEND, /* a: the waiting task, b: address, c: pp_trace_depend_word */
    /* MPI messages (mpi/ through profile/pp_profile_message.h; doc/trace.md, "Hybrid
     * traces"): peer and tag as pp_trace_mpi_word, comm the MPI layer's communicator
     * index (pp_trace_job.h), request an id the MPI layer gave the request */
    PP_TRACE_MPI_SEND,        /* a: receiver|tag, b: comm, c: bytes (at the call's start) */
    PP_TRACE_MPI_RECV,        /* a: sender|tag, b: comm, c: bytes (when it returned) */
    PP_TRACE_MPI_ISEND,       /* a: receiver|tag, b: comm, c: bytes, d: request */
    PP_TRACE_MPI_ISEND_COMPLETE, /* a: request */
    PP_TRACE_MPI_IRECV_REQUEST,  /* a: request */
    PP_TRACE_MPI_IRECV,       /* a: sender|tag, b: comm, c: bytes, d: request (completed) */
    PP_TRACE_MPI_REQUEST_TEST,   /* a: request (tested, not complete) */
    PP_TRACE_MPI_REQUEST_CANCELLED, /* a: request */
    PP_TRACE_MPI_COLL_BEGIN,  /* a: 0 */
    PP_TRACE_MPI_COLL_END,    /* a: operation|root, b: comm, c: bytes sent, d: received */
    PP_TRACE_KIND_END
};

/* Words of a record of this kind (METRICS: without its values). */
static inline unsigned pp_trace_record_words(unsigned kind)
{
    switch (kind) {
    case PP_TRACE_MPI_ISEND:
    case PP_TRACE_MPI_IRECV:
    case PP_TRACE_MPI_COLL_END: return 5;
    case PP_TRACE_MPI_SEND:
    case PP_TRACE_MPI_RECV:
    case PP_TRACE_TEAM_BEGIN:
    case PP_TRACE_DEPEND:
    case PP_TRACE_TASKWAIT_DEPEND: return 4;
    case PP_TRACE_TASK_BEGIN:
    case PP_TRACE_TASK_END:
    case PP_TRACE_TEAM_END:
    case PP_TRACE_LOCK_ACQUIRE: return 3;
    default: return 2;
    }
}

/* Dependences (profile/pp_profile_depend.h): one record per list item of a
 * depend clause, in clause order, right after the event they belong to and
 * with its time: DEPEND after the TASK_CREATE of its task, TASKWAIT_DEPEND
 * before the taskwait it waits in.  Word c holds the item's size in bytes
 * (56 bits) and its kind (a pp_depend_kind, 8 bits). */
static inline uint64_t pp_trace_depend_word(uint64_t size, unsigned kind)
{
    if (size >> 56)
        size = ((uint64_t)1 << 56) - 1;
    return size << 8 | (kind & 0xff);
}
#define PP_TRACE_DEPEND_SIZE(c) ((c) >> 8)
#define PP_TRACE_DEPEND_KIND(c) ((unsigned)((c) & 0xff))
/* The kind of an item whose storage is unknown (PP_DEPEND_UNKNOWN of
 * profile/pp_profile_depend.h, which this layer does not include). */
#define PP_DEPEND_UNKNOWN_KIND 6

/* An MPI record's first operand: a rank (the peer in the communicator, or a
 * collective's root; UINT32_MAX none) and a tag (or a collective operation,
 * OTF2_CollectiveOp), 32 bits each. */
static inline uint64_t pp_trace_mpi_word(uint32_t rank, uint32_t tag)
{
    return (uint64_t)tag << 32 | rank;
}
#define PP_TRACE_MPI_RANK(a) ((uint32_t)(a))
#define PP_TRACE_MPI_TAG(a) ((uint32_t)((a) >> 32))

/* The longest record: METRICS with as many values as a thread counts. */
#define PP_TRACE_METRICS_MAX PP_COUNTERS_MAX
#define PP_TRACE_RECORD_MAX_WORDS (2 + PP_TRACE_METRICS_MAX)

#define PP_TRACE_RAW_MAGIC 0x3177617270706d70ull /* "pmpprawb" read little-endian */
#define PP_TRACE_RAW_VERSION 1

/* The first 64 bytes of a raw file, and of the tail a crash saves beside
 * it (trace/pp_trace_crash.c). */
typedef struct pp_trace_raw_header {
    uint64_t magic;
    uint32_t version;
    uint32_t location;      /* the thread's index, in order of first event */
    uint64_t initial_task;  /* the thread's implicit task outside parallel regions */
    uint64_t t0;            /* ticks at the start of the trace */
    uint64_t raw_bytes;     /* a tail: the bytes of the raw file complete when it was
                               saved (what reached the file after is not the tail's
                               again); 0 in a raw file, and unknown */
    uint64_t reserved[3];
} pp_trace_raw_header;

/* The length in words of the record at p (n words there), 0 when it is cut
 * off or not a record. */
static inline unsigned pp_trace_record_length(const uint64_t *p, size_t n)
{
    unsigned kind = (unsigned)(p[0] & 0xff);
    if (n < 2 || kind == 0 || kind >= PP_TRACE_KIND_END)
        return 0;
    unsigned w = pp_trace_record_words(kind);
    if (kind == PP_TRACE_METRICS) {
        if (p[1] > PP_TRACE_METRICS_MAX)
            return 0;
        w = 2 + (unsigned)p[1];
    }
    return w <= n ? w : 0;
}

#endif
