/* The library constructor: measurement starts before main, so no event
 * function needs an "initialised?" check.  Kept in its own object: a static
 * link of libpp_profile (the unit tests) pulls it in only when asked for,
 * while the shared libpompprof always contains it.
 *
 * An event source that decides at run time whether it measures at all (the
 * OMPT tool, ompt/, stays off in a program that OPARI2 measures) defines
 * pp_profile_ctor_off in its library and starts the engine itself. */
#include "profile/pp_profile_internal.h"

extern const int pp_profile_ctor_off __attribute__((weak, visibility("hidden")));

__attribute__((constructor)) static void pp_profile_ctor(void)
{
    if (&pp_profile_ctor_off != NULL)
        return;
    pp_profile_init();
}
