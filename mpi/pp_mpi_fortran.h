/* What the generated Fortran wrappers (pp_mpi_fortran_wrappers.c, from
 * pp_mpi_gen.py) need: the link names of the Fortran compiler configure
 * found (FC_FUNC_), and Fortran arguments as the byte rules take them. */
#ifndef PP_MPI_FORTRAN_H
#define PP_MPI_FORTRAN_H

#include "config.h"

#include <stddef.h>

#include "mpi/pp_mpi.h"

/* A Fortran status has as many INTEGERs as MPI_Status has bytes / 4 (Open
 * MPI: MPI_STATUS_SIZE = 6); room for more does not hurt. */
#define PP_MPI_F_STATUS_INTS (sizeof(MPI_Status) / sizeof(MPI_Fint) + 2)

/* A Fortran buffer argument: MPI_IN_PLACE for the binding's sentinel. */
const void *pp_mpi_f_buffer(const void *buf);
/* A Fortran status as a C one (in *c). */
const MPI_Status *pp_mpi_f_status(const void *fstatus, MPI_Status *c);

#endif
