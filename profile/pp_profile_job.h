/* The engine as one process of a job whose processes write one profile
 * together (the MPI layer, mpi/, doc/mpi.md): the layer names the process,
 * takes the unified tree at the point where the processes combine their
 * trees, and gives it back when the common profile is written.
 *
 * Until then the process keeps its own tree: when it ends before (exit, a
 * signal, the job aborted), the engine writes that tree as the process's
 * own profile, where pp_profile_set_process said, with one line saying so. */
#ifndef PP_PROFILE_JOB_H
#define PP_PROFILE_JOB_H

#include <stdbool.h>

#include "profile/pp_profile_unify.h"

/* Whether the engine runs, started for a layer that needs it before its
 * event source may have started it: the MPI layer at MPI_Init, while an
 * OMPT tool starts when the OpenMP runtime initializes, which is often
 * later.  The starter an event source registered (pp_profile_set_starter)
 * starts it, unless it runs already; false when it does not run (the event
 * source stays off: the layer passes everything through). */
bool pp_profile_job_engine(void);

/* The event source's way to start the engine early (NULL: none; then the
 * engine runs only if the source started it already). */
void pp_profile_set_starter(bool (*starter)(void));

/* Whether this process is one of a job (pp_profile_set_process was called):
 * its profile is written with the job's, whatever else it measured. */
bool pp_profile_in_job(void);

/* This process is rank `rank` of a job, shown in the system tree as
 * `name` (e.g. "MPI Rank 3").  A profile it writes by itself goes to
 * `output` (a POMPPROF_OUTPUT-style setting; NULL: the configured one),
 * followed by the line "pompprof: <note> <file>" (NULL: no line). */
void pp_profile_set_process(int rank, const char *name, const char *output, const char *note);

/* The program's name as the profile shows it (the executable's). */
const char *pp_profile_program_name(void);

/* End measurement now (as finalize does: close, unify) and hand over the
 * unified tree without writing it.  NULL when nothing was measured or the
 * end has come already (finalize ran). */
pp_unified *pp_profile_hold(void);

/* Give the held tree back.  written: the caller wrote the common profile;
 * otherwise the engine writes the tree as the process's own profile now.
 * Frees u. */
void pp_profile_release(pp_unified *u, int written);

#endif
