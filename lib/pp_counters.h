/* pp_counters: hardware event counters (PAPI) for the profile.
 *
 * Set up once (pp_counters_init) from POMPPROF_METRICS; every thread then
 * starts its own event set (pp_counters_thread_start, called when the thread's
 * profile location is created) and reads it at every event while counters are
 * configured.  An event PAPI cannot count gets one "pompprof:" line and is
 * left out; without PAPI support compiled in, every event is left out. */
#ifndef PP_COUNTERS_H
#define PP_COUNTERS_H

#include <stdint.h>

/* How many events one thread counts at most: the capacity of every counter
 * array in the engine and of POMPPROF_METRICS. */
#define PP_COUNTERS_MAX 8

/* Returns how many of the n named events can be counted (they keep their
 * order; pp_counters_name gives the names of the usable ones). */
int pp_counters_init(const char (*names)[64], int n);
const char *pp_counters_name(int i);

/* Start the calling thread's event set; returns its handle or -1. */
int pp_counters_thread_start(void);

/* Current values of the calling thread's event set. */
void pp_counters_read(int set, uint64_t *values);

#endif
