/* One thread's raw records as OTF2 events.
 *
 * OTF2 wants more than the raw records say directly, and this is where it
 * comes from:
 * - every task has its own call stack (a ThreadTaskSwitch changes stacks),
 *   so the regions open in each task are tracked here;
 * - after a task completes, the engine goes back to the implicit task
 *   without an event of its own: a ThreadTaskSwitch to it is written unless
 *   the next record switches anyway;
 * - a Leave must match the innermost open region: a leave of a region
 *   further out closes the ones inside first (as the engine does), one of a
 *   region not open is dropped;
 * - whatever is still open at the end (or where the trace stops) is closed
 *   there, so every location's enter/leave events balance;
 * - timestamps never go backwards on a location;
 * - and the disk budget: before each event the file's size is projected
 *   with an upper bound per event; an event that would not fit ends the
 *   location's trace there, cleanly closed, instead of an unreadable file;
 * - dependences become attributes: a task's of its ThreadTaskCreate (which
 *   waits for the DEPEND records that follow its TASK_CREATE), a taskwait
 *   depend's of the thread's next Enter (the taskwait's). */
#include "trace/pp_trace_otf2.h"

#include <otf2/OTF2_EventSizeEstimator.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-task call stacks ------------------------------------------------------ */

typedef struct pp_conv_task pp_conv_task;
struct pp_conv_task {
    uint64_t handle;
    uint32_t *stack;
    uint32_t depth, cap;
    pp_conv_task *next; /* hash chain, or free list */
};

#define PP_CONV_BUCKETS 4096

typedef struct pp_conv_teamlevel {
    uint64_t implicit; /* the team's implicit task on this thread */
    uint64_t resume;   /* the task that runs after the team */
    uint32_t comm;
} pp_conv_teamlevel;

typedef struct pp_conv_held {
    uint64_t addr;
    uint32_t order;
} pp_conv_held;

struct pp_conv_loc {
    pp_trace_conv *c;
    OTF2_EvtWriter *w;
    uint32_t loc;
    uint64_t t_last;
    uint64_t current;      /* the task whose stack events apply to */
    uint64_t written_task; /* the task OTF2 readers think is current */
    uint64_t initial;
    pp_conv_teamlevel *teams;
    uint32_t n_teams, cap_teams;
    pp_conv_held *held;
    uint32_t n_held, cap_held;
    pp_conv_task *buckets[PP_CONV_BUCKETS];
    pp_conv_task *free_tasks;
    uint32_t open_regions; /* across all tasks: what closing at the end costs */
    uint64_t n_tasks;
    /* disk budget */
    uint64_t bytes;        /* upper bound of the bytes written so far */
    uint64_t allowed;      /* projected file size it may reach */
    int cut;
    int failed;            /* out of memory: the location ends here */
    /* dependences */
    uint64_t pend_create;  /* a ThreadTaskCreate not written yet (0: none) */
    uint64_t pend_time;    /* its time */
    OTF2_AttributeList *attrs;
    uint32_t n_attrs;      /* items in attrs, for the next event written */
};

static uint32_t pp_conv_bucket(uint64_t h)
{
    return (uint32_t)((h * 0x9E3779B97F4A7C15ull) >> 52) & (PP_CONV_BUCKETS - 1);
}

static pp_conv_task *pp_conv_task_get(pp_conv_loc *l, uint64_t h, int create)
{
    uint32_t b = pp_conv_bucket(h);
    for (pp_conv_task *t = l->buckets[b]; t; t = t->next)
        if (t->handle == h)
            return t;
    if (!create)
        return NULL;
    pp_conv_task *t = l->free_tasks;
    if (t)
        l->free_tasks = t->next;
    else if (!(t = calloc(1, sizeof *t)))
        return NULL;
    t->handle = h;
    t->depth = 0;
    t->next = l->buckets[b];
    l->buckets[b] = t;
    l->n_tasks++;
    return t;
}

static void pp_conv_task_drop(pp_conv_loc *l, uint64_t h)
{
    pp_conv_task **link = &l->buckets[pp_conv_bucket(h)];
    while (*link && (*link)->handle != h)
        link = &(*link)->next;
    pp_conv_task *t = *link;
    if (!t)
        return;
    *link = t->next;
    l->open_regions -= t->depth;
    t->depth = 0;
    t->next = l->free_tasks;
    l->free_tasks = t;
    l->n_tasks--;
}

