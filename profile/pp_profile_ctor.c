/* The library constructor: measurement starts before main, so no event
 * function needs an "initialised?" check.  Kept in its own object: a static
 * link of libpp_profile (the unit tests) pulls it in only when asked for,
 * while the shared libpompprof always contains it. */
#include "profile/pp_profile_internal.h"

__attribute__((constructor)) static void pp_profile_ctor(void)
{
    pp_profile_init();
}
