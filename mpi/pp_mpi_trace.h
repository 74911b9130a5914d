/* The MPI layer's part of a hybrid trace (doc/trace.md, "Hybrid traces"):
 * the messages of point-to-point and collective calls as trace records,
 * the communicators they name, the requests of non-blocking calls, the
 * clocks' offsets to rank 0's, and OTF2's MPI collectives for writing the
 * job's one archive.
 *
 *   pp_mpi_trace.c     the records the generated wrappers write
 *                      (pp_mpi_trace.tbl says which function writes which)
 *   pp_mpi_comm.c      communicators: a number each, the same key on every
 *                      member rank, members as world ranks
 *   pp_mpi_request.c   the requests of non-blocking calls: an id each
 *   pp_mpi_clock.c     the offsets to rank 0's clock (ping-pong)
 *   pp_mpi_otf2.c      OTF2_MPI_Collectives.h, for the archive's writing
 *
 * The records go through the engine into the calling thread's trace
 * buffer (profile/pp_profile_message.h): no lock, no allocation, no system
 * call beyond the MPI call itself.  Untraced, a wrapper pays one test of
 * pp_mpi_tracing. */
#ifndef PP_MPI_TRACE_H
#define PP_MPI_TRACE_H

#include <mpi.h>
#include <stdint.h>

/* Nonzero while this rank traces as part of the job's trace (from MPI_Init
 * to MPI_Finalize). */
extern int pp_mpi_tracing;

static inline int pp_mpi_trace_on(void)
{
    return __builtin_expect(__atomic_load_n(&pp_mpi_tracing, __ATOMIC_RELAXED), 0);
}

/* ---- the job (pp_mpi_trace.c) ------------------------------------------------------- */

/* After MPI_Init: whether every rank traces; then the raw files into the
 * job's directory, the communicators and requests, the first clock
 * offsets.  Collective over comm (the layer's duplicate of
 * MPI_COMM_WORLD). */
void pp_mpi_trace_start(MPI_Comm comm, int rank, int size);
/* Before MPI_Finalize's end of measurement: the last clock offsets, and the
 * trace layer told to write the job's archive together (collective). */
void pp_mpi_trace_end(MPI_Comm comm, int rank, int size);

/* ---- records: point to point (pp_mpi_trace.c) ----------------------------------------- */

void pp_mpi_trace_send(int dest, int tag, MPI_Comm comm, uint64_t bytes);
void pp_mpi_trace_recv(const MPI_Status *status, MPI_Comm comm, uint64_t bytes);
void pp_mpi_trace_isend(int dest, int tag, MPI_Comm comm, uint64_t bytes, MPI_Request request);
void pp_mpi_trace_irecv(MPI_Comm comm, MPI_Request request);

/* The requests a completion call is given, taken before the call (MPI
 * sets the completed ones to MPI_REQUEST_NULL), and statuses of its own
 * where the program ignores them (the completion of a receive needs the
 * sender, tag and size).  Up to PP_MPI_TCALL_LOCAL on the stack. */
#define PP_MPI_TCALL_LOCAL 16
typedef struct pp_mpi_tcall {
    int traced, n;
    MPI_Request *reqs;
    MPI_Status *sts;
    MPI_Request local[PP_MPI_TCALL_LOCAL];
    MPI_Status local_st[PP_MPI_TCALL_LOCAL];
} pp_mpi_tcall;

/* Before the call: the n requests (a single one: n 1), and *statuses (an
 * array of n, or one) replaced by the call's own when the program passed
 * MPI_STATUS(ES)_IGNORE (statuses NULL: none). */
void pp_mpi_trace_pre(pp_mpi_tcall *t, int n, const MPI_Request *reqs, MPI_Status **statuses);
/* After a successful call: which requests completed. */
void pp_mpi_trace_wait(pp_mpi_tcall *t, const MPI_Status *status);
void pp_mpi_trace_test(pp_mpi_tcall *t, int flag, const MPI_Status *status);
void pp_mpi_trace_waitall(pp_mpi_tcall *t, const MPI_Status *statuses);
void pp_mpi_trace_testall(pp_mpi_tcall *t, int flag, const MPI_Status *statuses);
void pp_mpi_trace_any(pp_mpi_tcall *t, int index, int flag, const MPI_Status *status);
void pp_mpi_trace_some(pp_mpi_tcall *t, int outcount, const int *indices,
                       const MPI_Status *statuses);
/* Always after the call: what pre allocated. */
void pp_mpi_trace_post(pp_mpi_tcall *t);
/* MPI_Request_free: the request's completion will not be seen. */
void pp_mpi_trace_request_free(MPI_Request request);

/* ---- records: collectives (pp_mpi_trace.c) --------------------------------------------- */

/* A collective of OTF2 operation op (OTF2_CollectiveOp's number) on comm
 * with root (-1: none), the bytes this rank sent and received: its begin
 * at the call's start, its end now. */
void pp_mpi_trace_coll(int op, int root, MPI_Comm comm, uint64_t sent, uint64_t received);

/* ---- communicators (pp_mpi_comm.c) --------------------------------------------------------- */

/* MPI_COMM_WORLD (number 0) and MPI_COMM_SELF (1) of rank `rank` of `size`. */
int pp_mpi_comm_start(int rank, int size);
/* The communicator's number, UINT32_MAX when unknown (no lock). */
uint32_t pp_mpi_comm_index(MPI_Comm comm);
/* A communicator made from parent by function `how` (every rank that took
 * part calls this, also one that got MPI_COMM_NULL). */
void pp_mpi_comm_created(MPI_Comm parent, MPI_Comm made, const char *how);
/* comm is about to be freed (its handle may come back for another). */
void pp_mpi_comm_freed(MPI_Comm comm);

/* ---- requests (pp_mpi_request.c) ------------------------------------------------------------ */

enum { PP_MPI_REQ_ISEND = 1, PP_MPI_REQ_IRECV };

typedef struct pp_mpi_req {
    uint64_t id;
    uint32_t comm;
    uint32_t kind;
} pp_mpi_req;

int pp_mpi_request_start(void);
/* A new request id. */
uint64_t pp_mpi_request_id(void);
/* Keep request r (no lock, no allocation); 0, or -1 when the table is full. */
int pp_mpi_request_put(MPI_Request r, const pp_mpi_req *v);
/* Find and forget request r: 1 and *v, or 0 when it is not kept. */
int pp_mpi_request_take(MPI_Request r, pp_mpi_req *v);

/* ---- clocks (pp_mpi_clock.c) ------------------------------------------------------------------ */

/* Every rank's offset to rank 0's clock, by ping-pong with rank 0 (the
 * round of the least round trip kept), to the trace (collective). */
void pp_mpi_clock_sync(MPI_Comm comm, int rank, int size);

/* ---- OTF2's collectives (pp_mpi_otf2.c) -------------------------------------------------------- */

/* Register OTF2_MPI_Collectives.h's callbacks over *(MPI_Comm *)comm with
 * the archive: 0, or -1. */
int pp_mpi_otf2_collectives(void *archive, void *comm);

#endif