static void pp_conv_tasks_free(pp_conv_loc *l)
{
    for (uint32_t b = 0; b < PP_CONV_BUCKETS; b++) {
        for (pp_conv_task *t = l->buckets[b], *n; t; t = n) {
            n = t->next;
            free(t->stack);
            free(t);
        }
    }
    for (pp_conv_task *t = l->free_tasks, *n; t; t = n) {
        n = t->next;
        free(t->stack);
        free(t);
    }
}

/* ---- writing events, within the budget ----------------------------------------- */

void pp_trace_otf2_event_sizes(pp_trace_conv *c)
{
    OTF2_EventSizeEstimator *e = OTF2_EventSizeEstimator_New();
    if (!e) {
        for (int i = 0; i < PP_EV_N; i++)
            c->size[i] = 64; /* more than any of these events takes */
        return;
    }
    OTF2_EventSizeEstimator_SetNumberOfRegionDefinitions(e, c->defs->n_regions + 2);
    OTF2_EventSizeEstimator_SetNumberOfLocationDefinitions(e, c->n_locations + 1);
    OTF2_EventSizeEstimator_SetNumberOfMetricDefinitions(e, 1);
    /* the team communicators are counted only later: their ids stay below this */
    OTF2_EventSizeEstimator_SetNumberOfCommDefinitions(e, UINT32_MAX - 1);
    uint32_t ts = (uint32_t)OTF2_EventSizeEstimator_GetSizeOfTimestamp(e);
    c->size[PP_EV_ENTER] = ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfEnterEvent(e);
    c->size[PP_EV_LEAVE] = ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfLeaveEvent(e);
    c->size[PP_EV_FORK] = ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfThreadForkEvent(e);
    c->size[PP_EV_JOIN] = ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfThreadJoinEvent(e);
    c->size[PP_EV_TEAM_BEGIN] =
        ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfThreadTeamBeginEvent(e);
    c->size[PP_EV_TEAM_END] = ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfThreadTeamEndEvent(e);
    c->size[PP_EV_TASK_CREATE] =
        ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfThreadTaskCreateEvent(e);
    c->size[PP_EV_TASK_SWITCH] =
        ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfThreadTaskSwitchEvent(e);
    c->size[PP_EV_TASK_COMPLETE] =
        ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfThreadTaskCompleteEvent(e);
    c->size[PP_EV_ACQUIRE] =
        ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfThreadAcquireLockEvent(e);
    c->size[PP_EV_RELEASE] =
        ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfThreadReleaseLockEvent(e);
    c->size[PP_EV_METRIC] = ts + (uint32_t)OTF2_EventSizeEstimator_GetSizeOfMetricEvent(
                                     e, (uint8_t)(c->defs->n_metrics ? c->defs->n_metrics : 1));
    uint32_t pi = (uint32_t)OTF2_EventSizeEstimator_GetSizeOfParameterIntEvent(e);
    uint32_t ps = (uint32_t)OTF2_EventSizeEstimator_GetSizeOfParameterStringEvent(e);
    c->size[PP_EV_PARAM] = ts + (pi > ps ? pi : ps);
    /* the MPI events: a record of at most five numbers of up to 9 bytes each */
    c->size[PP_EV_MPI] = ts + 2 + 5 * 9;
    OTF2_EventSizeEstimator_Delete(e);
}

/* What closing everything at the end may cost: a leave per open region,
 * a switch and a team end per task and team level, a little slack. */
static uint64_t pp_conv_close_cost(const pp_conv_loc *l)
{
    const uint32_t *sz = l->c->size;
    return (uint64_t)sz[PP_EV_LEAVE] * l->open_regions +
           (uint64_t)(sz[PP_EV_TASK_SWITCH] + sz[PP_EV_TEAM_END]) *
               (l->n_tasks + l->n_teams + l->n_held + 8);
}

/* The file size bytes of events can make: full chunks of 1 MiB (each loses
 * at most 256 bytes to its header and an event that did not fit). */
#define PP_CONV_CHUNK ((uint64_t)1 << 20)
static uint64_t pp_conv_projected(uint64_t bytes)
{
    return bytes + (bytes / (PP_CONV_CHUNK - 256) + 1) * 256;
}

/* Room for one more event of at most n bytes, keeping enough to close up.
 * Once it says no, the location's trace ends. */
