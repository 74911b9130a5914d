/* pompprof.h: optional calls into the pompprof profiler from user code.
 *
 * Everything here is optional: OPARI2's pragmas already cover OpenMP
 * constructs and "#pragma pomp inst begin(name)/end(name)" user regions.  Use
 * these calls for regions OPARI2 cannot mark (e.g. across functions) or to
 * control the measurement.
 *
 * The `pompprof` wrapper defines POMPPROF_INSTRUMENTED when it instruments a
 * file; without it (a plain `gcc` build) every call below is an empty inline
 * function, so the same source builds with and without pompprof.
 *
 *   #include <pompprof.h>
 *   pompprof_region_begin("solve");      // enter user region "solve"
 *   ...                                   // (nest regions like function calls)
 *   pompprof_region_end("solve");        // leave it again (same name)
 *   pompprof_off(); ... pompprof_on();   // pause/resume measurement (all threads)
 *   pompprof_write_profile();            // finish now and write the profile
 */
#ifndef POMPPROF_H
#define POMPPROF_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef POMPPROF_INSTRUMENTED

/* Enter/leave a user region named `name` (paradigm "user"), in the calling
 * thread's current task.  Regions are identified by name: the first call with
 * a name defines the region (once, under a lock), later calls find it in a
 * per-thread cache.  begin/end must nest properly, like function calls. */
void pompprof_region_begin(const char *name);
void pompprof_region_end(const char *name);

/* Switch measurement off/on for all threads (same as #pragma pomp inst off/on). */
void pompprof_off(void);
void pompprof_on(void);

/* Finish the measurement now and write the profile (otherwise this happens at
 * program exit).  Events after this call are not recorded. */
void pompprof_write_profile(void);

#else /* built without pompprof: the calls do nothing */

static inline void pompprof_region_begin(const char *name) { (void)name; }
static inline void pompprof_region_end(const char *name) { (void)name; }
static inline void pompprof_off(void) {}
static inline void pompprof_on(void) {}
static inline void pompprof_write_profile(void) {}

#endif

#ifdef __cplusplus
}
#endif

#endif
