/* A job's definitions in OTF2 (pp_trace_rankdefs.h): the global ones rank 0
 * writes from the unified definitions, and each rank's local ones, the
 * mapping tables of its ids and its ClockOffsets, written for each of its
 * locations.
 *
 * The system tree: the job, a node per host, a location group per rank
 * ("rank R", a process) below its host, a location per thread ("rank R
 * thread T").  Communicators: 0 all threads of the job (the thread team of
 * the task events; a thread's rank in it is its location number), then the
 * ranks' thread teams, then the MPI communicators, whose group lists world
 * ranks: indices into the MPI locations, each rank's master thread. */
#define _GNU_SOURCE
#include "trace/pp_trace_otf2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/pp_trace_rankdefs.h"

/* ---- global ------------------------------------------------------------------------------ */

static void pp_jobdefs_clock(pp_defs_strings *s, const pp_trace_jobdefs *u)
{
    const pp_trace_rank *r0 = &u->ranks[0];
    double tps = r0->ticks_per_second > 0 ? r0->ticks_per_second : 1e9;
    uint64_t t0 = pp_trace_rank_corrected(r0->syncs, r0->n_syncs, r0->t0);
    /* the wall-clock time of the global offset, from rank 0's start */
    double wall = r0->wall_t0 > 0 ? r0->wall_t0 - ((double)t0 - (double)u->t_first) / tps : 0;
    uint64_t length = u->t_last > u->t_first ? u->t_last - u->t_first : 0;
    s->failed |= OTF2_GlobalDefWriter_WriteClockProperties(
                     s->w, (uint64_t)(tps + 0.5), u->t_first, length + 1,
                     wall > 0 ? (uint64_t)(wall * 1e9) : OTF2_UNDEFINED_TIMESTAMP) != OTF2_SUCCESS;
}

/* Strings 1 .. n_values: the parameters' values (their ids are in the ranks'
 * maps); then the parameters' names and the parameters. */
static void pp_jobdefs_params(pp_defs_strings *s, const pp_trace_jobdefs *u)
{
    for (uint32_t j = 0; j < u->n_values; j++)
        pp_defs_string(s, u->values[j]);
    for (uint32_t i = 0; i < u->n_params; i++)
        s->failed |= OTF2_GlobalDefWriter_WriteParameter(
                         s->w, i, pp_defs_string(s, u->param_names[i]),
                         u->param_string[i] ? OTF2_PARAMETER_TYPE_STRING
                                            : OTF2_PARAMETER_TYPE_INT64) != OTF2_SUCCESS;
}

/* The job, its hosts, a group per rank, a location per thread.  The groups
 * are numbered densely (OTF2 wants them in order; a salvaged job may lack a
 * rank): group i is the i-th rank present, named by its rank. */
static void pp_jobdefs_system(pp_defs_strings *s, const pp_trace_jobdefs *u)
{
    char text[600];
    snprintf(text, sizeof text, "%s: MPI job of %u ranks",
             u->ranks[0].program ? u->ranks[0].program : "program", u->job_size);
    s->failed |= OTF2_GlobalDefWriter_WriteSystemTreeNode(s->w, 0, pp_defs_string(s, text),
                                                          pp_defs_string(s, "machine"),
                                                          OTF2_UNDEFINED_SYSTEM_TREE_NODE) !=
                 OTF2_SUCCESS;
    OTF2_StringRef node = pp_defs_string(s, "node");
    uint32_t *host_node = calloc(u->n_ranks ? u->n_ranks : 1, sizeof *host_node);
    if (!host_node) {
        s->failed = 1;
        return;
    }
    uint32_t n_nodes = 0;
    for (uint32_t i = 0; i < u->n_ranks; i++) {
        const char *h = u->ranks[i].host ? u->ranks[i].host : "localhost";
        uint32_t k = 0;
        while (k < i && strcmp(u->ranks[k].host ? u->ranks[k].host : "localhost", h))
            k++;
        if (k < i) {
            host_node[i] = host_node[k];
            continue;
        }
        host_node[i] = 1 + n_nodes++;
        s->failed |= OTF2_GlobalDefWriter_WriteSystemTreeNode(s->w, host_node[i],
                                                              pp_defs_string(s, h), node, 0) !=
                     OTF2_SUCCESS;
    }
    for (uint32_t i = 0; i < u->n_ranks; i++) {
        const pp_trace_rank *r = &u->ranks[i];
        snprintf(text, sizeof text, "rank %u", r->rank);
        s->failed |= OTF2_GlobalDefWriter_WriteLocationGroup(
                         s->w, i, pp_defs_string(s, text), OTF2_LOCATION_GROUP_TYPE_PROCESS,
                         host_node[i], OTF2_UNDEFINED_LOCATION_GROUP) != OTF2_SUCCESS;
        for (uint32_t t = 0; t < r->n_locations; t++) {
            if (r->events[t] == UINT64_MAX)
                continue;
            snprintf(text, sizeof text, "rank %u thread %u", r->rank, t);
            s->failed |= OTF2_GlobalDefWriter_WriteLocation(
                             s->w, u->maps[i].loc_offset + t, pp_defs_string(s, text),
                             OTF2_LOCATION_TYPE_CPU_THREAD, r->events[t], i) != OTF2_SUCCESS;
        }
    }
    free(host_node);
}

