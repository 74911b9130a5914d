/* A rank's definitions and its map of ids as bytes, for the exchange at the
 * job's end (pp_trace_rankdefs.h).  Little-endian words and length-prefixed
 * strings in the order of the structs; ranks of one job run one build, so
 * the layout needs no version. */
#define _GNU_SOURCE
#include "trace/pp_trace_rankdefs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ------------------------------------------------------------------------- */

typedef struct pp_pk {
    uint8_t *data;
    size_t n, cap;
    int failed;
} pp_pk;

static void pp_pk_bytes(pp_pk *p, const void *v, size_t n)
{
    if (p->failed || n == 0) /* (an empty array may be NULL) */
        return;
    if (p->n + n > p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 4096;
        while (cap < p->n + n)
            cap *= 2;
        uint8_t *d = realloc(p->data, cap);
        if (!d) {
            p->failed = 1;
            return;
        }
        p->data = d;
        p->cap = cap;
    }
    memcpy(p->data + p->n, v, n);
    p->n += n;
}

static void pp_pk_u32(pp_pk *p, uint32_t v)
{
    pp_pk_bytes(p, &v, sizeof v);
}

static void pp_pk_u64(pp_pk *p, uint64_t v)
{
    pp_pk_bytes(p, &v, sizeof v);
}

static void pp_pk_f64(pp_pk *p, double v)
{
    pp_pk_bytes(p, &v, sizeof v);
}

/* NULL is length UINT32_MAX */
static void pp_pk_str(pp_pk *p, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : UINT32_MAX;
    pp_pk_u32(p, n);
    if (s)
        pp_pk_bytes(p, s, n);
}

static void pp_pk_u32s(pp_pk *p, const uint32_t *v, uint32_t n)
{
    pp_pk_u32(p, n);
    pp_pk_bytes(p, v, (size_t)n * sizeof *v);
}

static int pp_pk_done(pp_pk *p, uint8_t **out, size_t *size)
{
    if (p->failed) {
        free(p->data);
        return -1;
    }
    *out = p->data;
    *size = p->n;
    return 0;
}

/* ---- reading ------------------------------------------------------------------------- */

typedef struct pp_up {
    const uint8_t *at, *end;
    int failed;
} pp_up;

static void pp_up_bytes(pp_up *u, void *v, size_t n)
{
    if (n == 0)
        return;
    if (u->failed || (size_t)(u->end - u->at) < n) {
        u->failed = 1;
        memset(v, 0, n);
        return;
    }
    memcpy(v, u->at, n);
    u->at += n;
}

static uint32_t pp_up_u32(pp_up *u)
{
    uint32_t v;
    pp_up_bytes(u, &v, sizeof v);
    return v;
}

static uint64_t pp_up_u64(pp_up *u)
{
    uint64_t v;
    pp_up_bytes(u, &v, sizeof v);
    return v;
}

static double pp_up_f64(pp_up *u)
{
    double v;
    pp_up_bytes(u, &v, sizeof v);
    return v;
}

/* A count of items of at least `each` bytes: more than the bytes left is
 * malformed (and would ask for absurd memory). */
static uint32_t pp_up_count(pp_up *u, size_t each)
{
    uint32_t n = pp_up_u32(u);
    if (!u->failed && (size_t)n * each > (size_t)(u->end - u->at))
        u->failed = 1;
    return u->failed ? 0 : n;
}

static char *pp_up_str(pp_up *u)
{
    uint32_t n = pp_up_u32(u);
    if (n == UINT32_MAX || u->failed)
        return NULL;
    if ((size_t)(u->end - u->at) < n) {
        u->failed = 1;
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        u->failed = 1;
        return NULL;
    }
    memcpy(s, u->at, n);
    s[n] = '\0';
    u->at += n;
    return s;
}

static uint32_t *pp_up_u32s(pp_up *u, uint32_t *n)
{
    *n = pp_up_count(u, sizeof(uint32_t));
    uint32_t *v = malloc((*n ? *n : 1) * sizeof *v);
    if (!v)
        u->failed = 1;
    else
        pp_up_bytes(u, v, (size_t)*n * sizeof *v);
    return v;
}

static void *pp_up_array(pp_up *u, uint32_t n, size_t each)
{
    void *v = calloc(n ? n : 1, each);
    if (!v)
        u->failed = 1;
    return v;
}

/* ---- a rank ---------------------------------------------------------------------------- */

static void pp_pk_strs(pp_pk *p, char *const *s, uint32_t n)
{
    pp_pk_u32(p, n);
    for (uint32_t i = 0; i < n; i++)
        pp_pk_str(p, s[i]);
}

static char **pp_up_strs(pp_up *u, uint32_t *n)
{
    *n = pp_up_count(u, sizeof(uint32_t));
    char **s = pp_up_array(u, *n, sizeof *s);
    for (uint32_t i = 0; s && i < *n; i++)
        s[i] = pp_up_str(u);
    return s;
}

