/* A profile as bytes and back (layout in pp_mpi_pack.h): this rank's
 * unified profile packed for its partner, a received buffer read (checked
 * before anything trusts it), and at rank 0 the job's buffer turned into
 * the engine's unified profile that the output writes. */
#include "mpi/pp_mpi_pack.h"

#include <stdlib.h>
#include <string.h>

#include "profile/pp_profile.h"

static const char pp_mpi_magic[8] = "PPMPIv1";

/* ---- writing ----------------------------------------------------------------------- */

void pp_mpi_buf_put(pp_mpi_buf *b, const void *p, size_t n)
{
    if (b->failed)
        return;
    if (b->size + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->size + n)
            cap *= 2;
        unsigned char *d = realloc(b->data, cap);
        if (!d) {
            b->failed = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->size, p, n);
    b->size += n;
}

void pp_mpi_buf_u32(pp_mpi_buf *b, uint32_t v)
{
    pp_mpi_buf_put(b, &v, sizeof v);
}

void pp_mpi_buf_u64(pp_mpi_buf *b, uint64_t v)
{
    pp_mpi_buf_put(b, &v, sizeof v);
}

void pp_mpi_buf_str(pp_mpi_buf *b, const char *s, size_t n)
{
    pp_mpi_buf_u32(b, (uint32_t)n);
    pp_mpi_buf_put(b, s, n);
}

static void pp_mpi_buf_cstr(pp_mpi_buf *b, const char *s)
{
    pp_mpi_buf_str(b, s ? s : "", s ? strlen(s) : 0);
}

void pp_mpi_buf_free(pp_mpi_buf *b)
{
    free(b->data);
    *b = (pp_mpi_buf){0};
}

static uint64_t pp_mpi_max_active(const pp_unode *n, uint32_t i)
{
    return n->max_active ? n->max_active[i] : 0;
}

static int pp_mpi_has_values(const pp_unified *u, const pp_unode *n, uint32_t i)
{
    uint32_t L = u->n_locations;
    if (n->visits[i] || n->time[i] || n->min_time[i] != UINT64_MAX || n->max_time[i] ||
        pp_mpi_max_active(n, i))
        return 1;
    for (uint32_t k = 0; k < u->n_counters; k++)
        if (n->counters[k * L + i])
            return 1;
    for (uint32_t k = 0; k < u->n_extra; k++)
        if (n->extra[k * L + i])
            return 1;
    return 0;
}

static int pp_mpi_item_order(const void *a, const void *b)
{
    return strcmp(((const pp_param_item *)a)->name, ((const pp_param_item *)b)->name);
}

/* The engine's parameter sets 0 .. n-1, entries sorted by name. */
static void pp_mpi_pack_psets(pp_mpi_buf *b, uint32_t n)
{
    pp_param_item small[16], *it = small;
    uint32_t cap = 16;
    for (uint32_t p = 0; p < n && !b->failed; p++) {
        uint32_t k = pp_profile_pset_get(p, it, cap);
        if (k > cap) {
            if (it != small)
                free(it);
            cap = k;
            if (!(it = malloc(cap * sizeof *it))) {
                it = small;
                b->failed = 1;
                break;
            }
            pp_profile_pset_get(p, it, cap);
        }
        qsort(it, k, sizeof *it, pp_mpi_item_order);
        pp_mpi_buf_u32(b, k);
        for (uint32_t i = 0; i < k; i++) {
            pp_mpi_buf_cstr(b, it[i].name);
            pp_mpi_buf_u32(b, it[i].type);
            pp_mpi_buf_u64(b, (uint64_t)it[i].value);
            pp_mpi_buf_str(b, it[i].str, it[i].len);
        }
    }
    if (it != small)
        free(it);
}

