/* pompprof's GCC plugin: its arguments and how GCC calls it (pp_plugin.h).
 *
 *   gcc -fplugin=.../pompprof_gcc.so [-fplugin-arg-pompprof_gcc-filter=FILE]
 *       [-fplugin-arg-pompprof_gcc-verbose] ...
 *
 * The wrapper passes these (scripts/pompprof_tools/wrapper/functions.py)
 * when the compiler is the GCC the plugin was built for. */
#include "pp_plugin.h"

#include <stdio.h>
#include <string.h>

#include "context.h"
#include "options.h"
#include "diagnostic-core.h"
#include "plugin-version.h"

int plugin_is_GPL_compatible;

pp_filter *pp_plugin_filter;
bool pp_plugin_verbose;

static void pp_plugin_ipa_start(void *gcc_data, void *user_data)
{
    (void)gcc_data, (void)user_data;
    if (!seen_error())
        pp_plugin_desc_register_unit();
}

/* Link-time optimisation streams the unit before its registration could be
 * added (GCC fails on it): the wrapper instruments such lines with
 * -finstrument-functions; here a clear error rather than a broken build. */
static bool pp_plugin_lto(void)
{
    return flag_lto || flag_generate_lto || flag_wpa || flag_ltrans;
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
    if (!plugin_default_version_check(version, &gcc_version)) {
        error("the GCC plugin of pompprof was built for GCC %s, not for this one (%s)",
              gcc_version.basever, version->basever);
        return 1;
    }
    if (pp_plugin_lto()) {
        error("the GCC plugin of pompprof cannot instrument with %<-flto%>; %<pompprof "
              "--functions%> instruments such lines with %<-finstrument-functions%>");
        return 1;
    }
    for (int i = 0; i < info->argc; i++) {
        const plugin_argument *a = &info->argv[i];
        if (strcmp(a->key, "filter") == 0 && a->value) {
            char err[1200];
            pp_plugin_filter = pp_filter_load(a->value, err, sizeof err);
            if (!pp_plugin_filter) {
                error("pompprof: %s", err);
                return 1;
            }
        } else if (strcmp(a->key, "verbose") == 0) {
            pp_plugin_verbose = true;
        } else {
            error("the GCC plugin of pompprof: unknown argument %s", a->key);
            return 1;
        }
    }
    static struct plugin_info about = {"pompprof", "pompprof's function instrumentation"};
    register_callback(info->base_name, PLUGIN_INFO, NULL, &about);
    struct register_pass_info pass = {pp_plugin_make_pass(g), "omplower", 1,
                                      PASS_POS_INSERT_BEFORE};
    register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
    register_callback(info->base_name, PLUGIN_ALL_IPA_PASSES_START, pp_plugin_ipa_start, NULL);
    register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
                      (void *)pp_plugin_desc_roots());
    return 0;
}
