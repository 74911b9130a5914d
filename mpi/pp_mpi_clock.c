/* The offsets of the ranks' clocks to rank 0's (pp_mpi_trace.h), measured
 * at MPI_Init and at MPI_Finalize as Score-P does: rank 0 plays ping-pong
 * with each rank in turn, PP_MPI_SYNC_ROUNDS rounds; in a round rank 0
 * reads its clock (t1), sends, the other rank reads its clock (t) and
 * answers with it, rank 0 reads its clock again (t2).  Assuming the two
 * ways take the same time, rank 0's clock read (t1 + t2) / 2 when the
 * other's read t; the round with the least round trip t2 - t1 is kept (the
 * least disturbed), its half the uncertainty.  Rank 0 tells the rank its
 * offset; each rank hands (t, offset) to the trace layer, which writes them
 * as ClockOffset records: a reader corrects a timestamp by the offset
 * interpolated between the two measurements, which takes out a constant
 * offset and a constant drift.  The clocks are the trace's
 * (pp_trace_job_now), test skew included.  PMPI on the layer's own
 * communicator: nothing of it is measured or matches the program's
 * messages. */
#include "mpi/pp_mpi_trace.h"

#include "trace/pp_trace_job.h"

#define PP_MPI_SYNC_ROUNDS 20
enum { PP_MPI_TAG_PING = 11, PP_MPI_TAG_PONG, PP_MPI_TAG_OFFSET };

void pp_mpi_clock_sync(MPI_Comm comm, int rank, int size)
{
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            uint64_t best = UINT64_MAX, at = 0;
            int64_t offset = 0;
            for (int k = 0; k < PP_MPI_SYNC_ROUNDS; k++) {
                uint64_t t = 0;
                uint64_t t1 = pp_trace_job_now();
                if (PMPI_Send(&t, 1, MPI_UINT64_T, r, PP_MPI_TAG_PING, comm) != MPI_SUCCESS ||
                    PMPI_Recv(&t, 1, MPI_UINT64_T, r, PP_MPI_TAG_PONG, comm, MPI_STATUS_IGNORE) !=
                        MPI_SUCCESS)
                    break;
                uint64_t t2 = pp_trace_job_now();
                if (t2 - t1 < best) {
                    best = t2 - t1;
                    at = t;
                    offset = (int64_t)(t1 + (t2 - t1) / 2) - (int64_t)t;
                }
            }
            int64_t answer[3] = {(int64_t)at, offset, best == UINT64_MAX ? -1 : (int64_t)best};
            PMPI_Send(answer, 3, MPI_INT64_T, r, PP_MPI_TAG_OFFSET, comm);
        }
        pp_trace_job_sync(pp_trace_job_now(), 0, 0);
        return;
    }
    for (int k = 0; k < PP_MPI_SYNC_ROUNDS; k++) {
        uint64_t t;
        if (PMPI_Recv(&t, 1, MPI_UINT64_T, 0, PP_MPI_TAG_PING, comm, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            break;
        t = pp_trace_job_now();
        if (PMPI_Send(&t, 1, MPI_UINT64_T, 0, PP_MPI_TAG_PONG, comm) != MPI_SUCCESS)
            break;
    }
    int64_t answer[3];
    if (PMPI_Recv(answer, 3, MPI_INT64_T, 0, PP_MPI_TAG_OFFSET, comm, MPI_STATUS_IGNORE) ==
            MPI_SUCCESS &&
        answer[2] >= 0)
        pp_trace_job_sync((uint64_t)answer[0], answer[1], (double)answer[2] / 2);
}
