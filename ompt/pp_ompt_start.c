/* The OMPT tool's entry: ompt_start_tool, initialize, finalize.
 *
 * The runtime (libomp) calls ompt_start_tool when OMP_TOOL_LIBRARIES names
 * this library.  A program already measured by OPARI2 (linked with
 * libpompprof, whose POMP2 layer then receives its events) is measured once,
 * by OPARI2: the tool says so in one line and stays off.  Otherwise the
 * engine starts here (this library's copy of it does not start from a
 * constructor: pp_profile_ctor_off), the callbacks are registered, and the
 * regions get their names at the end (callsite/pp_callsite_names.c). */
#define _GNU_SOURCE
#include "ompt/pp_ompt_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/pp_config.h"
#include "lib/pp_message.h"
#include "profile/pp_profile_job.h"
#include "profile/pp_profile_runfacts.h"

/* The engine in this library starts when the tool does (profile/pp_profile_ctor.c). */
__attribute__((visibility("hidden"))) const int pp_profile_ctor_off = 1;

void pp_ompt_want(ompt_set_callback_t set, ompt_callbacks_t which, ompt_callback_t fn,
                  const char *name, const char **missing, int *n_missing)
{
    int r = set(which, fn);
    if (r == ompt_set_never || r == ompt_set_error)
        missing[(*n_missing)++] = name;
}

void pp_ompt_register(ompt_set_callback_t set)
{
    const char *missing[32];
    int n = 0;
    pp_ompt_parallel_register(set, missing, &n);
    pp_ompt_task_register(set, missing, &n);
    pp_ompt_mutex_register(set, missing, &n);
    if (n) {
        char list[512] = "";
        size_t len = 0;
        for (int i = 0; i < n && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                    missing[i]);
        pp_message_warn("the OpenMP runtime does not deliver these OMPT events: %s; what they "
                        "mark is not measured",
                        list);
    }
}

/* At exit, before the engine's own handler writes the profile: what the
 * exiting thread holds back (exit() inside an undeferred task's body: its
 * creation and begin) is recorded; a run that measured nothing writes none,
 * and says why. */
static void pp_ompt_atexit(void)
{
    pp_ompt_thread *t = pp_ompt_tls;
    if (t)
        pp_ompt_settle(t);
    pp_callsite_unmeasured_run(__atomic_load_n(&pp_ompt_locks_used, __ATOMIC_RELAXED),
                               __atomic_load_n(&pp_ompt_leagues, __ATOMIC_RELAXED));
}

static int pp_ompt_initialize(ompt_function_lookup_t lookup, int initial_device_num,
                              ompt_data_t *tool_data)
{
    (void)initial_device_num, (void)tool_data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (!set) {
        pp_message_warn("the OpenMP runtime offers no ompt_set_callback; nothing is measured");
        return 0;
    }
    pp_profile_runfacts_set_source("ompt");
    pp_profile_init();
    pp_ompt_callsite_init(lookup);
    pp_ompt_mutex_define_regions();
    /* what threads hold back recorded first, the workers' last teams closed
     * next, then every region named */
    if (pp_profile_at_end(pp_ompt_held_at_end) != 0 ||
        pp_profile_at_end(pp_ompt_close_ended_teams) != 0 ||
        pp_profile_at_end(pp_callsite_names_finalize) != 0)
        pp_message_warn("no room for the OMPT layer's end hook: regions keep their addresses as "
                        "names");
    pp_ompt_register(set);
    atexit(pp_ompt_atexit); /* after the engine's handler: runs before it */
    return 1;
}

static void pp_ompt_finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
    pp_profile_finalize();
}

/* Whether the runtime started the tool (it does so when it initializes). */
static bool pp_ompt_started;

/* A program on libomp that never initializes it (SIMD only, or no construct
 * at all) never starts the tool: nothing else would say that nothing was
 * measured.  `pompprof run` preloads this library for the program it runs,
 * with that process's id in POMPPROF_RUN_PID (the program replaces the
 * launcher: same process); its children, which inherit the environment,
 * are left alone. */
static void pp_ompt_never_started(void)
{
    if (!pp_ompt_started && pp_config_get()->enable && !pp_profile_in_job())
        pp_message_warn("nothing measured: %s ran no OpenMP construct (the OpenMP runtime never "
                        "started); no profile written",
                        program_invocation_short_name);
}

/* Whether the tool stays off: measurement disabled, or the program is
 * measured by OPARI2. */
static bool pp_ompt_declined(bool say)
{
    return !pp_config_get()->enable || pp_callsite_opari2_measures("the OMPT tool", say);
}

/* The engine started before the runtime starts the tool, for the MPI layer
 * (pp_profile_job.h: MPI_Init comes before the program's first construct). */
static bool pp_ompt_start_engine(void)
{
    if (pp_ompt_declined(false))
        return false;
    pp_profile_runfacts_set_source("ompt");
    pp_profile_init();
    return true;
}

__attribute__((constructor)) static void pp_ompt_loaded(void)
{
    pp_profile_set_starter(pp_ompt_start_engine);
    const char *launched = getenv("POMPPROF_RUN_PID");
    if (launched && strtol(launched, NULL, 10) == (long)getpid())
        atexit(pp_ompt_never_started);
}

__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version, (void)runtime_version;
    pp_ompt_started = true;
    static ompt_start_tool_result_t result = {pp_ompt_initialize, pp_ompt_finalize, {0}};
    /* (POMPPROF_ENABLE=0: no callback costs anything) */
    return pp_ompt_declined(true) ? NULL : &result;
}
