/* The region registry: region strings -> entries; see pp_pomp2_region.h.
 *
 * Everything here runs once per region (or once per racing thread on a NULL
 * slot), never per event, so a mutex and malloc are fine. */
#include "pomp2/pp_pomp2_region.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pp_message.h"

#define PP_POMP2_BUCKETS 1024u

/* The registry: entries by region string, and the entry of every region
 * not known otherwise (defined on first use), all under the lock. */
static struct {
    pthread_mutex_t lock;
    pp_pomp2_region *buckets[PP_POMP2_BUCKETS];
    pp_pomp2_region unknown;
    bool unknown_defined;
} pp_pomp2_registry = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* FNV-1a over the string's content: equal strings (also copies made by other
 * translation units) land on the same entry. */
static uint32_t pp_pomp2_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Caller holds the registry lock. */
static pp_pomp2_region *pp_pomp2_unknown_locked(void)
{
    if (!pp_pomp2_registry.unknown_defined) {
        pp_pomp2_region_define(&pp_pomp2_registry.unknown, NULL);
        pp_pomp2_registry.unknown_defined = true;
    }
    return &pp_pomp2_registry.unknown;
}

pp_pomp2_region *pp_pomp2_region_unknown(void)
{
    pp_pomp2_ensure_init();
    pthread_mutex_lock(&pp_pomp2_registry.lock);
    pp_pomp2_region *u = pp_pomp2_unknown_locked();
    pthread_mutex_unlock(&pp_pomp2_registry.lock);
    return u;
}

/* Caller holds the registry lock; ctc is not NULL. */
static pp_pomp2_region *pp_pomp2_lookup_locked(const char *ctc)
{
    uint32_t b = pp_pomp2_hash(ctc) % PP_POMP2_BUCKETS;
    for (pp_pomp2_region *e = pp_pomp2_registry.buckets[b]; e; e = e->next)
        if (e->ctc == ctc || strcmp(e->ctc, ctc) == 0)
            return e;

    pp_pomp2_region_info info;
    const char *error = NULL;
    bool ok = pp_pomp2_region_string_parse(ctc, &info, &error);
    pp_pomp2_region *e = calloc(1, sizeof *e);
    char *copy = strdup(ctc);
    if (!e || !copy) {
        free(e);
        free(copy);
        pp_pomp2_region_info_free(&info);
        PP_WARN_ONCE("out of memory while registering OpenMP regions; "
                     "such regions are measured as \"unknown region\"");
        return pp_pomp2_unknown_locked();
    }
    if (!ok) {
        /* Once per distinct string: the entry made here is found next time. */
        pp_message_warn("malformed OPARI2 region string (%s): \"%s\"; "
                        "measured as \"!$omp unknown region\"",
                        error, ctc);
        *e = *pp_pomp2_unknown_locked();
    } else {
        pp_pomp2_region_define(e, &info);
    }
    pp_pomp2_region_info_free(&info);
    e->ctc = copy;
    e->next = pp_pomp2_registry.buckets[b];
    pp_pomp2_registry.buckets[b] = e;
    return e;
}

pp_pomp2_region *pp_pomp2_region_lookup(const char *ctc)
{
    pp_pomp2_ensure_init();
    pthread_mutex_lock(&pp_pomp2_registry.lock);
    pp_pomp2_region *e = ctc ? pp_pomp2_lookup_locked(ctc) : pp_pomp2_unknown_locked();
    pthread_mutex_unlock(&pp_pomp2_registry.lock);
    return e;
}

pp_pomp2_region *pp_pomp2_region_assign_slow(void **slot, const char *ctc)
{
    if (!slot) {
        /* hand-written POMP2 calls may pass no handle at all: measure the
         * region from its string if there is one, never dereference */
        PP_WARN_ONCE("a POMP2 call got a NULL handle pointer; the region is measured without a "
                     "handle");
        return ctc ? pp_pomp2_region_lookup(ctc) : pp_pomp2_region_unknown();
    }
    if (!ctc) {
        PP_WARN_ONCE("an OpenMP region was entered before its handle was assigned "
                     "(was the program linked without pompprof's region initialization?); "
                     "measured as \"!$omp unknown region\"");
        return pp_pomp2_region_unknown();
    }
    pp_pomp2_ensure_init();
    pthread_mutex_lock(&pp_pomp2_registry.lock);
    /* Double-checked: another thread may have assigned it meanwhile. */
    pp_pomp2_region *e = __atomic_load_n((pp_pomp2_region **)slot, __ATOMIC_RELAXED);
    if (!e) {
        e = pp_pomp2_lookup_locked(ctc);
        __atomic_store_n((pp_pomp2_region **)slot, e, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&pp_pomp2_registry.lock);
    return e;
}

void pp_pomp2_region_assign(void **slot, const char *ctc)
{
    if (!slot)
        return;
    if (!ctc) {
        PP_WARN_ONCE("POMP2_Assign_handle got no region string (NULL); "
                     "the region is measured as \"!$omp unknown region\"");
        __atomic_store_n((pp_pomp2_region **)slot, pp_pomp2_region_unknown(), __ATOMIC_RELEASE);
        return;
    }
    (void)pp_pomp2_region_assign_slow(slot, ctc);
}
