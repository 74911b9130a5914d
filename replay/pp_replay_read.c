/* Reading a trace with OTF2's reader (pp_replay_read): its global
 * definitions (pp_def_*: the clock, strings, regions, threads, a job's ranks
 * and communicators, our dependence attributes), then its events in time
 * order across the threads (pp_replay_events.c).  A trace OTF2 cannot read,
 * or that is not pompprof's, ends the replay (pp_replay_fail.h). */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"
#include "replay/pp_replay_read.h"

#include <errno.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static OTF2_ErrorCode pp_replay_otf2_error(void *user, const char *file, uint64_t line,
                                           const char *function, OTF2_ErrorCode code,
                                           const char *fmt, va_list va)
{
    (void)file, (void)line, (void)function;
    if (code == OTF2_SUCCESS || code == OTF2_WARNING)
        return code;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, va);
    pp_replay_die("%s: %s (%s)", (const char *)user, msg, OTF2_Error_GetName(code));
    return code;
}

/* ---- definitions ------------------------------------------------------------------ */

static pp_replay *pp_replay_of(void *user)
{
    return user;
}

static OTF2_CallbackCode pp_def_clock(void *user, uint64_t resolution, uint64_t offset,
                                      uint64_t length, uint64_t realtime)
{
    (void)realtime;
    pp_replay *r = pp_replay_of(user);
    r->resolution = resolution;
    r->offset = offset;
    r->length = length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_def_string(void *user, OTF2_StringRef self, const char *s)
{
    pp_replay *r = pp_replay_of(user);
    if (self >= r->n_strings) {
        uint32_t n = self + 1 > 2 * r->n_strings ? self + 1 : 2 * r->n_strings;
        r->strings = pp_replay_resize_zero(r->strings, r->n_strings, n, sizeof *r->strings);
        r->n_strings = n;
    }
    free(r->strings[self]);
    r->strings[self] = pp_replay_strdup(s ? s : "");
    return OTF2_CALLBACK_SUCCESS;
}

const char *pp_replay_string(const pp_replay *r, OTF2_StringRef ref)
{
    return ref < r->n_strings && r->strings[ref] ? r->strings[ref] : "";
}

static int pp_def_kind(OTF2_RegionRole role, OTF2_Paradigm paradigm, const char *name)
{
    if (paradigm == OTF2_PARADIGM_MPI)
        return PP_RK_MPI;
    switch (role) {
    case OTF2_REGION_ROLE_PARALLEL: return PP_RK_PARALLEL;
    case OTF2_REGION_ROLE_TASK:
    case OTF2_REGION_ROLE_TASK_UNTIED: return PP_RK_TASK;
    case OTF2_REGION_ROLE_TASK_CREATE: return PP_RK_CREATE;
    case OTF2_REGION_ROLE_BARRIER:
    case OTF2_REGION_ROLE_IMPLICIT_BARRIER: return PP_RK_SCHED;
    case OTF2_REGION_ROLE_TASK_WAIT: return PP_RK_TASKWAIT;
    case OTF2_REGION_ROLE_CRITICAL:
    case OTF2_REGION_ROLE_ORDERED: return PP_RK_SYNC;
    /* a single construct outside its block: user code, as pompprof-report counts it
     * (no thread blocks there; the waiting is in its implicit barrier) */
    case OTF2_REGION_ROLE_WRAPPER:
        return paradigm == OTF2_PARADIGM_OPENMP ? PP_RK_SYNC : PP_RK_OTHER;
    case OTF2_REGION_ROLE_ARTIFICIAL:
        if (!strcmp(name, "pompprof trace flush") || !strcmp(name, "pompprof trace start"))
            return PP_RK_FLUSH;
        return paradigm == OTF2_PARADIGM_MEASUREMENT_SYSTEM ? PP_RK_PROGRAM : PP_RK_OTHER;
    default: return PP_RK_OTHER;
    }
}

static OTF2_CallbackCode pp_def_parameter(void *user, OTF2_ParameterRef self,
                                          OTF2_StringRef name, OTF2_ParameterType type)
{
    pp_replay *r = user;
    (void)type;
    if (self >= (1u << 20))
        return OTF2_CALLBACK_SUCCESS; /* not ours: pompprof numbers them from 0 */
    if (self >= r->n_params) {
        uint32_t *t = pp_replay_resize(r->param_name, self + 1, sizeof *t);
        for (uint32_t i = r->n_params; i <= self; i++)
            t[i] = UINT32_MAX;
        r->param_name = t;
        r->n_params = self + 1;
    }
    r->param_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_def_region(void *user, OTF2_RegionRef self, OTF2_StringRef name,
                                       OTF2_StringRef canonical, OTF2_StringRef description,
                                       OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                       OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                       uint32_t end)
{
    (void)canonical, (void)flags, (void)file, (void)begin, (void)end;
    pp_replay *r = pp_replay_of(user);
    if (self >= 1u << 24)
        pp_replay_die("region id %u out of range: not a pompprof trace", (unsigned)self);
    if (self >= r->n_regions) {
        r->regions = pp_replay_resize_zero(r->regions, r->n_regions, self + 1, sizeof *r->regions);
        r->n_regions = self + 1;
    }
    pp_replay_region *g = &r->regions[self];
    g->name = pp_replay_strdup(pp_replay_string(r, name));
    g->kind = pp_def_kind(role, paradigm, g->name);
    g->depend = strstr(pp_replay_string(r, description), "depend") != NULL;
    if (g->kind == PP_RK_PROGRAM && r->program_region == PP_LABEL_NONE)
        r->program_region = self;
    return OTF2_CALLBACK_SUCCESS;
}

/* "depend[i] address|size|kind" with id 3i+k: our dependence attributes
 * (doc/trace.md, "Dependences"). */
static OTF2_CallbackCode pp_def_attribute(void *user, OTF2_AttributeRef self, OTF2_StringRef name,
                                          OTF2_StringRef description, OTF2_Type type)
{
    (void)description, (void)type;
    pp_replay *r = pp_replay_of(user);
    static const char *const fields[3] = {"address", "size", "kind"};
    unsigned i;
    char field[16];
    if (sscanf(pp_replay_string(r, name), "depend[%u] %15s", &i, field) != 2 || self >= 1u << 20)
        return OTF2_CALLBACK_SUCCESS;
    for (unsigned k = 0; k < 3; k++) {
        if (strcmp(field, fields[k]) || self != 3 * i + k)
            continue;
        if (self >= r->n_attr_roles) {
            r->attr_role = pp_replay_resize_zero(r->attr_role, r->n_attr_roles, self + 1, 1);
            r->n_attr_roles = self + 1;
        }
        r->attr_role[self] = (uint8_t)(1 + k);
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_def_location(void *user, OTF2_LocationRef self, OTF2_StringRef name,
                                         OTF2_LocationType type, uint64_t events,
                                         OTF2_LocationGroupRef group)
{
    (void)type;
    pp_replay *r = pp_replay_of(user);
    pp_replay_loc *t = pp_replay_resize_zero(r->locs, r->n_locs, r->n_locs + 1, sizeof *t);
    r->locs = t;
    t[r->n_locs].id = self;
    t[r->n_locs].events = events;
    /* a job's location group is named "rank R" (pp_def_location_group) */
    t[r->n_locs].rank = group < r->n_group_ranks ? r->group_rank[group] : 0;
    t[r->n_locs].name = pp_replay_strdup(pp_replay_string(r, name));
    r->n_locs++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_def_location_group(void *user, OTF2_LocationGroupRef self,
                                               OTF2_StringRef name, OTF2_LocationGroupType type,
                                               OTF2_SystemTreeNodeRef parent,
                                               OTF2_LocationGroupRef creator)
{
    (void)type, (void)parent, (void)creator;
    pp_replay *r = pp_replay_of(user);
    unsigned rank;
    if (sscanf(pp_replay_string(r, name), "rank %u", &rank) != 1 || self >= 1u << 24)
        return OTF2_CALLBACK_SUCCESS;
    r->job = 1;
    if (self >= r->n_group_ranks) {
        r->group_rank = pp_replay_resize_zero(r->group_rank, r->n_group_ranks, self + 1,
                                              sizeof *r->group_rank);
        r->n_group_ranks = (uint32_t)self + 1;
    }
    r->group_rank[self] = rank;
    return OTF2_CALLBACK_SUCCESS;
}

/* MPI communicators: their groups list world ranks (pp_replay_mpi.c) */
static OTF2_CallbackCode pp_def_group(void *user, OTF2_GroupRef self, OTF2_StringRef name,
                                      OTF2_GroupType type, OTF2_Paradigm paradigm,
                                      OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    (void)name, (void)flags;
    pp_replay_mpi_group(pp_replay_of(user), self, paradigm == OTF2_PARADIGM_MPI,
                        type == OTF2_GROUP_TYPE_COMM_LOCATIONS, n, members);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_def_comm(void *user, OTF2_CommRef self, OTF2_StringRef name,
                                     OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags)
{
    (void)name, (void)parent, (void)flags;
    pp_replay_mpi_comm(pp_replay_of(user), self, group);
    return OTF2_CALLBACK_SUCCESS;
}

/* ---- reading ---------------------------------------------------------------------------- */

/* The window, the pictures and the Chrome trace, once the clock and the
 * sizes are known (before the first event). */
static void pp_replay_setup(pp_replay *r, const pp_replay_options *o)
{
    uint64_t end = r->offset + r->length;
    r->from = r->offset + (uint64_t)(o->from * (double)r->resolution);
    r->to = o->to < 0 ? end : r->offset + (uint64_t)(o->to * (double)r->resolution);
    if (r->to > end)
        r->to = end;
    if (r->from >= r->to) {
        /* only the bounds the user gave: --to < 0 means none was */
        if (o->to < 0)
            pp_replay_die("the window from --from %g is empty (the trace lasts %.6g s)", o->from,
                          pp_replay_seconds(r, r->length));
        pp_replay_die("the window --from %g --to %g is empty (the trace lasts %.6g s)", o->from,
                      o->to, pp_replay_seconds(r, r->length));
    }
    r->depend_construct = pp_replay_alloc_zero(r->n_regions + 1, 1);
    r->ready_wait = pp_replay_alloc_zero(r->n_regions + 1, sizeof *r->ready_wait);
    if (o->pictures)
        r->view = pp_replay_view_new(r, o->bins, o->instances, o->levels);
    if (o->chrome && !(r->chrome = pp_replay_chrome_open(o->chrome)))
        pp_replay_die("cannot write %s: %s", o->chrome, strerror(errno));
}

/* The global definitions (pp_def_*): the clock, strings, regions, threads. */
static void pp_read_definitions(OTF2_Reader *rd, pp_replay *r, const char *path)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
    OTF2_GlobalDefReaderCallbacks *dc = OTF2_GlobalDefReaderCallbacks_New();
    if (!gdr || !dc)
        pp_replay_die("%s: cannot read the definitions", path);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dc, pp_def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(dc, pp_def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dc, pp_def_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dc, pp_def_location);
    OTF2_GlobalDefReaderCallbacks_SetParameterCallback(dc, pp_def_parameter);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(dc, pp_def_attribute);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(dc, pp_def_location_group);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dc, pp_def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(dc, pp_def_comm);
    pp_replay_mpi_init(r);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, dc, r);
    uint64_t n = 0;
    OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(dc);
    OTF2_Reader_CloseGlobalDefReader(rd, gdr);
    if (!r->resolution)
        pp_replay_die("%s: the trace has no clock properties", path);
    if (!r->n_locs)
        pp_replay_die("%s: the trace has no threads", path);
}

/* Every thread's local definitions read and its events opened. */
static void pp_read_locations(OTF2_Reader *rd, pp_replay *r)
{
    for (uint32_t i = 0; i < r->n_locs; i++)
        OTF2_Reader_SelectLocation(rd, r->locs[i].id);
    OTF2_Reader_OpenDefFiles(rd);
    OTF2_Reader_OpenEvtFiles(rd);
    for (uint32_t i = 0; i < r->n_locs; i++) {
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, r->locs[i].id);
        if (dr) {
            uint64_t k = 0;
            OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &k);
            OTF2_Reader_CloseDefReader(rd, dr);
        }
        OTF2_Reader_GetEvtReader(rd, r->locs[i].id);
    }
    OTF2_Reader_CloseDefFiles(rd);
}

/* Every event, in time order across the threads (pp_replay_events.c). */
static void pp_read_events(OTF2_Reader *rd, pp_replay *r, const char *path)
{
    OTF2_GlobalEvtReader *ger = OTF2_Reader_GetGlobalEvtReader(rd);
    OTF2_GlobalEvtReaderCallbacks *ec = OTF2_GlobalEvtReaderCallbacks_New();
    if (!ger || !ec)
        pp_replay_die("%s: cannot read the events", path);
    pp_replay_event_callbacks(ec);
    OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ger, ec, r);
    uint64_t n = 0;
    OTF2_Reader_ReadAllGlobalEvents(rd, ger, &n);
    OTF2_GlobalEvtReaderCallbacks_Delete(ec);
    OTF2_Reader_CloseGlobalEvtReader(rd, ger);
    OTF2_Reader_CloseEvtFiles(rd);
}

void pp_replay_read(pp_replay *r, const char *path, const pp_replay_options *o)
{
    OTF2_Error_RegisterCallback(pp_replay_otf2_error, (void *)path);
    OTF2_Reader *rd = OTF2_Reader_Open(path);
    if (!rd)
        pp_replay_die("%s: not an OTF2 archive", path);
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    /* "interrupted: trace salvaged ..." for a trace pompprof-salvage made */
    char *end = NULL;
    if (OTF2_Reader_GetProperty(rd, "POMPPROF::END", &end) == OTF2_SUCCESS && end)
        r->end = end;
    pp_read_definitions(rd, r, path);
    pp_read_locations(rd, r);
    pp_replay_setup(r, o);
    pp_replay_model_init(r);
    pp_read_events(rd, r, path);
    OTF2_Reader_Close(rd);
    pp_replay_finish(r, r->offset + r->length > r->t_last ? r->offset + r->length : r->t_last);
    pp_replay_mpi_finish(r);
}