int pp_mpi_pack(const pp_unified *u, pp_mpi_buf *b)
{
    *b = (pp_mpi_buf){0};
    uint32_t n_regions = u ? pp_profile_region_count() : 0;
    uint32_t n_psets = u ? pp_profile_pset_count() : 0;
    pp_mpi_buf_put(b, pp_mpi_magic, sizeof pp_mpi_magic);
    pp_mpi_buf_u32(b, u ? u->n_locations : 0);
    pp_mpi_buf_u32(b, u ? u->n_counters : 0);
    pp_mpi_buf_u32(b, u ? u->n_extra : 0);
    pp_mpi_buf_u32(b, n_regions);
    pp_mpi_buf_u32(b, u ? u->n_nodes : 0);
    pp_mpi_buf_u32(b, u && u->tasks ? u->tasks->region : PP_MPI_NONE);
    pp_mpi_buf_u32(b, n_psets);
    if (!u)
        return b->failed ? (pp_mpi_buf_free(b), -1) : 0;
    uint32_t L = u->n_locations;
    for (uint32_t k = 0; k < u->n_counters; k++)
        pp_mpi_buf_cstr(b, u->counter_names[k]);
    for (uint32_t k = 0; k < u->n_extra; k++)
        pp_mpi_buf_cstr(b, pp_profile_extra_name((int)k));
    for (pp_region_id r = 0; r < n_regions; r++) {
        pp_region_def d = {0};
        pp_profile_region_describe(r, &d);
        pp_mpi_buf_cstr(b, d.name);
        pp_mpi_buf_cstr(b, d.file);
        pp_mpi_buf_cstr(b, d.paradigm);
        pp_mpi_buf_cstr(b, d.role);
        pp_mpi_buf_cstr(b, d.description);
        pp_mpi_buf_u32(b, (uint32_t)d.begin_line);
        pp_mpi_buf_u32(b, (uint32_t)d.end_line);
    }
    for (uint32_t i = 0; i < L; i++) {
        const pp_unified_location *l = &u->locations[i];
        pp_mpi_buf_u32(b, (uint32_t)l->rank);
        pp_mpi_buf_u32(b, l->thread);
        pp_mpi_buf_cstr(b, l->host);
        pp_mpi_buf_cstr(b, l->process);
        pp_mpi_buf_u64(b, u->max_active_tasks[i]);
    }
    pp_mpi_pack_psets(b, n_psets);
    for (const pp_unode *n = u->root; n && !b->failed; n = pp_unified_next(n)) {
        pp_mpi_buf_u32(b, n->parent ? (uint32_t)n->parent->id : PP_MPI_NONE);
        pp_mpi_buf_u32(b, n->region);
        pp_mpi_buf_u32(b, n->pset < n_psets ? n->pset : 0);
        uint32_t entries = 0;
        for (uint32_t i = 0; i < L; i++)
            entries += pp_mpi_has_values(u, n, i);
        pp_mpi_buf_u32(b, entries);
        for (uint32_t i = 0; i < L; i++) {
            if (!pp_mpi_has_values(u, n, i))
                continue;
            pp_mpi_buf_u32(b, i);
            pp_mpi_buf_u64(b, n->visits[i]);
            pp_mpi_buf_u64(b, n->time[i]);
            pp_mpi_buf_u64(b, n->min_time[i]);
            pp_mpi_buf_u64(b, n->max_time[i]);
            pp_mpi_buf_u64(b, pp_mpi_max_active(n, i));
            for (uint32_t k = 0; k < u->n_counters; k++)
                pp_mpi_buf_u64(b, n->counters[k * L + i]);
            for (uint32_t k = 0; k < u->n_extra; k++)
                pp_mpi_buf_u64(b, n->extra[k * L + i]);
        }
    }
    if (b->failed) {
        pp_mpi_buf_free(b);
        return -1;
    }
    return 0;
}

/* ---- reading ---------------------------------------------------------------------------- */

pp_mpi_str pp_mpi_get_str(const pp_mpi_view *v, size_t *at)
{
    pp_mpi_str s;
    s.n = pp_mpi_get_u32(v, at);
    s.s = (const char *)v->data + *at;
    *at += s.n;
    return s;
}

uint32_t pp_mpi_get_u32(const pp_mpi_view *v, size_t *at)
{
    uint32_t x;
    memcpy(&x, v->data + *at, sizeof x);
    *at += sizeof x;
    return x;
}

uint64_t pp_mpi_get_u64(const pp_mpi_view *v, size_t *at)
{
    uint64_t x;
    memcpy(&x, v->data + *at, sizeof x);
    *at += sizeof x;
    return x;
}

/* Checked reading while the view is opened. */
typedef struct pp_mpi_reader {
    const pp_mpi_view *v;
    size_t at;
    int bad;
} pp_mpi_reader;

static int pp_mpi_need(pp_mpi_reader *r, size_t n)
{
    if (r->bad || r->v->size - r->at < n)
        r->bad = 1;
    return !r->bad;
}

static uint32_t pp_mpi_read_u32(pp_mpi_reader *r)
{
    return pp_mpi_need(r, 4) ? pp_mpi_get_u32(r->v, &r->at) : 0;
}

