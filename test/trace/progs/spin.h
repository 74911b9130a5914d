/* Busy-waiting for a known time (the ground-truth programs' "work"): spins
 * until a deadline, so the time is spent in the task, on its thread.
 *
 * On a loaded machine a thread can be descheduled just before its deadline
 * and spin longer than asked, so the programs also measure what their spins
 * really took and, when GT_REPORT names a file, write "key value" lines
 * there: the tests compare the trace with those figures (and with the
 * nominal ones when the machine let the spins keep time). */
#ifndef TRACE_SPIN_H
#define TRACE_SPIN_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double spin_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Returns how long it really spun. */
static double spin(double seconds)
{
    double start = spin_now(), end = start + seconds, t;
    while ((t = spin_now()) < end)
        ;
    return t - start;
}

static void report(const char *key, double value)
{
    const char *path = getenv("GT_REPORT");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (f) {
        fprintf(f, "%s %.9f\n", key, value);
        fclose(f);
    }
}

#endif
