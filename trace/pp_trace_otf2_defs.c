/* The archive's definitions: strings, the system tree (this machine, this
 * process, one location per thread), the regions (the profile's, same ids,
 * plus the trace flush), the thread team communicators, the PAPI metrics
 * and the clock.  Written after the events, when the teams, locks and event
 * counts are known. */
#define _GNU_SOURCE
#include "trace/pp_trace_otf2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- what the events collect ------------------------------------------------------ */

uint32_t pp_trace_team_comm(pp_trace_conv *c, uint64_t ctx, uint32_t region, uint32_t loc)
{
    uint32_t i = 0;
    while (i < c->n_teams && c->teams[i].ctx != ctx)
        i++;
    if (i == c->n_teams) {
        if (c->n_teams == c->cap_teams) {
            uint32_t cap = c->cap_teams ? 2 * c->cap_teams : 8;
            pp_trace_team *t = realloc(c->teams, cap * sizeof *t);
            if (!t)
                return UINT32_MAX;
            c->teams = t;
            c->cap_teams = cap;
        }
        uint8_t *m = calloc(c->n_locations, 1);
        if (!m)
            return UINT32_MAX;
        c->teams[c->n_teams++] = (pp_trace_team){ctx, region, m};
    }
    if (loc < c->n_locations)
        c->teams[i].member[loc] = 1;
    return i + 1;
}

uint32_t pp_trace_lock_id(pp_trace_conv *c, uint64_t addr)
{
    if (2 * (c->n_locks + 1) > c->cap_locks) {
        uint32_t cap = c->cap_locks ? 2 * c->cap_locks : 64;
        pp_trace_lock *t = calloc(cap, sizeof *t);
        if (!t)
            return UINT32_MAX;
        for (uint32_t i = 0; i < c->cap_locks; i++) {
            if (!c->locks[i].addr)
                continue;
            uint32_t j = (uint32_t)(c->locks[i].addr * 0x9E3779B97F4A7C15ull >> 32) & (cap - 1);
            while (t[j].addr)
                j = (j + 1) & (cap - 1);
            t[j] = c->locks[i];
        }
        free(c->locks);
        c->locks = t;
        c->cap_locks = cap;
    }
    uint32_t j = (uint32_t)(addr * 0x9E3779B97F4A7C15ull >> 32) & (c->cap_locks - 1);
    while (c->locks[j].addr && c->locks[j].addr != addr)
        j = (j + 1) & (c->cap_locks - 1);
    if (!c->locks[j].addr)
        c->locks[j] = (pp_trace_lock){addr, c->n_locks++};
    return c->locks[j].id;
}

/* ---- strings -------------------------------------------------------------------------- */

OTF2_StringRef pp_defs_string(pp_defs_strings *s, const char *text)
{
    OTF2_StringRef ref = s->next++;
    if (OTF2_GlobalDefWriter_WriteString(s->w, ref, text ? text : "") != OTF2_SUCCESS)
        s->failed = 1;
    return ref;
}

/* ---- regions -------------------------------------------------------------------------- */

