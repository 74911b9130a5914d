/* The job's one profile: at MPI_Finalize every rank packs its unified
 * profile, the ranks merge them pairwise along a binomial tree (rank r
 * sends to r - 2^k at the first step k where bit k of r is set, after
 * merging what ranks r + 2^j, j < k, sent it), and rank 0 writes the
 * result.  No rank ever holds more than its subtree's profile, so memory
 * stays within a few times the final profile on rank 0 and far below on
 * the others; the steps take log2(ranks) rounds (doc/mpi.md has the
 * figures).
 *
 * Then rank 0 tells every rank whether its data is in the written file.
 * A rank that learns it is not (a merge ran out of memory, the write
 * failed) writes its own profile; so does a rank that dies or is killed
 * before this point (the engine still holds its tree: pp_profile_job.h).
 *
 * Every wait has a deadline (PP_MPI_DEADLINE seconds after all ranks
 * arrived): should a partner vanish without the launcher ending the job,
 * the rank gives up, writes its own profile and goes on into
 * PMPI_Finalize. */
#define _GNU_SOURCE
#include "mpi/pp_mpi_unify.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/pp_message.h"
#include "mpi/pp_mpi_pack.h"
#include "profile/pp_profile_output.h"

#define PP_MPI_DEADLINE 300.0
#define PP_MPI_CHUNK (1 << 30) /* bytes per message */
enum { PP_MPI_TAG_SIZE = 1, PP_MPI_TAG_DATA = 2 };

static double pp_mpi_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Complete req before the deadline: spin briefly, then sleep in growing
 * steps up to 1 ms.  0, or -1 (failed or too late: the request is left). */
