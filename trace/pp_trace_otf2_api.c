/* Loading OTF2 when a trace starts (pp_trace_otf2_api.h says why). */
#define PP_TRACE_OTF2_LOADER
#include "config.h"

#include "trace/pp_trace_otf2_api.h"

#include <dlfcn.h>
#include <stdio.h>

pp_trace_otf2_api pp_trace_otf2_fn;

/* 0, or -1 with the reason in why (the library or one of its functions missing). */
static int pp_trace_otf2_open(char *why, size_t len)
{
    /* lazy binding, as when it was linked: RTLD_NOW would resolve all of the
     * library's own calls (some 200 relocations) at the trace's start */
    void *lib = dlopen(PP_OTF2_SONAME, RTLD_LAZY | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, len, "%s", e ? e : PP_OTF2_SONAME " not found");
        return -1;
    }
#define PP_TRACE_OTF2_RESOLVE(f)                                                                   \
    if (!(*(void **)&pp_trace_otf2_fn.f = dlsym(lib, #f))) {                                       \
        snprintf(why, len, "%s has no %s", PP_OTF2_SONAME, #f);                                   \
        dlclose(lib);                                                                              \
        return -1;                                                                                 \
    }
    PP_TRACE_OTF2_FUNCS(PP_TRACE_OTF2_RESOLVE)
#undef PP_TRACE_OTF2_RESOLVE
    return 0; /* kept loaded: the archive is written at the end of the run */
}

int pp_trace_otf2_load(char *why, size_t len)
{
    /* tried once per process; a failure's reason is kept for a later call */
    static int state; /* 0 not tried, 1 loaded, -1 failed */
    static char reason[512];
    if (state == 0)
        state = pp_trace_otf2_open(reason, sizeof reason) == 0 ? 1 : -1;
    if (state < 0)
        snprintf(why, len, "%s", reason);
    return state > 0 ? 0 : -1;
}
