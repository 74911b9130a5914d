/* Loading OTF2 when a trace starts (pp_trace_otf2_api.h says why). */
#define PP_TRACE_OTF2_LOADER
#include "config.h"

#include "trace/pp_trace_otf2_api.h"

#include <dlfcn.h>
#include <stdio.h>

#include "lib/pp_dlload.h"

pp_trace_otf2_api pp_trace_otf2_fn;

/* 0, or -1 with the reason in why (the library or one of its functions missing). */
static int pp_trace_otf2_open(char *why, size_t len)
{
#define PP_TRACE_OTF2_SLOT(f) (void *)&pp_trace_otf2_fn.f,
    static const char *const names[] = {PP_TRACE_OTF2_FUNCS(PP_DLLOAD_NAME)};
    void *const slots[] = {PP_TRACE_OTF2_FUNCS(PP_TRACE_OTF2_SLOT)};
#undef PP_TRACE_OTF2_SLOT
    /* lazy binding, as when it was linked: RTLD_NOW would resolve all of the
     * library's own calls (some 200 relocations) at the trace's start */
    return pp_dlload(PP_OTF2_SONAME, RTLD_LAZY | RTLD_LOCAL, names, slots,
                     sizeof names / sizeof names[0], why, len);
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
