/* The events of a trace (pp_replay_read.c reads them in time order across
 * the threads): each OTF2 event callback hands its event to the model
 * (pp_replay_model.c, pp_replay_task.c, pp_replay_team.c) or to the MPI part
 * (pp_replay_mpi.c), and every event counts and moves the trace's end. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"
#include "replay/pp_replay_read.h"

#include <stdio.h>

/* ---- OpenMP events ----------------------------------------------------------------- */

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
    pp_replay *r = user;                          \
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
    pp_replay_param(r, l, t, param, pp_replay_string(r, value));
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

void pp_replay_event_callbacks(OTF2_GlobalEvtReaderCallbacks *ec)
{
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
}
