/* functions/: the function event source.  Code compiled with gcc's
 * -finstrument-functions (pompprof --functions) calls
 * __cyg_profile_func_enter/exit at every function entry and exit; this
 * source turns them into the engine's enter/exit of one region per function
 * (doc/functions.md).  The program links the two entry points from
 * libpompprof; nothing else is public. */
#ifndef PP_FUNCTIONS_H
#define PP_FUNCTIONS_H

void __cyg_profile_func_enter(void *fn, void *call_site) __attribute__((no_instrument_function));
void __cyg_profile_func_exit(void *fn, void *call_site) __attribute__((no_instrument_function));

#endif
