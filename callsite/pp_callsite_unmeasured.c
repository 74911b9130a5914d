/* Runs an event source leaves unmeasured (pp_callsite.h).
 *
 * A run that measured nothing: no construct met, nothing
 * else measured.  Such a run writes no profile (an empty one would look like
 * a measurement) and says why in one line: a program without OpenMP
 * constructs, or whose constructs all ran inside target or teams regions,
 * which pompprof does not measure.  A process of an MPI job measured its MPI
 * calls at least. */
#define _GNU_SOURCE
#include "callsite/pp_callsite.h"

#include <dlfcn.h>

#include "lib/pp_message.h"
#include "profile/pp_profile_job.h"

bool pp_callsite_unmeasured_run(bool other_events, unsigned unmeasured)
{
    if (pp_callsite_count() > 0 || other_events || pp_profile_in_job())
        return false; /* (a job's process: its MPI calls, written with the job's) */
    if (unmeasured)
        pp_message_warn("nothing measured: %s ran no OpenMP construct on the host outside "
                        "target and teams regions (%u ran, which pompprof does not measure); "
                        "no profile written",
                        pp_profile_program_name(), unmeasured);
    else
        pp_message_warn("nothing measured: %s ran no OpenMP construct; no profile written",
                        pp_profile_program_name());
    pp_profile_discard();
    return true;
}

bool pp_callsite_opari2_measures(const char *source, bool say)
{
    bool linked = dlsym(RTLD_DEFAULT, "POMP2_Parallel_fork") != NULL;
    void *lib = linked ? NULL : dlopen("libpompprof.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (lib)
        dlclose(lib);
    if ((linked || lib) && say)
        pp_message_warn("this program is instrumented with OPARI2 (it calls libpompprof): it is "
                        "measured by OPARI2 only, %s stays off",
                        source);
    return linked || lib;
}
