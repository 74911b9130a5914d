/* The communicators of a hybrid trace (pp_mpi_trace.h): each gets a number
 * on each rank (what the MPI records name), and a key that is the same on
 * every rank that is a member, from which the trace layer makes one OTF2
 * communicator of the job: MPI_COMM_WORLD's and each rank's MPI_COMM_SELF's
 * are fixed; a communicator made from a parent has the key of (the parent's
 * key, how many communicators its members made from that parent before,
 * its first member's world rank, its size).  Every member of the parent
 * takes part in the making (the functions are collective over it), so the
 * count agrees; a split's parts differ in their first member.  Members are
 * given as world ranks (MPI_Group_translate_ranks).
 *
 * Looking a communicator up (every traced message) takes no lock: an open
 * addressing table of handles, written under the lock when a communicator
 * is made or freed (a freed handle may come back for another), replaced by
 * a larger one when it fills (the old one is kept: a reader may be in it).
 * Intercommunicators and those made by functions not listed in
 * pp_mpi_trace.tbl are unknown: their messages are recorded without a
 * communicator and not matched. */
#include "mpi/pp_mpi_trace.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/pp_trace_job.h"

typedef struct pp_mpi_comm_slot {
    uintptr_t handle; /* 0: empty */
    uint32_t index;   /* UINT32_MAX: freed */
} pp_mpi_comm_slot;

typedef struct pp_mpi_comm_table {
    uint32_t cap; /* a power of two */
    pp_mpi_comm_slot slot[];
} pp_mpi_comm_table;

typedef struct pp_mpi_comm_info {
    uint64_t key;
    uint32_t made; /* communicators made from it so far */
    char *name;
} pp_mpi_comm_info;

/* Written under the lock; the handles' table is read without it. */
static struct {
    pthread_mutex_t lock;
    pp_mpi_comm_table *table;  /* handles to numbers (n_used of its slots) */
    uint32_t n_used;
    pp_mpi_comm_info *infos;   /* by number */
    uint32_t n_infos, cap_infos;
} pp_mpi_comms = {.lock = PTHREAD_MUTEX_INITIALIZER};

static uintptr_t pp_mpi_comm_handle(MPI_Comm c)
{
    return (uintptr_t)c;
}

