/* The ranks' profiles combined through MPI into one, written by rank 0
 * (pp_mpi_unify.c). */
#ifndef PP_MPI_UNIFY_H
#define PP_MPI_UNIFY_H

#include <mpi.h>

#include "profile/pp_profile_unify.h"

/* Collective over comm: every rank passes its unified profile (NULL: none)
 * and rank 0 writes the job's profile following setting (POMPPROF_OUTPUT
 * rules).  Returns 1 on the ranks whose data the written file holds, 0 on
 * the others (they write their own). */
int pp_mpi_unify_write(MPI_Comm comm, const pp_unified *u, const char *setting);

#endif
