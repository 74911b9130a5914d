/* pp_timer: the one clock read per event.
 *
 * Two sources: the x86 time-stamp counter (cheapest; chosen by default only
 * when the CPU says it is invariant, and whenever POMPPROF_TIMER=tsc asks for
 * it) and CLOCK_MONOTONIC.  Ticks are converted to seconds
 * once, at the end, with a rate calibrated against CLOCK_MONOTONIC over the
 * whole run (a long baseline makes the rate exact to a few ppm). */
#ifndef PP_TIMER_H
#define PP_TIMER_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define PP_TIMER_HAVE_TSC 1
#else
#define PP_TIMER_HAVE_TSC 0
#endif

typedef enum { PP_TIMER_AUTO = 0, PP_TIMER_TSC, PP_TIMER_CLOCK } pp_timer_kind;

extern int pp_timer_use_tsc_;

static inline uint64_t pp_timer_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether the time-stamp counter is the source, and a read of it: the
 * event path tests the source first, so that its common case (the TSC)
 * makes no call and needs no stack frame. */
static inline int pp_timer_is_tsc(void)
{
#if PP_TIMER_HAVE_TSC
    return pp_timer_use_tsc_;
#else
    return 0;
#endif
}

static inline uint64_t pp_timer_tsc(void)
{
#if PP_TIMER_HAVE_TSC
    return __rdtsc();
#else
    return pp_timer_clock_ns();
#endif
}

/* Current time in ticks of the selected source. */
static inline uint64_t pp_timer_now(void)
{
#if PP_TIMER_HAVE_TSC
    if (pp_timer_use_tsc_)
        return __rdtsc();
#endif
    return pp_timer_clock_ns();
}

/* Choose the source (AUTO: TSC when invariant, else the clock) and take the
 * first calibration point.  Returns the kind actually in use. */
pp_timer_kind pp_timer_init(pp_timer_kind wanted);

/* Ticks per second; refined on every call from the calibration start to now. */
double pp_timer_ticks_per_second(void);

/* Name of the source in use, for the profile's attributes. */
const char *pp_timer_name(void);

#endif
