/* The job's start and end, shared by the C and the Fortran wrappers of
 * MPI_Init*, MPI_Finalize and MPI_Abort (pp_mpi_lifecycle.c). */
#ifndef PP_MPI_LIFECYCLE_H
#define PP_MPI_LIFECYCLE_H

/* Before PMPI_Init*, before its region: the engine started if its event
 * source allows (pp_profile_job_engine); when it does not run, the job
 * start below does nothing and the layer only passes calls on. */
void pp_mpi_job_prepare(void);
/* After a successful PMPI_Init*: the layer's communicator, the rank, where
 * the profiles go (collective over MPI_COMM_WORLD). */
void pp_mpi_job_start(void);
/* Before PMPI_Finalize: end measurement, combine the ranks' profiles, rank
 * 0 writes the job's (collective). */
void pp_mpi_job_end(void);
/* Before PMPI_Abort: this rank's own profile. */
void pp_mpi_job_abort(void);

#endif
