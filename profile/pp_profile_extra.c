/* Extra metrics: unsigned sums per call path that a layer above the engine
 * adds to (the MPI layer: bytes sent and received by each MPI call).
 *
 * The values live beside the node, in an array of PP_PROFILE_EXTRA_MAX
 * slots that the node gets from its location's arena on its first value:
 * the few nodes that are MPI calls pay for it, every other node carries one
 * NULL pointer.  Adding is an event like enter: the calling thread's own
 * location only, no lock, no clock read.
 *
 * Definitions take a lock (once per metric); the table is read without one,
 * since a definition is complete before the count that makes it visible is
 * published. */
#include "profile/pp_profile_internal.h"

#include <stdlib.h>
#include <string.h>

#include "lib/pp_message.h"

static struct {
    pthread_mutex_t lock; /* definitions */
    uint32_t n;           /* published count */
    pp_extra_def defs[PP_PROFILE_EXTRA_MAX];
} pp_extra = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void pp_extra_clear(pp_extra_def *d)
{
    free(d->uniq), free(d->disp), free(d->unit), free(d->descr);
    memset(d, 0, sizeof *d);
}

int pp_profile_extra_define(const char *uniq_name, const char *display_name, const char *unit,
                            const char *description)
{
    if (!uniq_name || !*uniq_name)
        return -1;
    pthread_mutex_lock(&pp_extra.lock);
    uint32_t n = pp_extra.n;
    for (uint32_t k = 0; k < n; k++)
        if (strcmp(pp_extra.defs[k].uniq, uniq_name) == 0) {
            pthread_mutex_unlock(&pp_extra.lock);
            return (int)k;
        }
    if (n == PP_PROFILE_EXTRA_MAX) {
        pthread_mutex_unlock(&pp_extra.lock);
        PP_WARN_ONCE("more than %d extra metrics defined; '%s' is not measured",
                     PP_PROFILE_EXTRA_MAX, uniq_name);
        return -1;
    }
    pp_extra_def *d = &pp_extra.defs[n];
    d->uniq = strdup(uniq_name);
    d->disp = strdup(display_name ? display_name : uniq_name);
    d->unit = strdup(unit ? unit : "#");
    d->descr = strdup(description ? description : "");
    if (!d->uniq || !d->disp || !d->unit || !d->descr) {
        pp_extra_clear(d);
        pthread_mutex_unlock(&pp_extra.lock);
        return -1;
    }
    __atomic_store_n(&pp_extra.n, n + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&pp_extra.lock);
    return (int)n;
}

uint32_t pp_profile_extra_count(void)
{
    return __atomic_load_n(&pp_extra.n, __ATOMIC_ACQUIRE);
}

const pp_extra_def *pp_profile_extra_get(uint32_t metric)
{
    return metric < pp_profile_extra_count() ? &pp_extra.defs[metric] : NULL;
}

const char *pp_profile_extra_name(int metric)
{
    const pp_extra_def *d = metric >= 0 ? pp_profile_extra_get((uint32_t)metric) : NULL;
    return d ? d->uniq : NULL;
}

int pp_profile_extra_index(const char *uniq_name)
{
    uint32_t n = pp_profile_extra_count();
    for (uint32_t k = 0; uniq_name && k < n; k++)
        if (strcmp(pp_extra.defs[k].uniq, uniq_name) == 0)
            return (int)k;
    return -1;
}

void pp_profile_extra_add_loc(pp_location *loc, int metric, uint64_t value)
{
    if ((uint32_t)metric >= PP_PROFILE_EXTRA_MAX || !value)
        return;
    pp_node *n = loc->current->pos;
    if (PP_UNLIKELY(!n->extra) && !(n->extra = pp_profile_extra_values(loc)))
        return;
    n->extra[metric] += value;
}

void pp_profile_extra_add(int metric, uint64_t value)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    if (PP_LIKELY(loc != NULL))
        pp_profile_extra_add_loc(loc, metric, value);
    pp_profile_event_end();
}

void pp_profile_extra_move(pp_location *loc, pp_node *src, pp_node *dst)
{
    if (!src->extra)
        return;
    if (dst && (dst->extra || (dst->extra = pp_profile_extra_values(loc))))
        for (uint32_t k = 0; k < PP_PROFILE_EXTRA_MAX; k++)
            dst->extra[k] += src->extra[k];
    memset(src->extra, 0, PP_PROFILE_EXTRA_MAX * sizeof *src->extra);
}

/* Tests only: forget every definition. */
void pp_profile_extra_reset(void)
{
    pthread_mutex_lock(&pp_extra.lock);
    for (uint32_t k = 0; k < pp_extra.n; k++)
        pp_extra_clear(&pp_extra.defs[k]);
    __atomic_store_n(&pp_extra.n, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&pp_extra.lock);
}