static pp_mpi_str pp_mpi_read_str(pp_mpi_reader *r)
{
    pp_mpi_str s = {"", 0};
    uint32_t n = pp_mpi_read_u32(r);
    if (pp_mpi_need(r, n)) {
        s.s = (const char *)r->v->data + r->at;
        s.n = n;
        r->at += n;
    }
    return s;
}

static void *pp_mpi_array(size_t n, size_t size, int *failed)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        *failed = 1;
    return p;
}

int pp_mpi_view_open(pp_mpi_view *v, const unsigned char *data, size_t size)
{
    *v = (pp_mpi_view){.data = data, .size = size};
    pp_mpi_reader r = {v, 0, 0};
    if (!pp_mpi_need(&r, sizeof pp_mpi_magic) || memcmp(data, pp_mpi_magic, sizeof pp_mpi_magic))
        return -1;
    r.at = sizeof pp_mpi_magic;
    v->n_loc = pp_mpi_read_u32(&r);
    v->n_ctr = pp_mpi_read_u32(&r);
    v->n_extra = pp_mpi_read_u32(&r);
    v->n_regions = pp_mpi_read_u32(&r);
    v->n_nodes = pp_mpi_read_u32(&r);
    v->tasks_region = pp_mpi_read_u32(&r);
    v->n_psets = pp_mpi_read_u32(&r);
    /* every count is bounded by the bytes it needs, so no array below is
     * larger than the buffer */
    if (r.bad || v->n_ctr > size / 4 || v->n_extra > size / 4 || v->n_regions > size / 28 ||
        v->n_nodes > size / 16 || v->n_loc > size / 24 || v->n_psets > size / 4 ||
        (v->tasks_region != PP_MPI_NONE && v->tasks_region >= v->n_regions))
        return -1;
    int failed = 0;
    v->ctr_names = pp_mpi_array(v->n_ctr, sizeof *v->ctr_names, &failed);
    v->extra_names = pp_mpi_array(v->n_extra, sizeof *v->extra_names, &failed);
    v->region_at = pp_mpi_array(v->n_regions, sizeof *v->region_at, &failed);
    v->region_end = pp_mpi_array(v->n_regions, sizeof *v->region_end, &failed);
    v->parent = pp_mpi_array(v->n_nodes, sizeof *v->parent, &failed);
    v->region = pp_mpi_array(v->n_nodes, sizeof *v->region, &failed);
    v->pset = pp_mpi_array(v->n_nodes, sizeof *v->pset, &failed);
    v->pset_at = pp_mpi_array(v->n_psets, sizeof *v->pset_at, &failed);
    v->pset_end = pp_mpi_array(v->n_psets, sizeof *v->pset_end, &failed);
    v->entries = pp_mpi_array(v->n_nodes, sizeof *v->entries, &failed);
    v->entries_at = pp_mpi_array(v->n_nodes, sizeof *v->entries_at, &failed);
    if (failed) {
        pp_mpi_view_close(v);
        return -1;
    }
    for (uint32_t k = 0; k < v->n_ctr; k++)
        v->ctr_names[k] = pp_mpi_read_str(&r);
    for (uint32_t k = 0; k < v->n_extra; k++)
        v->extra_names[k] = pp_mpi_read_str(&r);
    for (uint32_t k = 0; k < v->n_regions && !r.bad; k++) {
        v->region_at[k] = r.at;
        for (int s = 0; s < 5; s++)
            pp_mpi_read_str(&r);
        pp_mpi_read_u32(&r);
        pp_mpi_read_u32(&r);
        v->region_end[k] = r.at;
    }
    v->locations_at = r.at;
    for (uint32_t i = 0; i < v->n_loc && !r.bad; i++) {
        pp_mpi_read_u32(&r);
        pp_mpi_read_u32(&r);
        pp_mpi_read_str(&r);
        pp_mpi_read_str(&r);
        if (pp_mpi_need(&r, 8))
            r.at += 8;
    }
    v->locations_end = r.at;
    for (uint32_t p = 0; p < v->n_psets && !r.bad; p++) {
        v->pset_at[p] = r.at;
        uint32_t k = pp_mpi_read_u32(&r);
        if (k > (r.v->size - r.at) / 20 || (p == 0 && k != 0))
            r.bad = 1; /* an entry takes 20 bytes at least; set 0 is the empty one */
        for (uint32_t i = 0; i < k && !r.bad; i++) {
            pp_mpi_read_str(&r);
            if (pp_mpi_read_u32(&r) > 2 || !pp_mpi_need(&r, 8))
                r.bad = 1;
            else
                r.at += 8;
            pp_mpi_read_str(&r);
        }
        v->pset_end[p] = r.at;
    }
    size_t entry = pp_mpi_entry_size(v->n_ctr, v->n_extra);
    for (uint32_t k = 0; k < v->n_nodes && !r.bad; k++) {
        v->parent[k] = pp_mpi_read_u32(&r);
        v->region[k] = pp_mpi_read_u32(&r);
        v->pset[k] = pp_mpi_read_u32(&r);
        v->entries[k] = pp_mpi_read_u32(&r);
        v->entries_at[k] = r.at;
        /* pre-order: the root first, every parent before its children */
        if ((k == 0) != (v->parent[k] == PP_MPI_NONE) || (k && v->parent[k] >= k) ||
            v->region[k] >= v->n_regions || v->pset[k] >= v->n_psets ||
            v->entries[k] > (r.v->size - r.at) / entry) {
            r.bad = 1;
            break;
        }
        for (uint32_t e = 0; e < v->entries[k] && !r.bad; e++) {
            if (pp_mpi_read_u32(&r) >= v->n_loc)
                r.bad = 1;
            r.at += entry - 4;
        }
    }
    if (r.bad || r.at != size) {
        pp_mpi_view_close(v);
        return -1;
    }
    return 0;
}

