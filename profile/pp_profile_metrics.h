/* The profile's metrics (pp_profile_metrics.c): their definitions in the
 * CUBE file, with types, descriptions and documentation links, and their
 * values per (call path, thread).  doc/cube4-layout.md lists them and says
 * why each is stored the way it is. */
#ifndef PP_PROFILE_METRICS_H
#define PP_PROFILE_METRICS_H

#include "cube-writer/pp_cube.h"
#include "lib/pp_counters.h"
#include "profile/pp_profile_unify.h"

/* The metric ids of one profile in its CUBE file (-1: not defined). */
typedef struct pp_profile_metric_ids {
    int visits, time, min_time, max_time, max_active, ctr[PP_COUNTERS_MAX];
    int extra[PP_PROFILE_EXTRA_MAX]; /* pp_profile_extra.c */
} pp_profile_metric_ids;

/* Define u's metrics in cube, and the documentation mirror their links
 * point into.  Returns 0, or -1 with the reason in pp_cube_error(cube). */
int pp_profile_metrics_define(pp_cube *cube, const pp_unified *u, pp_profile_metric_ids *ids);

/* Store the values of every metric; cnode_of[unified node id] is its cnode
 * in cube, tps the timer ticks per second. */
void pp_profile_metrics_store(pp_cube *cube, const pp_unified *u, const pp_profile_metric_ids *ids,
                              const int *cnode_of, double tps);

#endif
