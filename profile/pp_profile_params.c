/* Parameters: names, values, sets of values, and the cap on distinct values
 * per parameter and call path.
 *
 * A node's parameter set is a 32-bit id (pp_node.pset) of an interned,
 * immutable list of (parameter, value) sorted by parameter key; ids are
 * global, so unification compares them as numbers.  Nothing here runs on
 * the event path: a location remembers what a parameter call resolved to
 * (pp_profile_split.c), so these tables are asked once per location and
 * distinct call, under one lock.
 *
 * The cap: a *site* is one parameter at one call path (the path of the
 * node's parent, the node's region and its other parameters).  It admits
 * the first POMPPROF_MAX_PARAMETER_VALUES distinct values; every later one
 * maps to the site's "<other>" set.  A site that is full never changes
 * again, so it answers without the lock: a loop index passed by mistake
 * costs a hash probe per call, not a lock, and adds neither nodes nor
 * memory. */
#include "profile/pp_profile_internal.h"

#include <stdlib.h>
#include <string.h>

#include "lib/pp_message.h"

typedef struct pp_pset_rec {
    uint32_t n;
    uint64_t hash;
    pp_param_entry e[];
} pp_pset_rec;

typedef struct pp_site_slot {
    pp_param_value val;
    uint32_t pset;
    uint32_t used;
} pp_site_slot;

struct pp_param_site {
    pp_param_site *next; /* hash chain */
    const pp_path *path;
    uint64_t base_key;   /* region and the set without this parameter */
    pp_param_key key;
    const char *name;    /* the parameter's name, for the warning */
    uint32_t count;      /* values admitted */
    uint32_t other;      /* the "<other>" set, made when the site fills up */
    int full;            /* atomic: slots are frozen, read without the lock */
    uint32_t n_slots;    /* power of two, at least twice the count */
    pp_site_slot *slots;
};

#define PP_SITE_BUCKETS 1024 /* power of two */

/* Beside pp_params, not in it: the tests' reset clears pp_params while
 * holding it. */
static pthread_mutex_t pp_param_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char **names;
    uint32_t n_names, cap_names;
    pp_pset_rec **psets; /* by id; psets[0] is the empty set */
    uint32_t n_psets, cap_psets;
    uint32_t *pset_slots; /* open addressing: id + 1, 0 = free */
    uint32_t n_pset_slots;
    pp_param_site *sites[PP_SITE_BUCKETS];
    struct pp_made_string *made; /* strings of sets made by pp_profile_pset_make */
} pp_params;

typedef struct pp_made_string {
    struct pp_made_string *next;
    char s[];
} pp_made_string;

/* ---- hashing ---------------------------------------------------------------- */

static inline uint64_t pp_param_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

