/* The bytes of a call, by the rules of doc/mpi.md: a point-to-point call
 * counts its message; a collective counts what this rank's buffers hand to
 * the other ranks and take from them, as if every pair exchanged its part
 * directly (a rank's part for itself does not count); a one-sided call
 * counts the origin's data.  Only the call's arguments (and the status of a
 * receive) are read, with PMPI_ queries that do not communicate. */
#include "mpi/pp_mpi.h"

static uint64_t pp_mpi_size(int64_t count, MPI_Datatype type)
{
    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    MPI_Count size = 0;
    if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size <= 0)
        return 0;
    return (uint64_t)count * (uint64_t)size;
}

/* A rank's peers in a communicator: the others of its group, or the remote
 * group of an intercommunicator (whose collectives exchange across the
 * groups only).  self: the rank's index among the peers' counts (-1 when
 * the counts are the remote group's). */
typedef struct pp_mpi_peers {
    int size, self, inter;
} pp_mpi_peers;

static pp_mpi_peers pp_mpi_peers_of(MPI_Comm comm)
{
    pp_mpi_peers p = {0, -1, 0};
    PMPI_Comm_test_inter(comm, &p.inter);
    if (p.inter) {
        PMPI_Comm_remote_size(comm, &p.size);
    } else {
        PMPI_Comm_size(comm, &p.size);
        PMPI_Comm_rank(comm, &p.self);
    }
    return p;
}

static int pp_mpi_others(const pp_mpi_peers *p)
{
    return p->inter ? p->size : p->size - 1;
}

/* The sum of counts[j] * size(type j) over the peers but oneself. */
static uint64_t pp_mpi_sum(const pp_mpi_peers *p, const int *counts, MPI_Datatype type,
                           pp_mpi_types types)
{
    uint64_t s = 0;
    for (int j = 0; counts && j < p->size; j++) {
        if (j == p->self)
            continue;
        MPI_Datatype t = type;
        if (types.c)
            t = types.c[j];
        else if (types.f)
            t = PMPI_Type_f2c(types.f[j]);
        s += pp_mpi_size(counts[j], t);
    }
    return s;
}

static const pp_mpi_types pp_mpi_no_types = {NULL, NULL};

/* Rooted collectives: root is this rank (or MPI_ROOT on an
 * intercommunicator), or this rank takes no part (MPI_PROC_NULL). */
static int pp_mpi_is_root(const pp_mpi_peers *p, int root)
{
    return p->inter ? root == MPI_ROOT : root == p->self;
}

/* ---- point to point ------------------------------------------------------------- */

void pp_mpi_bytes_send(pp_mpi_bytes *b, int count, MPI_Datatype type, int dest)
{
    if (dest != MPI_PROC_NULL)
        b->sent += pp_mpi_size(count, type);
}

void pp_mpi_bytes_recv(pp_mpi_bytes *b, const MPI_Status *status)
{
    MPI_Count n = 0;
    if (PMPI_Get_elements_x(status, MPI_BYTE, &n) == MPI_SUCCESS && n > 0 && n != MPI_UNDEFINED)
        b->received += (uint64_t)n;
}

/* A receive not complete yet: the size of the posted buffer (doc/mpi.md). */
void pp_mpi_bytes_irecv(pp_mpi_bytes *b, int count, MPI_Datatype type, int source)
{
    if (source != MPI_PROC_NULL)
        b->received += pp_mpi_size(count, type);
}

void pp_mpi_bytes_imrecv(pp_mpi_bytes *b, int count, MPI_Datatype type)
{
    b->received += pp_mpi_size(count, type);
}

void pp_mpi_bytes_sendrecv(pp_mpi_bytes *b, int sendcount, MPI_Datatype sendtype, int dest,
                           const MPI_Status *status)
{
    pp_mpi_bytes_send(b, sendcount, sendtype, dest);
    pp_mpi_bytes_recv(b, status);
}

/* ---- collectives -------------------------------------------------------------------- */

void pp_mpi_bytes_bcast(pp_mpi_bytes *b, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    if (pp_mpi_is_root(&p, root))
        b->sent += pp_mpi_others(&p) * pp_mpi_size(count, type);
    else if (root != MPI_PROC_NULL)
        b->received += pp_mpi_size(count, type);
}

void pp_mpi_bytes_reduce(pp_mpi_bytes *b, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    if (pp_mpi_is_root(&p, root))
        b->received += pp_mpi_others(&p) * pp_mpi_size(count, type);
    else if (root != MPI_PROC_NULL)
        b->sent += pp_mpi_size(count, type);
}

void pp_mpi_bytes_allreduce(pp_mpi_bytes *b, int count, MPI_Datatype type, MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    uint64_t x = pp_mpi_others(&p) * pp_mpi_size(count, type);
    b->sent += x;
    b->received += x;
}

