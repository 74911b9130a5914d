/* The profile's metrics: definitions and values, following CubeLib's
 * conventions for each type (doc/cube4-layout.md, "Metrics"):
 *
 * - time is INCLUSIVE (as the reference stores it); the others are
 *   EXCLUSIVE, which CubeLib sums (or takes the min/max of) over a subtree;
 * - min_time is a minimum metric: a (call path, thread) pair that was never
 *   visited keeps the writer's empty value, DBL_MAX, so it cannot win the
 *   minimum; TASKS carries the min and max of its whole subtree;
 * - max_active_tasks is a maximum metric, so threads combine by maximum,
 *   and it is stored on every call path: a maximum row without any value
 *   reads as empty (-DBL_MAX) in CubeLib's tools;
 * - counters are stored exclusive: CubeLib's cube_sanity subtracts TASKS
 *   from the program root like any child, which an inclusive counter, whose
 *   task counts sit both in the stubs and below TASKS, cannot survive;
 * - the extra metrics (pp_profile_extra.c: the MPI layer's bytes) are
 *   exclusive sums: the engine adds them to one call path each.
 *
 * Every metric links into the metric table of the README, installed in the
 * documentation directory (the "@mirror@" links resolve against it). */
#include "config.h"

#include "profile/pp_profile_internal.h"

#include <stdio.h>

#include "profile/pp_profile_metrics.h"

#ifndef PP_DOCDIR
#error "PP_DOCDIR (the installed documentation directory) must be defined"
#endif

#define PP_METRIC_URL(anchor) "@mirror@README.md#metric-" anchor

typedef struct pp_metric_def {
    const char *uniq, *disp, *unit, *url, *descr;
    pp_cube_dtype dtype;
    pp_cube_kind kind;
} pp_metric_def;

/* The metrics every profile has, in id order, and max_active_tasks. */
static const pp_metric_def pp_metric_fixed[] = {
    {"visits", "Visits", "occ", PP_METRIC_URL("visits"),
     "Completed visits of the call path (for a task construct below TASKS: its instances)",
     PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE},
    {"time", "Time", "sec", PP_METRIC_URL("time"),
     "Time spent in the call path and its callees, summed over its visits; time while a task "
     "was suspended is not counted",
     PP_CUBE_DOUBLE, PP_CUBE_INCLUSIVE},
    {"min_time", "Minimum Inclusive Time", "sec", PP_METRIC_URL("min_time"),
     "Shortest single visit of the call path (inclusive); empty where the thread never visited "
     "it",
     PP_CUBE_MINDOUBLE, PP_CUBE_EXCLUSIVE},
    {"max_time", "Maximum Inclusive Time", "sec", PP_METRIC_URL("max_time"),
     "Longest single visit of the call path (inclusive)", PP_CUBE_MAXDOUBLE, PP_CUBE_EXCLUSIVE},
};
static const pp_metric_def pp_metric_max_active = {
    "max_active_tasks", "Max active tasks", "occ", PP_METRIC_URL("max_active_tasks"),
    "Most explicit task instances begun and not yet ended at once on the thread (the thread's "
    "figure on every call path and at TASKS; at a task construct and below it: instances of that "
    "construct)",
    PP_CUBE_MAXDOUBLE, PP_CUBE_EXCLUSIVE};

static int pp_metric_define(pp_cube *cube, const pp_metric_def *d)
{
    int id = pp_cube_def_metric(cube, -1, d->uniq, d->disp, d->unit, d->descr, d->dtype, d->kind);
    if (id >= 0 && pp_cube_set_metric_url(cube, id, d->url) < 0)
        return -1;
    return id;
}

static int pp_metric_any_active(const pp_unified *u)
{
    for (uint32_t i = 0; i < u->n_locations; i++)
        if (u->max_active_tasks[i])
            return 1;
    return 0;
}

