/* The job's definitions from every rank's (pp_trace_rankdefs.h), on rank 0
 * (or in pompprof-salvage):
 *
 * - regions by identity (name, file, lines, paradigm, role, description);
 *   two regions of one rank that look alike (the implicit barriers of a
 *   parallel and of the single inside it, ending on one line) pair in
 *   order, the i-th with the i-th, as the profiles' merge pairs them;
 * - parameters by name (a string parameter on any rank is one in the job),
 *   their string values by text;
 * - thread teams stay the rank's own (a communicator each), the job's
 *   numbered in rank order after communicator 0, all threads;
 * - MPI communicators by the key the MPI layer gave them (the same on
 *   every member rank), their parents through the defining rank's;
 * - locations in rank order: rank r's location i is the job's
 *   loc_offset(r) + i. */
#define _GNU_SOURCE
#include "trace/pp_trace_rankdefs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a table of strings to numbers ------------------------------------------------------ */

typedef struct pp_ukey {
    char *key;
    uint64_t hash;
    uint32_t id;
} pp_ukey;

typedef struct pp_utable {
    pp_ukey *slots;
    uint64_t cap, n;
    int failed;
} pp_utable;

static uint64_t pp_uhash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
    return h ? h : 1;
}

static int pp_utable_grow(pp_utable *t)
{
    uint64_t cap = t->cap ? 2 * t->cap : 256;
    pp_ukey *s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (uint64_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].key)
            continue;
        uint64_t j = t->slots[i].hash & (cap - 1);
        while (s[j].key)
            j = (j + 1) & (cap - 1);
        s[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = s;
    t->cap = cap;
    return 0;
}

/* The number of key (n bytes): the one it has, or next (*added set). */
static uint32_t pp_utable_get(pp_utable *t, const char *key, size_t n, uint32_t next, int *added)
{
    *added = 0;
    if (t->failed || (2 * (t->n + 1) > t->cap && pp_utable_grow(t) != 0)) {
        t->failed = 1;
        return 0;
    }
    uint64_t h = pp_uhash(key, n);
    uint64_t j = h & (t->cap - 1);
    for (; t->slots[j].key; j = (j + 1) & (t->cap - 1))
        if (t->slots[j].hash == h && !memcmp(t->slots[j].key, key, n) && !t->slots[j].key[n])
            return t->slots[j].id;
    char *k = malloc(n + 1);
    if (!k) {
        t->failed = 1;
        return 0;
    }
    memcpy(k, key, n);
    k[n] = '\0';
    t->slots[j] = (pp_ukey){k, h, next};
    t->n++;
    *added = 1;
    return next;
}

static void pp_utable_free(pp_utable *t)
{
    for (uint64_t i = 0; i < t->cap; i++)
        free(t->slots[i].key);
    free(t->slots);
}

/* ---- growing arrays of the job's definitions ---------------------------------------------- */

static int pp_push(void **arr, uint32_t *cap, uint32_t n, size_t each)
{
    if (n < *cap)
        return 0;
    uint32_t c = *cap ? 2 * *cap : 64;
    void *a = realloc(*arr, c * each);
    if (!a)
        return -1;
    *arr = a;
    *cap = c;
    return 0;
}

/* A region's identity: its fields with the separator 0x1f (never in a name),
 * and how often the same fields came before on this rank. */
static size_t pp_region_key(char *buf, size_t size, const pp_trace_region *g, unsigned occurrence)
{
    int n = snprintf(buf, size, "%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%d\x1f%d", g->name ? g->name : "",
                     g->file ? g->file : "", g->paradigm ? g->paradigm : "",
                     g->role ? g->role : "", g->description ? g->description : "",
                     g->begin_line, g->end_line);
    if (n < 0 || (size_t)n >= size)
        n = (int)size - 1;
    if (occurrence)
        n += snprintf(buf + n, size - (size_t)n, "\x1f#%u", occurrence);
    return (size_t)n < size ? (size_t)n : size - 1;
}

