/* The MPI records of a hybrid trace (pp_mpi_trace.h), and the job's trace
 * at MPI_Init and MPI_Finalize.
 *
 * Times: a send is recorded at the call's start (its region's enter, the
 * thread's last event: no clock read), so that a receive, recorded when it
 * returns (a clock read), never precedes it on one clock; a non-blocking
 * call's request at its start, its completion when the completing call
 * returns; a collective's begin at its start, its end when it returns.  A
 * message to or from MPI_PROC_NULL is no message: nothing is recorded. */
#include "mpi/pp_mpi_trace.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pp_message.h"
#include "mpi/pp_mpi_bytes.h"
#include "profile/pp_profile_message.h"
#include "trace/pp_trace_job.h"
#include "trace/pp_trace_record.h"

int pp_mpi_tracing;

/* ---- the job ------------------------------------------------------------------------------ */

void pp_mpi_trace_start(MPI_Comm comm, int rank, int size)
{
    /* all ranks trace, or none does (a rank whose trace did not start keeps
     * the others from waiting for it) */
    int mine = pp_trace_job_begin(rank, size) == 0, all = 0;
    if (PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS || !all) {
        if (mine) {
            pp_message_warn("trace: not every rank of the job traces; rank %d writes a trace "
                            "of its own", rank);
            pp_trace_job_forget();
        }
        return;
    }
    /* the raw files into the job's directory (rank 0's) */
    char dir[PATH_MAX];
    if (rank == 0)
        strncpy(dir, pp_trace_job_dir(), sizeof dir - 1);
    dir[sizeof dir - 1] = '\0';
    PMPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, comm);
    int index = pp_trace_job_name_index(dir);
    int *taken = rank == 0 ? calloc((size_t)size, sizeof *taken) : NULL;
    PMPI_Gather(&index, 1, MPI_INT, taken, 1, MPI_INT, 0, comm);
    if (rank == 0)
        index = pp_trace_job_choose(dir, taken ? taken : &index, taken ? size : 1);
    free(taken);
    PMPI_Bcast(&index, 1, MPI_INT, 0, comm);
    pp_trace_job_move(dir, index, 1);
    PMPI_Barrier(comm);
    if (rank == 0)
        pp_trace_job_move(dir, index, 2);
    PMPI_Barrier(comm);
    pp_trace_job_move(dir, index, 3);
    if (pp_mpi_comm_start(rank, size) != 0 || pp_mpi_request_start() != 0)
        pp_message_warn("trace: out of memory for the MPI messages; the trace has the MPI "
                        "calls but not their messages");
    pp_mpi_clock_sync(comm, rank, size);
    __atomic_store_n(&pp_mpi_tracing, 1, __ATOMIC_RELEASE);
}

void pp_mpi_trace_end(MPI_Comm comm, int rank, int size)
{
    if (!pp_mpi_trace_on())
        return;
    __atomic_store_n(&pp_mpi_tracing, 0, __ATOMIC_RELEASE);
    pp_mpi_clock_sync(comm, rank, size);
    static MPI_Comm archive_comm;
    archive_comm = comm;
    pp_trace_job_end(pp_mpi_otf2_collectives, &archive_comm);
}

/* ---- point to point ------------------------------------------------------------------------- */

static uint64_t pp_mpi_word(int rank, int tag)
{
    return pp_trace_mpi_word(rank < 0 ? UINT32_MAX : (uint32_t)rank, tag < 0 ? 0 : (uint32_t)tag);
}

void pp_mpi_trace_send(int dest, int tag, MPI_Comm comm, uint64_t bytes)
{
    if (dest == MPI_PROC_NULL)
        return;
    pp_profile_message(1, PP_TRACE_MPI_SEND, pp_mpi_word(dest, tag), pp_mpi_comm_index(comm),
                       bytes, 0);
}

void pp_mpi_trace_recv(const MPI_Status *status, MPI_Comm comm, uint64_t bytes)
{
    if (!status || status->MPI_SOURCE == MPI_PROC_NULL)
        return;
    pp_profile_message(0, PP_TRACE_MPI_RECV, pp_mpi_word(status->MPI_SOURCE, status->MPI_TAG),
                       pp_mpi_comm_index(comm), bytes, 0);
}

void pp_mpi_trace_isend(int dest, int tag, MPI_Comm comm, uint64_t bytes, MPI_Request request)
{
    if (dest == MPI_PROC_NULL || !pp_profile_message_traced())
        return;
    pp_mpi_req v = {pp_mpi_request_id(), pp_mpi_comm_index(comm), PP_MPI_REQ_ISEND};
    pp_profile_message(1, PP_TRACE_MPI_ISEND, pp_mpi_word(dest, tag), v.comm, bytes, v.id);
    pp_mpi_request_put(request, &v);
}

void pp_mpi_trace_irecv(MPI_Comm comm, MPI_Request request)
{
    if (!pp_profile_message_traced())
        return;
    pp_mpi_req v = {pp_mpi_request_id(), pp_mpi_comm_index(comm), PP_MPI_REQ_IRECV};
    pp_profile_message(1, PP_TRACE_MPI_IRECV_REQUEST, v.id, 0, 0, 0);
    pp_mpi_request_put(request, &v);
}

/* ---- completions ---------------------------------------------------------------------------- */

