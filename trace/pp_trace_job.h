/* pp_trace_job: the trace of a process that is one rank of a job (the MPI
 * layer, mpi/, drives it; doc/trace.md, "Hybrid traces").
 *
 * The ranks of a job write one OTF2 archive together: a location group per
 * rank, a location per thread, each rank's timestamps mapped to rank 0's
 * clock by ClockOffset records, and the MPI messages as OTF2's MPI events.
 * While the program runs nothing changes for the event path: each thread
 * still writes its raw file, in the job's directory (<dir>/<name>.raw/
 * rank<r>/) from MPI_Init on.  At MPI_Finalize the ranks convert their own
 * threads' records in parallel and unify their definitions (regions by
 * identity, thread teams, communicators), the parts that need all ranks
 * going through OTF2's own MPI collectives (OTF2_MPI_Collectives.h, which
 * the MPI layer includes: this layer knows nothing of MPI).
 *
 * A rank that ends alone (exit, a signal, MPI_Abort) writes everything it
 * holds to its raw files and leaves them: pompprof-salvage makes the job's
 * archive from every rank's raw files, naming the ranks it lacks. */
#ifndef PP_TRACE_JOB_H
#define PP_TRACE_JOB_H

#include <stddef.h>
#include <stdint.h>

/* ---- the job's start: called by every rank after MPI_Init, in this order ---------------- */

/* This process is rank `rank` of `size`.  Returns 0 when it traces (the
 * steps below then apply), -1 when it does not. */
int pp_trace_job_begin(int rank, int size);

/* Not every rank traces: this one writes a trace of its own after all (as
 * a process that is no rank of a job). */
void pp_trace_job_forget(void);

/* The trace's directory (every rank needs rank 0's: the job's). */
const char *pp_trace_job_dir(void);

/* The number of this process's archive name (traces: 0, traces.K: K) when
 * its directory is dir, else -1. */
int pp_trace_job_name_index(const char *dir);

/* Rank 0: the number of the job's archive name in dir, the first whose
 * archive does not exist and whose raw directory does not exist or is one
 * of this job's ranks' (taken: every rank's pp_trace_job_name_index). */
int pp_trace_job_choose(const char *dir, const int *taken, int n);

/* Moving the raw files into the job's directory, <dir>/<name>.raw/rank<r>:
 * step 1 (every rank) moves them aside into <dir>/.<name>.rank<r>.raw,
 * step 2 (rank 0) makes <dir>/<name>.raw, step 3 (every rank) moves them
 * in; the job layer puts a barrier between the steps.  A rank whose move
 * fails keeps its files where they are (still converted at the end). */
void pp_trace_job_move(const char *dir, int index, int step);

/* ---- clocks ------------------------------------------------------------------------------ */

/* The rank's clock as its trace records it, in ticks: the timer, shifted and
 * stretched by POMPPROF_TEST_CLOCK_SKEW on the rank it names (a test-only
 * setting: doc/trace.md). */
uint64_t pp_trace_job_now(void);

/* An offset to rank 0's clock measured at local time `local` (a
 * pp_trace_job_now value): rank 0's clock read `local + offset` then, within
 * sd ticks.  Written as a ClockOffset record of each of the rank's
 * locations; readers interpolate between them. */
void pp_trace_job_sync(uint64_t local, int64_t offset, double sd);

/* Ticks per second of this rank's clock. */
double pp_trace_job_ticks_per_second(void);

/* Whether the rank's trace clock is its host's own (no test skew): ranks
 * on one host then read one clock. */
int pp_trace_job_clock_shared(void);

/* ---- communicators ----------------------------------------------------------------------- */

/* The MPI layer's communicator number `index` (what MPI records name):
 * the same `key` on every rank that is a member, its parent's index
 * (UINT32_MAX: none), a name, and its members as ranks of the job (world
 * ranks), in the communicator's rank order. */
void pp_trace_job_comm(uint32_t index, uint32_t parent, uint64_t key, const char *name,
                       const uint32_t *world, uint32_t n);

/* ---- the end ------------------------------------------------------------------------------ */

/* The job ends together: the next pp_trace_finish writes the job's archive
 * with the other ranks.  set_collectives registers OTF2's MPI collectives
 * with the archive (OTF2_MPI_Archive_SetCollectiveCallbacks); its call of
 * OTF2_Archive_SetCollectiveCallbacks must be pp_trace_job_collectives. */
void pp_trace_job_end(int (*set_collectives)(void *archive, void *user), void *user);

/* OTF2_Archive_SetCollectiveCallbacks as the job layer's copy of
 * OTF2_MPI_Collectives.h calls it (the OTF2 library is this layer's, loaded
 * with dlopen): the callbacks are handed on to OTF2 and kept for this
 * layer's own exchanges.  Types as OTF2's (OTF2_Archive *, const
 * OTF2_CollectiveCallbacks *, void *, OTF2_CollectiveContext * x2);
 * returns an OTF2_ErrorCode. */
int pp_trace_job_collectives(void *archive, const void *callbacks, void *user_data, void *global,
                             void *local);

#endif
