/* The end of the events in flight: after measurement is switched off,
 * finalize waits until no thread is inside an event before it reads any
 * thread's trees (doc/engine.md, "Finalize and the events in flight").
 *
 * Each event sets its thread's in-event word with plain stores and no fence
 * (pp_profile_event_begin/end, pp_profile_internal.h), and an event
 * source's callback its in-source word (pp_profile_source.h).  Here, after the
 * measuring flag and every fast pointer were cleared, one membarrier
 * (lib/pp_membarrier.h) makes every thread execute a full barrier: each
 * thread either had set its word before that point, and it is seen set
 * here, or loads the cleared flag and pointer after it, and records
 * nothing.  So a word seen 0 afterwards belongs to a thread that will not
 * touch its trees again, and its release store made everything it wrote
 * visible.  A word seen 1 is waited for, with a bound: a thread may have
 * lost its core in an event (a loaded machine), or may never come back (it
 * crashed inside one).  Its location is then left out of the profile,
 * which says so in its run facts. */
#include "profile/pp_profile_internal.h"

#include <sched.h>
#include <time.h>

#include "lib/pp_membarrier.h"
#include "profile/pp_profile_runfacts.h"

/* How long finalize waits for a thread to leave its event.  An event takes
 * nanoseconds; a thread that lost its core gets it back within a few
 * scheduler periods even on a machine loaded many times over. */
#define PP_QUIESCE_WAIT_NS (1000ull * 1000 * 1000)

/* Locations whose thread is inside an event now (not the caller's own:
 * finalize inside an event of its own thread, a crash handler, cannot wait
 * for itself); with mark, they are marked busy_at_end.  Under the lock: the
 * list and the threads' words stay put meanwhile. */
static uint32_t pp_profile_quiesce_scan(int mark)
{
    uint32_t busy = 0;
    pp_thread_words *crashed = __atomic_load_n(&pp_profile_crashed_thread, __ATOMIC_ACQUIRE);
    pthread_mutex_lock(&pp_profile_g.lock);
    for (pp_location *l = pp_profile_g.first; l; l = l->next) {
        pp_thread_words *w = l->thread;
        if (!w || w == &pp_profile_thread_ || l->busy_at_end)
            continue;
        if (__atomic_load_n(&w->in_event, __ATOMIC_ACQUIRE) |
            __atomic_load_n(&w->in_source, __ATOMIC_ACQUIRE)) {
            if (w == crashed) {
                l->busy_at_end = 1; /* it crashed inside the event: it never leaves */
                continue;
            }
            busy++;
            if (mark)
                l->busy_at_end = 1;
        }
    }
    /* source callbacks of threads that may have no location yet (their
     * state is the source's; nothing of the engine's to leave out) */
    for (pp_thread_words *w = pp_profile_g.source_threads; w && !mark; w = w->next_source)
        if (w != &pp_profile_thread_ && __atomic_load_n(&w->in_source, __ATOMIC_ACQUIRE))
            busy++;
    pthread_mutex_unlock(&pp_profile_g.lock);
    return busy;
}

static uint64_t pp_profile_quiesce_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint32_t pp_profile_quiesce(uint64_t wait_ns)
{
    int method = pp_membarrier_all();
    pp_profile_runfacts_note_barrier(pp_membarrier_name(method));
    uint64_t start = pp_profile_quiesce_clock();
    long pause_ns = 20000;
    uint32_t busy = 0;
    for (int round = 0; pp_profile_quiesce_scan(0) != 0; round++) {
        if (pp_profile_quiesce_clock() - start >= wait_ns) {
            busy = pp_profile_quiesce_scan(1);
            break;
        }
        /* the thread is most likely waiting for a core: give it ours,
         * then sleep in growing steps */
        if (round < 8) {
            sched_yield();
            continue;
        }
        struct timespec pause = {0, pause_ns};
        nanosleep(&pause, NULL);
        if (pause_ns < 2000000)
            pause_ns *= 2;
    }
    /* the threads left out: given up on, or crashed inside an event */
    pp_profile_runfacts_note_busy();
    return busy;
}

uint32_t pp_profile_quiesce_default(void)
{
    return pp_profile_quiesce(PP_QUIESCE_WAIT_NS);
}