static void pp_jobdefs_group(pp_defs_strings *s, uint32_t id, const char *name,
                             OTF2_GroupType type, OTF2_Paradigm paradigm, uint32_t n,
                             const uint64_t *members)
{
    s->failed |= OTF2_GlobalDefWriter_WriteGroup(s->w, id, pp_defs_string(s, name), type, paradigm,
                                                 OTF2_GROUP_FLAG_NONE, n, members) != OTF2_SUCCESS;
}

static void pp_jobdefs_comm(pp_defs_strings *s, uint32_t id, const char *name, uint32_t group,
                            uint32_t parent)
{
    s->failed |= OTF2_GlobalDefWriter_WriteComm(s->w, id, pp_defs_string(s, name), group, parent,
                                                OTF2_COMM_FLAG_NONE) != OTF2_SUCCESS;
}

/* Groups: 0 every location (OpenMP), 1 all of them as comm 0's group, 2 .. the
 * teams', then the MPI locations and the MPI communicators' groups. */
static void pp_jobdefs_comms(pp_defs_strings *s, const pp_trace_jobdefs *u)
{
    uint64_t n = u->n_locations > u->job_size ? u->n_locations : u->job_size;
    uint64_t *m = malloc((n ? n : 1) * sizeof *m);
    if (!m) {
        s->failed = 1;
        return;
    }
    for (uint64_t i = 0; i < u->n_locations; i++)
        m[i] = i;
    pp_jobdefs_group(s, 0, "OpenMP threads", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                     (uint32_t)u->n_locations, m);
    pp_jobdefs_group(s, 1, "OpenMP threads", OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP,
                     (uint32_t)u->n_locations, m);
    pp_jobdefs_comm(s, 0, "all threads of the job (the thread team of task ids)", 1,
                    OTF2_UNDEFINED_COMM);
    char name[700];
    for (uint32_t k = 0; k < u->n_teams; k++) {
        uint32_t ri = u->teams[k].rank;
        const pp_trace_rank *r = &u->ranks[ri];
        const pp_trace_team_def *t = &r->teams[u->teams[k].team];
        for (uint32_t i = 0; i < t->n; i++)
            m[i] = u->maps[ri].loc_offset + t->members[i];
        const char *region = t->region < r->n_regions && r->regions[t->region].name
                                 ? r->regions[t->region].name
                                 : "a parallel region";
        snprintf(name, sizeof name, "team of %s on rank %u", region, r->rank);
        pp_jobdefs_group(s, 2 + k, name, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP, t->n,
                         m);
        pp_jobdefs_comm(s, 1 + k, name, 2 + k, 0);
    }
    /* MPI: world rank w is the master thread of rank w (undefined: a rank the
     * trace lacks) */
    uint32_t g = 2 + u->n_teams;
    for (uint32_t w = 0; w < u->job_size; w++)
        m[w] = OTF2_UNDEFINED_LOCATION;
    for (uint32_t i = 0; i < u->n_ranks; i++)
        if (u->ranks[i].rank < u->job_size)
            m[u->ranks[i].rank] = u->maps[i].loc_offset;
    pp_jobdefs_group(s, g, "MPI ranks", OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                     u->job_size, m);
    for (uint32_t k = 0; k < u->n_mpi; k++) {
        const pp_trace_comm *c = u->mpi[k].def;
        for (uint32_t i = 0; i < c->n; i++)
            m[i] = c->world[i];
        pp_jobdefs_group(s, g + 1 + k, c->name, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                         c->n, m);
        pp_jobdefs_comm(s, 1 + u->n_teams + k, c->name, g + 1 + k,
                        u->mpi[k].parent == UINT32_MAX ? OTF2_UNDEFINED_COMM : u->mpi[k].parent);
    }
    free(m);
}

