/* The requests of non-blocking calls in a hybrid trace (pp_mpi_trace.h):
 * an id each (the OTF2 events of the call and of its completion carry it),
 * kept by request handle from the call to its completion, which another
 * thread may see (MPI_THREAD_MULTIPLE).
 *
 * One table of PP_MPI_REQUESTS slots, allocated at MPI_Init when the job
 * traces: open addressing on the handle, slots claimed and released with
 * compare-and-swap (no lock, no allocation per request).  A released slot
 * becomes a tombstone that the next request hashing near it takes again;
 * so a handle found is found within its few colliding neighbours.  A
 * request whose handle the program completes in a way the layer does not
 * see (a persistent request, MPI_Request_get_status) stays until its
 * handle comes back, and then is replaced.  When every slot is taken
 * (PP_MPI_REQUESTS requests outstanding at once), further requests are not
 * kept and their completions not traced (one line says so). */
#include "mpi/pp_mpi_trace.h"

#include <stdlib.h>

#include "lib/pp_message.h"

#define PP_MPI_REQUESTS (1u << 14)
#define PP_MPI_REQ_EMPTY ((uintptr_t)0)
#define PP_MPI_REQ_GONE ((uintptr_t)1)

typedef struct pp_mpi_req_slot {
    uintptr_t handle;
    pp_mpi_req v;
} pp_mpi_req_slot;

static pp_mpi_req_slot *pp_mpi_reqs;
static uint64_t pp_mpi_next_request;

int pp_mpi_request_start(void)
{
    if (!pp_mpi_reqs)
        pp_mpi_reqs = calloc(PP_MPI_REQUESTS, sizeof *pp_mpi_reqs);
    return pp_mpi_reqs ? 0 : -1;
}

uint64_t pp_mpi_request_id(void)
{
    return __atomic_add_fetch(&pp_mpi_next_request, 1, __ATOMIC_RELAXED);
}

static uintptr_t pp_mpi_req_key(MPI_Request r)
{
    uintptr_t k = (uintptr_t)r;
    return k <= PP_MPI_REQ_GONE ? k + 2 : k; /* never the empty or the gone mark */
}

static uint32_t pp_mpi_req_hash(uintptr_t k)
{
    return (uint32_t)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> 40) & (PP_MPI_REQUESTS - 1);
}

int pp_mpi_request_put(MPI_Request r, const pp_mpi_req *v)
{
    if (!pp_mpi_reqs || r == MPI_REQUEST_NULL)
        return -1;
    uintptr_t k = pp_mpi_req_key(r);
    uint32_t j = pp_mpi_req_hash(k);
    for (uint32_t n = 0; n < PP_MPI_REQUESTS; n++, j = (j + 1) & (PP_MPI_REQUESTS - 1)) {
        pp_mpi_req_slot *s = &pp_mpi_reqs[j];
        uintptr_t h = __atomic_load_n(&s->handle, __ATOMIC_ACQUIRE);
        if (h == k) { /* a request the layer did not see complete: replaced */
            s->v = *v;
            return 0;
        }
        if ((h == PP_MPI_REQ_EMPTY || h == PP_MPI_REQ_GONE) &&
            __atomic_compare_exchange_n(&s->handle, &h, k, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            s->v = *v;
            return 0;
        }
    }
    PP_WARN_ONCE("trace: more than %u MPI requests outstanding at once; the completions of "
                 "further ones are not traced", PP_MPI_REQUESTS);
    return -1;
}

int pp_mpi_request_take(MPI_Request r, pp_mpi_req *v)
{
    if (!pp_mpi_reqs || r == MPI_REQUEST_NULL)
        return 0;
    uintptr_t k = pp_mpi_req_key(r);
    uint32_t j = pp_mpi_req_hash(k);
    for (uint32_t n = 0; n < PP_MPI_REQUESTS; n++, j = (j + 1) & (PP_MPI_REQUESTS - 1)) {
        pp_mpi_req_slot *s = &pp_mpi_reqs[j];
        uintptr_t h = __atomic_load_n(&s->handle, __ATOMIC_ACQUIRE);
        if (h == PP_MPI_REQ_EMPTY)
            return 0;
        if (h == k) {
            *v = s->v;
            return __atomic_compare_exchange_n(&s->handle, &h, PP_MPI_REQ_GONE, 0,
                                               __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
        }
    }
    return 0;
}
