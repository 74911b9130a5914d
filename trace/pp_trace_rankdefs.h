/* A rank's definitions, and the job's made of them (doc/trace.md, "Hybrid
 * traces").
 *
 * Each rank writes its events with its own ids: regions as its engine
 * numbered them, its thread teams 1.., its MPI communicators from
 * PP_TRACE_MPI_COMM_BASE, parameters and their string values as its trace
 * numbered them.  Rank 0 gathers every rank's definitions (pp_trace_rank,
 * packed as bytes), makes the job's (pp_trace_unify: regions by identity,
 * communicators by key, parameters by name), writes them as the archive's
 * global definitions and sends each rank the map of its ids to the job's,
 * which the rank writes as OTF2 mapping tables beside its ClockOffsets.
 * Readers apply both.  pompprof-salvage does the same in one process.
 * Nothing here calls OTF2. */
#ifndef PP_TRACE_RANKDEFS_H
#define PP_TRACE_RANKDEFS_H

#include <stddef.h>
#include <stdint.h>

#include "trace/pp_trace_internal.h"

/* The OTF2 communicator a rank's events name for the MPI layer's
 * communicator i (mapped to the job's by the rank's mapping table). */
#define PP_TRACE_MPI_COMM_BASE 0x40000000u

/* A thread team of a rank: the parallel region, the member threads. */
typedef struct pp_trace_team_def {
    uint32_t region;
    uint32_t n;
    uint32_t *members; /* the rank's location indices */
} pp_trace_team_def;

typedef struct pp_trace_rank {
    uint32_t rank;
    uint32_t n_locations;       /* location indices 0 .. n-1 */
    uint64_t *events;           /* events per location, UINT64_MAX: not in the trace */
    int64_t pid;
    char *host, *program;
    double ticks_per_second, wall_t0;
    uint64_t t0;                /* its first tick on its own clock, for the real time */
    uint64_t t_first, t_last;   /* its first and last tick on rank 0's clock */
    uint32_t n_regions;         /* the engine's, then the trace flush and the trace start */
    pp_trace_region *regions;
    uint32_t n_params;
    char **param_names;
    uint8_t *param_string;      /* a string parameter */
    uint32_t n_values;          /* string values: local string 1 + n_params + j */
    char **values;
    uint32_t n_teams;           /* team k: local communicator k + 1 */
    pp_trace_team_def *teams;
    uint32_t n_comms;           /* the MPI layer's, by index (n 0: undefined) */
    pp_trace_comm *comms;
    uint32_t n_syncs;
    pp_trace_sync *syncs;
    uint32_t depend_max;
    uint32_t n_metrics;
    char **metrics;
} pp_trace_rank;

/* r as bytes (malloc'ed into *out): 0, or -1 out of memory. */
int pp_trace_rank_pack(const pp_trace_rank *r, uint8_t **out, size_t *size);
/* Bytes back into r (its strings owned): 0, or -1 malformed or no memory. */
int pp_trace_rank_unpack(const uint8_t *in, size_t size, pp_trace_rank *r);
void pp_trace_rank_free(pp_trace_rank *r);

/* The rank's corrected time of local tick t (OTF2's reading of the
 * ClockOffsets: linear between them, the nearest interval's line beyond). */
uint64_t pp_trace_rank_corrected(const pp_trace_sync *s, uint32_t n, uint64_t t);

/* ---- the job's definitions (pp_trace_unify.c) ------------------------------------------- */

/* What a rank's ids are in the job (its mapping tables). */
typedef struct pp_trace_jobmap {
    uint64_t loc_offset;  /* its location i is the job's location loc_offset + i */
    uint32_t n_regions, n_params, n_values, n_teams, n_comms;
    uint32_t *region, *param, *value, *team, *comm; /* UINT32_MAX: none */
} pp_trace_jobmap;

int pp_trace_jobmap_pack(const pp_trace_jobmap *m, uint8_t **out, size_t *size);
int pp_trace_jobmap_unpack(const uint8_t *in, size_t size, pp_trace_jobmap *m);
void pp_trace_jobmap_free(pp_trace_jobmap *m);

/* An MPI communicator of the job. */
typedef struct pp_trace_jobcomm {
    const pp_trace_comm *def; /* as a member rank defined it */
    uint32_t parent;          /* the job's id of its parent, UINT32_MAX none */
} pp_trace_jobcomm;

typedef struct pp_trace_jobdefs {
    uint32_t n_ranks;             /* the ranks present, by rank */
    const pp_trace_rank *ranks;
    uint32_t job_size;            /* the ranks of the job, present or not */
    uint64_t n_locations;
    uint32_t n_regions;
    const pp_trace_region **regions;
    uint32_t n_params;
    const char **param_names;
    uint8_t *param_string;
    uint32_t n_values;            /* global strings 1 .. n_values */
    const char **values;
    /* communicators: 0 all threads, 1 .. n_teams the ranks' teams in rank
     * order, then the MPI ones */
    uint32_t n_teams;
    struct {
        uint32_t rank, team;
    } *teams;
    uint32_t n_mpi;
    pp_trace_jobcomm *mpi;
    uint32_t depend_max;
    uint64_t t_first, t_last;     /* on rank 0's clock */
    pp_trace_jobmap *maps;        /* by index into ranks */
} pp_trace_jobdefs;

/* The job's definitions from the ranks' (n of them, by rank; job_size: the
 * job's ranks): 0, or -1 out of memory. */
int pp_trace_unify(const pp_trace_rank *ranks, uint32_t n, uint32_t job_size,
                   pp_trace_jobdefs *u);
void pp_trace_jobdefs_free(pp_trace_jobdefs *u);

#endif
