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

#endif
