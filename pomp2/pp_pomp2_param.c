/* Parameters named at run time: pompprof_parameter_int64/_string (pompprof.h)
 * and their Fortran bindings (pp_pomp2_fortran.c).
 *
 * A name becomes an engine key once (under the engine's lock); afterwards a
 * per-thread direct-mapped cache keyed by the caller's pointer and length
 * finds it, comparing the bytes too, since a buffer may be reused for
 * another name.  A hit costs a memcmp of the name, no lock. */
#include <stdint.h>
#include <string.h>

#include "lib/pp_message.h"
#include "pomp2/pp_pomp2_internal.h"
#include "pomp2/pp_pomp2_region.h"

#define POMPPROF_INSTRUMENTED 1
#include "pomp2/pompprof.h"

#define PP_POMP2_PARAM_CACHE 32
static __thread struct {
    const char *ptr;
    size_t len;
    pp_param_key key;
    const char *name; /* the engine's copy (kept until the end) */
} pp_pomp2_param_cache[PP_POMP2_PARAM_CACHE];

pp_param_key pp_pomp2_param_key(const char *name, size_t len)
{
    if (!name) {
        PP_WARN_ONCE("pompprof_parameter_int64/_string called with a NULL name; "
                     "recorded as parameter \"(null)\"");
        name = "(null)", len = 6;
    }
    size_t slot = ((uintptr_t)name >> 3) % PP_POMP2_PARAM_CACHE;
    if (pp_pomp2_param_cache[slot].ptr == name && pp_pomp2_param_cache[slot].len == len &&
        memcmp(pp_pomp2_param_cache[slot].name, name, len) == 0)
        return pp_pomp2_param_cache[slot].key;
    pp_pomp2_ensure_init();
    pp_param_key key = pp_profile_param_define(name, len);
    const char *copy = key != PP_PARAM_INVALID ? pp_profile_param_name(key) : NULL;
    if (copy) {
        pp_pomp2_param_cache[slot].ptr = name;
        pp_pomp2_param_cache[slot].len = len;
        pp_pomp2_param_cache[slot].key = key;
        pp_pomp2_param_cache[slot].name = copy;
    }
    return key;
}

void pompprof_parameter_int64(const char *name, int64_t value)
{
    pp_param_key key = pp_pomp2_param_key(name, name ? strlen(name) : 0);
    if (key != PP_PARAM_INVALID)
        pp_profile_parameter_int64(key, value);
}

void pompprof_parameter_string(const char *name, const char *value)
{
    pp_param_key key = pp_pomp2_param_key(name, name ? strlen(name) : 0);
    if (key != PP_PARAM_INVALID)
        pp_profile_parameter_string(key, value, value ? strlen(value) : 0);
}
