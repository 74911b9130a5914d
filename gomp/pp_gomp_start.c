/* The interposer's start and end.
 *
 * At library start every libgomp entry point the interposer defines is
 * resolved once (dlsym(RTLD_NEXT): the definition after this preloaded
 * library, libgomp's; the lock routines at their default version).  The
 * interposer measures when libgomp is in the process, POMPPROF_ENABLE is
 * not 0 and the program is not built with the pompprof wrapper (then OPARI2
 * measures it, once; one line says so).  It starts its own copy of the
 * engine then (this library's engine does not start from a constructor of
 * its own: pp_profile_ctor_off), with the run fact event_source "gomp".
 * Without libgomp at start it waits: a libgomp the program opens later
 * (dlopen, often local to a plugin) is found through its own handle, and
 * the first entry point reached starts measuring (pp_gomp_start_late).
 *
 * At the end: every worker's last team closed where the team ended, then
 * every construct named (callsite/); a run in which no construct ran and no
 * lock routine was called writes no profile and says so in one line. */
#define _GNU_SOURCE
#include "gomp/pp_gomp_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/pp_config.h"
#include "lib/pp_message.h"
#include "profile/pp_profile_runfacts.h"

/* The engine in this library starts when the interposer does
 * (profile/pp_profile_ctor.c). */
__attribute__((visibility("hidden"))) const int pp_profile_ctor_off = 1;

pp_gomp_real_table pp_gomp_real;
uintptr_t pp_gomp_text_lo, pp_gomp_text_size;
bool pp_gomp_on;
bool pp_gomp_measured;
unsigned pp_gomp_unmeasured; /* target and teams regions met (not measured) */

/* The OpenMP runtimes in the process, by the paths of their files: libgomp,
 * also a copy of it under another name (Python wheels bundle one as
 * libgomp-<hash>.so.1), and LLVM's libomp, which defines the lock routines
 * and GOMP_ names too. */
typedef struct pp_gomp_runtimes {
    char gomp[PATH_MAX], omp[PATH_MAX];
} pp_gomp_runtimes;

static int pp_gomp_runtime_of(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    pp_gomp_runtimes *r = data;
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    bool gomp = strncmp(base, "libgomp", 7) == 0 && (base[7] == '.' || base[7] == '-') &&
                strncmp(base, "libgomp-plugin", 14) != 0; /* (its offload plugins) */
    bool omp = strncmp(base, "libomp.so", 9) == 0 || strncmp(base, "libiomp5.so", 11) == 0;
    char *slot = gomp ? r->gomp : omp ? r->omp : NULL;
    if (slot && !slot[0])
        snprintf(slot, PATH_MAX, "%s", info->dlpi_name);
    return 0;
}

/* The runtimes in the process now, from the loader's list of objects. */
static void pp_gomp_runtimes_find(pp_gomp_runtimes *r)
{
    r->gomp[0] = r->omp[0] = '\0';
    dl_iterate_phdr(pp_gomp_runtime_of, r);
}

/* The OpenMP runtime in the process, linked or opened later (dlopen, often
 * RTLD_LOCAL: out of RTLD_NEXT's reach): libgomp, else libomp; NULL when
 * none is loaded.  A reference the caller gives back (dlclose). */
static void *pp_gomp_runtime_handle(void)
{
    pp_gomp_runtimes r;
    pp_gomp_runtimes_find(&r);
    const char *path = r.gomp[0] ? r.gomp : r.omp[0] ? r.omp : NULL;
    return path ? dlopen(path, RTLD_LAZY | RTLD_NOLOAD) : NULL;
}

static void *pp_gomp_find(void *where, const char *name, const char *version)
{
    void *p = version ? dlvsym(where, name, version) : NULL;
    return p ? p : dlsym(where, name);
}

void pp_gomp_resolve(void)
{
    void *later = NULL;
    bool looked = false;
#define PP_GOMP_ENTRY(ret, name, params, version)                                              \
    {                                                                                          \
        void *p = pp_gomp_find(RTLD_NEXT, #name, version);                                     \
        if (!p && !looked) {                                                                   \
            later = pp_gomp_runtime_handle();                                                  \
            looked = true;                                                                     \
        }                                                                                      \
        if (!p && later)                                                                       \
            p = pp_gomp_find(later, #name, version);                                           \
        __atomic_store_n((void **)&pp_gomp_real.name, p, __ATOMIC_RELAXED);                   \
    }
#include "gomp/pp_gomp_entries.h"
#undef PP_GOMP_ENTRY
    if (later)
        dlclose(later);
}

/* The executable segment of this library holding addr. */
static int pp_gomp_find_text(struct dl_phdr_info *info, size_t size, void *addr)
{
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && (uintptr_t)addr - lo < ph->p_memsz) {
            pp_gomp_text_lo = lo;
            pp_gomp_text_size = ph->p_memsz;
            return 1;
        }
    }
    return 0;
}

