/* A region per MPI function, defined on the function's first call (a
 * profile shows the MPI functions the program called, not all 415), and the
 * two bytes metrics the calls add to.
 *
 * Region: the function's name, file "MPI" (a module in place of a source
 * file, as the lock routines' "OMP": CubeLib's cube_sanity lists a region
 * with no file), paradigm "mpi", the table's group as the role (doc/mpi.md).  The first call takes a lock, so two threads calling
 * the same function first get one region; later calls read the id with one
 * atomic load. */
#include "mpi/pp_mpi.h"

#include <pthread.h>

pp_region_id pp_mpi_regions[PP_MPI_N_FUNCTIONS] = {[0 ... PP_MPI_N_FUNCTIONS - 1] = PP_REGION_INVALID};

static pthread_mutex_t pp_mpi_region_lock = PTHREAD_MUTEX_INITIALIZER;
static int pp_mpi_bytes_sent = -1, pp_mpi_bytes_received = -1;

pp_region_id pp_mpi_region_define(int f)
{
    pthread_mutex_lock(&pp_mpi_region_lock);
    pp_region_id r = pp_mpi_regions[f];
    if (r == PP_REGION_INVALID) {
        pp_region_def d = {.name = pp_mpi_functions[f].name, .file = "MPI", .begin_line = -1,
                           .end_line = -1, .paradigm = "mpi", .role = pp_mpi_functions[f].group};
        r = pp_profile_region_define(&d);
        __atomic_store_n(&pp_mpi_regions[f], r, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&pp_mpi_region_lock);
    return r;
}

void pp_mpi_metrics_define(void)
{
    pp_mpi_bytes_sent = pp_profile_extra_define(
        "bytes_sent", "Bytes sent", "bytes",
        "Bytes the MPI calls of the call path sent (point-to-point, collective and one-sided "
        "calls; doc/mpi.md gives the rule of each call)");
    pp_mpi_bytes_received = pp_profile_extra_define(
        "bytes_received", "Bytes received", "bytes",
        "Bytes the MPI calls of the call path received (point-to-point, collective and one-sided "
        "calls; doc/mpi.md gives the rule of each call)");
}

void pp_mpi_record(const pp_mpi_bytes *b)
{
    if (b->sent && pp_mpi_bytes_sent >= 0)
        pp_profile_extra_add(pp_mpi_bytes_sent, b->sent);
    if (b->received && pp_mpi_bytes_received >= 0)
        pp_profile_extra_add(pp_mpi_bytes_received, b->received);
}
