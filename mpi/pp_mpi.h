/* mpi/: the MPI measurement layer (libpompprof_mpi), an adapter beside
 * pomp2/ above the engine.  doc/mpi.md describes it.
 *
 *   pp_mpi_gen.py + pp_mpi_functions.tbl   the wrappers of every MPI function
 *                                          (generated: pp_mpi_wrappers.c,
 *                                          pp_mpi_fortran_wrappers.c)
 *   pp_mpi_region.c     a region per MPI function; the bytes metrics
 *   pp_mpi_bytes.c      the bytes a call sends and receives
 *   pp_mpi_lifecycle.c  MPI_Init*, MPI_Finalize, MPI_Abort, MPI_Pcontrol:
 *                       the job's rank, names, and the end
 *   pp_mpi_pack.c       a profile as bytes, and back
 *   pp_mpi_merge.c      two packed profiles of disjoint ranks as one
 *   pp_mpi_unify.c      the ranks' profiles combined through MPI, written
 *                       by rank 0
 *   pp_mpi_fortran.c    the Fortran binding's hand-written wrappers
 *   pp_mpi_trace.h      with POMPPROF_TRACE=1: the job's one trace, the MPI
 *                       records (pp_mpi_trace.tbl), communicators,
 *                       requests, clock offsets, OTF2's MPI collectives
 *
 * Everything the layer sends uses PMPI_ calls on a communicator of its own,
 * so nothing of it is measured and no message of the program can match it. */
#ifndef PP_MPI_H
#define PP_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "mpi/pp_mpi_bytes.h"
#include "mpi/pp_mpi_index.h"
#include "profile/pp_profile.h"

/* ---- the functions and their regions (pp_mpi_region.c) ----------------------- */

typedef struct pp_mpi_function {
    const char *name;  /* MPI_Send */
    const char *group; /* p2p, coll, barrier, rma, io, env, other */
} pp_mpi_function;

/* Indexed like the table (generated). */
extern const pp_mpi_function pp_mpi_functions[PP_MPI_N_FUNCTIONS];
extern const int pp_mpi_n_functions;
extern pp_region_id pp_mpi_regions[PP_MPI_N_FUNCTIONS];

/* The region of function f, defined on its first call (the slow path). */
pp_region_id pp_mpi_region_define(int f);

/* Enter the region of function f; returns the region for pp_mpi_exit. */
static inline pp_region_id pp_mpi_enter(int f)
{
    pp_region_id r = __atomic_load_n(&pp_mpi_regions[f], __ATOMIC_ACQUIRE);
    if (__builtin_expect(r == PP_REGION_INVALID, 0))
        r = pp_mpi_region_define(f);
    if (r != PP_REGION_INVALID)
        pp_profile_enter(r);
    return r;
}

static inline void pp_mpi_exit(pp_region_id r)
{
    if (r != PP_REGION_INVALID)
        pp_profile_exit(r);
}

/* Add the bytes of a call (pp_mpi_bytes.c computes them) to the calling
 * thread's current call path: the MPI call's. */
void pp_mpi_record(const pp_mpi_bytes *b);

/* Define the bytes metrics (the library constructor). */
void pp_mpi_metrics_define(void);

#endif
