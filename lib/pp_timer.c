#include "lib/pp_timer.h"

#include <stdio.h>
#include <string.h>

int pp_timer_use_tsc_;

static uint64_t pp_timer_base_ticks;
static uint64_t pp_timer_base_ns;
static double pp_timer_short_rate = 1e9;

/* The kernel knows whether the TSC keeps a constant rate across frequency
 * changes and sleep states; trust it only when both flags are present. */
static int pp_timer_tsc_is_invariant(void)
{
#if PP_TIMER_HAVE_TSC
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[4096];
    int ok = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) == 0) {
            ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    }
    fclose(f);
    return ok;
#else
    return 0;
#endif
}

pp_timer_kind pp_timer_init(pp_timer_kind wanted)
{
    int tsc = 0;
    if (wanted == PP_TIMER_TSC)
        tsc = PP_TIMER_HAVE_TSC;
    else if (wanted == PP_TIMER_AUTO)
        tsc = pp_timer_tsc_is_invariant();
    pp_timer_use_tsc_ = tsc;
    pp_timer_base_ns = pp_timer_clock_ns();
    pp_timer_base_ticks = pp_timer_now();
    if (tsc) {
        /* A 2 ms spin gives a usable rate for runs too short to calibrate
         * over their own length. */
        uint64_t ns0 = pp_timer_clock_ns(), t0 = pp_timer_now(), ns1;
        do
            ns1 = pp_timer_clock_ns();
        while (ns1 - ns0 < 2000000u);
        pp_timer_short_rate = (double)(pp_timer_now() - t0) * 1e9 / (double)(ns1 - ns0);
    } else {
        pp_timer_short_rate = 1e9;
    }
    return tsc ? PP_TIMER_TSC : PP_TIMER_CLOCK;
}

double pp_timer_ticks_per_second(void)
{
    if (!pp_timer_use_tsc_)
        return 1e9;
    uint64_t ns = pp_timer_clock_ns();
    uint64_t ticks = pp_timer_now();
    if (ns - pp_timer_base_ns < 100000000u) /* under 0.1 s: keep the spin rate */
        return pp_timer_short_rate;
    return (double)(ticks - pp_timer_base_ticks) * 1e9 / (double)(ns - pp_timer_base_ns);
}

const char *pp_timer_name(void)
{
    return pp_timer_use_tsc_ ? "tsc" : "clock";
}