static int pp_unify_regions(const pp_trace_rank *r, pp_trace_jobmap *m, pp_trace_jobdefs *u,
                            pp_utable *ids, uint32_t *cap)
{
    pp_utable seen = {0}; /* this rank's identities: how often each came */
    uint32_t *count = calloc(r->n_regions ? r->n_regions : 1, sizeof *count);
    int rc = count ? 0 : -1;
    char key[2048];
    for (uint32_t i = 0; rc == 0 && i < r->n_regions; i++) {
        int added;
        size_t n = pp_region_key(key, sizeof key, &r->regions[i], 0);
        uint32_t first = pp_utable_get(&seen, key, n, i, &added);
        unsigned occ = added ? 0 : ++count[first];
        n = pp_region_key(key, sizeof key, &r->regions[i], occ);
        uint32_t id = pp_utable_get(ids, key, n, u->n_regions, &added);
        if (added) {
            if (pp_push((void **)&u->regions, cap, u->n_regions, sizeof *u->regions) != 0) {
                rc = -1;
                break;
            }
            u->regions[u->n_regions++] = &r->regions[i];
        }
        m->region[i] = id;
    }
    if (seen.failed || ids->failed)
        rc = -1;
    pp_utable_free(&seen);
    free(count);
    return rc;
}

static int pp_unify_params(const pp_trace_rank *r, pp_trace_jobmap *m, pp_trace_jobdefs *u,
                           pp_utable *names, pp_utable *values, uint32_t *cap_p, uint32_t *cap_v)
{
    for (uint32_t i = 0; i < r->n_params; i++) {
        const char *s = r->param_names[i] ? r->param_names[i] : "";
        int added;
        uint32_t id = pp_utable_get(names, s, strlen(s), u->n_params, &added);
        if (added) {
            if (pp_push((void **)&u->param_names, cap_p, u->n_params, sizeof *u->param_names) ||
                !(u->param_string = realloc(u->param_string, *cap_p)))
                return -1;
            u->param_names[u->n_params] = s;
            u->param_string[u->n_params++] = 0;
        }
        if (r->param_string && r->param_string[i])
            u->param_string[id] = 1;
        m->param[i] = id;
    }
    for (uint32_t j = 0; j < r->n_values; j++) {
        const char *s = r->values[j] ? r->values[j] : "";
        int added;
        uint32_t id = pp_utable_get(values, s, strlen(s), u->n_values, &added);
        if (added) {
            if (pp_push((void **)&u->values, cap_v, u->n_values, sizeof *u->values))
                return -1;
            u->values[u->n_values++] = s;
        }
        m->value[j] = 1 + id; /* global string 0 is "" */
    }
    return names->failed || values->failed ? -1 : 0;
}

static int pp_unify_comms(const pp_trace_rank *r, pp_trace_jobmap *m, pp_trace_jobdefs *u,
                          pp_utable *keys, uint32_t *cap_t, uint32_t *cap_m)
{
    for (uint32_t k = 0; k < r->n_teams; k++) {
        if (pp_push((void **)&u->teams, cap_t, u->n_teams, sizeof *u->teams))
            return -1;
        u->teams[u->n_teams].rank = (uint32_t)(r - u->ranks);
        u->teams[u->n_teams].team = k;
        m->team[k] = 1 + u->n_teams++;
    }
    for (uint32_t i = 0; i < r->n_comms; i++) {
        m->comm[i] = UINT32_MAX;
        if (!r->comms[i].n)
            continue;
        char key[24];
        int n = snprintf(key, sizeof key, "%llx", (unsigned long long)r->comms[i].key);
        int added;
        uint32_t id = pp_utable_get(keys, key, (size_t)n, u->n_mpi, &added);
        if (added) {
            if (pp_push((void **)&u->mpi, cap_m, u->n_mpi, sizeof *u->mpi))
                return -1;
            u->mpi[u->n_mpi++] = (pp_trace_jobcomm){&r->comms[i], UINT32_MAX};
        }
        m->comm[i] = id; /* made the job's id below, once the teams are counted */
    }
    return keys->failed ? -1 : 0;
}

