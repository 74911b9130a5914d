/* The function event source's common part (pp_functions_internal.h): the
 * run-time filter, regions, and the start. */
#include "functions/pp_functions_internal.h"

#include "lib/pp_config.h"
#include "lib/pp_message.h"
#include "profile/pp_profile.h"
#include "profile/pp_profile_runfacts.h"

pthread_mutex_t pp_functions_lock = PTHREAD_MUTEX_INITIALIZER;

/* POMPPROF_FILTER, read once (under the lock) and kept to the end. */
static int pp_functions_filter_state; /* 0: not read yet, 1: read */
static pp_filter *pp_functions_run_filter;

static const pp_filter *pp_functions_filter(void)
{
    if (pp_functions_filter_state)
        return pp_functions_run_filter;
    pp_functions_filter_state = 1;
    const char *path = pp_config_get()->filter;
    if (!path || !*path)
        return NULL;
    char err[1200];
    pp_functions_run_filter = pp_filter_load(path, err, sizeof err);
    if (!pp_functions_run_filter)
        pp_message_warn("POMPPROF_FILTER: %s; all instrumented functions are measured", err);
    return pp_functions_run_filter;
}

uint32_t pp_functions_define(const char *name, const char *mangled, const char *file, int line,
                             int end_line)
{
    if (pp_filter_never(name, file) ||
        pp_filter_excludes(pp_functions_filter(), name, mangled, file))
        return 0;
    /* the program's region (0) first: no function ever gets id 0 */
    pp_profile_init();
    pp_region_def def = {.name = name, .file = file && *file ? file : NULL,
                         .begin_line = line, .end_line = end_line, .paradigm = "compiler",
                         .role = "function", .mangled = mangled && *mangled ? mangled : NULL};
    pp_region_id r = pp_profile_region_define(&def);
    if (r == PP_REGION_INVALID || r == 0) {
        PP_WARN_ONCE("functions: no region for %s (out of memory?); it is not measured "
                     "(reported once)", name);
        return 0;
    }
    return r;
}

void pp_functions_note_kind(unsigned kind)
{
    static unsigned kinds;
    if ((kinds | kind) == kinds)
        return;
    kinds |= kind;
    pp_profile_runfacts_set("functions", kinds == (PP_FUNCTIONS_PLUGIN | PP_FUNCTIONS_ADDRESS)
                                             ? "gcc-plugin, instrument-functions"
                                         : kinds == PP_FUNCTIONS_PLUGIN ? "gcc-plugin"
                                                                        : "instrument-functions");
}

/* Before the program's constructors (libpompprof is initialised before the
 * modules that depend on it): the -finstrument-functions table. */
__attribute__((constructor)) static void pp_functions_start(void)
{
    pp_functions_address_start();
}
