/* What an event source needs of the engine's bracket around events
 * (doc/engine.md, "Finalize and the events in flight").
 *
 * The engine's events bracket themselves.  An event source whose end hook
 * (pp_profile_at_end) reads per-thread state of its own, which its
 * callbacks write outside the engine's events (the OMPT layer's stack of
 * implicit tasks per thread), brackets each callback that writes it:
 *
 *     if (pp_profile_source_begin()) {   measurement on: write the state
 *         ...                            (engine events may be called here)
 *     }
 *     pp_profile_source_end();
 *
 * begin is a plain store to the thread's in-source word and a load of the
 * measuring flag; finalize waits until every thread's word is 0, as for the
 * engine's own in-event word, before the end hooks run, and once
 * measurement is off a callback writes nothing.  The source's word is not
 * the engine's, so engine events nest inside; a source bracket does not
 * nest in another one. */
#ifndef PP_PROFILE_SOURCE_H
#define PP_PROFILE_SOURCE_H

#include <stdint.h>

struct pp_location;

/* A thread's own words (pp_profile_state.c), which other threads reach
 * through its locations' thread field:
 * - fast: the thread's location when the events' fast paths apply to it
 *   (measuring, no trace, no counters, the TSC as the clock), else NULL:
 *   one test in the prologue of an event decides.  Other threads clear it
 *   when measurement is switched off.
 * - in_event: 1 while one of the engine's events runs on the thread
 *   (pp_profile_event_begin and _end, pp_profile_internal.h), else 0;
 * - in_source: the same for an event source's callback (below);
 * - source_listed, next_source: the thread is in the list of threads that
 *   run source callbacks (it may have no location yet).
 * Finalize waits until both are 0 before it reads the thread's state. */
typedef struct pp_thread_words {
    struct pp_location *fast;
    uint8_t in_event;
    uint8_t in_source;
    uint8_t source_listed;
    struct pp_thread_words *next_source;
} pp_thread_words;
extern __thread pp_thread_words pp_profile_thread_ __attribute__((tls_model("initial-exec")));

/* Nonzero while events are recorded (pp_profile_node.h). */
extern int pp_profile_measuring_ __attribute__((visibility("hidden")));

/* Put the calling thread into the list finalize reads (once per thread,
 * under the global lock; pp_profile_state.c). */
void pp_profile_source_register(void);

static inline int pp_profile_source_begin(void)
{
    if (__builtin_expect(!pp_profile_thread_.source_listed, 0))
        pp_profile_source_register();
    __atomic_store_n(&pp_profile_thread_.in_source, 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return __atomic_load_n(&pp_profile_measuring_, __ATOMIC_RELAXED);
}

static inline void pp_profile_source_end(void)
{
    __atomic_store_n(&pp_profile_thread_.in_source, 0, __ATOMIC_RELEASE);
}

#endif