int pp_profile_metrics_define(pp_cube *cube, const pp_unified *u, pp_profile_metric_ids *ids)
{
    if (pp_cube_add_mirror(cube, "file://" PP_DOCDIR "/") < 0)
        return -1;
    int *fixed[] = {&ids->visits, &ids->time, &ids->min_time, &ids->max_time};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if ((*fixed[i] = pp_metric_define(cube, &pp_metric_fixed[i])) < 0)
            return -1;
    /* a program without explicit tasks has no figure to show anywhere */
    ids->max_active = -1;
    if (pp_metric_any_active(u) && (ids->max_active = pp_metric_define(cube, &pp_metric_max_active)) < 0)
        return -1;
    for (uint32_t k = 0; k < u->n_counters; k++) {
        const char *name = u->counter_names[k] ? u->counter_names[k] : "counter";
        const char *papi = pp_counters_description((int)k);
        char descr[512];
        snprintf(descr, sizeof descr,
                 "%s%sPAPI event %s, counted in the call path itself (its callees' counts are "
                 "theirs; counts while a task was suspended are not included)",
                 papi ? papi : "", papi ? ". " : "", name);
        pp_metric_def d = {name, name, "#", PP_METRIC_URL("counters"), descr, PP_CUBE_UINT64,
                           PP_CUBE_EXCLUSIVE};
        if ((ids->ctr[k] = pp_metric_define(cube, &d)) < 0)
            return -1;
    }
    for (uint32_t k = 0; k < u->n_extra; k++) {
        const pp_extra_def *e = pp_profile_extra_get(k);
        char url[128];
        snprintf(url, sizeof url, PP_METRIC_URL("%s"), e ? e->uniq : "");
        pp_metric_def d = {e ? e->uniq : "extra", e ? e->disp : "extra", e ? e->unit : "#", url,
                           e ? e->descr : "", PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE};
        if ((ids->extra[k] = pp_metric_define(cube, &d)) < 0)
            return -1;
    }
    return 0;
}

/* Counter k of n on location i without its children's (TASKS is no child of
 * the root here: its counts are not part of the root's). */
static uint64_t pp_metric_counter_exclusive(const pp_unified *u, const pp_unode *n, uint32_t k,
                                            uint32_t i)
{
    size_t at = (size_t)k * u->n_locations + i;
    uint64_t children = 0;
    for (const pp_unode *c = n->first_child; c; c = c->next_sibling)
        if (c != u->tasks)
            children += c->counters[at];
    return n->counters[at] > children ? n->counters[at] - children : 0;
}

void pp_profile_metrics_store(pp_cube *cube, const pp_unified *u, const pp_profile_metric_ids *ids,
                              const int *cnode_of, double tps)
{
    /* In pre-order, TASKS is the last child of the root and a construct's
     * subtree follows it: the construct of a node below TASKS is the last
     * child of TASKS seen. */
    const pp_unode *construct = NULL;
    for (const pp_unode *n = u->root; n; n = pp_unified_next(n)) {
        int cn = cnode_of[n->id];
        if (u->tasks && n->parent == u->tasks)
            construct = n;
        for (uint32_t i = 0; i < u->n_locations; i++) {
            if (n->visits[i])
                pp_cube_set_uint64(cube, ids->visits, cn, (int)i, n->visits[i]);
            if (n->time[i])
                pp_cube_set_double(cube, ids->time, cn, (int)i, (double)n->time[i] / tps);
            if (n->min_time[i] != UINT64_MAX)
                pp_cube_set_double(cube, ids->min_time, cn, (int)i, (double)n->min_time[i] / tps);
            if (n->max_time[i])
                pp_cube_set_double(cube, ids->max_time, cn, (int)i, (double)n->max_time[i] / tps);
            for (uint32_t k = 0; k < u->n_counters; k++) {
                uint64_t x = pp_metric_counter_exclusive(u, n, k, i);
                if (x)
                    pp_cube_set_uint64(cube, ids->ctr[k], cn, (int)i, x);
            }
            for (uint32_t k = 0; k < u->n_extra; k++)
                if (n->extra[(size_t)k * u->n_locations + i])
                    pp_cube_set_uint64(cube, ids->extra[k], cn, (int)i,
                                       n->extra[(size_t)k * u->n_locations + i]);
            if (ids->max_active >= 0) {
                uint64_t a = construct ? (construct->max_active ? construct->max_active[i] : 0)
                                       : u->max_active_tasks[i];
                if (a)
                    pp_cube_set_double(cube, ids->max_active, cn, (int)i, (double)a);
            }
        }
    }
}
