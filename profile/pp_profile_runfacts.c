/* Run facts: what a reader of a profile or trace needs to know whether two
 * runs belong together and whether this one is complete -- host, cores
 * online, the OMP_*, GOMP_*, KMP_* and POMPPROF_* settings, the pompprof version, how
 * the run ended (normally, exit() with a parallel region open, or cut by a
 * signal), and the event source that measured it.  The profile stores them as CUBE4 attributes (pompprof::<key>),
 * the trace as OTF2 archive properties (POMPPROF::<KEY>); doc/cube4-layout.md
 * lists them.  Collected once at the end, off the event path. */
#define _GNU_SOURCE
#include "profile/pp_profile_internal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/pp_message.h"
#include "lib/pp_signals.h"
#include "profile/pp_profile_runfacts.h"

extern char **environ;

/* What the run's end and the event sources tell.  The lock guards the
 * sources' facts only: the rest is written by the end (note_end, note_busy,
 * note_barrier) or once at start (set_source), before it is read. */
static struct {
    char end[96];
    const char *source;
    char threads[24];
    const char *barrier;
    /* the threads finalize gave up waiting for, by index ("2 5"), "" for none */
    char busy[256];
    pthread_mutex_t lock;
    /* the event sources' facts (pp_profile_runfacts_set) */
    char *keys[PP_RUNFACTS_SET], *values[PP_RUNFACTS_SET];
} pp_runfacts = {.source = "opari2", .lock = PTHREAD_MUTEX_INITIALIZER};

int pp_profile_runfacts_set(const char *key, const char *value)
{
    int rc = -1;
    pthread_mutex_lock(&pp_runfacts.lock);
    for (int i = 0; i < PP_RUNFACTS_SET; i++) {
        if (pp_runfacts.keys[i] && strcmp(pp_runfacts.keys[i], key) != 0)
            continue;
        char *v = strdup(value), *k = pp_runfacts.keys[i] ? pp_runfacts.keys[i] : strdup(key);
        if (v && k) {
            free(pp_runfacts.values[i]);
            pp_runfacts.keys[i] = k, pp_runfacts.values[i] = v;
            rc = 0;
        } else {
            free(v);
            if (k != pp_runfacts.keys[i])
                free(k);
        }
        break;
    }
    pthread_mutex_unlock(&pp_runfacts.lock);
    return rc;
}

/* "SIGTERM" for 15 (sigabbrev_np is glibc 2.32+; Debian 12 has 2.36) */
static void pp_runfacts_signal_name(int sig, char *buf, size_t size)
{
    const char *abbrev = sigabbrev_np(sig);
    if (abbrev)
        snprintf(buf, size, "SIG%s", abbrev);
    else
        snprintf(buf, size, "signal %d", sig);
}

void pp_profile_runfacts_set_source(const char *source)
{
    if (source)
        pp_runfacts.source = source;
}

long pp_profile_runfacts_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

void pp_profile_runfacts_note_end(void)
{
    int sig = pp_signals_caught(), crash = pp_signals_crashed();
    const pp_location *master = pp_profile_g.first;
    if (crash) {
        /* the write runs on the signal thread while the crashed thread waits */
        char name[32];
        pp_runfacts_signal_name(crash, name, sizeof name);
        snprintf(pp_runfacts.end, sizeof pp_runfacts.end, "crash: signal %s", name);
    } else if (sig) {
        char name[32];
        pp_runfacts_signal_name(sig, name, sizeof name);
        snprintf(pp_runfacts.end, sizeof pp_runfacts.end, "signal %s", name);
    } else if (master && master->implicit && master->implicit != &master->initial) {
        /* the master is still inside a team: exit() (or a write of the
         * profile) before the parallel region ended */
        snprintf(pp_runfacts.end, sizeof pp_runfacts.end, "exit inside a parallel region");
    } else {
        snprintf(pp_runfacts.end, sizeof pp_runfacts.end, "normal");
    }
    snprintf(pp_runfacts.threads, sizeof pp_runfacts.threads, "%u",
             (unsigned)pp_profile_g.n_locations);
    long cores = pp_profile_runfacts_cores();
    /* at POMPPROF_VERBOSE=1: a default run prints nothing of ours on the
     * program's stderr; the profile holds threads and cores, and the tools
     * flag the oversubscription */
    if (pp_profile_g.n_locations > (unsigned long)cores)
        pp_message_verbose(1, "%u threads ran on %ld core%s online (oversubscribed): their times include "
                        "waiting for a core",
                        (unsigned)pp_profile_g.n_locations, cores, cores == 1 ? "" : "s");
}

void pp_profile_runfacts_note_barrier(const char *method)
{
    pp_runfacts.barrier = method;
}

void pp_profile_runfacts_note_busy(void)
{
    size_t k = 0;
    pp_runfacts.busy[0] = '\0';
    for (const pp_location *l = pp_profile_g.first; l; l = l->next)
        if (l->busy_at_end && k < sizeof pp_runfacts.busy - 12)
            k += (size_t)snprintf(pp_runfacts.busy + k, sizeof pp_runfacts.busy - k, "%s%u",
                                  k ? " " : "", (unsigned)l->index);
    if (k)
        pp_message_verbose(1, "thread%s %s still inside an event after the wait at the end: "
                              "left out of the profile",
                           strchr(pp_runfacts.busy, ' ') ? "s" : "", pp_runfacts.busy);
}

static int pp_runfacts_wanted(const char *entry)
{
    return (!strncmp(entry, "OMP_", 4) || !strncmp(entry, "POMPPROF_", 9) ||
            !strncmp(entry, "GOMP_", 5) || !strncmp(entry, "KMP_", 4)) &&
           strchr(entry, '=');
}

int pp_profile_runfacts_each(pp_profile_runfacts_fn fn, void *user)
{
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "unknown");
    char cores[24];
    snprintf(cores, sizeof cores, "%ld", pp_profile_runfacts_cores());
    int rc = 0;
    rc |= fn(user, "version", PACKAGE_VERSION);
    rc |= fn(user, "host", host);
    rc |= fn(user, "cores_online", cores);
    rc |= fn(user, "threads", pp_runfacts.threads[0] ? pp_runfacts.threads : "0");
    rc |= fn(user, "end", pp_runfacts.end[0] ? pp_runfacts.end : "normal");
    rc |= fn(user, "event_source", pp_runfacts.source);
    pthread_mutex_lock(&pp_runfacts.lock);
    for (int i = 0; i < PP_RUNFACTS_SET && pp_runfacts.keys[i]; i++)
        rc |= fn(user, pp_runfacts.keys[i], pp_runfacts.values[i]);
    pthread_mutex_unlock(&pp_runfacts.lock);
    if (pp_runfacts.barrier)
        rc |= fn(user, "end_barrier", pp_runfacts.barrier);
    if (pp_runfacts.busy[0])
        rc |= fn(user, "busy_threads", pp_runfacts.busy);
    /* the settings, in the order of the environment */
    for (char **e = environ; e && *e; e++) {
        if (!pp_runfacts_wanted(*e))
            continue;
        const char *eq = strchr(*e, '=');
        char key[160];
        if ((size_t)(eq - *e) >= sizeof key - 6)
            continue;
        snprintf(key, sizeof key, "env::%.*s", (int)(eq - *e), *e);
        rc |= fn(user, key, eq + 1);
    }
    return rc;
}

void pp_profile_runfacts_reset(void)
{
    pp_runfacts.end[0] = '\0';
    pp_runfacts.threads[0] = '\0';
    pp_runfacts.barrier = NULL;
    pp_runfacts.busy[0] = '\0';
}