static OTF2_RegionRole pp_defs_role(const char *role)
{
    static const struct {
        const char *name;
        OTF2_RegionRole role;
    } roles[] = {
        {"parallel", OTF2_REGION_ROLE_PARALLEL},
        {"loop", OTF2_REGION_ROLE_LOOP},
        {"sections", OTF2_REGION_ROLE_SECTIONS},
        {"section", OTF2_REGION_ROLE_SECTION},
        {"workshare", OTF2_REGION_ROLE_WORKSHARE},
        {"single", OTF2_REGION_ROLE_SINGLE},
        {"single sblock", OTF2_REGION_ROLE_SINGLE_SBLOCK},
        {"master", OTF2_REGION_ROLE_MASTER},
        {"critical", OTF2_REGION_ROLE_CRITICAL},
        {"critical sblock", OTF2_REGION_ROLE_CRITICAL_SBLOCK},
        {"atomic", OTF2_REGION_ROLE_ATOMIC},
        {"barrier", OTF2_REGION_ROLE_BARRIER},
        {"implicit barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER},
        {"flush", OTF2_REGION_ROLE_FLUSH},
        {"ordered", OTF2_REGION_ROLE_ORDERED},
        {"ordered sblock", OTF2_REGION_ROLE_ORDERED_SBLOCK},
        {"task", OTF2_REGION_ROLE_TASK},
        {"untied task", OTF2_REGION_ROLE_TASK_UNTIED},
        {"task create", OTF2_REGION_ROLE_TASK_CREATE},
        {"taskwait", OTF2_REGION_ROLE_TASK_WAIT},
        {"wrapper", OTF2_REGION_ROLE_WRAPPER},
        {"function", OTF2_REGION_ROLE_FUNCTION},
        {"user", OTF2_REGION_ROLE_CODE},
        {"artificial", OTF2_REGION_ROLE_ARTIFICIAL},
        {"p2p", OTF2_REGION_ROLE_POINT2POINT}, /* the MPI functions' groups (mpi/) */
        {"coll", OTF2_REGION_ROLE_COLL_OTHER},
    };
    for (size_t i = 0; role && i < sizeof roles / sizeof roles[0]; i++)
        if (!strcmp(role, roles[i].name))
            return roles[i].role;
    return OTF2_REGION_ROLE_UNKNOWN;
}

static OTF2_Paradigm pp_defs_paradigm(const char *p)
{
    if (p && !strcmp(p, "openmp"))
        return OTF2_PARADIGM_OPENMP;
    if (p && !strcmp(p, "user"))
        return OTF2_PARADIGM_USER;
    if (p && !strcmp(p, "measurement"))
        return OTF2_PARADIGM_MEASUREMENT_SYSTEM;
    if (p && !strcmp(p, "mpi"))
        return OTF2_PARADIGM_MPI;
    return OTF2_PARADIGM_UNKNOWN;
}

void pp_defs_region(pp_defs_strings *s, OTF2_RegionRef id, const pp_trace_region *r)
{
    OTF2_StringRef name = pp_defs_string(s, r->name);
    OTF2_StringRef descr = pp_defs_string(s, r->description);
    OTF2_StringRef file = pp_defs_string(s, r->file);
    uint32_t b = r->begin_line > 0 ? (uint32_t)r->begin_line : 0;
    uint32_t e = r->end_line > 0 ? (uint32_t)r->end_line : 0;
    if (OTF2_GlobalDefWriter_WriteRegion(s->w, id, name, name, descr, pp_defs_role(r->role),
                                         pp_defs_paradigm(r->paradigm), OTF2_REGION_FLAG_NONE,
                                         file, b, e) != OTF2_SUCCESS)
        s->failed = 1;
}

/* ---- groups and communicators -------------------------------------------------------- */

/* Group 0 lists the threads (rank = location index), group 1 all their
 * ranks for comm 0, and group k + 1 the members of team comm k. */
static void pp_defs_comms(pp_trace_conv *c, pp_defs_strings *s)
{
    uint64_t *members = malloc((c->n_locations + 1) * sizeof *members);
    if (!members) {
        s->failed = 1;
        return;
    }
    for (uint32_t i = 0; i < c->n_locations; i++)
        members[i] = i;
    OTF2_StringRef threads = pp_defs_string(s, "OpenMP threads");
    s->failed |= OTF2_GlobalDefWriter_WriteGroup(s->w, 0, threads, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                                 OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                                 c->n_locations, members) != OTF2_SUCCESS;
    s->failed |= OTF2_GlobalDefWriter_WriteGroup(s->w, 1, threads, OTF2_GROUP_TYPE_COMM_GROUP,
                                                 OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                                 c->n_locations, members) != OTF2_SUCCESS;
    OTF2_StringRef all = pp_defs_string(s, "all threads (the thread team of task ids)");
    s->failed |= OTF2_GlobalDefWriter_WriteComm(s->w, 0, all, 1, OTF2_UNDEFINED_COMM,
                                                OTF2_COMM_FLAG_NONE) != OTF2_SUCCESS;
    for (uint32_t k = 0; k < c->n_teams; k++) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < c->n_locations; i++)
            if (c->teams[k].member[i])
                members[n++] = i;
        const pp_trace_region *r = c->teams[k].region < c->defs->n_regions
                                       ? &c->defs->regions[c->teams[k].region]
                                       : NULL;
        char name[600];
        snprintf(name, sizeof name, "team of %s", r && r->name ? r->name : "a parallel region");
        s->failed |= OTF2_GlobalDefWriter_WriteGroup(s->w, k + 2, pp_defs_string(s, name),
                                                     OTF2_GROUP_TYPE_COMM_GROUP,
                                                     OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                                     n, members) != OTF2_SUCCESS;
        s->failed |= OTF2_GlobalDefWriter_WriteComm(s->w, k + 1, pp_defs_string(s, name), k + 2,
                                                    0, OTF2_COMM_FLAG_NONE) != OTF2_SUCCESS;
    }
    free(members);
}

