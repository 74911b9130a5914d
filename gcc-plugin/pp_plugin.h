/* pompprof's GCC plugin (doc/functions.md, "How"): the functions of a unit
 * built with `pompprof --functions gcc|g++|gfortran`, instrumented with
 * calls that carry their descriptor (functions/pp_func_desc.h), and the
 * filter file applied exactly at build time, by each function's name, link
 * name and file.
 *
 * GCC calls it through one GIMPLE pass per function, placed where GCC's own
 * -finstrument-functions works (right after gimplification, before OpenMP
 * lowering: the calls stay around the function that holds a task
 * construct, not around the outlined task body), and once at the start of
 * the unit's IPA passes, when every function has been seen: there it adds
 * the unit's registration. */
#ifndef PP_PLUGIN_H
#define PP_PLUGIN_H

#include "gcc-plugin.h"
#include "tree.h"
#include "tree-pass.h"

#include "functions/pp_filter.h"

/* What a function is called and where it is (strings owned by the struct). */
struct pp_plugin_function {
    char *name;    /* as the profile shows it: C++ demangled, Fortran module::name */
    char *mangled; /* the link name, "" when it is the name */
    char *file;    /* absolute path of the declaring file */
    int line, end_line;
};

/* The build-time filter (-fplugin-arg-pompprof_gcc-filter=FILE), NULL: none. */
extern pp_filter *pp_plugin_filter;
/* -fplugin-arg-pompprof_gcc-verbose: one line per function on stderr. */
extern bool pp_plugin_verbose;

/* Fill f for fndecl (pp_plugin_names.cc); pp_plugin_function_free frees it. */
void pp_plugin_function_of(tree fndecl, pp_plugin_function *f);
void pp_plugin_function_free(pp_plugin_function *f);

/* The descriptor of a function to instrument, emitted into the unit
 * (pp_plugin_desc.cc): its address, to pass to the calls. */
tree pp_plugin_desc_new(const pp_plugin_function *f);
/* The declarations of __pompprof_func_enter and __pompprof_func_exit. */
tree pp_plugin_enter_decl(void);
tree pp_plugin_exit_decl(void);
/* The constructor that registers the unit's chain of descriptors (nothing
 * when the unit instruments no function). */
void pp_plugin_desc_register_unit(void);

/* What GCC's garbage collector must keep of pp_plugin_desc.cc's trees. */
const struct ggc_root_tab *pp_plugin_desc_roots(void);

/* The pass (pp_plugin_pass.cc). */
opt_pass *pp_plugin_make_pass(gcc::context *ctxt);

#endif
