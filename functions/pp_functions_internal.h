/* What the function event source's files share (functions/, doc/functions.md).
 *
 * Functions reach the library two ways:
 * - built with pompprof's GCC plugin (pp_functions_plugin.c): every
 *   instrumented function carries a descriptor with its region, which the
 *   unit's constructor registered; the events read it;
 * - built with -finstrument-functions (clang, or gcc without the plugin;
 *   pp_functions_address.c): the events give the function's address, which
 *   a table made at library start maps to its region.
 * Either way the events take no lock, allocate nothing and read no file:
 * what a function's first call needs was prepared when the library started
 * or its unit was registered. */
#ifndef PP_FUNCTIONS_INTERNAL_H
#define PP_FUNCTIONS_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "functions/pp_filter.h"

/* Taken where functions are prepared (library start, registration), never
 * by an event. */
extern pthread_mutex_t pp_functions_lock;

/* Define a function's region: 0 when it is not to be measured (left out by
 * POMPPROF_FILTER or pp_filter_never) or cannot be (the engine is full).
 * With pp_functions_lock held; mangled and file may be empty. */
uint32_t pp_functions_define(const char *name, const char *mangled, const char *file, int line,
                             int end_line);

/* How the program's functions were instrumented, for the profile's run
 * facts (pompprof::functions, which pompprof-score reads): with the lock
 * held. */
#define PP_FUNCTIONS_PLUGIN 1u
#define PP_FUNCTIONS_ADDRESS 2u
void pp_functions_note_kind(unsigned kind);

/* The -finstrument-functions table, prepared at library start. */
void pp_functions_address_start(void);

#endif