void pp_defs_metrics(pp_trace_conv *c, pp_defs_strings *s)
{
    uint32_t n = c->defs->n_metrics;
    if (!n)
        return;
    OTF2_MetricMemberRef refs[PP_TRACE_METRICS_MAX];
    OTF2_StringRef unit = pp_defs_string(s, "#");
    for (uint32_t i = 0; i < n && i < PP_TRACE_METRICS_MAX; i++) {
        OTF2_StringRef name = pp_defs_string(s, c->defs->metrics[i]);
        refs[i] = i;
        s->failed |= OTF2_GlobalDefWriter_WriteMetricMember(
                         s->w, i, name, name, OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START,
                         OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, unit) != OTF2_SUCCESS;
    }
    s->failed |= OTF2_GlobalDefWriter_WriteMetricClass(s->w, 0, (uint8_t)n, refs,
                                                       OTF2_METRIC_SYNCHRONOUS,
                                                       OTF2_RECORDER_KIND_CPU) != OTF2_SUCCESS;
}

/* ---- parameters ------------------------------------------------------------------------ */

int pp_trace_param_is_string(const pp_trace_defs *d, uint32_t i)
{
    for (uint32_t j = 0; d->pset_first && j < d->pset_first[d->n_psets]; j++)
        if (d->pset_values[j].param == i && d->pset_values[j].is_string)
            return 1;
    return 0;
}

/* Strings 1 .. n_params: the names; then one per value of the sets (its text);
 * then the parameters themselves.  Right after string 0, so that their ids
 * are known while the events are written (pp_trace_param_string). */
static void pp_defs_params(const pp_trace_defs *d, pp_defs_strings *s)
{
    for (uint32_t i = 0; i < d->n_params; i++)
        pp_defs_string(s, d->param_names[i]);
    uint32_t n = d->pset_first ? d->pset_first[d->n_psets] : 0;
    for (uint32_t j = 0; j < n; j++) {
        const pp_trace_param *v = &d->pset_values[j];
        char num[32];
        if (!v->is_string)
            snprintf(num, sizeof num, "%lld", (long long)v->value);
        pp_defs_string(s, v->is_string ? v->str : num);
    }
    for (uint32_t i = 0; i < d->n_params; i++)
        s->failed |= OTF2_GlobalDefWriter_WriteParameter(
                         s->w, i, 1 + i,
                         pp_trace_param_is_string(d, i) ? OTF2_PARAMETER_TYPE_STRING
                                                        : OTF2_PARAMETER_TYPE_INT64) !=
                     OTF2_SUCCESS;
}

/* Attributes 3i .. 3i+2: the i-th dependence of an event (pp_trace_otf2.h). */
void pp_defs_attributes(pp_trace_conv *c, pp_defs_strings *s)
{
    static const struct {
        const char *name, *descr;
        OTF2_Type type;
    } attrs[PP_ATTR_N] = {
        [PP_ATTR_DEPEND_ADDR] = {"address", "the address of a depend clause's list item",
                                 OTF2_TYPE_UINT64},
        [PP_ATTR_DEPEND_SIZE] = {"size", "the list item's size in bytes", OTF2_TYPE_UINT64},
        [PP_ATTR_DEPEND_KIND] = {"kind",
                                 "the dependence type: 1 in, 2 out, 3 inout, 4 mutexinoutset, "
                                 "5 inoutset, 6 unknown (the storage was not recorded)",
                                 OTF2_TYPE_UINT8},
    };
    if (!c->depend_max)
        return;
    OTF2_StringRef descr[PP_ATTR_N];
    for (uint32_t k = 0; k < PP_ATTR_N; k++)
        descr[k] = pp_defs_string(s, attrs[k].descr);
    for (uint32_t i = 0; i < c->depend_max; i++) {
        for (uint32_t k = 0; k < PP_ATTR_N; k++) {
            char name[64];
            snprintf(name, sizeof name, "depend[%u] %s", i, attrs[k].name);
            s->failed |= OTF2_GlobalDefWriter_WriteAttribute(s->w, PP_ATTR_N * i + k,
                                                             pp_defs_string(s, name), descr[k],
                                                             attrs[k].type) != OTF2_SUCCESS;
        }
    }
}

const pp_trace_region pp_trace_flush_region = {
    .name = "pompprof trace flush", .description = "the trace buffer written to disk",
    .paradigm = "measurement", .role = "artificial", .begin_line = 0, .end_line = 0};
const pp_trace_region pp_trace_start_region = {
    .name = "pompprof trace start",
    .description = "the trace's directories, files and buffers set up", .paradigm = "measurement",
    .role = "artificial", .begin_line = 0, .end_line = 0};

