/* The bytes an MPI call sends and receives, one function per rule of the
 * table (mpi/pp_mpi_functions.tbl); doc/mpi.md states the rules.  Each adds
 * to *b; the wrappers call them after a successful call. */
#ifndef PP_MPI_BYTES_H
#define PP_MPI_BYTES_H

#include <mpi.h>
#include <stdint.h>

/* Bytes a call sent and received. */
typedef struct pp_mpi_bytes {
    uint64_t sent, received;
} pp_mpi_bytes;

/* An array of datatypes as C handles or as Fortran ones (one of the two). */
typedef struct pp_mpi_types {
    const MPI_Datatype *c;
    const MPI_Fint *f;
} pp_mpi_types;

static inline pp_mpi_types pp_mpi_types_c(const MPI_Datatype *t)
{
    return (pp_mpi_types){t, NULL};
}

static inline pp_mpi_types pp_mpi_types_f(const MPI_Fint *t)
{
    return (pp_mpi_types){NULL, t};
}

/* point to point */
void pp_mpi_bytes_send(pp_mpi_bytes *b, int count, MPI_Datatype type, int dest);
void pp_mpi_bytes_recv(pp_mpi_bytes *b, const MPI_Status *status);
void pp_mpi_bytes_irecv(pp_mpi_bytes *b, int count, MPI_Datatype type, int source);
void pp_mpi_bytes_imrecv(pp_mpi_bytes *b, int count, MPI_Datatype type);
void pp_mpi_bytes_sendrecv(pp_mpi_bytes *b, int sendcount, MPI_Datatype sendtype, int dest,
                           const MPI_Status *status);

/* collectives */
void pp_mpi_bytes_bcast(pp_mpi_bytes *b, int count, MPI_Datatype type, int root, MPI_Comm comm);
void pp_mpi_bytes_reduce(pp_mpi_bytes *b, int count, MPI_Datatype type, int root, MPI_Comm comm);
void pp_mpi_bytes_allreduce(pp_mpi_bytes *b, int count, MPI_Datatype type, MPI_Comm comm);
void pp_mpi_bytes_gather(pp_mpi_bytes *b, const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm);
void pp_mpi_bytes_gatherv(pp_mpi_bytes *b, const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, const int *recvcounts, MPI_Datatype recvtype,
                          int root, MPI_Comm comm);
void pp_mpi_bytes_scatter(pp_mpi_bytes *b, int sendcount, MPI_Datatype sendtype, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm);
void pp_mpi_bytes_scatterv(pp_mpi_bytes *b, const int *sendcounts, MPI_Datatype sendtype,
                           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
void pp_mpi_bytes_allgather(pp_mpi_bytes *b, const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm);
void pp_mpi_bytes_allgatherv(pp_mpi_bytes *b, const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, const int *recvcounts, MPI_Datatype recvtype,
                             MPI_Comm comm);
void pp_mpi_bytes_alltoall(pp_mpi_bytes *b, const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm);
void pp_mpi_bytes_alltoallv(pp_mpi_bytes *b, const void *sendbuf, const int *sendcounts,
                            MPI_Datatype sendtype, const int *recvcounts, MPI_Datatype recvtype,
                            MPI_Comm comm);
void pp_mpi_bytes_alltoallw(pp_mpi_bytes *b, const void *sendbuf, const int *sendcounts,
                            pp_mpi_types sendtypes, const int *recvcounts, pp_mpi_types recvtypes,
                            MPI_Comm comm);
void pp_mpi_bytes_reduce_scatter(pp_mpi_bytes *b, const int *recvcounts, MPI_Datatype type,
                                 MPI_Comm comm);
void pp_mpi_bytes_reduce_scatter_block(pp_mpi_bytes *b, int recvcount, MPI_Datatype type,
                                       MPI_Comm comm);
void pp_mpi_bytes_scan(pp_mpi_bytes *b, int count, MPI_Datatype type, MPI_Comm comm);
void pp_mpi_bytes_neighbor(pp_mpi_bytes *b, int sendcount, MPI_Datatype sendtype, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm);
void pp_mpi_bytes_neighbor_allgatherv(pp_mpi_bytes *b, int sendcount, MPI_Datatype sendtype,
                                      const int *recvcounts, MPI_Datatype recvtype, MPI_Comm comm);
void pp_mpi_bytes_neighbor_alltoallv(pp_mpi_bytes *b, const int *sendcounts,
                                     MPI_Datatype sendtype, const int *recvcounts,
                                     MPI_Datatype recvtype, MPI_Comm comm);
void pp_mpi_bytes_neighbor_alltoallw(pp_mpi_bytes *b, const int *sendcounts,
                                     pp_mpi_types sendtypes, const int *recvcounts,
                                     pp_mpi_types recvtypes, MPI_Comm comm);

/* one-sided */
void pp_mpi_bytes_put(pp_mpi_bytes *b, int count, MPI_Datatype type, int target);
void pp_mpi_bytes_get(pp_mpi_bytes *b, int count, MPI_Datatype type, int target);
void pp_mpi_bytes_get_accumulate(pp_mpi_bytes *b, int origin_count, MPI_Datatype origin_type,
                                 int result_count, MPI_Datatype result_type, int target, MPI_Op op);
void pp_mpi_bytes_fetch_and_op(pp_mpi_bytes *b, MPI_Datatype type, int target, MPI_Op op);
void pp_mpi_bytes_compare_and_swap(pp_mpi_bytes *b, MPI_Datatype type, int target);

#endif