void pp_mpi_trace_pre(pp_mpi_tcall *t, int n, const MPI_Request *reqs, MPI_Status **statuses)
{
    t->traced = n > 0 && pp_profile_message_traced();
    t->n = n;
    t->reqs = t->local;
    t->sts = NULL;
    if (!t->traced)
        return;
    if (n > PP_MPI_TCALL_LOCAL && !(t->reqs = malloc((size_t)n * sizeof *t->reqs))) {
        t->traced = 0;
        return;
    }
    memcpy(t->reqs, reqs, (size_t)n * sizeof *t->reqs);
    if (statuses && (*statuses == MPI_STATUS_IGNORE || *statuses == MPI_STATUSES_IGNORE)) {
        t->sts = n > PP_MPI_TCALL_LOCAL ? malloc((size_t)n * sizeof *t->sts) : t->local_st;
        if (t->sts)
            *statuses = t->sts;
    }
}

void pp_mpi_trace_post(pp_mpi_tcall *t)
{
    if (t->reqs != t->local)
        free(t->reqs);
    if (t->sts && t->sts != t->local_st)
        free(t->sts);
}

/* Request i completed with status st. */
static void pp_mpi_trace_done(pp_mpi_tcall *t, int i, const MPI_Status *st)
{
    pp_mpi_req v;
    if (i < 0 || i >= t->n || t->reqs[i] == MPI_REQUEST_NULL || !pp_mpi_request_take(t->reqs[i], &v))
        return;
    int cancelled = 0;
    if (st && st != MPI_STATUS_IGNORE)
        PMPI_Test_cancelled(st, &cancelled);
    if (cancelled) {
        pp_profile_message(0, PP_TRACE_MPI_REQUEST_CANCELLED, v.id, 0, 0, 0);
    } else if (v.kind == PP_MPI_REQ_ISEND) {
        pp_profile_message(0, PP_TRACE_MPI_ISEND_COMPLETE, v.id, 0, 0, 0);
    } else if (st && st != MPI_STATUS_IGNORE && st->MPI_SOURCE != MPI_PROC_NULL) {
        pp_mpi_bytes b = {0, 0};
        pp_mpi_bytes_recv(&b, st);
        pp_profile_message(0, PP_TRACE_MPI_IRECV, pp_mpi_word(st->MPI_SOURCE, st->MPI_TAG),
                           v.comm, b.received, v.id);
    }
}

/* Request i was tested and is not complete. */
static void pp_mpi_trace_pending(pp_mpi_tcall *t, int i)
{
    pp_mpi_req v;
    if (t->reqs[i] == MPI_REQUEST_NULL || !pp_mpi_request_take(t->reqs[i], &v))
        return;
    pp_profile_message(1, PP_TRACE_MPI_REQUEST_TEST, v.id, 0, 0, 0);
    pp_mpi_request_put(t->reqs[i], &v);
}

void pp_mpi_trace_wait(pp_mpi_tcall *t, const MPI_Status *status)
{
    if (t->traced)
        pp_mpi_trace_done(t, 0, status);
}

void pp_mpi_trace_test(pp_mpi_tcall *t, int flag, const MPI_Status *status)
{
    if (!t->traced)
        return;
    if (flag)
        pp_mpi_trace_done(t, 0, status);
    else
        pp_mpi_trace_pending(t, 0);
}

void pp_mpi_trace_waitall(pp_mpi_tcall *t, const MPI_Status *statuses)
{
    for (int i = 0; t->traced && i < t->n; i++)
        pp_mpi_trace_done(t, i, statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[i]);
}

void pp_mpi_trace_testall(pp_mpi_tcall *t, int flag, const MPI_Status *statuses)
{
    if (flag) {
        pp_mpi_trace_waitall(t, statuses);
        return;
    }
    for (int i = 0; t->traced && i < t->n; i++)
        pp_mpi_trace_pending(t, i);
}

void pp_mpi_trace_any(pp_mpi_tcall *t, int index, int flag, const MPI_Status *status)
{
    if (!t->traced)
        return;
    if (flag && index != MPI_UNDEFINED)
        pp_mpi_trace_done(t, index, status);
    else if (!flag)
        for (int i = 0; i < t->n; i++)
            pp_mpi_trace_pending(t, i);
}

void pp_mpi_trace_some(pp_mpi_tcall *t, int outcount, const int *indices,
                       const MPI_Status *statuses)
{
    for (int k = 0; t->traced && outcount != MPI_UNDEFINED && k < outcount; k++)
        pp_mpi_trace_done(t, indices[k], statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[k]);
}

void pp_mpi_trace_request_free(MPI_Request request)
{
    pp_mpi_req v;
    if (request != MPI_REQUEST_NULL)
        pp_mpi_request_take(request, &v);
}

/* ---- collectives ----------------------------------------------------------------------------- */

void pp_mpi_trace_coll(int op, int root, MPI_Comm comm, uint64_t sent, uint64_t received)
{
    if (!pp_profile_message_traced())
        return;
    pp_profile_message(1, PP_TRACE_MPI_COLL_BEGIN, 0, 0, 0, 0);
    pp_profile_message(0, PP_TRACE_MPI_COLL_END, pp_mpi_word(root, op), pp_mpi_comm_index(comm),
                       sent, received);
}
