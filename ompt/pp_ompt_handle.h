/* An explicit task's handle in the OMPT layer: the 64-bit value of its
 * ompt_data_t, which libomp hands back at every event of the task.  Nothing
 * is allocated per task: the value packs what the layer must know of the
 * task, so a task that ends on another thread than the one that created it
 * needs nothing freed.
 *
 *   bit  63      explicit (the engine handles of implicit tasks, which their
 *                values are, never have it: 2^23 locations are far off)
 *   bits 61-62   state: created (not begun yet), begun, ended (a detached
 *                task whose body finished: nothing of it is measured any
 *                more), moving (below)
 *   bit  60      undeferred: its creation region stays open until it ends
 *   bits 40-59   the construct's index in the registry (20 bits: at most
 *                PP_OMPT_MAX_CONSTRUCTS constructs; more are not measured)
 *   bits 28-39   the creating thread's engine location + 1 (12 bits: the
 *                tasks of threads numbered PP_OMPT_MAX_THREADS and beyond are
 *                not measured, with one line; + 1 as in the engine handle,
 *                which is then two masks and a shift away)
 *   bits  0-27   the creating thread's task counter (it wraps after 2^28
 *                tasks: a task would have to stay active across 268 M later
 *                creations on its creating thread to share a handle)
 *
 * A moving task (untied and deferred: libomp may resume it on another
 * thread) holds, from its first run on, the engine's reference to it
 * (profile/pp_profile_migrate.h) in bits 0-47 instead of construct, thread
 * and counter.
 *
 * The pseudo task of a taskwait with depend clauses (pp_ompt_task.c) has
 * bit 0 set, its construct's index + 1 from bit 2 on, and stays below 2^40:
 * below every engine handle, and never explicit.
 *
 * The layout is checked at compile time below; test/unit/ompt packs and
 * unpacks values at its limits. */
#ifndef PP_OMPT_HANDLE_H
#define PP_OMPT_HANDLE_H

#include <stdbool.h>
#include <stdint.h>

#define PP_OMPT_EXPLICIT (1ull << 63)
#define PP_OMPT_STATE (3ull << 61)
#define PP_OMPT_CREATED (0ull << 61)
#define PP_OMPT_BEGUN (1ull << 61)
#define PP_OMPT_ENDED (2ull << 61)
#define PP_OMPT_MOVING (3ull << 61)
#define PP_OMPT_UNDEFERRED (1ull << 60)

#define PP_OMPT_COUNTER_BITS 28
#define PP_OMPT_THREAD_BITS 12
#define PP_OMPT_INDEX_BITS 20
#define PP_OMPT_THREAD_SHIFT PP_OMPT_COUNTER_BITS
#define PP_OMPT_INDEX_SHIFT (PP_OMPT_THREAD_SHIFT + PP_OMPT_THREAD_BITS)
#define PP_OMPT_COUNTER_MASK ((1ull << PP_OMPT_COUNTER_BITS) - 1)
#define PP_OMPT_THREAD_MASK ((1ull << PP_OMPT_THREAD_BITS) - 1)
#define PP_OMPT_INDEX_MASK ((1ull << PP_OMPT_INDEX_BITS) - 1)
#define PP_OMPT_MAX_CONSTRUCTS (1u << PP_OMPT_INDEX_BITS)
#define PP_OMPT_MAX_THREADS ((1u << PP_OMPT_THREAD_BITS) - 1)
#define PP_OMPT_REF_BITS 48
#define PP_OMPT_REF_MASK ((1ull << PP_OMPT_REF_BITS) - 1)
/* engine handles: the location index + 1 from this bit on (pp_profile.h) */
#define PP_OMPT_ENGINE_LOCATION_SHIFT 40
/* set in the engine handle of every explicit task of this layer, never in
 * one the engine made (its counter there counts the location's implicit
 * tasks, far below 2^31) */
#define PP_OMPT_ENGINE_EXPLICIT (1ull << 31)

_Static_assert(PP_OMPT_INDEX_SHIFT + PP_OMPT_INDEX_BITS <= 60,
               "construct, thread and counter lie below the flags");
_Static_assert((PP_OMPT_UNDEFERRED & (PP_OMPT_EXPLICIT | PP_OMPT_STATE)) == 0,
               "the flags do not overlap");
_Static_assert(((PP_OMPT_INDEX_MASK << PP_OMPT_INDEX_SHIFT) &
                (PP_OMPT_THREAD_MASK << PP_OMPT_THREAD_SHIFT)) == 0 &&
                   ((PP_OMPT_THREAD_MASK << PP_OMPT_THREAD_SHIFT) & PP_OMPT_COUNTER_MASK) == 0,
               "the fields do not overlap");
_Static_assert(PP_OMPT_REF_BITS <= 60 && sizeof(void *) <= 8,
               "a moving task's reference lies below the flags");
_Static_assert(PP_OMPT_COUNTER_BITS < 31 &&
                   PP_OMPT_THREAD_BITS < 64 - PP_OMPT_ENGINE_LOCATION_SHIFT,
               "an engine handle holds the counter below its explicit bit and the thread "
               "number + 1 from bit 40 on");
_Static_assert(PP_OMPT_INDEX_BITS + 3 <= PP_OMPT_ENGINE_LOCATION_SHIFT,
               "a taskwait depend's value stays below every engine handle");