int pp_trace_rank_pack(const pp_trace_rank *r, uint8_t **out, size_t *size)
{
    pp_pk p = {0};
    pp_pk_u32(&p, r->rank);
    pp_pk_u32(&p, r->n_locations);
    pp_pk_bytes(&p, r->events, (size_t)r->n_locations * sizeof *r->events);
    pp_pk_u64(&p, (uint64_t)r->pid);
    pp_pk_str(&p, r->host);
    pp_pk_str(&p, r->program);
    pp_pk_f64(&p, r->ticks_per_second);
    pp_pk_f64(&p, r->wall_t0);
    pp_pk_u64(&p, r->t0);
    pp_pk_u64(&p, r->t_first);
    pp_pk_u64(&p, r->t_last);
    pp_pk_u32(&p, r->n_regions);
    for (uint32_t i = 0; i < r->n_regions; i++) {
        const pp_trace_region *g = &r->regions[i];
        pp_pk_str(&p, g->name);
        pp_pk_str(&p, g->file);
        pp_pk_str(&p, g->paradigm);
        pp_pk_str(&p, g->role);
        pp_pk_str(&p, g->description);
        pp_pk_u32(&p, (uint32_t)g->begin_line);
        pp_pk_u32(&p, (uint32_t)g->end_line);
    }
    pp_pk_strs(&p, r->param_names, r->n_params);
    pp_pk_bytes(&p, r->param_string, r->n_params);
    pp_pk_strs(&p, r->values, r->n_values);
    pp_pk_u32(&p, r->n_teams);
    for (uint32_t k = 0; k < r->n_teams; k++) {
        pp_pk_u32(&p, r->teams[k].region);
        pp_pk_u32s(&p, r->teams[k].members, r->teams[k].n);
    }
    pp_pk_u32(&p, r->n_comms);
    for (uint32_t i = 0; i < r->n_comms; i++) {
        const pp_trace_comm *c = &r->comms[i];
        pp_pk_u32(&p, c->index);
        pp_pk_u32(&p, c->parent);
        pp_pk_u64(&p, c->key);
        pp_pk_str(&p, c->name);
        pp_pk_u32s(&p, c->world, c->n);
    }
    pp_pk_u32(&p, r->n_syncs);
    for (uint32_t i = 0; i < r->n_syncs; i++) {
        pp_pk_u64(&p, r->syncs[i].time);
        pp_pk_u64(&p, (uint64_t)r->syncs[i].offset);
        pp_pk_f64(&p, r->syncs[i].sd);
    }
    pp_pk_u32(&p, r->depend_max);
    pp_pk_strs(&p, r->metrics, r->n_metrics);
    return pp_pk_done(&p, out, size);
}

int pp_trace_rank_unpack(const uint8_t *in, size_t size, pp_trace_rank *r)
{
    memset(r, 0, sizeof *r);
    pp_up u = {in, in + size, 0};
    r->rank = pp_up_u32(&u);
    r->n_locations = pp_up_count(&u, sizeof(uint64_t));
    r->events = pp_up_array(&u, r->n_locations, sizeof *r->events);
    if (r->events)
        pp_up_bytes(&u, r->events, (size_t)r->n_locations * sizeof *r->events);
    r->pid = (int64_t)pp_up_u64(&u);
    r->host = pp_up_str(&u);
    r->program = pp_up_str(&u);
    r->ticks_per_second = pp_up_f64(&u);
    r->wall_t0 = pp_up_f64(&u);
    r->t0 = pp_up_u64(&u);
    r->t_first = pp_up_u64(&u);
    r->t_last = pp_up_u64(&u);
    r->n_regions = pp_up_count(&u, 7 * sizeof(uint32_t));
    r->regions = pp_up_array(&u, r->n_regions, sizeof *r->regions);
    for (uint32_t i = 0; r->regions && i < r->n_regions; i++) {
        pp_trace_region *g = &r->regions[i];
        g->name = pp_up_str(&u);
        g->file = pp_up_str(&u);
        g->paradigm = pp_up_str(&u);
        g->role = pp_up_str(&u);
        g->description = pp_up_str(&u);
        g->begin_line = (int)pp_up_u32(&u);
        g->end_line = (int)pp_up_u32(&u);
    }
    r->param_names = pp_up_strs(&u, &r->n_params);
    r->param_string = pp_up_array(&u, r->n_params, 1);
    if (r->param_string)
        pp_up_bytes(&u, r->param_string, r->n_params);
    r->values = pp_up_strs(&u, &r->n_values);
    r->n_teams = pp_up_count(&u, 2 * sizeof(uint32_t));
    r->teams = pp_up_array(&u, r->n_teams, sizeof *r->teams);
    for (uint32_t k = 0; r->teams && k < r->n_teams; k++) {
        r->teams[k].region = pp_up_u32(&u);
        r->teams[k].members = pp_up_u32s(&u, &r->teams[k].n);
    }
    r->n_comms = pp_up_count(&u, 5 * sizeof(uint32_t));
    r->comms = pp_up_array(&u, r->n_comms, sizeof *r->comms);
    for (uint32_t i = 0; r->comms && i < r->n_comms; i++) {
        pp_trace_comm *c = &r->comms[i];
        c->index = pp_up_u32(&u);
        c->parent = pp_up_u32(&u);
        c->key = pp_up_u64(&u);
        c->name = pp_up_str(&u);
        c->world = pp_up_u32s(&u, &c->n);
    }
    r->n_syncs = pp_up_count(&u, 3 * sizeof(uint64_t));
    r->syncs = pp_up_array(&u, r->n_syncs, sizeof *r->syncs);
    for (uint32_t i = 0; r->syncs && i < r->n_syncs; i++) {
        r->syncs[i].time = pp_up_u64(&u);
        r->syncs[i].offset = (int64_t)pp_up_u64(&u);
        r->syncs[i].sd = pp_up_f64(&u);
    }
    r->depend_max = pp_up_u32(&u);
    r->metrics = pp_up_strs(&u, &r->n_metrics);
    if (u.failed || u.at != u.end) {
        pp_trace_rank_free(r);
        return -1;
    }
    return 0;
}