static int pp_conv_room(pp_conv_loc *l, unsigned n)
{
    if (l->cut)
        return 0;
    if (pp_conv_projected(l->bytes + n + pp_conv_close_cost(l)) > l->allowed) {
        l->cut = 1;
        return 0;
    }
    l->bytes += n;
    return 1;
}

static void pp_conv_count(pp_conv_loc *l, OTF2_ErrorCode e, unsigned n)
{
    if (e != OTF2_SUCCESS)
        l->c->otf2_failed = 1;
    l->c->events[l->loc]++;
    if (n)
        l->bytes += n; /* closing events: counted here, room was kept for them */
}

/* The attribute list for the event about to be written: the pending
 * dependences (the writer empties the list), or none. */
static OTF2_AttributeList *pp_conv_attrs(pp_conv_loc *l)
{
    if (!l->n_attrs)
        return NULL;
    l->n_attrs = 0;
    return l->attrs;
}

static void pp_conv_switch_to(pp_conv_loc *l, uint64_t h, int closing)
{
    if (l->written_task == h)
        return;
    if (!closing && !pp_conv_room(l, l->c->size[PP_EV_TASK_SWITCH]))
        return;
    pp_conv_count(l, OTF2_EvtWriter_ThreadTaskSwitch(l->w, NULL, l->t_last, 0,
                                                     pp_trace_task_thread_of(l->c, h),
                                                     pp_trace_task_generation(h)),
                  closing ? l->c->size[PP_EV_TASK_SWITCH] : 0);
    l->written_task = h;
}

/* Make the task events apply to current for OTF2 readers too. */
static void pp_conv_sync_task(pp_conv_loc *l)
{
    if (l->written_task != l->current)
        pp_conv_switch_to(l, l->current, 0);
}

static int pp_conv_push(pp_conv_loc *l, pp_conv_task *t, uint32_t region)
{
    if (t->depth == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 8;
        uint32_t *s = realloc(t->stack, cap * sizeof *s);
        if (!s)
            return -1;
        t->stack = s;
        t->cap = cap;
    }
    t->stack[t->depth++] = region;
    l->open_regions++;
    return 0;
}

static void pp_conv_enter(pp_conv_loc *l, uint32_t region)
{
    pp_conv_sync_task(l);
    pp_conv_task *t = pp_conv_task_get(l, l->current, 1);
    if (!t || l->cut || !pp_conv_room(l, l->c->size[PP_EV_ENTER]))
        return;
    if (pp_conv_push(l, t, region) != 0) {
        l->failed = 1;
        return;
    }
    pp_conv_count(l, OTF2_EvtWriter_Enter(l->w, pp_conv_attrs(l), l->t_last, region), 0);
}

/* inline (one call per Leave written): GCC stopped inlining it by itself once the
 * OTF2 call became one through a pointer (pp_trace_otf2_api.h) */
static inline void pp_conv_leave_top(pp_conv_loc *l, pp_conv_task *t, int closing)
{
    uint32_t region = t->stack[--t->depth];
    l->open_regions--;
    pp_conv_count(l, OTF2_EvtWriter_Leave(l->w, NULL, l->t_last, region),
                  closing ? l->c->size[PP_EV_LEAVE] : 0);
}

/* Leave region in the current task (the ones inside it first). */
static void pp_conv_leave(pp_conv_loc *l, uint32_t region)
{
    pp_conv_sync_task(l);
    pp_conv_task *t = pp_conv_task_get(l, l->current, 0);
    if (!t || l->cut)
        return;
    uint32_t i = t->depth;
    while (i > 0 && t->stack[i - 1] != region)
        i--;
    if (i == 0)
        return; /* not open: the engine ignored it too */
    while (t->depth >= i) {
        if (!pp_conv_room(l, l->c->size[PP_EV_LEAVE]))
            return;
        pp_conv_leave_top(l, t, 0);
    }
}

/* Close every region of task h (a switch to it first). */
static void pp_conv_close_task(pp_conv_loc *l, uint64_t h)
{
    pp_conv_task *t = pp_conv_task_get(l, h, 0);
    if (!t || t->depth == 0)
        return;
    pp_conv_switch_to(l, h, 1);
    while (t->depth)
        pp_conv_leave_top(l, t, 1);
}

static uint64_t pp_conv_implicit(const pp_conv_loc *l)
{
    return l->n_teams ? l->teams[l->n_teams - 1].implicit : l->initial;
}