uint64_t pp_profile_param_hash(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t pp_param_value_hash(const pp_param_value *v)
{
    return pp_param_mix((uint64_t)v->v ^ ((uint64_t)v->type << 62));
}

/* ---- names ------------------------------------------------------------------- */

pp_param_key pp_profile_param_define(const char *name, size_t len)
{
    if (!name)
        return PP_PARAM_INVALID;
    pthread_mutex_lock(&pp_param_lock);
    pp_param_key k = PP_PARAM_INVALID;
    for (uint32_t i = 0; i < pp_params.n_names; i++)
        if (strlen(pp_params.names[i]) == len && memcmp(pp_params.names[i], name, len) == 0) {
            k = i;
            goto out;
        }
    if (pp_params.n_names == pp_params.cap_names) {
        uint32_t cap = pp_params.cap_names ? 2 * pp_params.cap_names : 16;
        char **n = realloc(pp_params.names, cap * sizeof *n);
        if (!n)
            goto out;
        pp_params.names = n;
        pp_params.cap_names = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        goto out;
    memcpy(copy, name, len);
    copy[len] = '\0';
    k = pp_params.n_names++;
    pp_params.names[k] = copy;
out:
    pthread_mutex_unlock(&pp_param_lock);
    if (k == PP_PARAM_INVALID)
        PP_WARN_ONCE("out of memory for a parameter name; that parameter is not recorded");
    return k;
}

const char *pp_profile_param_name(pp_param_key key)
{
    pthread_mutex_lock(&pp_param_lock);
    const char *n = key < pp_params.n_names ? pp_params.names[key] : "?";
    pthread_mutex_unlock(&pp_param_lock);
    return n;
}

/* ---- parameter sets ------------------------------------------------------------ */

static uint64_t pp_pset_hash(const pp_param_entry *e, uint32_t n)
{
    uint64_t h = n;
    for (uint32_t i = 0; i < n; i++)
        h = pp_param_mix(h ^ e[i].key) ^ pp_param_value_hash(&e[i].val);
    return h;
}

static int pp_pset_equal(const pp_pset_rec *r, const pp_param_entry *e, uint32_t n, uint64_t h)
{
    if (r->hash != h || r->n != n)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (r->e[i].key != e[i].key || !pp_profile_param_value_eq(&r->e[i].val, &e[i].val))
            return 0;
    return 1;
}

static int pp_pset_grow_slots(void)
{
    uint32_t n = pp_params.n_pset_slots ? 2 * pp_params.n_pset_slots : 256;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (uint32_t id = 1; id < pp_params.n_psets; id++) {
        uint32_t h = (uint32_t)pp_params.psets[id]->hash & (n - 1);
        while (s[h])
            h = (h + 1) & (n - 1);
        s[h] = id + 1;
    }
    free(pp_params.pset_slots);
    pp_params.pset_slots = s;
    pp_params.n_pset_slots = n;
    return 0;
}

/* The id of the set with entries e[0..n) (sorted; strings already stored
 * for good), made if new.  Under the lock.  PP_PSET_NONE when out of memory. */
static uint32_t pp_pset_intern(const pp_param_entry *e, uint32_t n)
{
    if (n == 0)
        return 0;
    if (!pp_params.n_psets) {
        /* id 0: the empty set */
        pp_params.psets = calloc(16, sizeof *pp_params.psets);
        pp_pset_rec *empty = calloc(1, sizeof *empty);
        if (!pp_params.psets || !empty) {
            free(empty);
            return PP_PSET_NONE;
        }
        pp_params.psets[0] = empty;
        pp_params.cap_psets = 16;
        pp_params.n_psets = 1;
    }
    uint64_t h = pp_pset_hash(e, n);
    if (2 * (pp_params.n_psets + 1) > pp_params.n_pset_slots && pp_pset_grow_slots())
        return PP_PSET_NONE;
    uint32_t mask = pp_params.n_pset_slots - 1, i = (uint32_t)h & mask;
    for (; pp_params.pset_slots[i]; i = (i + 1) & mask)
        if (pp_pset_equal(pp_params.psets[pp_params.pset_slots[i] - 1], e, n, h))
            return pp_params.pset_slots[i] - 1;
    if (pp_params.n_psets == PP_PSET_NONE - 1)
        return PP_PSET_NONE;
    if (pp_params.n_psets == pp_params.cap_psets) {
        uint32_t cap = 2 * pp_params.cap_psets;
        pp_pset_rec **p = realloc(pp_params.psets, cap * sizeof *p);
        if (!p)
            return PP_PSET_NONE;
        pp_params.psets = p;
        pp_params.cap_psets = cap;
    }
    pp_pset_rec *r = malloc(sizeof *r + n * sizeof r->e[0]);
    if (!r)
        return PP_PSET_NONE;
    r->n = n;
    r->hash = h;
    memcpy(r->e, e, n * sizeof e[0]);
    uint32_t id = pp_params.n_psets++;
    pp_params.psets[id] = r;
    pp_params.pset_slots[i] = id + 1;
    return id;
}

/* The set base with key = val (key not in base; val's bytes stored for
 * good).  Under the lock. */
static uint32_t pp_pset_with(uint32_t base, pp_param_key key, const pp_param_value *val)
{
    const pp_pset_rec *b = pp_params.psets ? pp_params.psets[base] : NULL;
    uint32_t n = b ? b->n : 0, k = 0;
    pp_param_entry small[16], *e = n < 16 ? small : malloc((n + 1) * sizeof *e);
    if (!e)
        return PP_PSET_NONE;
    for (uint32_t i = 0; i < n && b->e[i].key < key; i++)
        e[k++] = b->e[i];
    e[k++] = (pp_param_entry){key, *val};
    for (uint32_t i = k - 1; i < n; i++)
        e[k++] = b->e[i];
    uint32_t id = pp_pset_intern(e, k);
    if (e != small)
        free(e);
    return id;
}

/* The set pset without parameter key.  Under the lock. */
static uint32_t pp_pset_without(uint32_t pset, pp_param_key key)
{
    if (pset == 0 || !pp_params.psets || pset >= pp_params.n_psets)
        return 0;
    const pp_pset_rec *r = pp_params.psets[pset];
    uint32_t i = 0;
    while (i < r->n && r->e[i].key != key)
        i++;
    if (i == r->n)
        return pset;
    pp_param_entry small[16], *e = r->n <= 16 ? small : malloc(r->n * sizeof *e);
    if (!e)
        return PP_PSET_NONE;
    memcpy(e, r->e, i * sizeof *e);
    memcpy(e + i, r->e + i + 1, (r->n - i - 1) * sizeof *e);
    uint32_t id = pp_pset_intern(e, r->n - 1);
    if (e != small)
        free(e);
    return id;
}

uint32_t pp_profile_pset_entries(uint32_t pset, const pp_param_entry **entries)
{
    pthread_mutex_lock(&pp_param_lock);
    uint32_t n = 0;
    *entries = NULL;
    if (pset && pset < pp_params.n_psets) {
        n = pp_params.psets[pset]->n;
        *entries = pp_params.psets[pset]->e;
    }
    pthread_mutex_unlock(&pp_param_lock);
    return n;
}

/* ---- sets for another process's profile ------------------------------------------ */

uint32_t pp_profile_pset_count(void)
{
    pthread_mutex_lock(&pp_param_lock);
    uint32_t n = pp_params.n_psets ? pp_params.n_psets : 1;
    pthread_mutex_unlock(&pp_param_lock);
    return n;
}

uint32_t pp_profile_pset_get(uint32_t pset, pp_param_item *out, uint32_t max)
{
    pthread_mutex_lock(&pp_param_lock);
    uint32_t n = 0;
    if (pset && pset < pp_params.n_psets) {
        const pp_pset_rec *r = pp_params.psets[pset];
        n = r->n;
        for (uint32_t i = 0; i < n && i < max; i++) {
            const pp_param_value *v = &r->e[i].val;
            out[i] = (pp_param_item){.name = pp_params.names[r->e[i].key], .type = v->type,
                                     .value = v->type == PP_PARAM_INT64 ? v->v : 0,
                                     .str = v->type == PP_PARAM_STRING ? v->str : "",
                                     .len = v->type == PP_PARAM_STRING ? v->len : 0};
        }
    }
    pthread_mutex_unlock(&pp_param_lock);
    return n;
}

/* An entry and the item it came from, sorted by parameter key. */
typedef struct pp_param_made {
    pp_param_entry e;
    const pp_param_item *item;
} pp_param_made;

static int pp_param_made_order(const void *a, const void *b)
{
    const pp_param_made *x = a, *y = b;
    return x->e.key < y->e.key ? -1 : x->e.key > y->e.key;
}

/* A copy of len bytes that lives as long as the sets (freed at reset). */
static const char *pp_param_keep_string(const char *str, uint32_t len)
{
    pp_made_string *m = malloc(sizeof *m + (size_t)len + 1);
    if (!m)
        return NULL;
    if (len)
        memcpy(m->s, str, len);
    m->s[len] = '\0';
    m->next = pp_params.made;
    pp_params.made = m;
    return m->s;
}

uint32_t pp_profile_pset_make(const pp_param_item *items, uint32_t n)
{
    if (n == 0)
        return 0;
    pp_param_made *m = malloc(n * sizeof *m);
    pp_param_entry *e = malloc(n * sizeof *e);
    uint32_t id = PP_PSET_INVALID;
    if (!m || !e)
        goto out;
    /* names first: defining one takes the lock itself */
    for (uint32_t i = 0; i < n; i++) {
        m[i].item = &items[i];
        m[i].e.key = pp_profile_param_define(items[i].name, strlen(items[i].name));
        if (m[i].e.key == PP_PARAM_INVALID)
            goto out;
    }
    qsort(m, n, sizeof *m, pp_param_made_order);
    pthread_mutex_lock(&pp_param_lock);
    int ok = 1;
    for (uint32_t i = 0; i < n && ok; i++) {
        const pp_param_item *it = m[i].item;
        e[i] = (pp_param_entry){m[i].e.key, {.type = it->type}};
        if (it->type == PP_PARAM_INT64) {
            e[i].val.v = it->value;
        } else if (it->type == PP_PARAM_STRING) {
            ok = (e[i].val.str = pp_param_keep_string(it->str, it->len)) != NULL;
            e[i].val.len = it->len;
            e[i].val.v = (int64_t)pp_profile_param_hash(it->str, it->len);
        }
    }
    if (ok)
        id = pp_pset_intern(e, n);
    pthread_mutex_unlock(&pp_param_lock);
out:
    free(m);
    free(e);
    return id;
}

/* ---- sites and the cap ----------------------------------------------------------- */

pp_param_site *pp_profile_param_site(const pp_path *parent_path, uint64_t nkey, pp_param_key key)
{
    pp_node_key k = {.word = nkey};
    pthread_mutex_lock(&pp_param_lock);
    pp_param_site *s = NULL;
    uint32_t base = pp_pset_without(k.s.pset, key);
    if (base == PP_PSET_NONE || key >= pp_params.n_names)
        goto out;
    uint64_t base_key = pp_node_key_of(k.s.region, base);
    uint32_t b = (uint32_t)pp_param_mix((uint64_t)(uintptr_t)parent_path ^ pp_param_mix(base_key) ^
                                        key) &
                 (PP_SITE_BUCKETS - 1);
    for (s = pp_params.sites[b]; s; s = s->next)
        if (s->path == parent_path && s->base_key == base_key && s->key == key)
            goto out;
    s = calloc(1, sizeof *s);
    if (!s)
        goto out;
    s->path = parent_path;
    s->base_key = base_key;
    s->key = key;
    s->name = pp_params.names[key];
    s->next = pp_params.sites[b];
    pp_params.sites[b] = s;
out:
    pthread_mutex_unlock(&pp_param_lock);
    if (!s)
        PP_WARN_ONCE("out of memory for a parameter value; the call is ignored");
    return s;
}

static pp_site_slot *pp_site_find(const pp_param_site *s, const pp_param_value *val)
{
    if (!s->n_slots)
        return NULL;
    uint32_t mask = s->n_slots - 1, i = (uint32_t)pp_param_value_hash(val) & mask;
    for (; s->slots[i].used; i = (i + 1) & mask)
        if (pp_profile_param_value_eq(&s->slots[i].val, val))
            return &s->slots[i];
    return NULL;
}

static int pp_site_grow(pp_param_site *s)
{
    uint32_t n = s->n_slots ? 2 * s->n_slots : 16;
    pp_site_slot *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t j = 0; j < s->n_slots; j++) {
        if (!s->slots[j].used)
            continue;
        uint32_t i = (uint32_t)pp_param_value_hash(&s->slots[j].val) & (n - 1);
        while (slots[i].used)
            i = (i + 1) & (n - 1);
        slots[i] = s->slots[j];
    }
    free(s->slots);
    s->slots = slots;
    s->n_slots = n;
    return 0;
}

/* Admit val at s (under the lock): its set, or PP_PSET_NONE. */
static uint32_t pp_site_admit(pp_param_site *s, const pp_param_value *val, const char **interned)
{
    pp_node_key base = {.word = s->base_key};
    if (2 * (s->count + 1) > s->n_slots && pp_site_grow(s))
        return PP_PSET_NONE;
    pp_param_value stored = *val;
    if (val->type == PP_PARAM_STRING) {
        char *copy = malloc((size_t)val->len + 1);
        if (!copy)
            return PP_PSET_NONE;
        if (val->len)
            memcpy(copy, val->str, val->len);
        copy[val->len] = '\0';
        stored.str = copy;
    }
    uint32_t pset = pp_pset_with(base.s.pset, s->key, &stored);
    if (pset == PP_PSET_NONE) {
        if (val->type == PP_PARAM_STRING)
            free((char *)stored.str);
        return PP_PSET_NONE;
    }
    uint32_t mask = s->n_slots - 1, i = (uint32_t)pp_param_value_hash(val) & mask;
    while (s->slots[i].used)
        i = (i + 1) & mask;
    s->slots[i] = (pp_site_slot){stored, pset, 1};
    s->count++;
    *interned = stored.str;
    return pset;
}

uint32_t pp_profile_param_site_value(pp_param_site *s, const pp_param_value *val,
                                     const char **interned)
{
    *interned = NULL;
    uint32_t pset;
    pp_site_slot *slot;
    if (__atomic_load_n(&s->full, __ATOMIC_ACQUIRE)) {
        if ((slot = pp_site_find(s, val)) != NULL) {
            *interned = slot->val.str;
            return slot->pset;
        }
        pset = s->other;
    } else {
        int denied = 0;
        pthread_mutex_lock(&pp_param_lock);
        if ((slot = pp_site_find(s, val)) != NULL) {
            *interned = slot->val.str;
            pset = slot->pset;
        } else if (s->count < pp_profile_g.max_param_values) {
            pset = pp_site_admit(s, val, interned);
        } else {
            /* the site is full: make its "<other>" set, then freeze it */
            pp_node_key base = {.word = s->base_key};
            pp_param_value other = {.type = PP_PARAM_OTHER};
            pset = s->other = pp_pset_with(base.s.pset, s->key, &other);
            if (pset != PP_PSET_NONE) {
                __atomic_store_n(&s->full, 1, __ATOMIC_RELEASE);
                denied = 1;
            }
        }
        pthread_mutex_unlock(&pp_param_lock);
        if (!denied)
            return pset;
    }
    PP_WARN_ONCE("parameter '%s' took more than %u values at one call path; the others are "
                 "counted as <other> (POMPPROF_MAX_PARAMETER_VALUES)",
                 s->name, pp_profile_g.max_param_values);
    return pset;
}

/* ---- the tests' reset ---------------------------------------------------------------- */

void pp_profile_params_reset(void)
{
    pthread_mutex_lock(&pp_param_lock);
    for (uint32_t b = 0; b < PP_SITE_BUCKETS; b++) {
        while (pp_params.sites[b]) {
            pp_param_site *s = pp_params.sites[b];
            pp_params.sites[b] = s->next;
            for (uint32_t i = 0; i < s->n_slots; i++)
                if (s->slots[i].used && s->slots[i].val.type == PP_PARAM_STRING)
                    free((char *)s->slots[i].val.str);
            free(s->slots);
            free(s);
        }
    }
    for (uint32_t i = 0; i < pp_params.n_psets; i++)
        free(pp_params.psets[i]);
    free(pp_params.psets);
    free(pp_params.pset_slots);
    for (uint32_t i = 0; i < pp_params.n_names; i++)
        free(pp_params.names[i]);
    free(pp_params.names);
    while (pp_params.made) {
        pp_made_string *m = pp_params.made;
        pp_params.made = m->next;
        free(m);
    }
    memset(&pp_params, 0, sizeof pp_params);
    pthread_mutex_unlock(&pp_param_lock);
}
