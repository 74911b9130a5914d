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

#include "profile/pp_profile_unify.h"

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
