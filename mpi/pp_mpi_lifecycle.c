/* The MPI functions that start and end the job, written by hand (the table
 * marks them "special"): MPI_Init and MPI_Init_thread, MPI_Finalize,
 * MPI_Abort, and MPI_Pcontrol (its "..." cannot be forwarded).  The
 * Fortran binding's versions (pp_mpi_fortran.c) share the job functions
 * below.
 *
 * After a successful init: a communicator of the layer's own (a duplicate
 * of MPI_COMM_WORLD, errors returned, not fatal), the rank, and where the
 * profiles go: rank 0 decides the job's target (POMPPROF_OUTPUT, or its
 * default directory) and tells the others, and each rank tells the engine
 * the name of the profile it writes by itself (<dir>/profile.rank<r>.cubex,
 * or <name>.rank<r>.cubex for a *.cubex setting) should the job end before
 * the ranks write theirs together.
 *
 * At MPI_Finalize, before PMPI_Finalize: measurement ends, the engine hands
 * over its unified tree, and the ranks combine their trees
 * (pp_mpi_unify.c).  The threading level of MPI_Init_thread is passed
 * through untouched; the layer communicates only on the thread that calls
 * init or finalize, which every level allows. */
#define _GNU_SOURCE
#include "mpi/pp_mpi_lifecycle.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/pp_config.h"
#include "lib/pp_message.h"
#include "mpi/pp_mpi.h"
#include "mpi/pp_mpi_trace.h"
#include "mpi/pp_mpi_unify.h"
#include "profile/pp_profile_job.h"
#include "profile/pp_profile_output.h"

static MPI_Comm pp_mpi_comm = MPI_COMM_NULL;
static int pp_mpi_rank, pp_mpi_size;
static char pp_mpi_setting[PATH_MAX]; /* the job's output target */

/* The own profile's setting from the job's: <dir>/profile.rank<r>.cubex or
 * <name>.rank<r>.cubex. */
static void pp_mpi_own_setting(char *own, size_t size, const char *job, int rank)
{
    size_t n = strlen(job);
    if (n > 6 && strcmp(job + n - 6, ".cubex") == 0)
        snprintf(own, size, "%.*s.rank%d.cubex", (int)(n - 6), job, rank);
    else
        snprintf(own, size, "%s/profile.rank%d.cubex", job, rank);
}

/* Whether the engine runs (pp_mpi_job_prepare): else the layer only passes
 * calls on. */
static bool pp_mpi_engine;

void pp_mpi_job_prepare(void)
{
    pp_mpi_engine = pp_profile_job_engine();
}

void pp_mpi_job_start(void)
{
    int initialized = 0;
    if (!pp_mpi_engine || pp_mpi_comm != MPI_COMM_NULL ||
        PMPI_Initialized(&initialized) != MPI_SUCCESS || !initialized)
        return;
    MPI_Comm comm;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS) {
        pp_message_warn("cannot set up MPI for the profile; each rank writes its own");
        return;
    }
    PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    PMPI_Comm_rank(comm, &pp_mpi_rank);
    PMPI_Comm_size(comm, &pp_mpi_size);
    if (pp_mpi_rank == 0) {
        const char *out = pp_config_get()->output;
        if (out && *out)
            snprintf(pp_mpi_setting, sizeof pp_mpi_setting, "%s", out);
        else
            pp_profile_output_default_name(pp_profile_program_name(), pp_mpi_setting,
                                           sizeof pp_mpi_setting);
    }
    if (PMPI_Bcast(pp_mpi_setting, sizeof pp_mpi_setting, MPI_CHAR, 0, comm) != MPI_SUCCESS) {
        PMPI_Comm_free(&comm);
        pp_message_warn("cannot set up MPI for the profile; each rank writes its own");
        return;
    }
    pp_mpi_setting[sizeof pp_mpi_setting - 1] = '\0';
    pp_mpi_comm = comm;
    char own[PATH_MAX + 32], name[32], note[96];
    pp_mpi_own_setting(own, sizeof own, pp_mpi_setting, pp_mpi_rank);
    snprintf(name, sizeof name, "MPI Rank %d", pp_mpi_rank);
    snprintf(note, sizeof note,
             "rank %d ended before the ranks wrote their profile together; its own profile:",
             pp_mpi_rank);
    pp_profile_set_process(pp_mpi_rank, name, own, note);
    /* with POMPPROF_TRACE=1 the ranks write one trace together (doc/trace.md) */
    pp_mpi_trace_start(comm, pp_mpi_rank, pp_mpi_size);
}

void pp_mpi_job_end(void)
{
    if (pp_mpi_comm == MPI_COMM_NULL)
        return; /* not started through the wrappers: the engine writes at exit */
    pp_mpi_trace_end(pp_mpi_comm, pp_mpi_rank, pp_mpi_size);
    pp_unified *u = pp_profile_hold(); /* the trace is written here, together */
    int written = pp_mpi_unify_write(pp_mpi_comm, u, pp_mpi_setting);
    pp_profile_release(u, written);
    PMPI_Comm_free(&pp_mpi_comm);
    pp_mpi_comm = MPI_COMM_NULL;
}

void pp_mpi_job_abort(void)
{
    if (pp_mpi_comm != MPI_COMM_NULL) {
        char own[PATH_MAX + 32], name[32], note[64];
        pp_mpi_own_setting(own, sizeof own, pp_mpi_setting, pp_mpi_rank);
        snprintf(name, sizeof name, "MPI Rank %d", pp_mpi_rank);
        snprintf(note, sizeof note, "rank %d called MPI_Abort; its own profile:", pp_mpi_rank);
        pp_profile_set_process(pp_mpi_rank, name, own, note);
    }
    pp_profile_finalize();
}

/* ---- the C wrappers ---------------------------------------------------------------- */

int MPI_Init(int *argc, char ***argv)
{
    pp_mpi_job_prepare();
    pp_region_id r = pp_mpi_enter(PP_MPI_F_Init);
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        pp_mpi_job_start();
    pp_mpi_exit(r);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    pp_mpi_job_prepare();
    pp_region_id r = pp_mpi_enter(PP_MPI_F_Init_thread);
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        pp_mpi_job_start();
    pp_mpi_exit(r);
    return rc;
}

int MPI_Finalize(void)
{
    pp_region_id r = pp_mpi_enter(PP_MPI_F_Finalize);
    pp_mpi_job_end(); /* measurement ends here: the exit below is not recorded */
    pp_mpi_exit(r);
    return PMPI_Finalize();
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    pp_mpi_enter(PP_MPI_F_Abort);
    pp_mpi_job_abort();
    return PMPI_Abort(comm, errorcode);
}

int MPI_Pcontrol(const int level, ...)
{
    pp_region_id r = pp_mpi_enter(PP_MPI_F_Pcontrol);
    int rc = PMPI_Pcontrol(level);
    pp_mpi_exit(r);
    return rc;
}

__attribute__((constructor)) static void pp_mpi_ctor(void)
{
    pp_mpi_metrics_define();
}
