/* The pass: which functions are instrumented, and the instrumentation --
 * as GCC's -finstrument-functions does it (a call at the entry, the body
 * in a try/finally whose cleanup calls the exit, so that every return and
 * an exception leaving the function call it), with the descriptor's
 * address in place of the function's. */
#include "pp_plugin.h"

#include <stdio.h>
#include <string.h>

#include "stringpool.h"
#include "attribs.h"
#include "cgraph.h"
#include "function.h"
#include "gimple.h"
#include "gimple-expr.h"
#include "langhooks.h"

/* Why a function is not instrumented (NULL: it is).  Functions the
 * compiler made are, as with -finstrument-functions (a lambda's call
 * operator, implicit constructors), but for the unit's constructors and
 * destructors, outlined pieces (name.part.0; OpenMP bodies are outlined
 * after this pass anyway) and gfortran's main, which calls the program. */
static const char *pp_plugin_left_out(tree fndecl, const pp_plugin_function *f)
{
    const char *link = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl));
    if (DECL_ARTIFICIAL(fndecl) && (DECL_STATIC_CONSTRUCTOR(fndecl) || DECL_STATIC_DESTRUCTOR(fndecl)))
        return "the unit's constructor or destructor";
    if (DECL_ARTIFICIAL(fndecl) && strchr(link, '.'))
        return "outlined by the compiler";
    /* (a Fortran procedure called main links as main_) */
    if (strcmp(link, "main") == 0 && strncmp(lang_hooks.name, "GNU Fortran", 11) == 0)
        return "gfortran's main, which calls the program";
    /* the attribute: GCC's flag says only whether -finstrument-functions is on */
    if (lookup_attribute("no_instrument_function", DECL_ATTRIBUTES(fndecl)))
        return "no_instrument_function";
    if (lookup_attribute("naked", DECL_ATTRIBUTES(fndecl)))
        return "naked";
    /* as -finstrument-functions: an extern inline function that is always inlined */
    if (DECL_DECLARED_INLINE_P(fndecl) && DECL_EXTERNAL(fndecl) &&
        DECL_DISREGARD_INLINE_LIMITS(fndecl))
        return "extern inline";
    if (in_system_header_at(DECL_SOURCE_LOCATION(fndecl)))
        return "system header";
    if (pp_filter_never(f->name, f->file))
        return "pompprof's own";
    if (pp_filter_excludes(pp_plugin_filter, f->name, f->mangled, f->file))
        return "filter";
    return NULL;
}

static void pp_plugin_instrument(tree fndecl, tree desc)
{
    location_t begin = DECL_SOURCE_LOCATION(fndecl);
    location_t end = cfun->function_end_locus;
    gcall *enter = gimple_build_call(pp_plugin_enter_decl(), 1, desc);
    gimple_set_location(enter, begin);
    gcall *exit = gimple_build_call(pp_plugin_exit_decl(), 1, desc);
    gimple_set_location(exit, end != UNKNOWN_LOCATION ? end : begin);
    gimple_seq cleanup = NULL;
    gimple_seq_add_stmt(&cleanup, exit);
    gimple_seq seq = NULL;
    gimple_seq_add_stmt(&seq, enter);
    gimple_seq_add_stmt(&seq, gimple_build_try(gimple_body(fndecl), cleanup, GIMPLE_TRY_FINALLY));
    gimple_set_body(fndecl, gimple_build_bind(NULL_TREE, seq, NULL_TREE));
}

static const pass_data pp_plugin_pass_data = {
    GIMPLE_PASS,     "pompprof_functions", OPTGROUP_NONE, TV_NONE, PROP_gimple_any, 0, 0, 0, 0,
};

class pp_plugin_pass : public gimple_opt_pass
{
  public:
    pp_plugin_pass(gcc::context *ctxt) : gimple_opt_pass(pp_plugin_pass_data, ctxt)
    {
    }

    unsigned int execute(function *fn) override
    {
        tree fndecl = fn->decl;
        if (!gimple_body(fndecl))
            return 0;
        pp_plugin_function f;
        pp_plugin_function_of(fndecl, &f);
        const char *why = pp_plugin_left_out(fndecl, &f);
        if (pp_plugin_verbose)
            fprintf(stderr, "pompprof: plugin: %s %s (%s:%d-%d)%s%s\n",
                    why ? "leaves out" : "instruments", f.name, f.file, f.line, f.end_line,
                    why ? ": " : "", why ? why : "");
        if (!why)
            pp_plugin_instrument(fndecl, pp_plugin_desc_new(&f));
        pp_plugin_function_free(&f);
        return 0;
    }
};

opt_pass *pp_plugin_make_pass(gcc::context *ctxt)
{
    return new pp_plugin_pass(ctxt);
}