/* At exit, before the engine's own handler writes the profile: a run that
 * measured nothing writes none, and says why. */
static void pp_gomp_atexit(void)
{
    pp_gomp_run_flush(&pp_gomp_mine); /* exit() called inside a task */
    pp_callsite_unmeasured_run(__atomic_load_n(&pp_gomp_measured, __ATOMIC_RELAXED),
                               __atomic_load_n(&pp_gomp_unmeasured, __ATOMIC_RELAXED));
}

/* Measuring starts: the engine, the end's hooks, then the entry points. */
static void pp_gomp_measure(void)
{
    dl_iterate_phdr(pp_gomp_find_text, (void *)(uintptr_t)pp_gomp_find_text);
    pp_profile_runfacts_set_source("gomp");
    pp_profile_init();
    pp_gomp_lock_define_regions();
    /* the workers' last teams closed first, then every region named */
    pp_gomp_thread_start();
    if (pp_profile_at_end(pp_gomp_held_at_end) != 0 ||
        pp_profile_at_end(pp_gomp_close_ended_teams) != 0 ||
        pp_profile_at_end(pp_callsite_names_finalize) != 0)
        pp_message_warn("no room for the interposer's end hooks: regions keep their addresses "
                        "as names");
    atexit(pp_gomp_atexit); /* after the engine's handler: runs before it */
    /* the trampolines read the clock the engine's fast paths read */
    pp_gomp_run_hold = pp_config_get()->n_metrics == 0 && (!PP_TIMER_HAVE_TSC || pp_timer_is_tsc());
    __atomic_store_n(&pp_gomp_on, true, __ATOMIC_RELEASE);
}

/* Whether libgomp itself is in the process (LLVM's libomp defines GOMP_
 * names too: its programs are the OMPT tool's). */
static bool pp_gomp_libgomp_loaded(void)
{
    pp_gomp_runtimes r;
    pp_gomp_runtimes_find(&r);
    return r.gomp[0] != '\0';
}

/* libgomp is in the process: measure, unless OPARI2 does. */
static void pp_gomp_decide(void)
{
    if (!pp_callsite_opari2_measures("the libgomp interposer", true))
        pp_gomp_measure();
}

bool pp_gomp_waiting;

bool pp_gomp_start_late(void)
{
    static int state; /* 0: waiting, 1: starting (another thread), 2: decided */
    int waiting = 0;
    if (__atomic_compare_exchange_n(&state, &waiting, 1, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        /* one decision, at the first entry: an entry reached without
         * libgomp (a lock routine of a plugin on libomp) ends the wait */
        pp_gomp_resolve();
        if (pp_gomp_libgomp_loaded())
            pp_gomp_decide();
        __atomic_store_n(&pp_gomp_waiting, false, __ATOMIC_RELEASE);
        __atomic_store_n(&state, 2, __ATOMIC_RELEASE);
    } else {
        /* another thread decides: wait for it, so that this thread's
         * construct (two threads' first parallel regions at once) is
         * measured whole or not at all, as the other's */
        while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2)
            sched_yield();
    }
    return __atomic_load_n(&pp_gomp_on, __ATOMIC_ACQUIRE);
}

/* The process `pompprof run` started had no libgomp at its start and never
 * measured: it says so at its end, as the launcher cannot know before (the
 * program may load it). */
static void pp_gomp_never_loaded(void)
{
    pp_gomp_runtimes r;
    pp_gomp_runtimes_find(&r);
    if (__atomic_load_n(&pp_gomp_on, __ATOMIC_ACQUIRE) || r.gomp[0])
        return; /* measured (the engine's end speaks), or OPARI2 measures */
    if (r.omp[0]) {
        pp_message_warn("nothing measured: %s loaded LLVM's libomp after its start, which "
                        "pompprof run measures only in a program that links it; no profile "
                        "written",
                        program_invocation_short_name);
        return;
    }
    pp_message_warn("nothing measured: %s loaded no OpenMP runtime (libgomp or libomp); it ran "
                    "unmeasured",
                    program_invocation_short_name);
}

__attribute__((constructor)) static void pp_gomp_start(void)
{
    pp_gomp_resolve();
    if (!pp_config_get()->enable)
        return; /* POMPPROF_ENABLE=0: every entry goes straight to libgomp */
    if (!pp_gomp_libgomp_loaded()) {
        /* no libgomp yet: a process that loads it later is measured from
         * its first OpenMP call on */
        __atomic_store_n(&pp_gomp_waiting, true, __ATOMIC_RELEASE);
        const char *launched = getenv("POMPPROF_RUN_PID");
        if (launched && strtol(launched, NULL, 10) == (long)getpid())
            atexit(pp_gomp_never_loaded);
        return;
    }
    pp_gomp_decide();
}
