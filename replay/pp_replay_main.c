/* pompprof-replay [--from S] [--to S] [--bins N] [--instances N]
 *                 [--levels N] [--pictures] [--chrome FILE]
 *                 [--dot FILE [--dot-instances N]] [--graph N] ARCHIVE.otf2
 *
 * Reads a trace written by pompprof with OTF2's reader, replays its events
 * in time order (pp_replay_model.c) and prints one JSON document on stdout
 * (pp_replay.h says what it holds).  pompprof-timeline runs it; it is in C
 * because the replay of a trace of ten million events must take seconds
 * (doc/trace.md has the figures).  Any problem: one line on stderr, exit 1. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

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

static const char *pp_def_str(const pp_replay *r, OTF2_StringRef ref)
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
    g->name = pp_replay_strdup(pp_def_str(r, name));
    g->kind = pp_def_kind(role, paradigm, g->name);
    g->depend = strstr(pp_def_str(r, description), "depend") != NULL;
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
    if (sscanf(pp_def_str(r, name), "depend[%u] %15s", &i, field) != 2 || self >= 1u << 20)
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
    t[r->n_locs].name = pp_replay_strdup(pp_def_str(r, name));
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
    if (sscanf(pp_def_str(r, name), "rank %u", &rank) != 1 || self >= 1u << 24)
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

/* ---- events ------------------------------------------------------------------------ */

static pp_replay_loc *pp_loc(pp_replay *r, OTF2_LocationRef id)
{
    /* pompprof numbers its locations 0, 1, ...: try the direct index first */
    if (id < r->n_locs && r->locs[id].id == id)
        return &r->locs[id];
    for (uint32_t i = 0; i < r->n_locs; i++)
        if (r->locs[i].id == id)
            return &r->locs[i];
    pp_replay_die("event of undefined location %llu", (unsigned long long)id);
    return NULL;
}

static uint64_t pp_task_id(uint32_t thread, uint32_t generation)
{
    return (uint64_t)thread << 32 | generation;
}

#define PP_EVENT_PROLOGUE                         \
    (void)attrs;                                  \
    pp_replay *r = pp_replay_of(user);            \
    pp_replay_loc *l = pp_loc(r, loc);            \
    r->events++;                                  \
    if (t > r->t_last)                            \
        r->t_last = t;

/* The dependences an event carries, into r->items; their number. */
static uint32_t pp_event_deps(pp_replay *r, OTF2_AttributeList *attrs)
{
    uint32_t n_attrs = attrs ? OTF2_AttributeList_GetNumberOfElements(attrs) : 0;
    uint32_t n = 0;
    for (uint32_t a = 0; a < n_attrs; a++) {
        OTF2_AttributeRef id;
        OTF2_Type type;
        OTF2_AttributeValue v;
        if (OTF2_AttributeList_GetAttributeByIndex(attrs, a, &id, &type, &v) != OTF2_SUCCESS ||
            id >= r->n_attr_roles || !r->attr_role[id])
            continue;
        uint32_t i = id / 3;
        if (i >= r->cap_items) {
            uint32_t cap = i + 1 > 2 * r->cap_items ? i + 1 : 2 * r->cap_items;
            r->items = pp_replay_resize_zero(r->items, r->cap_items, cap, sizeof *r->items);
            r->cap_items = cap;
        }
        while (n <= i)
            r->items[n++] = (pp_replay_dep){0, 0, PP_DEP_UNKNOWN};
        uint64_t x = type == OTF2_TYPE_UINT8 ? v.uint8 : type == OTF2_TYPE_UINT64 ? v.uint64 : 0;
        switch (r->attr_role[id]) {
        case 1: r->items[i].addr = x; break;
        case 2: r->items[i].size = x; break;
        default: r->items[i].kind = (uint32_t)x; break;
        }
    }
    return n;
}