/* The part of the values of the tasks that thread `thread` creates that
 * does not change from task to task; 0 when the thread number does not fit
 * (its tasks are not measured). */
static inline uint64_t pp_ompt_value_base(uint32_t thread)
{
    if (thread >= PP_OMPT_MAX_THREADS)
        return 0;
    return PP_OMPT_EXPLICIT | ((uint64_t)thread + 1) << PP_OMPT_THREAD_SHIFT;
}

/* A new task's value: base from pp_ompt_value_base (not 0), the construct's
 * index (below PP_OMPT_MAX_CONSTRUCTS: the registry gives no other), the
 * thread's counter (wraps), undeferred or not. */
static inline uint64_t pp_ompt_value_new(uint64_t base, uint32_t index, uint32_t counter,
                                         bool undeferred)
{
    return base | (uint64_t)index << PP_OMPT_INDEX_SHIFT | (counter & PP_OMPT_COUNTER_MASK) |
           (undeferred ? PP_OMPT_UNDEFERRED : 0);
}

static inline uint64_t pp_ompt_value_state(uint64_t value)
{
    return value & PP_OMPT_STATE;
}

/* Whether the value is an explicit task's in that state (one compare). */
static inline bool pp_ompt_value_is(uint64_t value, uint64_t state)
{
    return (value & (PP_OMPT_EXPLICIT | PP_OMPT_STATE)) == (PP_OMPT_EXPLICIT | state);
}

static inline uint64_t pp_ompt_value_set_state(uint64_t value, uint64_t state)
{
    return (value & ~PP_OMPT_STATE) | state;
}

/* The value with another construct index (a task found to be another
 * construct's once it runs: a taskloop's generator). */
static inline uint64_t pp_ompt_value_set_index(uint64_t value, uint32_t index)
{
    return (value & ~(PP_OMPT_INDEX_MASK << PP_OMPT_INDEX_SHIFT)) |
           (uint64_t)index << PP_OMPT_INDEX_SHIFT;
}

static inline uint32_t pp_ompt_value_index(uint64_t value)
{
    return (uint32_t)(value >> PP_OMPT_INDEX_SHIFT & PP_OMPT_INDEX_MASK);
}

static inline uint32_t pp_ompt_value_thread(uint64_t value)
{
    return (uint32_t)(value >> PP_OMPT_THREAD_SHIFT & PP_OMPT_THREAD_MASK) - 1;
}

/* A moving task's value for the engine's reference ref; 0 for no reference
 * or one that does not fit (the task is then followed as a tied one). */
static inline uint64_t pp_ompt_value_moving(const void *ref)
{
    uint64_t r = (uint64_t)(uintptr_t)ref;
    return !r || (r & ~PP_OMPT_REF_MASK) ? 0 : PP_OMPT_EXPLICIT | PP_OMPT_MOVING | r;
}

static inline void *pp_ompt_value_ref(uint64_t value)
{
    return (void *)(uintptr_t)(value & PP_OMPT_REF_MASK);
}

/* Whether a task of this value goes on by a switch to its engine handle: an
 * implicit task's value (an engine handle: at least 2^40, never explicit, so
 * positive as a signed number) or a begun explicit task's. */
static inline bool pp_ompt_value_resumable(uint64_t value)
{
    return (int64_t)value >= (int64_t)(1ull << PP_OMPT_ENGINE_LOCATION_SHIFT) ||
           pp_ompt_value_is(value, PP_OMPT_BEGUN);
}

/* The engine handle of a task's value.  An explicit task's follows the
 * engine's convention (the creating location's index + 1 from bit 40 on, so
 * a trace names the creating thread) with PP_OMPT_ENGINE_EXPLICIT set; an
 * implicit task's value is its engine handle. */
static inline uint64_t pp_ompt_engine_handle_explicit(uint64_t value)
{
    return (value & PP_OMPT_THREAD_MASK << PP_OMPT_THREAD_SHIFT)
               << (PP_OMPT_ENGINE_LOCATION_SHIFT - PP_OMPT_THREAD_SHIFT) |
           PP_OMPT_ENGINE_EXPLICIT | (value & PP_OMPT_COUNTER_MASK);
}
static inline uint64_t pp_ompt_engine_handle(uint64_t value)
{
    return value & PP_OMPT_EXPLICIT ? pp_ompt_engine_handle_explicit(value) : value;
}

/* The value of the pseudo task of a taskwait depend whose construct has
 * index (or none: no construct), and the questions about it. */
#define PP_OMPT_TASKWAIT_ENTERED 2ull
static inline uint64_t pp_ompt_value_taskwait(bool has_construct, uint32_t index)
{
    return 1 | (has_construct ? (uint64_t)(index + 1) << 2 : 0);
}

static inline bool pp_ompt_is_taskwait_depend(uint64_t value)
{
    return (value & 1) && value < (1ull << PP_OMPT_ENGINE_LOCATION_SHIFT);
}

/* The construct index of a taskwait depend's value; false if it has none. */
static inline bool pp_ompt_taskwait_index(uint64_t value, uint32_t *index)
{
    if (value >> 2 == 0)
        return false;
    *index = (uint32_t)(value >> 2) - 1;
    return true;
}

#endif
