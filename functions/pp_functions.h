/* functions/: the function event source (doc/functions.md).  Code built
 * with `pompprof --functions` calls, at every function entry and exit:
 * - with pompprof's GCC plugin: __pompprof_func_enter/exit with the
 *   function's descriptor (pp_func_desc.h);
 * - with -finstrument-functions (clang; gcc without the plugin):
 *   __cyg_profile_func_enter/exit with the function's address.
 * This source turns them into the engine's enter/exit of one region per
 * function.  The program links these entry points from libpompprof;
 * nothing else is public. */
#ifndef PP_FUNCTIONS_H
#define PP_FUNCTIONS_H

#include "functions/pp_func_desc.h"

void __cyg_profile_func_enter(void *fn, void *call_site) __attribute__((no_instrument_function));
void __cyg_profile_func_exit(void *fn, void *call_site) __attribute__((no_instrument_function));

#endif