/* ---- records ---------------------------------------------------------------------- */

static void pp_conv_team_begin(pp_conv_loc *l, uint64_t ctx, uint32_t region, uint64_t implicit)
{
    pp_conv_sync_task(l);
    uint32_t comm = pp_trace_team_comm(l->c, ctx, region, l->loc);
    if (comm == UINT32_MAX) {
        l->failed = 1;
        return;
    }
    if (l->n_teams == l->cap_teams) {
        uint32_t cap = l->cap_teams ? 2 * l->cap_teams : 4;
        pp_conv_teamlevel *t = realloc(l->teams, cap * sizeof *t);
        if (!t) {
            l->failed = 1;
            return;
        }
        l->teams = t;
        l->cap_teams = cap;
    }
    if (!pp_conv_room(l, l->c->size[PP_EV_TEAM_BEGIN]))
        return;
    l->teams[l->n_teams++] = (pp_conv_teamlevel){implicit, l->current, comm};
    pp_conv_count(l, OTF2_EvtWriter_ThreadTeamBegin(l->w, NULL, l->t_last, comm), 0);
    /* the team's implicit task runs now; OTF2 readers know that from the
     * team begin itself */
    l->current = l->written_task = implicit;
    pp_conv_enter(l, region);
}

static void pp_conv_team_end(pp_conv_loc *l, uint64_t resume)
{
    if (l->n_teams == 0)
        return;
    pp_conv_teamlevel *tl = &l->teams[l->n_teams - 1];
    /* explicit tasks still running (their ends were lost) stay with their
     * stacks; the implicit task's regions close here */
    /* room for the leaves and the team end was kept (pp_conv_close_cost) */
    l->current = tl->implicit;
    pp_conv_close_task(l, tl->implicit);
    pp_conv_count(l, OTF2_EvtWriter_ThreadTeamEnd(l->w, NULL, l->t_last, tl->comm),
                  l->c->size[PP_EV_TEAM_END]);
    pp_conv_task_drop(l, tl->implicit);
    l->n_teams--;
    l->current = l->written_task = resume ? resume : pp_conv_implicit(l);
}

/* The creation of task h is written with the next record that is not one
 * of its dependences (pp_conv_record). */
static void pp_conv_task_create(pp_conv_loc *l, uint64_t h)
{
    pp_conv_sync_task(l);
    if (!pp_conv_room(l, l->c->size[PP_EV_TASK_CREATE]))
        return;
    l->pend_create = h;
    l->pend_time = l->t_last;
}

static void pp_conv_task_create_write(pp_conv_loc *l)
{
    uint64_t h = l->pend_create;
    l->pend_create = 0;
    pp_conv_count(l, OTF2_EvtWriter_ThreadTaskCreate(l->w, pp_conv_attrs(l), l->pend_time, 0,
                                                     pp_trace_task_thread_of(l->c, h),
                                                     pp_trace_task_generation(h)),
                  0);
}

static void pp_conv_task_begin(pp_conv_loc *l, uint64_t h, uint32_t region)
{
    l->current = h;
    pp_conv_switch_to(l, h, 0);
    if (!l->cut)
        pp_conv_enter(l, region);
}

static void pp_conv_task_end(pp_conv_loc *l, uint64_t h)
{
    if (l->cut)
        return;
    l->current = h;
    pp_conv_close_task(l, h); /* normally just the task's own region */
    pp_conv_count(l, OTF2_EvtWriter_ThreadTaskComplete(l->w, NULL, l->t_last, 0,
                                                       pp_trace_task_thread_of(l->c, h),
                                                       pp_trace_task_generation(h)),
                  l->c->size[PP_EV_TASK_COMPLETE]);
    pp_conv_task_drop(l, h);
    /* the engine is back in the implicit task; OTF2 hears of it with the
     * next record that needs it (pp_conv_sync_task) */
    l->current = pp_conv_implicit(l);
    l->written_task = 0;
}

static uint32_t pp_conv_held_find(pp_conv_loc *l, uint64_t addr)
{
    for (uint32_t i = l->n_held; i > 0; i--)
        if (l->held[i - 1].addr == addr)
            return i - 1;
    return UINT32_MAX;
}