/* The job's id of MPI communicator k (after the teams). */
static uint32_t pp_unify_mpi_id(const pp_trace_jobdefs *u, uint32_t k)
{
    return 1 + u->n_teams + k;
}

static int pp_unify_map_alloc(const pp_trace_rank *r, pp_trace_jobmap *m)
{
    m->n_regions = r->n_regions, m->n_params = r->n_params, m->n_values = r->n_values;
    m->n_teams = r->n_teams, m->n_comms = r->n_comms;
    m->region = malloc((m->n_regions ? m->n_regions : 1) * sizeof *m->region);
    m->param = malloc((m->n_params ? m->n_params : 1) * sizeof *m->param);
    m->value = malloc((m->n_values ? m->n_values : 1) * sizeof *m->value);
    m->team = malloc((m->n_teams ? m->n_teams : 1) * sizeof *m->team);
    m->comm = malloc((m->n_comms ? m->n_comms : 1) * sizeof *m->comm);
    return m->region && m->param && m->value && m->team && m->comm ? 0 : -1;
}

int pp_trace_unify(const pp_trace_rank *ranks, uint32_t n, uint32_t job_size,
                   pp_trace_jobdefs *u)
{
    memset(u, 0, sizeof *u);
    u->ranks = ranks;
    u->n_ranks = n;
    u->job_size = job_size;
    u->maps = calloc(n ? n : 1, sizeof *u->maps);
    if (!u->maps)
        return -1;
    pp_utable regions = {0}, params = {0}, values = {0}, keys = {0};
    uint32_t cap_r = 0, cap_p = 0, cap_v = 0, cap_t = 0, cap_m = 0;
    int rc = 0;
    u->t_first = UINT64_MAX;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        const pp_trace_rank *r = &ranks[i];
        pp_trace_jobmap *m = &u->maps[i];
        m->loc_offset = u->n_locations;
        u->n_locations += r->n_locations;
        if (pp_unify_map_alloc(r, m) != 0 ||
            pp_unify_regions(r, m, u, &regions, &cap_r) != 0 ||
            pp_unify_params(r, m, u, &params, &values, &cap_p, &cap_v) != 0 ||
            pp_unify_comms(r, m, u, &keys, &cap_t, &cap_m) != 0)
            rc = -1;
        if (r->depend_max > u->depend_max)
            u->depend_max = r->depend_max;
        if (r->t_first < u->t_first)
            u->t_first = r->t_first;
        if (r->t_last > u->t_last)
            u->t_last = r->t_last;
    }
    /* the MPI communicators' ids follow the teams; parents by the definer's keys */
    for (uint32_t i = 0; rc == 0 && i < n; i++)
        for (uint32_t c = 0; c < u->maps[i].n_comms; c++)
            if (u->maps[i].comm[c] != UINT32_MAX)
                u->maps[i].comm[c] = pp_unify_mpi_id(u, u->maps[i].comm[c]);
    for (uint32_t k = 0; rc == 0 && k < u->n_mpi; k++) {
        const pp_trace_comm *d = u->mpi[k].def;
        const pp_trace_rank *owner = NULL;
        for (uint32_t i = 0; i < n && !owner; i++)
            if (d >= ranks[i].comms && d < ranks[i].comms + ranks[i].n_comms)
                owner = &ranks[i];
        if (owner && d->parent < owner->n_comms)
            u->mpi[k].parent = u->maps[owner - ranks].comm[d->parent];
    }
    if (u->t_first == UINT64_MAX)
        u->t_first = 0;
    pp_utable_free(&regions);
    pp_utable_free(&params);
    pp_utable_free(&values);
    pp_utable_free(&keys);
    if (rc != 0)
        pp_trace_jobdefs_free(u);
    return rc;
}

void pp_trace_jobdefs_free(pp_trace_jobdefs *u)
{
    for (uint32_t i = 0; u->maps && i < u->n_ranks; i++)
        pp_trace_jobmap_free(&u->maps[i]);
    free(u->maps);
    free(u->regions);
    free(u->param_names);
    free(u->param_string);
    free(u->values);
    free(u->teams);
    free(u->mpi);
    memset(u, 0, sizeof *u);
}
