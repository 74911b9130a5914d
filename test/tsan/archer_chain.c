/* The OpenMP tool of make check-tsan's OMPT runs: LLVM's Archer first,
 * pompprof's OMPT tool chained behind it.
 *
 * ThreadSanitizer does not see the OpenMP runtime's synchronisation (libomp
 * is not instrumented); Archer (libarcher.so) tells it through OMPT, and
 * pompprof's OMPT mode is an OMPT tool too, while a runtime loads one tool.
 * Archer chains no other tool (its ompt_start_tool returns only its own
 * callbacks), so this tool loads both, through LLVM's ompt-multiplex.h
 * (installed with libomp-14-dev): its own part is Archer, the client is the
 * library PP_TSAN_CHAINED_TOOL names (libpompprof_ompt.so).  The multiplexer
 * calls the own tool first at every event, so Archer's happens-before marks
 * of a task's or a barrier's begin precede pompprof's callbacks there.
 * Built without ThreadSanitizer: the multiplexer's own bookkeeping (a pair
 * of data words per task, read before Archer's marks) is not the program's. */
#define CLIENT_TOOL_LIBRARIES_VAR "PP_TSAN_CHAINED_TOOL"
#define CLIENT_TOOL_VERBOSE_INIT_VAR "PP_TSAN_CHAINED_VERBOSE"
#include <ompt-multiplex.h>

#include <dlfcn.h>
#include <unistd.h>

#ifndef PP_ARCHER_LIBRARY
#define PP_ARCHER_LIBRARY "/usr/lib/llvm-14/lib/libarcher.so"
#endif

/* ompt-multiplex.h renames this to the own tool's start */
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    const char *path = getenv("PP_TSAN_ARCHER");
    void *archer = dlopen(path && *path ? path : PP_ARCHER_LIBRARY, RTLD_LAZY | RTLD_LOCAL);
    ompt_start_tool_result_t *(*start)(unsigned int, const char *) =
        archer ? (ompt_start_tool_result_t * (*)(unsigned int, const char *))
                     dlsym(archer, "ompt_start_tool")
               : NULL;
    ompt_start_tool_result_t *r = start ? start(omp_version, runtime_version) : NULL;
    if (!r) {
        /* the multiplexer calls the own tool's initialize unconditionally:
         * without Archer the run cannot be checked, so it stops here */
        fprintf(stderr, "archer_chain: %s cannot be started (%s)\n",
                path && *path ? path : PP_ARCHER_LIBRARY, archer ? "no TSan?" : dlerror());
        _exit(99);
    }
    return r;
}