int pp_trace_otf2_job_globals(OTF2_Archive *archive, const pp_trace_jobdefs *u)
{
    pp_defs_strings s = {.w = OTF2_Archive_GetGlobalDefWriter(archive)};
    if (!s.w || !u->n_ranks)
        return -1;
    pp_jobdefs_clock(&s, u);
    pp_defs_string(&s, ""); /* string 0 */
    pp_jobdefs_params(&s, u);
    pp_jobdefs_system(&s, u);
    for (uint32_t i = 0; i < u->n_regions; i++)
        pp_defs_region(&s, i, u->regions[i]);
    pp_jobdefs_comms(&s, u);
    /* the metrics of rank 0's trace, the attributes of the most dependences */
    const pp_trace_rank *r0 = &u->ranks[0];
    pp_trace_defs d = {.metrics = (const char *const *)r0->metrics, .n_metrics = r0->n_metrics};
    pp_trace_conv c = {.defs = &d, .depend_max = u->depend_max};
    pp_defs_metrics(&c, &s);
    pp_defs_attributes(&c, &s);
    return s.failed ? -1 : 0;
}

/* ---- local: a rank's mapping tables and clock offsets -------------------------------------- */

static OTF2_IdMap *pp_jobdefs_sparse(uint32_t n)
{
    return OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, n ? n : 1);
}

int pp_trace_otf2_job_locals(OTF2_Archive *archive, const pp_trace_rank *r,
                             const pp_trace_jobmap *m)
{
    int failed = 0;
    OTF2_IdMap *regions = OTF2_IdMap_CreateFromUint32Array(m->n_regions, m->region, false);
    OTF2_IdMap *params = m->n_params ? OTF2_IdMap_CreateFromUint32Array(m->n_params, m->param,
                                                                         false)
                                     : NULL;
    OTF2_IdMap *strings = pp_jobdefs_sparse(m->n_values);
    OTF2_IdMap *comms = pp_jobdefs_sparse(1 + m->n_teams + m->n_comms);
    if (!regions || !strings || !comms || (m->n_params && !params))
        failed = 1;
    for (uint32_t j = 0; !failed && j < m->n_values; j++)
        failed |= OTF2_IdMap_AddIdPair(strings, 1 + r->n_params + j, m->value[j]) != OTF2_SUCCESS;
    if (!failed)
        failed |= OTF2_IdMap_AddIdPair(comms, 0, 0) != OTF2_SUCCESS;
    for (uint32_t k = 0; !failed && k < m->n_teams; k++)
        failed |= OTF2_IdMap_AddIdPair(comms, 1 + k, m->team[k]) != OTF2_SUCCESS;
    for (uint32_t i = 0; !failed && i < m->n_comms; i++)
        if (m->comm[i] != UINT32_MAX)
            failed |= OTF2_IdMap_AddIdPair(comms, PP_TRACE_MPI_COMM_BASE + i, m->comm[i]) !=
                      OTF2_SUCCESS;
    /* two offsets at least: a reader corrects between two (one would be
     * left pending); one measurement holds for the whole run */
    pp_trace_sync one[2];
    const pp_trace_sync *syncs = r->syncs;
    uint32_t n_syncs = r->n_syncs;
    if (n_syncs == 1) {
        one[0] = one[1] = r->syncs[0];
        one[1].time++;
        syncs = one;
        n_syncs = 2;
    }
    for (uint32_t t = 0; !failed && t < r->n_locations; t++) {
        if (r->events[t] == UINT64_MAX)
            continue;
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(archive, m->loc_offset + t);
        if (!dw) {
            failed = 1;
            break;
        }
        failed |= OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_REGION, regions) !=
                  OTF2_SUCCESS;
        if (params)
            failed |= OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_PARAMETER, params) !=
                      OTF2_SUCCESS;
        if (m->n_values)
            failed |= OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_STRING, strings) !=
                      OTF2_SUCCESS;
        failed |= OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_COMM, comms) != OTF2_SUCCESS;
        for (uint32_t i = 0; i < n_syncs; i++)
            failed |= OTF2_DefWriter_WriteClockOffset(dw, syncs[i].time, syncs[i].offset,
                                                      syncs[i].sd) != OTF2_SUCCESS;
        failed |= OTF2_Archive_CloseDefWriter(archive, dw) != OTF2_SUCCESS;
    }
    if (regions)
        OTF2_IdMap_Free(regions);
    if (params)
        OTF2_IdMap_Free(params);
    if (strings)
        OTF2_IdMap_Free(strings);
    if (comms)
        OTF2_IdMap_Free(comms);
    return failed ? -1 : 0;
}
