/* User regions: OPARI2's "#pragma pomp inst begin/end" (POMP2_Begin/End) and
 * the public pompprof.h calls (regions named at run time). */
#include <opari2/pomp2_user_lib.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pp_message.h"
#include "pomp2/pp_pomp2_region.h"

#define POMPPROF_INSTRUMENTED 1
#include "pomp2/pompprof.h"

void POMP2_Begin(POMP2_USER_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->main);
}

void POMP2_End(POMP2_USER_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->main);
}

/* ---- regions named at run time ------------------------------------------- */

typedef struct pp_pomp2_named {
    char *name;
    pp_region_id id;
    struct pp_pomp2_named *next;
} pp_pomp2_named;

static pthread_mutex_t pp_pomp2_named_lock = PTHREAD_MUTEX_INITIALIZER;
static pp_pomp2_named *pp_pomp2_named_list;

/* Per-thread direct-mapped cache keyed by the caller's pointer; the stored
 * copy of the name is compared too, since a buffer may be reused for another
 * name.  A hit costs a strcmp, no lock. */
#define PP_POMP2_NAME_CACHE 64
static __thread struct {
    const char *ptr;
    const char *name;
    pp_region_id id;
} pp_pomp2_name_cache[PP_POMP2_NAME_CACHE];

/* The registry node of name (created on first use); NULL when out of memory. */
static const pp_pomp2_named *pp_pomp2_named_define(const char *name)
{
    pp_pomp2_ensure_init();
    pthread_mutex_lock(&pp_pomp2_named_lock);
    pp_pomp2_named *n = pp_pomp2_named_list;
    while (n && strcmp(n->name, name) != 0)
        n = n->next;
    if (!n && (n = calloc(1, sizeof *n)) != NULL) {
        n->name = strdup(name);
        pp_region_def def = {
            .name = name,
            .file = NULL,
            .begin_line = -1,
            .end_line = -1,
            .paradigm = "user",
            .role = "user",
        };
        n->id = n->name ? pp_profile_region_define(&def) : PP_REGION_INVALID;
        if (!n->name || n->id == PP_REGION_INVALID) {
            free(n->name);
            free(n);
            n = NULL;
        } else {
            n->next = pp_pomp2_named_list;
            pp_pomp2_named_list = n;
        }
    }
    pthread_mutex_unlock(&pp_pomp2_named_lock);
    if (!n)
        PP_WARN_ONCE("out of memory while defining user regions; some are not measured");
    return n;
}

static pp_region_id pp_pomp2_named_region(const char *name)
{
    if (!name) {
        PP_WARN_ONCE("pompprof_region_begin/end called with a NULL name; "
                      "measured as region \"(null)\"");
        name = "(null)";
    }
    size_t slot = ((uintptr_t)name >> 3) % PP_POMP2_NAME_CACHE;
    if (pp_pomp2_name_cache[slot].ptr == name && strcmp(pp_pomp2_name_cache[slot].name, name) == 0)
        return pp_pomp2_name_cache[slot].id;
    const pp_pomp2_named *n = pp_pomp2_named_define(name);
    if (!n)
        return PP_REGION_INVALID;
    pp_pomp2_name_cache[slot].ptr = name;
    pp_pomp2_name_cache[slot].name = n->name; /* nodes are never freed */
    pp_pomp2_name_cache[slot].id = n->id;
    return n->id;
}

void pompprof_region_begin(const char *name)
{
    pp_region_id id = pp_pomp2_named_region(name);
    if (id != PP_REGION_INVALID)
        pp_profile_enter(id);
}

void pompprof_region_end(const char *name)
{
    pp_region_id id = pp_pomp2_named_region(name);
    if (id != PP_REGION_INVALID)
        pp_profile_exit(id);
}

void pompprof_off(void)
{
    pp_pomp2_ensure_init();
    pp_profile_set_enabled(false);
}

void pompprof_on(void)
{
    pp_pomp2_ensure_init();
    pp_profile_set_enabled(true);
}

void pompprof_write_profile(void)
{
    pp_pomp2_ensure_init();
    pp_profile_finalize();
}
