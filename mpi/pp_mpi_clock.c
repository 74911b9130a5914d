/* The offsets of the ranks' clocks to rank 0's (pp_mpi_trace.h), at
 * MPI_Init and at MPI_Finalize.
 *
 * A rank on rank 0's host reads the same clock as rank 0 (the time-stamp
 * counter, which the timer uses only when it is invariant and which the
 * kernel keeps in step across CPUs, or CLOCK_MONOTONIC): its offset is 0,
 * exactly, with nothing to measure (a measurement would only add its own
 * error, a few microseconds on a loaded machine: more than some messages
 * take).  Every other rank, on another host or with a clock the test
 * setting skews, is measured as Score-P does: rank 0 plays ping-pong with
 * each such rank in turn, rounds until PP_MPI_SYNC_CALM rounds in a row
 * found no shorter round trip (at least that many, at most
 * PP_MPI_SYNC_ROUNDS: a loaded machine's few undisturbed rounds are worth
 * waiting for); in a round rank 0
 * reads its clock (t1), sends, the other rank reads its clock (t) and
 * answers with it, rank 0 reads its clock again (t2).  Assuming the two
 * ways take the same time, rank 0's clock read (t1 + t2) / 2 when the
 * other's read t; the round with the least round trip t2 - t1 is kept (the
 * least disturbed), its half the uncertainty.  Rank 0 tells the rank its
 * offset; each rank hands (t, offset) to the trace layer, which writes them
 * as ClockOffset records: a reader corrects a timestamp by the offset
 * interpolated between the two measurements, which takes out a constant
 * offset and a constant drift.  The clocks are the trace's
 * (pp_trace_job_now).  PMPI on the layer's own communicator: nothing of it
 * is measured or matches the program's messages. */
#include "mpi/pp_mpi_trace.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/pp_message.h"
#include "trace/pp_trace_job.h"

#define PP_MPI_SYNC_ROUNDS 400
#define PP_MPI_SYNC_CALM 20
enum { PP_MPI_TAG_PING = 11, PP_MPI_TAG_PONG, PP_MPI_TAG_OFFSET };

/* Rank 0: the ping-pong with rank r; its answer (time, offset, round trip)
 * sent to r; the round trip returned (UINT64_MAX: failed). */
static uint64_t pp_mpi_clock_measure(MPI_Comm comm, int r, int64_t *offset)
{
    uint64_t best = UINT64_MAX, at = 0, go = 1;
    *offset = 0;
    for (int k = 0, calm = 0; go; k++, calm++) {
        /* tell the rank whether another round comes */
        uint64_t t = go = k < PP_MPI_SYNC_ROUNDS && calm < PP_MPI_SYNC_CALM;
        uint64_t t1 = pp_trace_job_now();
        if (PMPI_Send(&t, 1, MPI_UINT64_T, r, PP_MPI_TAG_PING, comm) != MPI_SUCCESS ||
            PMPI_Recv(&t, 1, MPI_UINT64_T, r, PP_MPI_TAG_PONG, comm, MPI_STATUS_IGNORE) !=
                MPI_SUCCESS)
            break;
        uint64_t t2 = pp_trace_job_now();
        if (go && t2 - t1 < best) {
            best = t2 - t1;
            at = t;
            *offset = (int64_t)(t1 + (t2 - t1) / 2) - (int64_t)t;
            calm = 0;
        }
    }
    int64_t answer[3] = {(int64_t)at, *offset, best == UINT64_MAX ? -1 : (int64_t)best};
    PMPI_Send(answer, 3, MPI_INT64_T, r, PP_MPI_TAG_OFFSET, comm);
    return best;
}

/* A measured rank: its side of the ping-pong, then its offset. */
static void pp_mpi_clock_answer(MPI_Comm comm)
{
    for (uint64_t go = 1; go;) {
        if (PMPI_Recv(&go, 1, MPI_UINT64_T, 0, PP_MPI_TAG_PING, comm, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            break;
        uint64_t t = pp_trace_job_now();
        if (PMPI_Send(&t, 1, MPI_UINT64_T, 0, PP_MPI_TAG_PONG, comm) != MPI_SUCCESS)
            break;
    }
    int64_t answer[3];
    if (PMPI_Recv(answer, 3, MPI_INT64_T, 0, PP_MPI_TAG_OFFSET, comm, MPI_STATUS_IGNORE) ==
            MPI_SUCCESS &&
        answer[2] >= 0)
        pp_trace_job_sync((uint64_t)answer[0], answer[1], (double)answer[2] / 2);
}

void pp_mpi_clock_sync(MPI_Comm comm, int rank, int size)
{
    /* which ranks read rank 0's clock */
    char host[256] = "", host0[256];
    gethostname(host, sizeof host - 1);
    memcpy(host0, host, sizeof host0);
    PMPI_Bcast(host0, sizeof host0, MPI_CHAR, 0, comm);
    int measured = rank != 0 && (strcmp(host, host0) || !pp_trace_job_clock_shared());
    int *all = rank == 0 ? calloc((size_t)size, sizeof *all) : NULL;
    PMPI_Gather(&measured, 1, MPI_INT, all, 1, MPI_INT, 0, comm);
    if (rank != 0) {
        if (measured)
            pp_mpi_clock_answer(comm);
        else
            pp_trace_job_sync(pp_trace_job_now(), 0, 0);
        return;
    }
    uint64_t start = pp_trace_job_now(), worst = 0;
    int n = 0;
    for (int r = 1; all && r < size; r++) {
        if (!all[r])
            continue;
        int64_t offset;
        uint64_t trip = pp_mpi_clock_measure(comm, r, &offset);
        worst = trip != UINT64_MAX && trip > worst ? trip : worst;
        n++;
    }
    free(all);
    uint64_t end = pp_trace_job_now();
    pp_trace_job_sync(end, 0, 0);
    pp_message_verbose(1, "trace: the clock offsets of %d ranks to rank 0's: %d measured in "
                          "%.6f s (the least round trip of the slowest: %.3f us), the others on "
                          "rank 0's host and clock",
                       size, n, (double)(end - start) / pp_trace_job_ticks_per_second(),
                       (double)worst / pp_trace_job_ticks_per_second() * 1e6);
}