void pp_mpi_bytes_gather(pp_mpi_bytes *b, const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm)
{
    (void)sendbuf; /* MPI_IN_PLACE only at the root, which sends nothing */
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    if (pp_mpi_is_root(&p, root))
        b->received += pp_mpi_others(&p) * pp_mpi_size(recvcount, recvtype);
    else if (root != MPI_PROC_NULL)
        b->sent += pp_mpi_size(sendcount, sendtype);
}

void pp_mpi_bytes_gatherv(pp_mpi_bytes *b, const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, const int *recvcounts, MPI_Datatype recvtype,
                          int root, MPI_Comm comm)
{
    (void)sendbuf;
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    if (pp_mpi_is_root(&p, root))
        b->received += pp_mpi_sum(&p, recvcounts, recvtype, pp_mpi_no_types);
    else if (root != MPI_PROC_NULL)
        b->sent += pp_mpi_size(sendcount, sendtype);
}

void pp_mpi_bytes_scatter(pp_mpi_bytes *b, int sendcount, MPI_Datatype sendtype, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    if (pp_mpi_is_root(&p, root))
        b->sent += pp_mpi_others(&p) * pp_mpi_size(sendcount, sendtype);
    else if (root != MPI_PROC_NULL)
        b->received += pp_mpi_size(recvcount, recvtype);
}

void pp_mpi_bytes_scatterv(pp_mpi_bytes *b, const int *sendcounts, MPI_Datatype sendtype,
                           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    if (pp_mpi_is_root(&p, root))
        b->sent += pp_mpi_sum(&p, sendcounts, sendtype, pp_mpi_no_types);
    else if (root != MPI_PROC_NULL)
        b->received += pp_mpi_size(recvcount, recvtype);
}

void pp_mpi_bytes_allgather(pp_mpi_bytes *b, const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    uint64_t mine = sendbuf == MPI_IN_PLACE ? pp_mpi_size(recvcount, recvtype)
                                            : pp_mpi_size(sendcount, sendtype);
    b->sent += pp_mpi_others(&p) * mine;
    b->received += pp_mpi_others(&p) * pp_mpi_size(recvcount, recvtype);
}

void pp_mpi_bytes_allgatherv(pp_mpi_bytes *b, const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, const int *recvcounts, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    uint64_t mine = sendbuf == MPI_IN_PLACE && p.self >= 0
                        ? pp_mpi_size(recvcounts[p.self], recvtype)
                        : pp_mpi_size(sendcount, sendtype);
    b->sent += pp_mpi_others(&p) * mine;
    b->received += pp_mpi_sum(&p, recvcounts, recvtype, pp_mpi_no_types);
}

void pp_mpi_bytes_alltoall(pp_mpi_bytes *b, const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    uint64_t block = sendbuf == MPI_IN_PLACE ? pp_mpi_size(recvcount, recvtype)
                                             : pp_mpi_size(sendcount, sendtype);
    b->sent += pp_mpi_others(&p) * block;
    b->received += pp_mpi_others(&p) * pp_mpi_size(recvcount, recvtype);
}

void pp_mpi_bytes_alltoallv(pp_mpi_bytes *b, const void *sendbuf, const int *sendcounts,
                            MPI_Datatype sendtype, const int *recvcounts, MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    if (sendbuf == MPI_IN_PLACE)
        b->sent += pp_mpi_sum(&p, recvcounts, recvtype, pp_mpi_no_types);
    else
        b->sent += pp_mpi_sum(&p, sendcounts, sendtype, pp_mpi_no_types);
    b->received += pp_mpi_sum(&p, recvcounts, recvtype, pp_mpi_no_types);
}

void pp_mpi_bytes_alltoallw(pp_mpi_bytes *b, const void *sendbuf, const int *sendcounts,
                            pp_mpi_types sendtypes, const int *recvcounts, pp_mpi_types recvtypes,
                            MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    if (sendbuf == MPI_IN_PLACE)
        b->sent += pp_mpi_sum(&p, recvcounts, MPI_DATATYPE_NULL, recvtypes);
    else
        b->sent += pp_mpi_sum(&p, sendcounts, MPI_DATATYPE_NULL, sendtypes);
    b->received += pp_mpi_sum(&p, recvcounts, MPI_DATATYPE_NULL, recvtypes);
}

void pp_mpi_bytes_reduce_scatter(pp_mpi_bytes *b, const int *recvcounts, MPI_Datatype type,
                                 MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    /* this rank's data for the others' blocks; the others' for its block */
    b->sent += pp_mpi_sum(&p, recvcounts, type, pp_mpi_no_types);
    if (p.self >= 0)
        b->received += pp_mpi_others(&p) * pp_mpi_size(recvcounts[p.self], type);
}

void pp_mpi_bytes_reduce_scatter_block(pp_mpi_bytes *b, int recvcount, MPI_Datatype type,
                                       MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    uint64_t x = pp_mpi_others(&p) * pp_mpi_size(recvcount, type);
    b->sent += x;
    b->received += x;
}

/* Scan and exscan: rank r's data goes to the ranks after it, the data of
 * the ranks before it comes to r. */