static OTF2_CallbackCode pp_ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                     OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    PP_EVENT_PROLOGUE
    uint32_t n = pp_event_deps(r, attrs);
    if (n)
        pp_replay_taskwait_depend(r, l, t, r->items, n);
    pp_replay_enter(r, l, t, region);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                     OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    PP_EVENT_PROLOGUE
    pp_replay_leave(r, l, t, region);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_ev_fork(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                    OTF2_AttributeList *attrs, OTF2_Paradigm model,
                                    uint32_t threads)
{
    PP_EVENT_PROLOGUE
    (void)model;
    pp_replay_fork(r, l, t, threads);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_ev_team_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                          OTF2_AttributeList *attrs, OTF2_CommRef team)
{
    PP_EVENT_PROLOGUE
    pp_replay_team_begin(r, l, t, team);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_ev_team_end(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                        OTF2_AttributeList *attrs, OTF2_CommRef team)
{
    PP_EVENT_PROLOGUE
    (void)team;
    pp_replay_team_end(r, l, t);
    return OTF2_CALLBACK_SUCCESS;
}

/* The three task events differ only in what the model does with them. */
#define PP_TASK_EVENT(name, model)                                                         \
    static OTF2_CallbackCode name(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,       \
                                  OTF2_AttributeList *attrs, OTF2_CommRef team,             \
                                  uint32_t thread, uint32_t generation)                     \
    {                                                                                      \
        PP_EVENT_PROLOGUE                                                                  \
        (void)team;                                                                        \
        model(r, l, t, pp_task_id(thread, generation));                                    \
        return OTF2_CALLBACK_SUCCESS;                                                      \
    }
static void pp_replay_create_event(pp_replay *r, pp_replay_loc *l, uint64_t t, uint64_t id,
                                   OTF2_AttributeList *attrs)
{
    uint32_t n = pp_event_deps(r, attrs);
    pp_replay_task_create(r, l, t, id, r->items, n);
}

static OTF2_CallbackCode pp_ev_create(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                      OTF2_AttributeList *attrs, OTF2_CommRef team,
                                      uint32_t thread, uint32_t generation)
{
    PP_EVENT_PROLOGUE
    (void)team;
    pp_replay_create_event(r, l, t, pp_task_id(thread, generation), attrs);
    return OTF2_CALLBACK_SUCCESS;
}
PP_TASK_EVENT(pp_ev_switch, pp_replay_task_switch)
PP_TASK_EVENT(pp_ev_complete, pp_replay_task_complete)

/* Parameters: their value as text, into the running task. */
static OTF2_CallbackCode pp_ev_param_int(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                         OTF2_AttributeList *attrs, OTF2_ParameterRef param,
                                         int64_t value)
{
    PP_EVENT_PROLOGUE
    char text[32];
    snprintf(text, sizeof text, "%lld", (long long)value);
    pp_replay_param(r, l, t, param, text);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_ev_param_string(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                            OTF2_AttributeList *attrs, OTF2_ParameterRef param,
                                            OTF2_StringRef value)
{
    PP_EVENT_PROLOGUE
    pp_replay_param(r, l, t, param, pp_def_str(r, value));
    return OTF2_CALLBACK_SUCCESS;
}

/* Every other event still counts (and moves the end of the trace). */
static OTF2_CallbackCode pp_ev_other(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                     OTF2_AttributeList *attrs)
{
    PP_EVENT_PROLOGUE
    (void)l;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_ev_join(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                    OTF2_AttributeList *attrs, OTF2_Paradigm model)
{
    PP_EVENT_PROLOGUE
    (void)model;
    pp_replay_join(r, l, t);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_ev_lock(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                    OTF2_AttributeList *attrs, OTF2_Paradigm model, uint32_t id,
                                    uint32_t order)
{
    (void)model, (void)id, (void)order;
    return pp_ev_other(loc, t, user, attrs);
}

static OTF2_CallbackCode pp_ev_metric(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                      OTF2_AttributeList *attrs, OTF2_MetricRef metric,
                                      uint8_t n, const OTF2_Type *types,
                                      const OTF2_MetricValue *values)
{
    (void)metric, (void)n, (void)types, (void)values;
    return pp_ev_other(loc, t, user, attrs);
}

/* ---- MPI events (pp_replay_mpi.c) ---------------------------------------------------------- */

static OTF2_CallbackCode pp_ev_mpi_send(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                        OTF2_AttributeList *attrs, uint32_t receiver,
                                        OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    PP_EVENT_PROLOGUE
    pp_replay_mpi_send(r, l, t, receiver, comm, tag, length);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_ev_mpi_isend(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                         OTF2_AttributeList *attrs, uint32_t receiver,
                                         OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                         uint64_t request)
{
    (void)request;
    return pp_ev_mpi_send(loc, t, user, attrs, receiver, comm, tag, length);
}

static OTF2_CallbackCode pp_ev_mpi_recv(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                        OTF2_AttributeList *attrs, uint32_t sender,
                                        OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    PP_EVENT_PROLOGUE
    pp_replay_mpi_recv(r, l, t, sender, comm, tag, length);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_ev_mpi_irecv(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                         OTF2_AttributeList *attrs, uint32_t sender,
                                         OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                         uint64_t request)
{
    (void)request;
    return pp_ev_mpi_recv(loc, t, user, attrs, sender, comm, tag, length);
}

static OTF2_CallbackCode pp_ev_mpi_request(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                           OTF2_AttributeList *attrs, uint64_t request)
{
    (void)request;
    return pp_ev_other(loc, t, user, attrs);
}

static OTF2_CallbackCode pp_ev_mpi_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                              OTF2_AttributeList *attrs)
{
    PP_EVENT_PROLOGUE
    pp_replay_mpi_coll_begin(r, l, t);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode pp_ev_mpi_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user,
                                            OTF2_AttributeList *attrs, OTF2_CollectiveOp op,
                                            OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                            uint64_t received)
{
    PP_EVENT_PROLOGUE
    (void)sent, (void)received;
    pp_replay_mpi_coll_end(r, l, t, op, comm, root);
    return OTF2_CALLBACK_SUCCESS;
}

static void pp_replay_mpi_callbacks(OTF2_GlobalEvtReaderCallbacks *ec)
{
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ec, pp_ev_mpi_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(ec, pp_ev_mpi_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ec, pp_ev_mpi_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(ec, pp_ev_mpi_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(ec, pp_ev_mpi_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(ec, pp_ev_mpi_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestTestCallback(ec, pp_ev_mpi_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(ec, pp_ev_mpi_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(ec, pp_ev_mpi_coll_begin);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(ec, pp_ev_mpi_coll_end);
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct pp_replay_options {
    double from, to; /* seconds; to < 0: the end */
    uint32_t bins, instances, levels;
    int pictures;
    const char *chrome;
} pp_replay_options;

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

static void pp_replay_read(pp_replay *r, const char *path, const pp_replay_options *o)
{
    OTF2_Reader *rd = OTF2_Reader_Open(path);
    if (!rd)
        pp_replay_die("%s: not an OTF2 archive", path);
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    /* "interrupted: trace salvaged ..." for a trace pompprof-salvage made */
    char *end = NULL;
    if (OTF2_Reader_GetProperty(rd, "POMPPROF::END", &end) == OTF2_SUCCESS && end)
        r->end = end;
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

    pp_replay_setup(r, o);
    pp_replay_model_init(r);
    OTF2_GlobalEvtReader *ger = OTF2_Reader_GetGlobalEvtReader(rd);
    OTF2_GlobalEvtReaderCallbacks *ec = OTF2_GlobalEvtReaderCallbacks_New();
    if (!ger || !ec)
        pp_replay_die("%s: cannot read the events", path);
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ec, pp_ev_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ec, pp_ev_leave);
    OTF2_GlobalEvtReaderCallbacks_SetThreadForkCallback(ec, pp_ev_fork);
    OTF2_GlobalEvtReaderCallbacks_SetThreadJoinCallback(ec, pp_ev_join);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTeamBeginCallback(ec, pp_ev_team_begin);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTeamEndCallback(ec, pp_ev_team_end);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCreateCallback(ec, pp_ev_create);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTaskSwitchCallback(ec, pp_ev_switch);
    OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCompleteCallback(ec, pp_ev_complete);
    OTF2_GlobalEvtReaderCallbacks_SetThreadAcquireLockCallback(ec, pp_ev_lock);
    OTF2_GlobalEvtReaderCallbacks_SetThreadReleaseLockCallback(ec, pp_ev_lock);
    OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(ec, pp_ev_metric);
    OTF2_GlobalEvtReaderCallbacks_SetParameterIntCallback(ec, pp_ev_param_int);
    OTF2_GlobalEvtReaderCallbacks_SetParameterStringCallback(ec, pp_ev_param_string);
    pp_replay_mpi_callbacks(ec);
    OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ger, ec, r);
    OTF2_Reader_ReadAllGlobalEvents(rd, ger, &n);
    OTF2_GlobalEvtReaderCallbacks_Delete(ec);
    OTF2_Reader_CloseGlobalEvtReader(rd, ger);
    OTF2_Reader_CloseEvtFiles(rd);
    OTF2_Reader_Close(rd);
    pp_replay_finish(r, r->offset + r->length > r->t_last ? r->offset + r->length : r->t_last);
    pp_replay_mpi_finish(r);
}

/* ---- output ---------------------------------------------------------------------------- */

/* The threads' breakdowns summed. */
static void pp_replay_total(const pp_replay *r, uint64_t total[PP_CAT_N][PP_READY_N])
{
    memset(total, 0, sizeof(uint64_t) * PP_CAT_N * PP_READY_N);
    for (uint32_t i = 0; i < r->n_locs; i++)
        for (int c = 0; c < PP_CAT_N; c++)
            for (int k = 0; k < PP_READY_N; k++)
                total[c][k] += r->locs[i].acc[c][k];
}

/* The graph's work, span and parallelism, and what its work holds beyond the
 * breakdown's work: serial code and task creation (the breakdown counts
 * creation as overhead, the graph as work: a child exists once created). */
static void pp_print_graph_figures(FILE *out, const pp_replay *r)
{
    uint64_t total[PP_CAT_N][PP_READY_N];
    pp_replay_total(r, total);
    double work = pp_replay_seconds(r, r->work), span = pp_replay_seconds(r, r->span);
    fprintf(out, "\"from\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->from - r->offset));
    fprintf(out, ", \"to\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->to - r->offset));
    fprintf(out, ", \"work\": ");
    pp_replay_json_seconds(out, work);
    fprintf(out, ", \"work_creation\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, total[PP_CAT_CREATE][0] +
                                                         total[PP_CAT_CREATE][1] +
                                                         total[PP_CAT_CREATE][2]));
    fprintf(out, ", \"work_serial\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, pp_replay_breakdown_value(
                                                         (const uint64_t(*)[PP_READY_N])total,
                                                         "serial")));
    fprintf(out, ", \"span\": ");
    pp_replay_json_seconds(out, span);
    fprintf(out, ", \"parallelism\": ");
    pp_replay_json_seconds(out, span > 0 ? work / span : 0);
}

static void pp_print_graph(FILE *out, pp_replay *r)
{
    double work = pp_replay_seconds(r, r->work), span = pp_replay_seconds(r, r->span);
    fputc('{', out);
    pp_print_graph_figures(out, r);
    fprintf(out, ", \"tasks\": %llu, \"depend_tasks\": %llu, \"dependent_tasks\": %llu, "
            "\"dependence_edges\": %llu, \"speedup\": [",
            (unsigned long long)r->n_tasks, (unsigned long long)r->n_depend_tasks,
            (unsigned long long)r->n_known_tasks, (unsigned long long)r->n_edges);
    for (unsigned p = 2; p <= 1024; p *= 2) {
        double upper = span > 0 && work / span < p ? work / span : p;
        double lower = work > 0 ? work / (work / p + span) : 0;
        fprintf(out, "%s{\"threads\": %u, \"upper\": %.4g, \"lower\": %.4g}", p > 2 ? ", " : "",
                p, upper, lower);
    }
    fprintf(out, "], \"span_path\": [");
    /* the path from its end back to the start, then printed forwards with
     * the stretches of one construct merged */
    size_t n = 0, cap = 64;
    pp_replay_seg **chain = pp_replay_alloc(cap, sizeof *chain);
    for (pp_replay_seg *s = r->span_seg; s; s = s->pred) {
        if (n == cap) {
            cap *= 2;
            chain = pp_replay_resize(chain, cap, sizeof *chain);
        }
        chain[n++] = s;
    }
    int printed = 0;
    for (size_t i = n; i > 0;) {
        uint32_t label = chain[i - 1]->label;
        uint32_t loc = chain[i - 1]->loc, rank = loc < r->n_locs ? r->locs[loc].rank : 0;
        uint64_t dur = 0, segs = 0;
        /* a job's path: stretches of one construct on one rank */
        while (i > 0 && chain[i - 1]->label == label &&
               (!r->job || (chain[i - 1]->loc < r->n_locs ? r->locs[chain[i - 1]->loc].rank : 0) ==
                               rank)) {
            dur += chain[i - 1]->dur;
            segs++;
            i--;
        }
        if (dur == 0)
            continue;
        fprintf(out, "%s{\"construct\": ", printed ? ", " : "");
        pp_replay_json_string(out, pp_replay_label_name(r, label));
        fprintf(out, ", \"seconds\": ");
        pp_replay_json_seconds(out, pp_replay_seconds(r, dur));
        fprintf(out, ", \"segments\": %llu", (unsigned long long)segs);
        if (r->job)
            fprintf(out, ", \"rank\": %u", rank);
        fputc('}', out);
        printed = 1;
    }
    free(chain);
    fprintf(out, "]}");
}

/* The task region's graph: from the first task's creation to the last task's
 * end, inside the window (pp_replay_region_mark took its figures then). */
static void pp_print_region(FILE *out, const pp_replay *r)
{
    uint64_t from = r->first_create > r->from ? r->first_create : r->from;
    if (!r->n_tasks || !r->first_create || from >= r->last_end) {
        fprintf(out, "null");
        return;
    }
    double work = pp_replay_seconds(r, r->end_rwork), span = pp_replay_seconds(r, r->end_rspan);
    fprintf(out, "{\"from\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, from - r->offset));
    fprintf(out, ", \"to\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->last_end - r->offset));
    fprintf(out, ", \"work\": ");
    pp_replay_json_seconds(out, work);
    fprintf(out, ", \"work_creation\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->end_rwork_create));
    fprintf(out, ", \"work_serial\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->end_rwork_serial));
    fprintf(out, ", \"span\": ");
    pp_replay_json_seconds(out, span);
    fprintf(out, ", \"parallelism\": ");
    pp_replay_json_seconds(out, span > 0 ? work / span : 0);
    fprintf(out, ", \"tasks\": %llu}", (unsigned long long)r->n_tasks);
}

/* graph: with --graph N, the path's stretches and the dependence graph */
static void pp_print(FILE *out, pp_replay *r, const char *path, uint32_t graph)
{
    fprintf(out, "{\"trace\": {\"archive\": ");
    pp_replay_json_string(out, path);
    fprintf(out, ", \"threads\": %u, \"events\": %llu, \"seconds\": ", r->n_locs,
            (unsigned long long)r->events);
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->length));
    fprintf(out, ", \"resolution\": %llu, \"end\": ", (unsigned long long)r->resolution);
    if (r->end)
        pp_replay_json_string(out, r->end);
    else
        fprintf(out, "null");
    fprintf(out, "},\n \"window\": {\"from\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->from - r->offset));
    fprintf(out, ", \"to\": ");
    pp_replay_json_seconds(out, pp_replay_seconds(r, r->to - r->offset));
    fprintf(out, "},\n \"threads\": [");
    uint64_t total[PP_CAT_N][PP_READY_N];
    pp_replay_total(r, total);
    for (uint32_t i = 0; i < r->n_locs; i++) {
        const pp_replay_loc *l = &r->locs[i];
        char name[32];
        snprintf(name, sizeof name, "thread %u", i);
        fprintf(out, "%s\n  {\"location\": %llu, \"rank\": %u, \"name\": ", i ? "," : "",
                (unsigned long long)l->id, l->rank);
        /* a job's locations are named by rank and thread; a process's by thread */
        pp_replay_json_string(out, r->job && l->name ? l->name : name);
        fputs(", ", out);
        pp_replay_breakdown_print(out, r, (const uint64_t(*)[PP_READY_N])l->acc);
        fputc('}', out);
    }
    fprintf(out, "],\n \"total\": {");
    pp_replay_breakdown_print(out, r, (const uint64_t(*)[PP_READY_N])total);
    fprintf(out, "},\n \"depend\": {\"tasks\": %llu, \"constructs\": [",
            (unsigned long long)r->n_depend_tasks);
    int first = 1;
    for (uint32_t i = 0; r->depend_construct && i < r->n_regions; i++) {
        if (!r->depend_construct[i])
            continue;
        fputs(first ? "" : ", ", out);
        pp_replay_json_string(out, r->regions[i].name);
        first = 0;
    }
    fprintf(out, "], \"recorded\": %llu, \"items\": %llu, \"unknown_items\": %llu, "
            "\"taskwaits\": %llu, \"edges\": %llu},\n \"ready_wait\": [",
            (unsigned long long)r->n_known_tasks, (unsigned long long)r->n_items,
            (unsigned long long)r->n_unknown_items, (unsigned long long)r->n_waits,
            (unsigned long long)r->n_edges);
    first = 1;
    for (uint32_t i = 0; r->ready_wait && i < r->n_regions; i++) {
        if (!r->ready_wait[i].count)
            continue;
        fprintf(out, "%s{\"construct\": ", first ? "" : ", ");
        pp_replay_json_string(out, r->regions[i].name);
        fprintf(out, ", \"tasks\": %llu, \"total\": ", (unsigned long long)r->ready_wait[i].count);
        pp_replay_json_seconds(out, pp_replay_seconds(r, r->ready_wait[i].total));
        fprintf(out, ", \"mean\": ");
        pp_replay_json_seconds(out, pp_replay_seconds(r, r->ready_wait[i].total) /
                                        (double)r->ready_wait[i].count);
        fprintf(out, ", \"max\": ");
        pp_replay_json_seconds(out, pp_replay_seconds(r, r->ready_wait[i].max));
        fputc('}', out);
        first = 0;
    }
    fprintf(out, "],\n \"mpi\": ");
    pp_replay_mpi_print(out, r, r->view != NULL);
    fprintf(out, ",\n \"graph\": ");
    pp_print_graph(out, r);
    fprintf(out, ",\n \"task_region\": ");
    pp_print_region(out, r);
    if (r->view) {
        fprintf(out, ",\n \"pictures\": ");
        pp_replay_view_print(r->view, r, out);
    }
    if (graph) {
        fprintf(out, ",\n \"task_graph\": ");
        pp_replay_graph_print(out, r, graph);
    }
    fprintf(out, "}\n");
}

/* ---- main --------------------------------------------------------------------------------- */

static double pp_arg_seconds(const char *opt, const char *v)
{
    char *end;
    errno = 0;
    double s = strtod(v, &end);
    if (errno || end == v || *end || s < 0)
        pp_replay_die("%s needs a number of seconds from the start of the trace, not '%s'", opt, v);
    return s;
}

static unsigned long pp_arg_count(const char *opt, const char *v, unsigned long max)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (errno || end == v || *end || n == 0 || n > max)
        pp_replay_die("%s needs a whole number from 1 to %lu, not '%s'", opt, max, v);
    return n;
}

int main(int argc, char **argv)
{
    double from = 0, to = -1;
    unsigned long bins = 2000, instances = 64, levels = 1;
    int pictures = 0;
    const char *chrome = NULL, *path = NULL, *dot = NULL;
    unsigned long dot_instances = 200, graph = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(a, "--from") && has_value)
            from = pp_arg_seconds(a, argv[++i]);
        else if (!strcmp(a, "--to") && has_value)
            to = pp_arg_seconds(a, argv[++i]);
        else if (!strcmp(a, "--bins") && has_value)
            bins = pp_arg_count(a, argv[++i], 100000);
        else if (!strcmp(a, "--instances") && has_value)
            instances = pp_arg_count(a, argv[++i], 100000);
        else if (!strcmp(a, "--levels") && has_value)
            levels = pp_arg_count(a, argv[++i], 8);
        else if (!strcmp(a, "--chrome") && has_value)
            chrome = argv[++i];
        else if (!strcmp(a, "--dot") && has_value)
            dot = argv[++i];
        else if (!strcmp(a, "--dot-instances") && has_value)
            dot_instances = pp_arg_count(a, argv[++i], 100000);
        else if (!strcmp(a, "--graph") && has_value)
            graph = pp_arg_count(a, argv[++i], 100000);
        else if (!strcmp(a, "--pictures"))
            pictures = 1;
        else if (a[0] == '-' || path)
            pp_replay_die("usage: pompprof-replay [--from S] [--to S] [--bins N] [--instances N] "
                          "[--levels N] [--pictures] [--chrome FILE] "
                          "[--dot FILE [--dot-instances N]] [--graph N] ARCHIVE.otf2");
        else
            path = a;
    }
    if (!path)
        pp_replay_die("usage: pompprof-replay [options] ARCHIVE.otf2");
    FILE *probe = fopen(path, "r");
    if (!probe)
        pp_replay_die("%s: %s", path, strerror(errno));
    fclose(probe);
    OTF2_Error_RegisterCallback(pp_replay_otf2_error, (void *)path);

    pp_replay r = {.program_region = PP_LABEL_NONE};
    if ((unsigned long long)bins << (2 * (levels - 1)) > 4000000ull)
        pp_replay_die("--bins %lu with --levels %lu: the finest level would have more than "
                      "4000000 bins", bins, levels);
    if (pp_replay_class_check() != 0)
        pp_replay_die("internal error: the breakdown's columns do not cover every class once");
    pp_replay_options opt = {from,     to,       (uint32_t)bins, (uint32_t)instances,
                             (uint32_t)levels, pictures, chrome};
    pp_replay_read(&r, path, &opt);
    if (r.chrome && pp_replay_chrome_close(r.chrome, &r) != 0)
        pp_replay_die("cannot write %s: %s", chrome, strerror(errno));
    pp_replay_depend_mark_critical(&r);
    if (dot && pp_replay_dot_write(&r, dot, (uint32_t)dot_instances) != 0)
        pp_replay_die("cannot write %s: %s", dot, strerror(errno));
    pp_print(stdout, &r, path, (uint32_t)graph);
    pp_replay_mpi_free(&r);
    if (fflush(stdout) != 0 || ferror(stdout))
        pp_replay_die("cannot write the result: %s", strerror(errno));
    return 0;
}