void pp_mpi_view_close(pp_mpi_view *v)
{
    free(v->ctr_names), free(v->extra_names), free(v->region_at), free(v->region_end);
    free(v->parent), free(v->region), free(v->entries), free(v->entries_at);
    free(v->pset), free(v->pset_at), free(v->pset_end);
    *v = (pp_mpi_view){0};
}

/* ---- the job's profile for the output ------------------------------------------------------ */

static char *pp_mpi_strdup(pp_mpi_str s)
{
    char *c = malloc((size_t)s.n + 1);
    if (c) {
        memcpy(c, s.s, s.n);
        c[s.n] = '\0';
    }
    return c;
}

/* The engine's id of a region of the view: an existing region with the
 * same identity, or a new one.  The engine's regions are looked up through
 * an open-addressing table of their identities built once.  As in the
 * merge (pp_mpi_merge.c), regions that look alike pair in order, each
 * engine region with one of the view's at most, so that the written
 * profile keeps them apart as a profile of one process does. */
typedef struct pp_mpi_regmap {
    pp_region_id *slot;
    size_t mask;
} pp_mpi_regmap;

static uint64_t pp_mpi_def_hash(const pp_region_def *d)
{
    uint64_t h = 1469598103934665603ull;
    const char *parts[5] = {d->name, d->file, d->paradigm, d->role, d->description};
    for (int i = 0; i < 5; i++) {
        for (const char *p = parts[i] ? parts[i] : ""; *p; p++)
            h = (h ^ (unsigned char)*p) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull;
    }
    h ^= (uint64_t)(uint32_t)d->begin_line * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)d->end_line * 0xC2B2AE3D27D4EB4Full;
    return h ^ (h >> 31);
}

