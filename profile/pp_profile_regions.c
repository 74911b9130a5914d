/* The region table: a chunked array, so looking a region up by id needs no
 * lock (chunks never move; a record is complete before the count that makes
 * it visible is published with release semantics).  Defining takes a lock:
 * it happens once per region, never on the event path. */
#include "profile/pp_profile_internal.h"

#include <stdlib.h>
#include <string.h>

#include "lib/pp_message.h"
#include "profile/pp_profile_names.h"

#define PP_REGION_CHUNK_BITS 10
#define PP_REGION_CHUNK (1u << PP_REGION_CHUNK_BITS)
#define PP_REGION_MAX_CHUNKS 4096 /* 4 M regions */

static struct {
    pthread_mutex_t lock; /* defining, renaming (never held while taking another) */
    uint32_t n;           /* published count */
    pp_region_rec *chunks[PP_REGION_MAX_CHUNKS];
} pp_regions = {.lock = PTHREAD_MUTEX_INITIALIZER};

static char *pp_region_strdup(const char *s, int *failed)
{
    if (!s)
        return NULL;
    char *c = strdup(s);
    if (!c)
        *failed = 1;
    return c;
}

pp_region_id pp_profile_region_define(const pp_region_def *def)
{
    if (!def)
        return PP_REGION_INVALID;
    pthread_mutex_lock(&pp_regions.lock);
    uint32_t id = pp_regions.n;
    uint32_t c = id >> PP_REGION_CHUNK_BITS;
    if (c >= PP_REGION_MAX_CHUNKS) {
        pthread_mutex_unlock(&pp_regions.lock);
        PP_WARN_ONCE("too many regions (more than %u); further regions are not measured",
                     PP_REGION_MAX_CHUNKS * PP_REGION_CHUNK);
        return PP_REGION_INVALID;
    }
    if (!pp_regions.chunks[c]) {
        pp_regions.chunks[c] = calloc(PP_REGION_CHUNK, sizeof(pp_region_rec));
        if (!pp_regions.chunks[c]) {
            pthread_mutex_unlock(&pp_regions.lock);
            return PP_REGION_INVALID;
        }
    }
    pp_region_rec *r = &pp_regions.chunks[c][id & (PP_REGION_CHUNK - 1)];
    int failed = 0;
    r->name = pp_region_strdup(def->name ? def->name : "unknown", &failed);
    r->file = pp_region_strdup(def->file, &failed);
    r->paradigm = pp_region_strdup(def->paradigm ? def->paradigm : "user", &failed);
    r->role = pp_region_strdup(def->role ? def->role : "unknown", &failed);
    r->description = pp_region_strdup(def->description, &failed);
    r->mangled = pp_region_strdup(def->mangled, &failed);
    r->begin_line = def->begin_line;
    r->end_line = def->end_line;
    if (failed) {
        free(r->name), free(r->file), free(r->paradigm), free(r->role), free(r->description);
        free(r->mangled);
        memset(r, 0, sizeof *r);
        pthread_mutex_unlock(&pp_regions.lock);
        return PP_REGION_INVALID;
    }
    __atomic_store_n(&pp_regions.n, id + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&pp_regions.lock);
    pp_profile_region_save(id);
    return id;
}

int pp_profile_region_rename(pp_region_id id, const pp_region_def *def)
{
    pp_region_rec *r = (pp_region_rec *)pp_profile_region_get(id);
    if (!r || !def)
        return -1;
    int failed = 0;
    char *name = pp_region_strdup(def->name, &failed);
    char *file = pp_region_strdup(def->file, &failed);
    char *mangled = pp_region_strdup(def->mangled, &failed);
    char *role = def->role && strcmp(def->role, r->role) != 0 ? pp_region_strdup(def->role, &failed)
                                                               : NULL;
    if (failed) {
        free(name), free(file), free(mangled), free(role);
        return -1;
    }
    pthread_mutex_lock(&pp_regions.lock);
    if (name)
        free(r->name), r->name = name;
    if (role)
        free(r->role), r->role = role;
    if (file)
        free(r->file), r->file = file;
    if (mangled)
        free(r->mangled), r->mangled = mangled;
    if (def->begin_line >= 0)
        r->begin_line = def->begin_line;
    if (def->end_line >= 0)
        r->end_line = def->end_line;
    pthread_mutex_unlock(&pp_regions.lock);
    pp_profile_region_save(id);
    return 0;
}

int pp_profile_region_as_trace(pp_region_id id, pp_trace_region *t)
{
    const pp_region_rec *r = pp_profile_region_get(id);
    if (!r)
        return -1;
    *t = (pp_trace_region){r->name,        r->file,       r->paradigm, r->role,
                           r->description, r->begin_line, r->end_line};
    return 0;
}

void pp_profile_region_save(pp_region_id id)
{
    pp_trace_region t;
    if (pp_trace_active() && pp_profile_region_as_trace(id, &t) == 0)
        pp_trace_save_region(id, &t);
}

const pp_region_rec *pp_profile_region_get(pp_region_id id)
{
    if (id >= __atomic_load_n(&pp_regions.n, __ATOMIC_ACQUIRE))
        return NULL;
    return &pp_regions.chunks[id >> PP_REGION_CHUNK_BITS][id & (PP_REGION_CHUNK - 1)];
}

int pp_profile_region_describe(pp_region_id id, pp_region_def *def)
{
    const pp_region_rec *r = pp_profile_region_get(id);
    if (!r)
        return -1;
    *def = (pp_region_def){.name = r->name, .file = r->file, .begin_line = r->begin_line,
                           .end_line = r->end_line, .paradigm = r->paradigm, .role = r->role,
                           .description = r->description, .mangled = r->mangled};
    return 0;
}

uint32_t pp_profile_region_count(void)
{
    return __atomic_load_n(&pp_regions.n, __ATOMIC_ACQUIRE);
}

/* ---- regions named late (pp_profile_names.h) ---------------------------------- */

static pp_region_rec *pp_region_slot(pp_region_id id)
{
    if (id >= __atomic_load_n(&pp_regions.n, __ATOMIC_ACQUIRE))
        return NULL;
    return &pp_regions.chunks[id >> PP_REGION_CHUNK_BITS][id & (PP_REGION_CHUNK - 1)];
}

void pp_profile_region_alias(pp_region_id id, pp_region_id same_as)
{
    pp_region_rec *r = pp_region_slot(id);
    if (r && id != same_as && pp_region_slot(same_as))
        r->alias1 = same_as + 1;
}

pp_region_id pp_profile_region_canonical(pp_region_id id)
{
    const pp_region_rec *r = pp_region_slot(id);
    return r && r->alias1 ? r->alias1 - 1 : id;
}

/* Tests only: forget every region. */
void pp_profile_regions_reset(void)
{
    pthread_mutex_lock(&pp_regions.lock);
    for (uint32_t id = 0; id < pp_regions.n; id++) {
        pp_region_rec *r = &pp_regions.chunks[id >> PP_REGION_CHUNK_BITS][id & (PP_REGION_CHUNK - 1)];
        free(r->name), free(r->file), free(r->paradigm), free(r->role), free(r->description);
        free(r->mangled);
        memset(r, 0, sizeof *r);
    }
    __atomic_store_n(&pp_regions.n, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&pp_regions.lock);
}