/* ---- all of it ------------------------------------------------------------------------- */

uint64_t pp_trace_otf2_definitions_size(const pp_trace_defs *defs, uint32_t n_locations)
{
    uint64_t bytes = 4096 + 512 + 3 * 32 * (uint64_t)PP_TRACE_DEPEND_ITEMS_MAX + 64 * (uint64_t)n_locations + 128 * (uint64_t)defs->n_metrics;
    for (uint32_t i = 0; i < defs->n_regions; i++) {
        const pp_trace_region *r = &defs->regions[i];
        bytes += 64 + (r->name ? strlen(r->name) : 0) + (r->file ? strlen(r->file) : 0) +
                 (r->description ? strlen(r->description) : 0);
    }
    for (uint32_t i = 0; i < defs->n_params; i++)
        bytes += 64 + strlen(defs->param_names[i]);
    for (uint32_t j = 0; defs->pset_first && j < defs->pset_first[defs->n_psets]; j++)
        bytes += 48 + (defs->pset_values[j].is_string ? strlen(defs->pset_values[j].str) : 0);
    /* team groups: a member list each, at most one per location and team */
    return bytes + 16 * (uint64_t)n_locations * n_locations;
}

int pp_trace_otf2_definitions(pp_trace_conv *c)
{
    const pp_trace_defs *d = c->defs;
    int failed = 0;
    if (OTF2_Archive_OpenDefFiles(c->archive) != OTF2_SUCCESS)
        return -1;
    for (uint32_t i = 0; i < c->n_locations; i++) {
        if (!c->defined[i])
            continue;
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(c->archive, i);
        if (!dw || OTF2_Archive_CloseDefWriter(c->archive, dw) != OTF2_SUCCESS)
            failed = 1;
    }
    if (OTF2_Archive_CloseDefFiles(c->archive) != OTF2_SUCCESS)
        failed = 1;
    pp_defs_strings s = {.w = OTF2_Archive_GetGlobalDefWriter(c->archive)};
    if (!s.w)
        return -1;
    uint64_t length = c->t_end > pp_trace_g.t0 ? c->t_end - pp_trace_g.t0 : 0;
    s.failed |= OTF2_GlobalDefWriter_WriteClockProperties(
                    s.w, (uint64_t)(d->ticks_per_second + 0.5), pp_trace_g.t0, length + 1,
                    d->wall_t0 > 0 ? (uint64_t)(d->wall_t0 * 1e9) : OTF2_UNDEFINED_TIMESTAMP) !=
                OTF2_SUCCESS;
    pp_defs_string(&s, ""); /* string 0 */
    pp_defs_params(d, &s);
    char host[256] = "localhost";
    if (d->host)
        snprintf(host, sizeof host, "%s", d->host);
    else
        gethostname(host, sizeof host - 1);
    OTF2_StringRef machine = pp_defs_string(&s, host);
    s.failed |= OTF2_GlobalDefWriter_WriteSystemTreeNode(s.w, 0, machine,
                                                         pp_defs_string(&s, "machine"),
                                                         OTF2_UNDEFINED_SYSTEM_TREE_NODE) !=
                OTF2_SUCCESS;
    char process[300];
    snprintf(process, sizeof process, "%s (process %ld)", d->program ? d->program : "program",
             d->pid ? d->pid : (long)getpid());
    s.failed |= OTF2_GlobalDefWriter_WriteLocationGroup(
                    s.w, 0, pp_defs_string(&s, process), OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                    OTF2_UNDEFINED_LOCATION_GROUP) != OTF2_SUCCESS;
    for (uint32_t i = 0; i < c->n_locations; i++) {
        if (!c->defined[i])
            continue;
        char name[32];
        snprintf(name, sizeof name, "thread %u", i);
        s.failed |= OTF2_GlobalDefWriter_WriteLocation(s.w, i, pp_defs_string(&s, name),
                                                       OTF2_LOCATION_TYPE_CPU_THREAD,
                                                       c->events[i], 0) != OTF2_SUCCESS;
    }
    for (uint32_t r = 0; r < d->n_regions; r++)
        pp_defs_region(&s, r, &d->regions[r]);
    pp_defs_region(&s, c->flush_region, &pp_trace_flush_region);
    pp_defs_region(&s, c->flush_region + 1, &pp_trace_start_region);
    pp_defs_comms(c, &s);
    pp_defs_metrics(c, &s);
    pp_defs_attributes(c, &s);
    return failed || s.failed ? -1 : 0;
}
