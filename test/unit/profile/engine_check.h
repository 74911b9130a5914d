/* What the engine's scenario tests share (test_profile_engine.c,
 * test_profile_params.c): a fresh engine per test with a fake clock, region
 * definitions, and checks of the unified tree, node by node. */
#ifndef ENGINE_CHECK_H
#define ENGINE_CHECK_H

#include <check.h>
#include <stdlib.h>

#include "profile/pp_profile.h"
#include "profile/pp_profile_test.h"

static inline pp_region_id R(const char *name, const char *role)
{
    pp_region_def d = {.name = name, .file = "f.c", .begin_line = 1, .end_line = 2,
                       .paradigm = "openmp", .role = role};
    pp_region_id id = pp_profile_region_define(&d);
    ck_assert_uint_ne(id, PP_REGION_INVALID);
    return id;
}

/* The checked fixture: no POMPPROF_* setting from outside, the clock at 0. */
static inline void setup(void)
{
    unsetenv("POMPPROF_ENABLE");
    unsetenv("POMPPROF_MAX_DEPTH");
    unsetenv("POMPPROF_MEMORY");
    unsetenv("POMPPROF_METRICS");
    unsetenv("POMPPROF_MAX_PARAMETER_VALUES");
    pp_profile_test_reset();
    pp_profile_test_start_at(0);
}

static inline void teardown(void)
{
    pp_profile_test_reset();
}

/* Assert one node's values on one location. */
#define CHECK_NODE(n, loc, v, t, mn, mx)                                             \
    do {                                                                             \
        const pp_unode *n_ = (n);                                                    \
        ck_assert_ptr_nonnull(n_);                                                   \
        ck_assert_uint_eq(n_->visits[loc], (v));                                     \
        ck_assert_uint_eq(n_->time[loc], (t));                                       \
        if ((v) > 0) {                                                               \
            ck_assert_uint_eq(n_->min_time[loc], (mn));                              \
            ck_assert_uint_eq(n_->max_time[loc], (mx));                              \
        }                                                                            \
    } while (0)

static inline int count_children(const pp_unode *n)
{
    int k = 0;
    for (const pp_unode *c = n->first_child; c; c = c->next_sibling)
        k++;
    return k;
}

/* Every node, every location: exclusive >= 0, min <= max. */
static inline void check_no_negative(const pp_unified *u)
{
    for (const pp_unode *m = u->root; m; m = pp_unified_next(m))
        for (uint32_t i = 0; i < u->n_locations; i++) {
            ck_assert_msg(pp_unified_exclusive(u, m, i) >= 0,
                          "negative exclusive time at node %d loc %u", m->id, i);
            if (m->visits[i])
                ck_assert_uint_le(m->min_time[i], m->max_time[i]);
        }
}

#endif