static void pp_conv_lock(pp_conv_loc *l, uint64_t addr, uint64_t order, int acquire)
{
    pp_conv_sync_task(l);
    uint32_t i = UINT32_MAX;
    if (acquire) {
        if (l->n_held == l->cap_held) {
            uint32_t cap = l->cap_held ? 2 * l->cap_held : 4;
            pp_conv_held *h = realloc(l->held, cap * sizeof *h);
            if (!h) {
                l->failed = 1;
                return;
            }
            l->held = h;
            l->cap_held = cap;
        }
    } else if ((i = pp_conv_held_find(l, addr)) == UINT32_MAX) {
        return; /* released without an acquire we saw */
    }
    uint32_t id = pp_trace_lock_id(l->c, addr);
    if (id == UINT32_MAX) {
        l->failed = 1;
        return;
    }
    if (!pp_conv_room(l, l->c->size[acquire ? PP_EV_ACQUIRE : PP_EV_RELEASE]))
        return;
    if (acquire) {
        l->held[l->n_held++] = (pp_conv_held){addr, (uint32_t)order};
        pp_conv_count(l, OTF2_EvtWriter_ThreadAcquireLock(l->w, NULL, l->t_last,
                                                          OTF2_PARADIGM_OPENMP, id,
                                                          (uint32_t)order),
                      0);
    } else {
        uint32_t o = l->held[i].order;
        l->held[i] = l->held[--l->n_held];
        pp_conv_count(l, OTF2_EvtWriter_ThreadReleaseLock(l->w, NULL, l->t_last,
                                                          OTF2_PARADIGM_OPENMP, id, o),
                      0);
    }
}

static void pp_conv_metrics(pp_conv_loc *l, const uint64_t *rec)
{
    uint32_t n = (uint32_t)rec[1];
    if (n == 0 || n != l->c->defs->n_metrics || !pp_conv_room(l, l->c->size[PP_EV_METRIC]))
        return;
    OTF2_Type types[PP_TRACE_METRICS_MAX];
    OTF2_MetricValue values[PP_TRACE_METRICS_MAX];
    for (uint32_t i = 0; i < n; i++) {
        types[i] = OTF2_TYPE_UINT64;
        values[i].unsigned_int = rec[2 + i];
    }
    pp_conv_count(l, OTF2_EvtWriter_Metric(l->w, NULL, l->t_last, 0, (uint8_t)n, types, values),
                  0);
}

/* The values of the parameter set now in force, one event each. */
static void pp_conv_params(pp_conv_loc *l, uint64_t pset)
{
    const pp_trace_defs *d = l->c->defs;
    if (!d->pset_first || pset >= d->n_psets)
        return;
    for (uint32_t j = d->pset_first[pset]; j < d->pset_first[pset + 1]; j++) {
        const pp_trace_param *v = &d->pset_values[j];
        if (!pp_conv_room(l, l->c->size[PP_EV_PARAM]))
            return;
        OTF2_ErrorCode e;
        if (pp_trace_param_is_string(d, v->param))
            e = OTF2_EvtWriter_ParameterString(l->w, NULL, l->t_last, v->param,
                                               pp_trace_param_string(d, j));
        else
            e = OTF2_EvtWriter_ParameterInt(l->w, NULL, l->t_last, v->param, v->value);
        pp_conv_count(l, e, 0);
    }
}

/* One list item as three attributes for the next event (room for them
 * taken now): the event's i-th item has the attributes 3i, 3i+1, 3i+2
 * (OTF2 takes an attribute once per event). */