static int pp_mpi_str_eq(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

static int pp_mpi_def_eq(const pp_region_def *a, const pp_region_def *b)
{
    return pp_mpi_str_eq(a->name, b->name) && pp_mpi_str_eq(a->file, b->file) &&
           pp_mpi_str_eq(a->paradigm, b->paradigm) && pp_mpi_str_eq(a->role, b->role) &&
           pp_mpi_str_eq(a->description, b->description) && a->begin_line == b->begin_line &&
           a->end_line == b->end_line;
}

static void pp_mpi_regmap_add(pp_mpi_regmap *m, const pp_region_def *d, pp_region_id id)
{
    size_t h = pp_mpi_def_hash(d) & m->mask;
    while (m->slot[h] != PP_REGION_INVALID)
        h = (h + 1) & m->mask;
    m->slot[h] = id;
}

/* The first region of identity d not paired yet (marked paired now). */
static pp_region_id pp_mpi_regmap_find(const pp_mpi_regmap *m, const pp_region_def *d,
                                       unsigned char *paired)
{
    for (size_t h = pp_mpi_def_hash(d) & m->mask; m->slot[h] != PP_REGION_INVALID;
         h = (h + 1) & m->mask) {
        pp_region_def e;
        pp_region_id r = m->slot[h];
        if (!paired[r] && pp_profile_region_describe(r, &e) == 0 && pp_mpi_def_eq(&e, d)) {
            paired[r] = 1;
            return r;
        }
    }
    return PP_REGION_INVALID;
}

/* The view's regions as engine ids (NULL when memory is short). */
static pp_region_id *pp_mpi_engine_regions(const pp_mpi_view *v)
{
    uint32_t have = pp_profile_region_count();
    size_t cap = 16;
    while (cap < 2 * ((size_t)have + v->n_regions))
        cap *= 2;
    pp_mpi_regmap m = {malloc(cap * sizeof *m.slot), cap - 1};
    pp_region_id *ids = malloc((v->n_regions ? v->n_regions : 1) * sizeof *ids);
    unsigned char *paired = calloc((size_t)have + v->n_regions + 1, 1);
    if (!m.slot || !ids || !paired) {
        free(m.slot);
        free(ids);
        free(paired);
        return NULL;
    }
    for (size_t i = 0; i < cap; i++)
        m.slot[i] = PP_REGION_INVALID;
    for (pp_region_id r = 0; r < have; r++) {
        pp_region_def d;
        if (pp_profile_region_describe(r, &d) == 0)
            pp_mpi_regmap_add(&m, &d, r);
    }
    for (uint32_t k = 0; k < v->n_regions; k++) {
        size_t at = v->region_at[k];
        char *s[5];
        int ok = 1;
        for (int i = 0; i < 5; i++)
            ok &= (s[i] = pp_mpi_strdup(pp_mpi_get_str(v, &at))) != NULL;
        pp_region_def d = {.name = s[0], .file = ok && *s[1] ? s[1] : NULL, .paradigm = s[2],
                           .role = s[3], .description = ok && *s[4] ? s[4] : NULL};
        d.begin_line = (int)pp_mpi_get_u32(v, &at);
        d.end_line = (int)pp_mpi_get_u32(v, &at);
        ids[k] = ok ? pp_mpi_regmap_find(&m, &d, paired) : PP_REGION_INVALID;
        if (ids[k] == PP_REGION_INVALID && ok) {
            ids[k] = pp_profile_region_define(&d);
            if (ids[k] != PP_REGION_INVALID && ids[k] < have + v->n_regions) {
                pp_mpi_regmap_add(&m, &d, ids[k]);
                paired[ids[k]] = 1;
            }
        }
        for (int i = 0; i < 5; i++)
            free(s[i]);
    }
    free(m.slot);
    free(paired);
    return ids;
}

/* The view's parameter sets as engine ids (NULL when memory is short; a
 * set the engine cannot make is the empty one). */
static uint32_t *pp_mpi_engine_psets(const pp_mpi_view *v)
{
    uint32_t *ids = calloc(v->n_psets ? v->n_psets : 1, sizeof *ids);
    for (uint32_t p = 1; ids && p < v->n_psets; p++) {
        size_t at = v->pset_at[p];
        uint32_t k = pp_mpi_get_u32(v, &at);
        pp_param_item *it = calloc(k, sizeof *it);
        char **names = calloc(k, sizeof *names);
        int ok = it && names;
        for (uint32_t i = 0; ok && i < k; i++) {
            ok = (names[i] = pp_mpi_strdup(pp_mpi_get_str(v, &at))) != NULL;
            it[i].name = names[i];
            it[i].type = pp_mpi_get_u32(v, &at);
            it[i].value = (int64_t)pp_mpi_get_u64(v, &at);
            pp_mpi_str str = pp_mpi_get_str(v, &at);
            it[i].str = str.s;
            it[i].len = str.n;
        }
        uint32_t id = ok ? pp_profile_pset_make(it, k) : PP_PSET_INVALID;
        ids[p] = id == PP_PSET_INVALID ? 0 : id;
        for (uint32_t i = 0; names && i < k; i++)
            free(names[i]);
        free(names);
        free(it);
    }
    return ids;
}

/* Room in u->strings for the locations' and counters' strings. */
static size_t pp_mpi_strings_size(const pp_mpi_view *v)
{
    size_t n = 0, at = v->locations_at;
    for (uint32_t i = 0; i < v->n_loc; i++) {
        at += 8;
        n += pp_mpi_get_str(v, &at).n + 1;
        n += pp_mpi_get_str(v, &at).n + 1;
        at += 8;
    }
    for (uint32_t k = 0; k < v->n_ctr; k++)
        n += v->ctr_names[k].n + 1;
    return n;
}

static const char *pp_mpi_keep(char **at, pp_mpi_str s)
{
    char *p = *at;
    memcpy(p, s.s, s.n);
    p[s.n] = '\0';
    *at += s.n + 1;
    return p;
}

pp_unified *pp_mpi_unpack(const pp_mpi_view *v, uint64_t t_finalize)
{
    if (!v->n_nodes || !v->n_loc)
        return NULL;
    pp_region_id *regions = pp_mpi_engine_regions(v);
    uint32_t *psets = pp_mpi_engine_psets(v);
    /* the view's extra metrics at the engine's indexes (defined there by
     * the same layer on every rank; an unknown name is dropped) */
    int extra_at[PP_PROFILE_EXTRA_MAX + 1];
    uint32_t n_extra = 0;
    for (uint32_t k = 0; k < v->n_extra && k < PP_PROFILE_EXTRA_MAX; k++) {
        char *name = pp_mpi_strdup(v->extra_names[k]);
        extra_at[k] = pp_profile_extra_index(name);
        if (extra_at[k] >= 0 && (uint32_t)extra_at[k] + 1 > n_extra)
            n_extra = (uint32_t)extra_at[k] + 1;
        free(name);
    }
    uint32_t n_ctr = v->n_ctr < PP_COUNTERS_MAX ? v->n_ctr : PP_COUNTERS_MAX;
    pp_unified *u = regions ? pp_unified_new(v->n_loc, n_ctr, n_extra, regions[v->region[0]]) : NULL;
    pp_unode **nodes = malloc(v->n_nodes * sizeof *nodes);
    if (u)
        u->strings = malloc(pp_mpi_strings_size(v) + 1);
    if (!u || !nodes || !u->strings || !psets) {
        free(regions);
        free(psets);
        free(nodes);
        pp_unified_free(u);
        return NULL;
    }
    u->t_finalize = t_finalize;
    char *str = u->strings;
    for (uint32_t k = 0; k < n_ctr; k++)
        u->counter_names[k] = pp_mpi_keep(&str, v->ctr_names[k]);
    size_t at = v->locations_at;
    for (uint32_t i = 0; i < v->n_loc; i++) {
        pp_unified_location *l = &u->locations[i];
        l->rank = (int32_t)pp_mpi_get_u32(v, &at);
        l->thread = pp_mpi_get_u32(v, &at);
        l->host = pp_mpi_keep(&str, pp_mpi_get_str(v, &at));
        l->process = pp_mpi_keep(&str, pp_mpi_get_str(v, &at));
        u->max_active_tasks[i] = pp_mpi_get_u64(v, &at);
    }
    uint32_t L = v->n_loc;
    int ok = 1;
    for (uint32_t k = 0; k < v->n_nodes && ok; k++) {
        pp_unode *n = k == 0 ? u->root
                             : pp_unified_add_child(u, nodes[v->parent[k]], regions[v->region[k]],
                                                    psets[v->pset[k]]);
        if (!n) {
            ok = 0;
            break;
        }
        nodes[k] = n;
        if (k && v->parent[k] == 0 && v->region[k] == v->tasks_region)
            u->tasks = n;
        at = v->entries_at[k];
        for (uint32_t e = 0; e < v->entries[k]; e++) {
            uint32_t i = pp_mpi_get_u32(v, &at);
            n->visits[i] = pp_mpi_get_u64(v, &at);
            n->time[i] = pp_mpi_get_u64(v, &at);
            n->min_time[i] = pp_mpi_get_u64(v, &at);
            n->max_time[i] = pp_mpi_get_u64(v, &at);
            uint64_t active = pp_mpi_get_u64(v, &at);
            if (active && !n->max_active && !(n->max_active = calloc(L, sizeof *n->max_active)))
                ok = 0;
            if (n->max_active)
                n->max_active[i] = active;
            for (uint32_t c = 0; c < v->n_ctr; c++) {
                uint64_t x = pp_mpi_get_u64(v, &at);
                if (c < n_ctr)
                    n->counters[c * L + i] = x;
            }
            for (uint32_t x = 0; x < v->n_extra; x++) {
                uint64_t val = pp_mpi_get_u64(v, &at);
                if (x < PP_PROFILE_EXTRA_MAX && extra_at[x] >= 0)
                    n->extra[(uint32_t)extra_at[x] * L + i] = val;
            }
        }
    }
    free(regions);
    free(psets);
    free(nodes);
    if (!ok) {
        pp_unified_free(u);
        return NULL;
    }
    pp_unified_number(u);
    return u;
}
