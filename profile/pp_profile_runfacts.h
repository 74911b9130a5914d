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
