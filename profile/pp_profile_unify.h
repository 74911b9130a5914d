/* The unified profile: all locations' trees as one call tree with a value
 * per location, built at the end of measurement (pp_profile_unify.c) and
 * written by pp_profile_output.c.
 *
 * Times are timer ticks (the output converts them to seconds), so tests with
 * a fake clock can assert exact values. */
#ifndef PP_PROFILE_UNIFY_H
#define PP_PROFILE_UNIFY_H

#include <stdint.h>

#include "lib/pp_counters.h"
#include "profile/pp_profile.h"

typedef struct pp_unode pp_unode;
struct pp_unode {
    pp_region_id region;
    uint32_t pset; /* parameter set (see pp_profile_split.c), 0 = none */
    int id; /* cnode id: pre-order position */
    pp_unode *parent, *first_child, *next_sibling, *last_child;
    /* one entry per location */
    uint64_t *visits;
    uint64_t *time;     /* inclusive ticks */
    uint64_t *min_time; /* ticks; UINT64_MAX = no visit */
    uint64_t *max_time;
    uint64_t *counters; /* [counter * n_locations + location], inclusive */
    uint64_t *extra;    /* [metric * n_locations + location], exclusive (pp_profile_extra.c) */
    /* a task construct (child of TASKS): per location, the most instances
     * of it active at once; NULL on every other node */
    uint64_t *max_active;
};

/* Where a location (a column of the profile) ran: the system tree
 * machine -> node (host) -> process -> thread. */
typedef struct pp_unified_location {
    const char *host;    /* host name */
    const char *process; /* e.g. "Process", "MPI Rank 3" */
    int32_t rank;        /* the process's rank (0 for a program of one process) */
    uint32_t thread;     /* index of the thread in its process (0: master) */
} pp_unified_location;

typedef struct pp_unified {
    pp_unode *root;  /* the program region */
    pp_unode *tasks; /* the TASKS child of root, NULL when no task ran */
    uint32_t n_locations;
    uint32_t n_nodes;
    uint32_t n_counters;
    const char *counter_names[PP_COUNTERS_MAX];
    uint64_t *max_active_tasks; /* per location: the most task instances active at once */
    uint64_t t_finalize;        /* ticks */
    double ticks_per_second;    /* the clock's rate at the end: the profile's and the
                                   trace's seconds use this one (0: not known) */
    uint32_t n_extra;           /* extra metrics: the engine's first n_extra */
    pp_unified_location *locations; /* per location */
    char *strings;              /* storage of the locations' strings, freed with u */
} pp_unified;

/* Close every region still open at `now` (ticks) on every location, finish
 * active task instances, and unify all locations' trees into one.  NULL when
 * nothing was measured. */
pp_unified *pp_profile_unify_at(uint64_t now);
void pp_unified_free(pp_unified *u);
/* For a layer that builds a profile itself (the MPI layer merges the
 * ranks'): an empty profile with a root of region root_region and every
 * location's min_time unset; its locations table is zeroed (the caller
 * fills it, and may point its strings into u->strings).  NULL when memory
 * is short. */
pp_unified *pp_unified_new(uint32_t n_locations, uint32_t n_counters, uint32_t n_extra,
                           pp_region_id root_region);
/* A new last child of parent for region and parameter set pset (no lookup;
 * NULL when memory is short). */
pp_unode *pp_unified_add_child(pp_unified *u, pp_unode *parent, pp_region_id region,
                               uint32_t pset);
/* Number the nodes in pre-order (the ids the output needs). */
void pp_unified_number(pp_unified *u);
/* The child of parent for region (the first one when parameters split it;
 * NULL if none), and the one for region with parameter set pset. */
pp_unode *pp_unified_child(const pp_unode *parent, pp_region_id region);
pp_unode *pp_unified_child_pset(const pp_unode *parent, pp_region_id region, uint32_t pset);
/* Inclusive minus the children's inclusive (TASKS below the root excluded). */
int64_t pp_unified_exclusive(const pp_unified *u, const pp_unode *n, uint32_t location);
/* The node after n in pre-order (NULL after the last one); iterative. */
static inline pp_unode *pp_unified_next(const pp_unode *n)
{
    if (n->first_child)
        return n->first_child;
    while (n && !n->next_sibling)
        n = n->parent;
    return n ? n->next_sibling : NULL;
}
/* The same within the subtree of top (n below top): NULL after its last node. */
static inline pp_unode *pp_unified_next_below(const pp_unode *n, const pp_unode *top)
{
    if (n->first_child)
        return n->first_child;
    while (n != top && !n->next_sibling)
        n = n->parent;
    return n == top ? NULL : n->next_sibling;
}

#endif
