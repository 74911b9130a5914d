/* The Fortran binding (mpif.h and `use mpi`, Open MPI's libmpi_mpifh):
 * Open MPI's Fortran routines call PMPI_ directly, so the C wrappers never
 * see a Fortran program's calls.  The generated wrappers
 * (pp_mpi_fortran_wrappers.c) therefore define mpi_<name>_ themselves and
 * forward to pmpi_<name>_; this file holds the ones written by hand (init,
 * finalize, abort, pcontrol) and the helpers that read Fortran arguments.
 * The mpi_f08 module's routines are not wrapped (doc/mpi.md). */
#include "mpi/pp_mpi_fortran.h"

#include "mpi/pp_mpi_lifecycle.h"

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "the byte rules read Fortran INTEGER arrays as int");

/* Open MPI's sentinel for MPI_IN_PLACE in Fortran: the address of a common
 * block of libmpi. */
extern MPI_Fint FC_FUNC_(mpi_fortran_in_place, MPI_FORTRAN_IN_PLACE);

const void *pp_mpi_f_buffer(const void *buf)
{
    return buf == (const void *)&FC_FUNC_(mpi_fortran_in_place, MPI_FORTRAN_IN_PLACE)
               ? MPI_IN_PLACE
               : buf;
}

const MPI_Status *pp_mpi_f_status(const void *fstatus, MPI_Status *c)
{
    PMPI_Status_f2c((const MPI_Fint *)fstatus, c);
    return c;
}

void FC_FUNC_(pmpi_init, PMPI_INIT)(MPI_Fint *ierr);
void FC_FUNC_(pmpi_init_thread, PMPI_INIT_THREAD)(MPI_Fint *required, MPI_Fint *provided,
                                                  MPI_Fint *ierr);
void FC_FUNC_(pmpi_finalize, PMPI_FINALIZE)(MPI_Fint *ierr);
void FC_FUNC_(pmpi_abort, PMPI_ABORT)(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr);
void FC_FUNC_(pmpi_pcontrol, PMPI_PCONTROL)(MPI_Fint *level);

void FC_FUNC_(mpi_init, MPI_INIT)(MPI_Fint *ierr);
void FC_FUNC_(mpi_init, MPI_INIT)(MPI_Fint *ierr)
{
    pp_mpi_job_prepare();
    pp_region_id r = pp_mpi_enter(PP_MPI_F_Init);
    FC_FUNC_(pmpi_init, PMPI_INIT)(ierr);
    if (*ierr == MPI_SUCCESS)
        pp_mpi_job_start();
    pp_mpi_exit(r);
}

void FC_FUNC_(mpi_init_thread, MPI_INIT_THREAD)(MPI_Fint *required, MPI_Fint *provided,
                                                MPI_Fint *ierr);
void FC_FUNC_(mpi_init_thread, MPI_INIT_THREAD)(MPI_Fint *required, MPI_Fint *provided,
                                                MPI_Fint *ierr)
{
    pp_mpi_job_prepare();
    pp_region_id r = pp_mpi_enter(PP_MPI_F_Init_thread);
    FC_FUNC_(pmpi_init_thread, PMPI_INIT_THREAD)(required, provided, ierr);
    if (*ierr == MPI_SUCCESS)
        pp_mpi_job_start();
    pp_mpi_exit(r);
}

void FC_FUNC_(mpi_finalize, MPI_FINALIZE)(MPI_Fint *ierr);
void FC_FUNC_(mpi_finalize, MPI_FINALIZE)(MPI_Fint *ierr)
{
    pp_region_id r = pp_mpi_enter(PP_MPI_F_Finalize);
    pp_mpi_job_end();
    pp_mpi_exit(r);
    FC_FUNC_(pmpi_finalize, PMPI_FINALIZE)(ierr);
}

void FC_FUNC_(mpi_abort, MPI_ABORT)(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr);
void FC_FUNC_(mpi_abort, MPI_ABORT)(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr)
{
    pp_mpi_enter(PP_MPI_F_Abort);
    pp_mpi_job_abort();
    FC_FUNC_(pmpi_abort, PMPI_ABORT)(comm, errorcode, ierr);
}

void FC_FUNC_(mpi_pcontrol, MPI_PCONTROL)(MPI_Fint *level);
void FC_FUNC_(mpi_pcontrol, MPI_PCONTROL)(MPI_Fint *level)
{
    pp_region_id r = pp_mpi_enter(PP_MPI_F_Pcontrol);
    FC_FUNC_(pmpi_pcontrol, PMPI_PCONTROL)(level);
    pp_mpi_exit(r);
}