static uint32_t pp_mpi_comm_hash(uintptr_t h, uint32_t cap)
{
    return (uint32_t)(((uint64_t)h * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

uint32_t pp_mpi_comm_index(MPI_Comm comm)
{
    pp_mpi_comm_table *t = __atomic_load_n(&pp_mpi_comms.table, __ATOMIC_ACQUIRE);
    uintptr_t h = pp_mpi_comm_handle(comm);
    if (!t)
        return UINT32_MAX;
    for (uint32_t j = pp_mpi_comm_hash(h, t->cap), n = 0; n < t->cap; j = (j + 1) & (t->cap - 1), n++) {
        uintptr_t k = __atomic_load_n(&t->slot[j].handle, __ATOMIC_ACQUIRE);
        if (k == h)
            return __atomic_load_n(&t->slot[j].index, __ATOMIC_RELAXED);
        if (!k)
            break;
    }
    return UINT32_MAX;
}

/* Set handle's number in the table (under the lock): 0, or -1. */
static int pp_mpi_comm_set(uintptr_t h, uint32_t index)
{
    pp_mpi_comm_table *t = pp_mpi_comms.table;
    if (!t || 2 * (pp_mpi_comms.n_used + 1) > t->cap) {
        uint32_t cap = t ? 2 * t->cap : 256;
        pp_mpi_comm_table *n = calloc(1, sizeof *n + cap * sizeof n->slot[0]);
        if (!n)
            return -1;
        n->cap = cap;
        for (uint32_t i = 0; t && i < t->cap; i++) {
            if (!t->slot[i].handle)
                continue;
            uint32_t j = pp_mpi_comm_hash(t->slot[i].handle, cap);
            while (n->slot[j].handle)
                j = (j + 1) & (cap - 1);
            n->slot[j] = t->slot[i];
        }
        __atomic_store_n(&pp_mpi_comms.table, n, __ATOMIC_RELEASE);
        t = n; /* the old table stays: a lookup may be reading it */
    }
    uint32_t j = pp_mpi_comm_hash(h, t->cap);
    while (t->slot[j].handle && t->slot[j].handle != h)
        j = (j + 1) & (t->cap - 1);
    if (!t->slot[j].handle)
        pp_mpi_comms.n_used++;
    __atomic_store_n(&t->slot[j].index, index, __ATOMIC_RELAXED);
    __atomic_store_n(&t->slot[j].handle, h, __ATOMIC_RELEASE);
    return 0;
}

static uint64_t pp_mpi_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

/* A new number for a communicator (under the lock): its key, name, parent,
 * members; the trace layer learns it.  UINT32_MAX when out of memory. */
static uint32_t pp_mpi_comm_define(uint64_t key, const char *name, uint32_t parent,
                                   const uint32_t *world, uint32_t n)
{
    if (pp_mpi_comms.n_infos == pp_mpi_comms.cap_infos) {
        uint32_t cap = pp_mpi_comms.cap_infos ? 2 * pp_mpi_comms.cap_infos : 16;
        pp_mpi_comm_info *i = realloc(pp_mpi_comms.infos, cap * sizeof *i);
        if (!i)
            return UINT32_MAX;
        pp_mpi_comms.infos = i;
        pp_mpi_comms.cap_infos = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return UINT32_MAX;
    uint32_t index = pp_mpi_comms.n_infos++;
    pp_mpi_comms.infos[index] = (pp_mpi_comm_info){key, 0, copy};
    pp_trace_job_comm(index, parent, key, name, world, n);
    return index;
}

int pp_mpi_comm_start(int rank, int size)
{
    uint32_t *world = malloc((size_t)size * sizeof *world);
    if (!world)
        return -1;
    for (int i = 0; i < size; i++)
        world[i] = (uint32_t)i;
    uint32_t self = (uint32_t)rank;
    pthread_mutex_lock(&pp_mpi_comms.lock);
    int rc = pp_mpi_comm_define(pp_mpi_mix(1, 0), "MPI_COMM_WORLD", UINT32_MAX, world,
                                (uint32_t)size) == 0 &&
                     pp_mpi_comm_define(pp_mpi_mix(2, self), "MPI_COMM_SELF", UINT32_MAX, &self,
                                        1) == 1 &&
                     pp_mpi_comm_set(pp_mpi_comm_handle(MPI_COMM_WORLD), 0) == 0 &&
                     pp_mpi_comm_set(pp_mpi_comm_handle(MPI_COMM_SELF), 1) == 0
                 ? 0
                 : -1;
    pthread_mutex_unlock(&pp_mpi_comms.lock);
    free(world);
    return rc;
}

/* made's members as world ranks (malloc'ed), NULL when not to be had. */
static uint32_t *pp_mpi_comm_members(MPI_Comm made, uint32_t *n)
{
    int size = 0, inter = 0;
    if (PMPI_Comm_test_inter(made, &inter) != MPI_SUCCESS || inter ||
        PMPI_Comm_size(made, &size) != MPI_SUCCESS || size < 1)
        return NULL;
    MPI_Group g, wg;
    if (PMPI_Comm_group(made, &g) != MPI_SUCCESS)
        return NULL;
    int *in = malloc((size_t)size * sizeof *in), *out = malloc((size_t)size * sizeof *out);
    uint32_t *world = malloc((size_t)size * sizeof *world);
    int ok = in && out && world && PMPI_Comm_group(MPI_COMM_WORLD, &wg) == MPI_SUCCESS;
    if (ok) {
        for (int i = 0; i < size; i++)
            in[i] = i;
        ok = PMPI_Group_translate_ranks(g, size, in, wg, out) == MPI_SUCCESS;
        for (int i = 0; ok && i < size; i++) {
            ok = out[i] >= 0;
            world[i] = (uint32_t)out[i];
        }
        PMPI_Group_free(&wg);
    }
    PMPI_Group_free(&g);
    free(in);
    free(out);
    if (!ok) {
        free(world);
        return NULL;
    }
    *n = (uint32_t)size;
    return world;
}

void pp_mpi_comm_created(MPI_Comm parent, MPI_Comm made, const char *how)
{
    uint32_t p = pp_mpi_comm_index(parent);
    if (p == UINT32_MAX)
        return;
    uint32_t n = 0;
    uint32_t *world = made != MPI_COMM_NULL ? pp_mpi_comm_members(made, &n) : NULL;
    pthread_mutex_lock(&pp_mpi_comms.lock);
    uint32_t seq = pp_mpi_comms.infos[p].made++;
    if (world) {
        uint64_t parent_key = pp_mpi_comms.infos[p].key;
        uint64_t key = pp_mpi_mix(pp_mpi_mix(pp_mpi_mix(parent_key, seq), world[0]), n);
        char name[256];
        snprintf(name, sizeof name, "%s #%u of %s", how, seq + 1, pp_mpi_comms.infos[p].name);
        uint32_t index = pp_mpi_comm_define(key, name, p, world, n);
        if (index != UINT32_MAX)
            pp_mpi_comm_set(pp_mpi_comm_handle(made), index);
    }
    pthread_mutex_unlock(&pp_mpi_comms.lock);
    free(world);
}

void pp_mpi_comm_freed(MPI_Comm comm)
{
    if (pp_mpi_comm_index(comm) == UINT32_MAX)
        return;
    pthread_mutex_lock(&pp_mpi_comms.lock);
    pp_mpi_comm_set(pp_mpi_comm_handle(comm), UINT32_MAX);
    pthread_mutex_unlock(&pp_mpi_comms.lock);
}
