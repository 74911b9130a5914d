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
 *
 *   #pragma omp task
 *   {
 *       pompprof_parameter_int64("depth", depth);  // this task's time by depth
 *       ...
 *   }
 */
#ifndef POMPPROF_H
#define POMPPROF_H

#include <stdint.h>

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

/* Parameters: split the profile by a value you name.  Called inside a region
 * or a task, the call path of that region or task splits: the visit goes to
 * a node of the same region that carries `name=value` (shown as "region
 * (name=value)" in the Cube GUI), from the thread's last measured event on
 * (normally the region's entry or the task's start) until the region or
 * task ends.  Inside a task, the task construct's tree is split per value:
 * instances and time per recursion depth, problem size, ...  Several
 * parameters combine; the same parameter again replaces its value.  At most
 * POMPPROF_MAX_PARAMETER_VALUES (default 256) distinct values per parameter
 * and call path; later ones are counted together as "<other>".  A call
 * costs less than a region entry (it reads no clock).  Fortran (gfortran):
 * `call pompprof_parameter_int64("depth", int(depth, 8))` (the value is an
 * INTEGER(KIND=8)) and `call pompprof_parameter_string("mode", "fast")`. */
void pompprof_parameter_int64(const char *name, int64_t value);
void pompprof_parameter_string(const char *name, const char *value);

#else /* built without pompprof: the calls do nothing */

static inline void pompprof_region_begin(const char *name) { (void)name; }
static inline void pompprof_region_end(const char *name) { (void)name; }
static inline void pompprof_off(void) {}
static inline void pompprof_on(void) {}
static inline void pompprof_write_profile(void) {}
static inline void pompprof_parameter_int64(const char *name, int64_t value)
{
    (void)name, (void)value;
}
static inline void pompprof_parameter_string(const char *name, const char *value)
{
    (void)name, (void)value;
}

#endif

#ifdef __cplusplus
}
#endif

#endif
