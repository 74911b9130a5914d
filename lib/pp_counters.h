/* pp_counters: event counters (PAPI) for the profile.
 *
 * Set up once (pp_counters_init) from POMPPROF_METRICS: any event name PAPI
 * accepts (presets, native events such as perf::PAGE-FAULTS, component
 * events).  The events are tried in order, each together with the ones kept
 * so far, so the set grows up to what PAPI can count at once; one
 * "pompprof:" line names every event left out and why.  Every thread then
 * starts its own event set (pp_counters_thread_start, called when the
 * thread's profile location is created) and reads it at every event.
 * Without PAPI support compiled in, every event is left out. */
#ifndef PP_COUNTERS_H
#define PP_COUNTERS_H

#include <stdint.h>

/* How many events one thread counts at most: the capacity of every counter
 * array in the engine. */
#define PP_COUNTERS_MAX 16
/* How many names POMPPROF_METRICS may give: the ones beyond PP_COUNTERS_MAX
 * (or that PAPI cannot count together) are named as left out. */
#define PP_COUNTERS_NAMES_MAX 64
/* The longest event name, with its terminating NUL (PAPI's own limit). */
#define PP_COUNTERS_NAME_LEN 128

/* Returns how many of the n named events are counted (they keep their
 * order; pp_counters_name gives the names of those counted). */
int pp_counters_init(const char (*names)[PP_COUNTERS_NAME_LEN], int n);
const char *pp_counters_name(int i);
/* PAPI's description of counted event i (NULL when it has none). */
const char *pp_counters_description(int i);

/* Start the calling thread's event set; returns its handle or -1. */
int pp_counters_thread_start(void);

/* Current values of the calling thread's event set. */
void pp_counters_read(int set, uint64_t *values);

#endif