static void pp_strs_free(char **s, uint32_t n)
{
    for (uint32_t i = 0; s && i < n; i++)
        free(s[i]);
    free(s);
}

void pp_trace_rank_free(pp_trace_rank *r)
{
    free(r->events);
    free(r->host);
    free(r->program);
    for (uint32_t i = 0; r->regions && i < r->n_regions; i++) {
        pp_trace_region *g = &r->regions[i];
        free((char *)g->name), free((char *)g->file), free((char *)g->paradigm);
        free((char *)g->role), free((char *)g->description);
    }
    free(r->regions);
    pp_strs_free(r->param_names, r->n_params);
    free(r->param_string);
    pp_strs_free(r->values, r->n_values);
    for (uint32_t k = 0; r->teams && k < r->n_teams; k++)
        free(r->teams[k].members);
    free(r->teams);
    for (uint32_t i = 0; r->comms && i < r->n_comms; i++)
        free(r->comms[i].name), free(r->comms[i].world);
    free(r->comms);
    free(r->syncs);
    pp_strs_free(r->metrics, r->n_metrics);
    memset(r, 0, sizeof *r);
}

uint64_t pp_trace_rank_corrected(const pp_trace_sync *s, uint32_t n, uint64_t t)
{
    if (n == 0)
        return t;
    if (n == 1)
        return (uint64_t)((int64_t)t + s[0].offset);
    uint32_t i = 0;
    while (i + 2 < n && t > s[i + 1].time)
        i++;
    double slope = ((double)s[i + 1].offset - (double)s[i].offset) /
                   ((double)s[i + 1].time - (double)s[i].time);
    return (uint64_t)rint((double)t + slope * ((double)t - (double)s[i].time) +
                          (double)s[i].offset);
}

/* ---- a rank's map --------------------------------------------------------------------- */

int pp_trace_jobmap_pack(const pp_trace_jobmap *m, uint8_t **out, size_t *size)
{
    pp_pk p = {0};
    pp_pk_u64(&p, m->loc_offset);
    pp_pk_u32s(&p, m->region, m->n_regions);
    pp_pk_u32s(&p, m->param, m->n_params);
    pp_pk_u32s(&p, m->value, m->n_values);
    pp_pk_u32s(&p, m->team, m->n_teams);
    pp_pk_u32s(&p, m->comm, m->n_comms);
    return pp_pk_done(&p, out, size);
}

int pp_trace_jobmap_unpack(const uint8_t *in, size_t size, pp_trace_jobmap *m)
{
    memset(m, 0, sizeof *m);
    pp_up u = {in, in + size, 0};
    m->loc_offset = pp_up_u64(&u);
    m->region = pp_up_u32s(&u, &m->n_regions);
    m->param = pp_up_u32s(&u, &m->n_params);
    m->value = pp_up_u32s(&u, &m->n_values);
    m->team = pp_up_u32s(&u, &m->n_teams);
    m->comm = pp_up_u32s(&u, &m->n_comms);
    if (u.failed || u.at != u.end) {
        pp_trace_jobmap_free(m);
        return -1;
    }
    return 0;
}

void pp_trace_jobmap_free(pp_trace_jobmap *m)
{
    free(m->region), free(m->param), free(m->value), free(m->team), free(m->comm);
    memset(m, 0, sizeof *m);
}
