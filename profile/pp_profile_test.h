/* Hooks for the engine's unit tests (test/unit/profile); production code
 * never calls them.  The tests read results through pp_profile_unify.h and
 * pp_profile_output.h. */
#ifndef PP_PROFILE_TEST_H
#define PP_PROFILE_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "profile/pp_profile.h"
#include "profile/pp_profile_output.h"
#include "profile/pp_profile_unify.h"

/* Forget everything (all locations, regions, paths); the caller's location too. */
void pp_profile_test_reset(void);
/* Start with a fake timestamp: no timer calibration, no exit or signal hooks. */
void pp_profile_test_start_at(uint64_t now);
/* Let the calling thread act as location `index` (created as needed, in order). */
void pp_profile_test_use_location(uint32_t index);
void pp_profile_test_set_limits(unsigned max_depth, size_t memory_limit);
/* Finalize (profile and trace written) with the end at the fake timestamp now. */
void pp_profile_test_finalize_at(uint64_t now);
size_t pp_profile_test_arena_bytes(uint32_t index);
uint64_t pp_profile_test_lost(int memory);
/* Parameter set pset as text, "name=value, name=value" in parameter order
 * (strings as they are, the fold as <other>); "" for none. */
const char *pp_profile_test_pset_text(uint32_t pset, char *buf, size_t size);
/* POMPPROF_MAX_PARAMETER_VALUES for the next parameter values. */
void pp_profile_test_set_max_parameter_values(uint32_t n);
/* An enter of region at now (no trace, no counters) that stops inside the
 * event: after it has read the measuring flag and taken the location,
 * before it writes the tree, it calls inside(arg) (a thread that loses its
 * core in the middle of an event). */
void pp_profile_test_enter_paused(pp_region_id region, uint64_t now, void (*inside)(void *),
                                  void *arg);
/* The calling thread crashed (as a crash signal's handler notes it). */
void pp_profile_test_crashed_here(void);
/* The end's wait for the events in flight, at most wait_ns (after
 * measurement was switched off): the number of threads given up on. */
uint32_t pp_profile_test_quiesce(uint64_t wait_ns);
/* 1 when the engine under test checks its invariants (PP_ASSERT). */
int pp_profile_test_assertions(void);
/* Break an invariant: the current task's position leaves its tree, as an
 * engine bug would (its next end must stop on an assertion). */
void pp_profile_test_misplace_current(void);

#endif
