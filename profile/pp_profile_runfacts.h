/* pp_profile_runfacts: the facts of a run (host, cores, settings, version,
 * how it ended) for the profile's attributes and the trace's properties. */
#ifndef PP_PROFILE_RUNFACTS_H
#define PP_PROFILE_RUNFACTS_H

/* Called with each fact: key ("host", "end", "env::OMP_NUM_THREADS", ...)
 * and value; a non-zero return is passed on by pp_profile_runfacts_each. */
typedef int (*pp_profile_runfacts_fn)(void *user, const char *key, const char *value);

/* At the end of measurement (before the profile is built): decide how the
 * run ended, and say once when more threads ran than cores are online. */
void pp_profile_runfacts_note_end(void);

/* The event source that measures this run, reported as the fact
 * "event_source": "opari2" (the default: libpompprof, its POMP2 layer),
 * "ompt" (libpompprof_ompt), "gomp" (the libgomp interposer).  A static
 * string, set once at start-up by the source's library. */
void pp_profile_runfacts_set_source(const char *source);

/* A fact an event source knows (the function source: how the functions
 * were instrumented), kept until the end (copied; the same key again
 * replaces the value; at most PP_RUNFACTS_SET of them).  Thread-safe; not
 * for the event path.  0, or -1 when full or out of memory. */
#define PP_RUNFACTS_SET 8
int pp_profile_runfacts_set(const char *key, const char *value);

/* Every fact, in a fixed order; the bitwise or of fn's returns. */
int pp_profile_runfacts_each(pp_profile_runfacts_fn fn, void *user);

/* How finalize waited for the events in flight (a pp_membarrier_name), and
 * which threads it gave up waiting for (the locations marked busy_at_end;
 * doc/engine.md, "Finalize and the events in flight"). */
void pp_profile_runfacts_note_barrier(const char *method);
void pp_profile_runfacts_note_busy(void);

long pp_profile_runfacts_cores(void);
void pp_profile_runfacts_reset(void);

#endif