static void pp_conv_depend(pp_conv_loc *l, const uint64_t *rec)
{
    if (!l->attrs && !(l->attrs = OTF2_AttributeList_New())) {
        l->failed = 1;
        return;
    }
    OTF2_AttributeValue v;
    if (l->n_attrs == PP_TRACE_DEPEND_ITEMS_MAX) {
        uint32_t last = PP_ATTR_N * (l->n_attrs - 1) + PP_ATTR_DEPEND_KIND;
        v.uint8 = PP_DEPEND_UNKNOWN_KIND;
        if (OTF2_AttributeList_RemoveAttribute(l->attrs, last) != OTF2_SUCCESS ||
            OTF2_AttributeList_AddAttribute(l->attrs, last, OTF2_TYPE_UINT8, v) != OTF2_SUCCESS)
            l->c->otf2_failed = 1;
        return;
    }
    if (!pp_conv_room(l, PP_TRACE_DEPEND_BYTES))
        return;
    uint32_t base = PP_ATTR_N * l->n_attrs;
    v.uint64 = rec[2];
    OTF2_ErrorCode e = OTF2_AttributeList_AddAttribute(l->attrs, base + PP_ATTR_DEPEND_ADDR,
                                                       OTF2_TYPE_UINT64, v);
    v.uint64 = PP_TRACE_DEPEND_SIZE(rec[3]);
    if (e == OTF2_SUCCESS)
        e = OTF2_AttributeList_AddAttribute(l->attrs, base + PP_ATTR_DEPEND_SIZE,
                                            OTF2_TYPE_UINT64, v);
    v.uint8 = (uint8_t)PP_TRACE_DEPEND_KIND(rec[3]);
    if (e == OTF2_SUCCESS)
        e = OTF2_AttributeList_AddAttribute(l->attrs, base + PP_ATTR_DEPEND_KIND,
                                            OTF2_TYPE_UINT8, v);
    if (e != OTF2_SUCCESS)
        l->c->otf2_failed = 1;
    l->n_attrs++;
    if (l->n_attrs > l->c->depend_max)
        l->c->depend_max = l->n_attrs;
}

static void pp_conv_record(pp_conv_loc *l, const uint64_t *rec)
{
    unsigned kind = (unsigned)(rec[0] & 0xff);
    if (l->pend_create) {
        if (kind == PP_TRACE_DEPEND && rec[1] == l->pend_create) {
            pp_conv_depend(l, rec);
            return;
        }
        pp_conv_task_create_write(l);
    }
    switch (kind) {
    case PP_TRACE_DEPEND: break; /* not after its task's creation: dropped */
    case PP_TRACE_TASKWAIT_DEPEND: pp_conv_depend(l, rec); break;
    case PP_TRACE_ENTER: pp_conv_enter(l, (uint32_t)rec[1]); break;
    case PP_TRACE_LEAVE: pp_conv_leave(l, (uint32_t)rec[1]); break;
    case PP_TRACE_FORK:
        pp_conv_sync_task(l);
        if (pp_conv_room(l, l->c->size[PP_EV_FORK]))
            pp_conv_count(l, OTF2_EvtWriter_ThreadFork(l->w, NULL, l->t_last,
                                                       OTF2_PARADIGM_OPENMP, (uint32_t)rec[1]),
                          0);
        break;
    case PP_TRACE_JOIN:
        pp_conv_sync_task(l);
        if (pp_conv_room(l, l->c->size[PP_EV_JOIN]))
            pp_conv_count(l, OTF2_EvtWriter_ThreadJoin(l->w, NULL, l->t_last,
                                                       OTF2_PARADIGM_OPENMP),
                          0);
        break;
    case PP_TRACE_TEAM_BEGIN: pp_conv_team_begin(l, rec[1], (uint32_t)rec[2], rec[3]); break;
    case PP_TRACE_TEAM_END: pp_conv_team_end(l, rec[2]); break;
    case PP_TRACE_TASK_CREATE: pp_conv_task_create(l, rec[1]); break;
    case PP_TRACE_TASK_BEGIN: pp_conv_task_begin(l, rec[1], (uint32_t)rec[2]); break;
    case PP_TRACE_TASK_END: pp_conv_task_end(l, rec[1]); break;
    case PP_TRACE_TASK_SWITCH:
        l->current = rec[1];
        pp_conv_switch_to(l, rec[1], 0);
        break;
    case PP_TRACE_LOCK_ACQUIRE: pp_conv_lock(l, rec[1], rec[2], 1); break;
    case PP_TRACE_LOCK_RELEASE: pp_conv_lock(l, rec[1], 0, 0); break;
    case PP_TRACE_METRICS: pp_conv_metrics(l, rec); break;
    case PP_TRACE_FLUSH_BEGIN: pp_conv_enter(l, l->c->flush_region + (rec[1] == 1)); break;
    case PP_TRACE_FLUSH_END: pp_conv_leave(l, l->c->flush_region + (rec[1] == 1)); break;
    case PP_TRACE_PARAMS: pp_conv_params(l, rec[1]); break;
    case PP_TRACE_MPI_SEND:
    case PP_TRACE_MPI_RECV:
    case PP_TRACE_MPI_ISEND:
    case PP_TRACE_MPI_ISEND_COMPLETE:
    case PP_TRACE_MPI_IRECV_REQUEST:
    case PP_TRACE_MPI_IRECV:
    case PP_TRACE_MPI_REQUEST_TEST:
    case PP_TRACE_MPI_REQUEST_CANCELLED:
    case PP_TRACE_MPI_COLL_BEGIN:
    case PP_TRACE_MPI_COLL_END:
        if (l->c->job)
            pp_trace_otf2_mpi_record(l, rec);
        break;
    default: break;
    }
}