static int pp_mpi_wait(MPI_Request *req, double deadline)
{
    long pause = 0;
    for (;;) {
        int done = 0;
        if (PMPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return -1;
        if (done)
            return 0;
        if (pp_mpi_now() > deadline)
            return -1;
        if (pause) {
            struct timespec ts = {0, pause};
            nanosleep(&ts, NULL);
        }
        pause = pause ? (pause < 1000000 ? pause * 2 : pause) : 1000;
    }
}

static int pp_mpi_send(const pp_mpi_buf *b, int to, MPI_Comm comm, double deadline)
{
    uint64_t size = b->size;
    MPI_Request req;
    if (PMPI_Isend(&size, 1, MPI_UINT64_T, to, PP_MPI_TAG_SIZE, comm, &req) != MPI_SUCCESS ||
        pp_mpi_wait(&req, deadline))
        return -1;
    for (size_t at = 0; at < b->size; at += PP_MPI_CHUNK) {
        size_t n = b->size - at < PP_MPI_CHUNK ? b->size - at : PP_MPI_CHUNK;
        if (PMPI_Isend(b->data + at, (int)n, MPI_BYTE, to, PP_MPI_TAG_DATA, comm, &req) !=
                MPI_SUCCESS ||
            pp_mpi_wait(&req, deadline))
            return -1;
    }
    return 0;
}

/* A buffer from rank `from`; -1 when it does not come in time or memory is
 * short (then the rest of the message is not read: the unification of
 * this rank ends there). */
static int pp_mpi_recv(pp_mpi_buf *b, int from, MPI_Comm comm, double deadline)
{
    uint64_t size = 0;
    MPI_Request req;
    *b = (pp_mpi_buf){0};
    if (PMPI_Irecv(&size, 1, MPI_UINT64_T, from, PP_MPI_TAG_SIZE, comm, &req) != MPI_SUCCESS ||
        pp_mpi_wait(&req, deadline))
        return -1;
    if (!(b->data = malloc(size ? size : 1)))
        return -1;
    b->size = b->cap = size;
    for (size_t at = 0; at < size; at += PP_MPI_CHUNK) {
        size_t n = size - at < PP_MPI_CHUNK ? size - at : PP_MPI_CHUNK;
        if (PMPI_Irecv(b->data + at, (int)n, MPI_BYTE, from, PP_MPI_TAG_DATA, comm, &req) !=
                MPI_SUCCESS ||
            pp_mpi_wait(&req, deadline)) {
            pp_mpi_buf_free(b);
            return -1;
        }
    }
    return 0;
}

/* cur := cur merged with next (both freed); on failure cur stays and next
 * is dropped. */
static int pp_mpi_merge_into(pp_mpi_buf *cur, pp_mpi_buf *next)
{
    pp_mpi_view a, b;
    pp_mpi_buf out;
    int rc = -1;
    if (pp_mpi_view_open(&a, cur->data, cur->size) == 0) {
        if (pp_mpi_view_open(&b, next->data, next->size) == 0) {
            rc = pp_mpi_merge(&a, &b, &out);
            pp_mpi_view_close(&b);
        }
        pp_mpi_view_close(&a);
    }
    pp_mpi_buf_free(next);
    if (rc == 0) {
        pp_mpi_buf_free(cur);
        *cur = out;
    }
    return rc;
}

/* Rank 0: write the job's profile; marks the ranks whose data it holds. */
static int pp_mpi_write(const pp_mpi_buf *job, const pp_unified *own, const char *setting,
                        unsigned char *included, int size)
{
    pp_mpi_view v;
    if (pp_mpi_view_open(&v, job->data, job->size) != 0)
        return -1;
    pp_unified *u = pp_mpi_unpack(&v, own ? own->t_finalize : 0);
    if (u && own)
        u->ticks_per_second = own->ticks_per_second; /* rank 0's, as its trace's */
    int rc = -1;
    if (u && pp_profile_output_write(u, setting, NULL, 0) == 0) {
        rc = 0;
        for (uint32_t i = 0; i < u->n_locations; i++)
            if (u->locations[i].rank >= 0 && u->locations[i].rank < size)
                included[u->locations[i].rank] = 1;
    } else if (!u) {
        pp_message_warn("out of memory for the job's profile; every rank writes its own");
    }
    pp_unified_free(u);
    pp_mpi_view_close(&v);
    return rc;
}

int pp_mpi_unify_write(MPI_Comm comm, const pp_unified *u, const char *setting)
{
    int rank = 0, size = 1;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    /* all ranks are here: from now on, waits are for the unification only */
    if (PMPI_Barrier(comm) != MPI_SUCCESS)
        return 0;
    double t0 = pp_mpi_now(), deadline = t0 + PP_MPI_DEADLINE;
    pp_mpi_buf cur;
    if (pp_mpi_pack(u, &cur) != 0 && pp_mpi_pack(NULL, &cur) != 0)
        return 0;
    size_t largest = cur.size;
    int failed = 0, lost = 0;
    for (int step = 1; step < size && !failed; step <<= 1) {
        if (rank & step) {
            failed = pp_mpi_send(&cur, rank - step, comm, deadline) != 0;
            break;
        }
        if (rank + step >= size)
            continue;
        pp_mpi_buf next;
        if (pp_mpi_recv(&next, rank + step, comm, deadline) != 0) {
            failed = 1;
            break;
        }
        if (next.size > largest)
            largest = next.size;
        if (pp_mpi_merge_into(&cur, &next) != 0)
            lost = 1; /* their ranks write their own profiles (below) */
        if (cur.size > largest)
            largest = cur.size;
    }
    if (lost)
        pp_message_warn("rank %d: out of memory merging the profiles of other ranks; they write "
                        "their own",
                        rank);
    /* rank 0 writes and says whose data the file holds */
    unsigned char *included = calloc((size_t)size, 1);
    double t_merged = pp_mpi_now();
    if (rank == 0 && !failed && included)
        pp_mpi_write(&cur, u, setting, included, size);
    double t_written = pp_mpi_now();
    pp_mpi_buf_free(&cur);
    /* a rank that failed still takes part (its partner may be fine) but
     * writes its own profile whatever the answer */
    int written = 0;
    if (included) {
        MPI_Request req;
        if (PMPI_Ibcast(included, size, MPI_UNSIGNED_CHAR, 0, comm, &req) == MPI_SUCCESS &&
            pp_mpi_wait(&req, deadline) == 0)
            written = included[rank] && !failed;
    }
    free(included);
    if (rank == 0)
        pp_message_verbose(1, "the profiles of %d ranks unified in %.6f s (largest buffer on rank 0: "
                              "%zu bytes), written in %.6f s",
                           size, t_merged - t0, largest, t_written - t_merged);
    return written;
}