void pp_mpi_bytes_scan(pp_mpi_bytes *b, int count, MPI_Datatype type, MPI_Comm comm)
{
    pp_mpi_peers p = pp_mpi_peers_of(comm);
    if (p.inter)
        return;
    uint64_t x = pp_mpi_size(count, type);
    b->sent += (uint64_t)(p.size - 1 - p.self) * x;
    b->received += (uint64_t)p.self * x;
}

/* ---- neighborhood collectives: the topology's in- and out-neighbours ------------- */

static void pp_mpi_degrees(MPI_Comm comm, int *in, int *out)
{
    int topo = MPI_UNDEFINED;
    *in = *out = 0;
    PMPI_Topo_test(comm, &topo);
    if (topo == MPI_CART) {
        int ndims = 0;
        PMPI_Cartdim_get(comm, &ndims);
        *in = *out = 2 * ndims; /* two neighbours per dimension, MPI_PROC_NULL included */
    } else if (topo == MPI_GRAPH) {
        int rank = 0;
        PMPI_Comm_rank(comm, &rank);
        PMPI_Graph_neighbors_count(comm, rank, in);
        *out = *in;
    } else if (topo == MPI_DIST_GRAPH) {
        int weighted = 0;
        PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted);
    }
}

void pp_mpi_bytes_neighbor(pp_mpi_bytes *b, int sendcount, MPI_Datatype sendtype, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    int in, out;
    pp_mpi_degrees(comm, &in, &out);
    b->sent += out * pp_mpi_size(sendcount, sendtype);
    b->received += in * pp_mpi_size(recvcount, recvtype);
}

static uint64_t pp_mpi_sum_all(int n, const int *counts, MPI_Datatype type, pp_mpi_types types)
{
    pp_mpi_peers all = {n, -1, 0};
    return pp_mpi_sum(&all, counts, type, types);
}

void pp_mpi_bytes_neighbor_allgatherv(pp_mpi_bytes *b, int sendcount, MPI_Datatype sendtype,
                                      const int *recvcounts, MPI_Datatype recvtype, MPI_Comm comm)
{
    int in, out;
    pp_mpi_degrees(comm, &in, &out);
    b->sent += out * pp_mpi_size(sendcount, sendtype);
    b->received += pp_mpi_sum_all(in, recvcounts, recvtype, pp_mpi_no_types);
}

void pp_mpi_bytes_neighbor_alltoallv(pp_mpi_bytes *b, const int *sendcounts,
                                     MPI_Datatype sendtype, const int *recvcounts,
                                     MPI_Datatype recvtype, MPI_Comm comm)
{
    int in, out;
    pp_mpi_degrees(comm, &in, &out);
    b->sent += pp_mpi_sum_all(out, sendcounts, sendtype, pp_mpi_no_types);
    b->received += pp_mpi_sum_all(in, recvcounts, recvtype, pp_mpi_no_types);
}

void pp_mpi_bytes_neighbor_alltoallw(pp_mpi_bytes *b, const int *sendcounts,
                                     pp_mpi_types sendtypes, const int *recvcounts,
                                     pp_mpi_types recvtypes, MPI_Comm comm)
{
    int in, out;
    pp_mpi_degrees(comm, &in, &out);
    b->sent += pp_mpi_sum_all(out, sendcounts, MPI_DATATYPE_NULL, sendtypes);
    b->received += pp_mpi_sum_all(in, recvcounts, MPI_DATATYPE_NULL, recvtypes);
}

/* ---- one-sided: the origin's data --------------------------------------------------- */

void pp_mpi_bytes_put(pp_mpi_bytes *b, int count, MPI_Datatype type, int target)
{
    if (target != MPI_PROC_NULL)
        b->sent += pp_mpi_size(count, type);
}

void pp_mpi_bytes_get(pp_mpi_bytes *b, int count, MPI_Datatype type, int target)
{
    if (target != MPI_PROC_NULL)
        b->received += pp_mpi_size(count, type);
}

void pp_mpi_bytes_get_accumulate(pp_mpi_bytes *b, int origin_count, MPI_Datatype origin_type,
                                 int result_count, MPI_Datatype result_type, int target, MPI_Op op)
{
    if (target == MPI_PROC_NULL)
        return;
    if (op != MPI_NO_OP) /* MPI_NO_OP ignores the origin buffer */
        b->sent += pp_mpi_size(origin_count, origin_type);
    b->received += pp_mpi_size(result_count, result_type);
}

void pp_mpi_bytes_fetch_and_op(pp_mpi_bytes *b, MPI_Datatype type, int target, MPI_Op op)
{
    if (target == MPI_PROC_NULL)
        return;
    if (op != MPI_NO_OP)
        b->sent += pp_mpi_size(1, type);
    b->received += pp_mpi_size(1, type);
}

void pp_mpi_bytes_compare_and_swap(pp_mpi_bytes *b, MPI_Datatype type, int target)
{
    if (target == MPI_PROC_NULL)
        return;
    b->sent += pp_mpi_size(2, type); /* the origin and the compare value */
    b->received += pp_mpi_size(1, type);
}
