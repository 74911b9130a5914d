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
 *
 * At the end: every worker's last team closed where the team ended, then
 * every construct named (callsite/); a run in which no construct ran and no
 * lock routine was called writes no profile and says so in one line. */
#define _GNU_SOURCE
#include "gomp/pp_gomp_internal.h"

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>

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

void pp_gomp_resolve(void)
{
#define PP_GOMP_ENTRY(ret, name, params, version)                                              \
    {                                                                                          \
        void *p = (version) ? dlvsym(RTLD_NEXT, #name, (version) ? (version) : "") : NULL;     \
        if (!p)                                                                                \
            p = dlsym(RTLD_NEXT, #name);                                                       \
        __atomic_store_n((void **)&pp_gomp_real.name, p, __ATOMIC_RELAXED);                   \
    }
#include "gomp/pp_gomp_entries.h"
#undef PP_GOMP_ENTRY
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

__attribute__((constructor)) static void pp_gomp_start(void)
{
    pp_gomp_resolve();
    if (!pp_gomp_real.GOMP_parallel)
        return; /* no libgomp in this process (a child the program started) */
    if (!pp_config_get()->enable)
        return; /* POMPPROF_ENABLE=0: every entry goes straight to libgomp */
    /* libpompprof's POMP2 layer is linked in: OPARI2 measures this program */
    if (dlsym(RTLD_DEFAULT, "POMP2_Parallel_fork")) {
        pp_message_warn("this program is instrumented with OPARI2 (it calls libpompprof): it is "
                        "measured by OPARI2 only, the libgomp interposer stays off");
        return;
    }
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
