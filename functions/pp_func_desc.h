/* pp_func_desc: what pompprof's GCC plugin (gcc-plugin/) puts into a
 * program for every function it instruments, and the three calls it
 * inserts -- the interface between the plugin and libpompprof
 * (doc/functions.md, "How").
 *
 * Per instrumented function the plugin emits one static descriptor with
 * its name, link name, file and lines (known at compile time), and at the
 * function's entry and at every exit (also by an exception) a call with the
 * descriptor's address:
 *
 *     __pompprof_func_enter(&desc);  ...  __pompprof_func_exit(&desc);
 *
 * The unit's descriptors are chained (each names the one made before it),
 * and the unit gets a constructor (priority 101, before its own
 * constructors) that registers the chain: __pompprof_func_register(last).  Registration (not
 * an event: it runs where constructors run, also in dlopen) defines each
 * function's region and stores its id in the descriptor, so that the
 * events read it and look nothing up.
 *
 * The plugin builds the same layout field by field (gcc-plugin/
 * pp_plugin_desc.cc); PP_FUNC_DESC_VERSION changes with it. */
#ifndef PP_FUNC_DESC_H
#define PP_FUNC_DESC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PP_FUNC_DESC_VERSION 1u

typedef struct pp_func_desc {
    /* the function's engine region; 0 while it is not measured (not
     * registered yet, or left out by POMPPROF_FILTER): region 0 is the
     * program's own, never a function's */
    uint32_t region;
    uint32_t version;    /* PP_FUNC_DESC_VERSION of the plugin that wrote it */
    const struct pp_func_desc *next; /* the unit's descriptor made before this one */
    const char *name;    /* as the source names it (C++ demangled, Fortran module::name) */
    const char *mangled; /* the link name; "" when it is the name */
    const char *file;    /* absolute path of the declaring file */
    int32_t line;        /* declaring line */
    int32_t end_line;    /* the closing line; -1 when unknown */
} pp_func_desc;

void __pompprof_func_enter(pp_func_desc *desc);
void __pompprof_func_exit(pp_func_desc *desc);
void __pompprof_func_register(pp_func_desc *last);

#ifdef __cplusplus
}
#endif

#endif
