/* OTF2's MPI collectives for writing the job's one archive: Debian's OTF2
 * ships them as a header of static functions (OTF2_MPI_Collectives.h),
 * meant to be compiled into the MPI program's side, here the MPI layer.
 * The OTF2 library itself is the trace layer's, loaded with dlopen only
 * when a trace starts (trace/pp_trace_otf2_api.h), so libpompprof needs no
 * MPI and this library links no OTF2: the header's one call into OTF2,
 * OTF2_Archive_SetCollectiveCallbacks, goes to the trace layer, which
 * hands the callbacks on to the library it loaded (and uses them for its
 * own exchanges).  The collectives call PMPI on a duplicate of the layer's
 * communicator, so none of it is measured. */
#include "config.h"

#include <mpi.h>

#include "mpi/pp_mpi_trace.h"

#ifdef PP_HAVE_OTF2
#include <otf2/otf2.h>

#include "trace/pp_trace_job.h"

/* the header's calls into the OTF2 library: the trace layer's, and none
 * for reading (not used here) */
#define OTF2_Archive_SetCollectiveCallbacks(archive, callbacks, data, global, local)              \
    ((OTF2_ErrorCode)pp_trace_job_collectives(archive, callbacks, data, global, local))
#define OTF2_Reader_SetCollectiveCallbacks(reader, callbacks, data, global, local)                \
    ((void)(reader), (void)(callbacks), (void)(data), (void)(global), (void)(local),              \
     OTF2_ERROR_INVALID_CALL)
#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>

int pp_mpi_otf2_collectives(void *archive, void *comm)
{
    return OTF2_MPI_Archive_SetCollectiveCallbacks(archive, *(MPI_Comm *)comm, MPI_COMM_NULL) ==
                   OTF2_SUCCESS
               ? 0
               : -1;
}
#else
int pp_mpi_otf2_collectives(void *archive, void *comm)
{
    (void)archive, (void)comm;
    return -1; /* no trace without OTF2 */
}
#endif