/* Close everything still open: explicit tasks, then the teams from the
 * innermost out, then the thread's own implicit task. */
static void pp_conv_close_all(pp_conv_loc *l)
{
    if (l->pend_create)
        pp_conv_task_create_write(l);
    for (uint32_t b = 0; b < PP_CONV_BUCKETS; b++) {
        for (pp_conv_task *t = l->buckets[b]; t; t = t->next) {
            int implicit = t->handle == l->initial;
            for (uint32_t i = 0; i < l->n_teams; i++)
                implicit |= t->handle == l->teams[i].implicit;
            if (!implicit)
                pp_conv_close_task(l, t->handle);
        }
    }
    while (l->n_teams)
        pp_conv_team_end(l, 0);
    pp_conv_close_task(l, l->initial);
}

/* ---- for the MPI records (pp_trace_otf2.h) -------------------------------------------- */

OTF2_EvtWriter *pp_conv_writer(pp_conv_loc *l)
{
    return l->w;
}

uint64_t pp_conv_time(const pp_conv_loc *l)
{
    return l->t_last;
}

pp_trace_conv *pp_conv_of(pp_conv_loc *l)
{
    return l->c;
}

int pp_conv_event_room(pp_conv_loc *l, unsigned n)
{
    return pp_conv_room(l, n);
}

void pp_conv_event_count(pp_conv_loc *l, OTF2_ErrorCode e)
{
    pp_conv_count(l, e, 0);
}

int pp_trace_otf2_location(pp_trace_conv *c, pp_trace_buf *b, const pp_trace_budget *budget)
{
    pp_conv_loc *l = calloc(1, sizeof *l);
    if (!l)
        return -1;
    l->c = c;
    l->loc = b->location;
    l->initial = l->current = l->written_task = b->initial_task;
    l->w = OTF2_Archive_GetEvtWriter(c->archive, c->loc_offset + b->location);
    if (!l->w) {
        free(l);
        c->otf2_failed = 1;
        return -1;
    }
    c->defined[b->location] = 1;
    pp_trace_source src;
    int status = pp_trace_source_open(&src, b);
    if (status == 0) {
        const uint64_t *rec;
        unsigned words;
        int r = 0;
        while (!l->cut && !l->failed && (r = pp_trace_source_next(&src, &rec, &words)) > 0) {
            /* the budget grows as the raw file's space is given back */
            uint64_t allowed = budget->free_at_start + src.punched;
            allowed = allowed > budget->margin ? allowed - budget->margin : 0;
            l->allowed = allowed < budget->limit ? allowed : budget->limit;
            unsigned kind = (unsigned)(rec[0] & 0xff);
            if (kind != PP_TRACE_METRICS) {
                uint64_t t = b->t0 + (rec[0] >> 8);
                if (c->job)
                    t = pp_trace_clock(c->job, t); /* c->t_end is on that clock too */
                if (t > c->t_end)
                    break;
                if (t > l->t_last)
                    l->t_last = t;
            }
            pp_conv_record(l, rec);
        }
        if (r < 0)
            status = -1;
        if (l->cut || l->failed) {
            uint64_t t0 = c->job ? pp_trace_clock(c->job, b->t0) : b->t0;
            double at = ((double)l->t_last - (double)t0) / c->defs->ticks_per_second;
            if (!c->cut_locations || at < c->cut_at)
                c->cut_at = at;
            c->cut_locations++;
        } else if (c->t_end > l->t_last) {
            l->t_last = c->t_end; /* what is still open ends with the trace */
        }
        pp_trace_source_close(&src);
    }
    pp_conv_close_all(l);
    if (OTF2_Archive_CloseEvtWriter(c->archive, l->w) != OTF2_SUCCESS)
        c->otf2_failed = 1;
    pp_conv_tasks_free(l);
    if (l->attrs)
        OTF2_AttributeList_Delete(l->attrs);
    free(l->teams);
    free(l->held);
    free(l);
    return status;
}
