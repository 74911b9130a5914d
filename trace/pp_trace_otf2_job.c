/* The job's one archive, written by all ranks together at MPI_Finalize
 * (pp_trace_job.h; doc/trace.md, "Hybrid traces"):
 *
 *   1. every rank opens the archive, the job layer registers OTF2's MPI
 *      collectives with it (OTF2_MPI_Collectives.h), whose calls then come
 *      through pp_trace_job_collectives: OTF2's collective steps use them,
 *      and so do the exchanges below;
 *   2. rank 0 learns every rank's number of threads and tells each its
 *      first location number;
 *   3. every rank converts its own threads' raw records (the converter of a
 *      single process, with the rank's clock and location numbers, MPI
 *      records as MPI events);
 *   4. every rank sends rank 0 its definitions (pp_trace_rankdefs.h); rank
 *      0 unifies them and sends each rank the map of its ids;
 *   5. every rank writes its locations' local definitions (mapping tables,
 *      ClockOffsets); rank 0 writes the global ones;
 *   6. the ranks agree whether all went well; if not, the archive goes.
 *
 * Only OTF2's fixed-size collectives are used (gather, scatter, bcast):
 * OTF2 3.0.2's header computes no displacements on a root of rank 0 in its
 * gatherv and scatterv, so variable amounts travel in rounds of fixed
 * chunks.  A rank that fails locally still takes part in every step. */
#define _GNU_SOURCE
#include "trace/pp_trace_otf2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/pp_message.h"
#include "trace/pp_trace_job.h"

int pp_trace_job_collectives(void *archive, const void *callbacks, void *user_data, void *global,
                             void *local)
{
    pp_trace_jobstate *j = &pp_trace_g.job;
    j->coll_callbacks = callbacks;
    j->coll_data = user_data;
    j->coll_global = global;
    return OTF2_Archive_SetCollectiveCallbacks(archive, callbacks, user_data, global, local);
}

/* ---- exchanges over OTF2's collectives ---------------------------------------------------- */

typedef struct pp_coll {
    const OTF2_CollectiveCallbacks *cb;
    void *data;
    OTF2_CollectiveContext *ctx;
    uint32_t rank, size;
    int failed; /* a collective reported an error */
} pp_coll;

#define PP_COLL_CHUNK ((uint32_t)1 << 16)

static void pp_coll_rc(pp_coll *k, OTF2_CallbackCode rc)
{
    if (rc != OTF2_CALLBACK_SUCCESS)
        k->failed = 1;
}

static void pp_coll_bcast64(pp_coll *k, uint64_t *v, uint32_t n)
{
    pp_coll_rc(k, k->cb->otf2_bcast(k->data, k->ctx, v, n, OTF2_TYPE_UINT64, 0));
}

/* Every rank's v, at rank 0 in all[size]. */
static void pp_coll_gather64(pp_coll *k, uint64_t v, uint64_t *all)
{
    pp_coll_rc(k, k->cb->otf2_gather(k->data, k->ctx, &v, all, 1, OTF2_TYPE_UINT64, 0));
}

/* Whether ok holds on every rank. */
static int pp_coll_all(pp_coll *k, int ok)
{
    uint64_t *all = k->rank == 0 ? calloc(k->size, sizeof *all) : NULL;
    uint64_t v = ok && (k->rank != 0 || all);
    pp_coll_gather64(k, v, all ? all : &v);
    if (k->rank == 0)
        for (uint32_t i = 0; all && i < k->size; i++)
            v &= all[i];
    free(all);
    pp_coll_bcast64(k, &v, 1);
    return v && !k->failed;
}

/* The end of an exchange in rounds: its buffers freed; out, or NULL (freed)
 * when a collective failed. */
static uint8_t *pp_coll_done(pp_coll *k, uint8_t *chunk, uint8_t *round, uint8_t *out)
{
    free(chunk);
    free(round);
    if (k->failed) {
        free(out);
        return NULL;
    }
    return out;
}

/* Every rank's n bytes at rank 0: the concatenation (malloc'ed) and each
 * rank's size; NULL elsewhere, or when any rank failed. */
static uint8_t *pp_coll_gatherv(pp_coll *k, const uint8_t *in, size_t n, uint64_t *sizes)
{
    uint64_t most = n;
    pp_coll_gather64(k, n, sizes);
    uint64_t total = 0;
    if (k->rank == 0) {
        most = 0;
        for (uint32_t i = 0; i < k->size; i++) {
            total += sizes[i];
            most = sizes[i] > most ? sizes[i] : most;
        }
    }
    pp_coll_bcast64(k, &most, 1);
    uint8_t *out = k->rank == 0 ? malloc(total ? total : 1) : NULL;
    uint8_t *chunk = malloc(PP_COLL_CHUNK), *round = k->rank == 0 ? malloc((size_t)k->size *
                                                                           PP_COLL_CHUNK) : NULL;
    if (!pp_coll_all(k, chunk && (k->rank != 0 || (out && round)))) {
        free(out), free(chunk), free(round);
        return NULL;
    }
    /* round r carries bytes [r C, (r + 1) C) of every rank's */
    for (uint64_t at = 0; at < most; at += PP_COLL_CHUNK) {
        uint64_t mine = n > at ? n - at : 0;
        memcpy(chunk, in + (mine ? at : 0), mine < PP_COLL_CHUNK ? mine : PP_COLL_CHUNK);
        pp_coll_rc(k, k->cb->otf2_gather(k->data, k->ctx, chunk, round, PP_COLL_CHUNK,
                                         OTF2_TYPE_UINT8, 0));
        if (k->rank != 0)
            continue;
        uint64_t base = 0;
        for (uint32_t i = 0; i < k->size; i++) {
            if (sizes[i] > at) {
                uint64_t m = sizes[i] - at;
                memcpy(out + base + at, round + (size_t)i * PP_COLL_CHUNK,
                       m < PP_COLL_CHUNK ? m : PP_COLL_CHUNK);
            }
            base += sizes[i];
        }
    }
    return pp_coll_done(k, chunk, round, out);
}

/* Rank 0's parts[i] (sizes[i] bytes) to rank i: this rank's (malloc'ed, *n
 * bytes), NULL when any rank failed. */
static uint8_t *pp_coll_scatterv(pp_coll *k, uint8_t *const *parts, const uint64_t *sizes,
                                 size_t *n)
{
    uint64_t mine = 0, most = 0;
    pp_coll_rc(k, k->cb->otf2_scatter(k->data, k->ctx, sizes, &mine, 1, OTF2_TYPE_UINT64, 0));
    for (uint32_t i = 0; k->rank == 0 && i < k->size; i++)
        most = sizes[i] > most ? sizes[i] : most;
    pp_coll_bcast64(k, &most, 1);
    uint8_t *out = malloc(mine ? mine : 1), *chunk = malloc(PP_COLL_CHUNK);
    uint8_t *round = k->rank == 0 ? malloc((size_t)k->size * PP_COLL_CHUNK) : NULL;
    if (!pp_coll_all(k, out && chunk && (k->rank != 0 || round))) {
        free(out), free(chunk), free(round);
        return NULL;
    }
    for (uint64_t at = 0; at < most; at += PP_COLL_CHUNK) {
        for (uint32_t i = 0; k->rank == 0 && i < k->size; i++)
            if (sizes[i] > at) {
                uint64_t m = sizes[i] - at;
                memcpy(round + (size_t)i * PP_COLL_CHUNK, parts[i] + at,
                       m < PP_COLL_CHUNK ? m : PP_COLL_CHUNK);
            }
        pp_coll_rc(k, k->cb->otf2_scatter(k->data, k->ctx, round, chunk, PP_COLL_CHUNK,
                                          OTF2_TYPE_UINT8, 0));
        if (mine > at)
            memcpy(out + at, chunk, mine - at < PP_COLL_CHUNK ? mine - at : PP_COLL_CHUNK);
    }
    *n = mine;
    return pp_coll_done(k, chunk, round, out);
}

/* ---- a rank's part ----------------------------------------------------------------------- */

int pp_trace_job_convert(pp_trace_conv *c, uint64_t free_share)
{
    const pp_trace_defs *defs = c->defs;
    pp_trace_budget budget = {
        .margin = pp_trace_otf2_definitions_size(defs, c->n_locations) +
                  (uint64_t)c->n_locations * 4096 + 16384,
        .limit = pp_trace_g.fsize_limit == UINT64_MAX ? UINT64_MAX : pp_trace_g.fsize_limit - 4096,
    };
    int status = 0;
    for (pp_trace_buf *b = pp_trace_g.first; b; b = b->next) {
        /* the ranks write at once: each counts on its share of the space */
        budget.free_at_start = free_share;
        if (pp_trace_otf2_location(c, b, &budget) != 0)
            status = -1;
        if (!pp_trace_g.salvage) {
            char raw[PATH_MAX];
            pp_trace_raw_path(b->location, raw, sizeof raw);
            unlink(raw); /* its space is the next thread's */
        }
    }
    return status;
}

static char *pp_dup(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* The string of parameter value j, as the single process's archive writes it. */
static char *pp_trace_job_value(const pp_trace_defs *d, uint32_t j)
{
    const pp_trace_param *v = &d->pset_values[j];
    if (v->is_string)
        return strdup(v->str ? v->str : "");
    char num[32];
    snprintf(num, sizeof num, "%lld", (long long)v->value);
    return strdup(num);
}

int pp_trace_job_summary(const pp_trace_conv *c, const pp_trace_jobstate *j, pp_trace_rank *r)
{
    const pp_trace_defs *d = c->defs;
    memset(r, 0, sizeof *r);
    r->rank = (uint32_t)j->rank;
    r->n_locations = c->n_locations;
    r->events = malloc((c->n_locations ? c->n_locations : 1) * sizeof *r->events);
    for (uint32_t i = 0; r->events && i < c->n_locations; i++)
        r->events[i] = c->defined[i] ? c->events[i] : UINT64_MAX;
    r->pid = d->pid ? d->pid : (long)getpid();
    char host[256] = "localhost";
    if (d->host)
        snprintf(host, sizeof host, "%s", d->host);
    else
        gethostname(host, sizeof host - 1);
    r->host = strdup(host);
    r->program = pp_dup(d->program ? d->program : "program");
    r->ticks_per_second = d->ticks_per_second;
    r->wall_t0 = d->wall_t0;
    r->t0 = pp_trace_clock(j, pp_trace_g.t0);
    r->n_syncs = j->n_syncs;
    r->syncs = malloc((j->n_syncs ? j->n_syncs : 1) * sizeof *r->syncs);
    if (r->syncs)
        memcpy(r->syncs, j->syncs, j->n_syncs * sizeof *r->syncs);
    r->t_first = pp_trace_rank_corrected(j->syncs, j->n_syncs, r->t0);
    r->t_last = pp_trace_rank_corrected(j->syncs, j->n_syncs, c->t_end);
    int failed = !r->events || !r->host || !r->program || !r->syncs;
    r->n_regions = d->n_regions + 2;
    r->regions = calloc(r->n_regions, sizeof *r->regions);
    for (uint32_t i = 0; r->regions && i < r->n_regions; i++) {
        const pp_trace_region *g = i < d->n_regions ? &d->regions[i]
                                   : i == d->n_regions ? &pp_trace_flush_region
                                                       : &pp_trace_start_region;
        r->regions[i] = (pp_trace_region){pp_dup(g->name), pp_dup(g->file), pp_dup(g->paradigm),
                                          pp_dup(g->role), pp_dup(g->description), g->begin_line,
                                          g->end_line};
    }
    failed |= !r->regions;
    r->n_params = d->n_params;
    r->param_names = calloc(d->n_params ? d->n_params : 1, sizeof *r->param_names);
    r->param_string = calloc(d->n_params ? d->n_params : 1, 1);
    for (uint32_t i = 0; r->param_names && r->param_string && i < d->n_params; i++) {
        r->param_names[i] = pp_dup(d->param_names[i]);
        r->param_string[i] = (uint8_t)pp_trace_param_is_string(d, i);
    }
    r->n_values = d->pset_first ? d->pset_first[d->n_psets] : 0;
    r->values = calloc(r->n_values ? r->n_values : 1, sizeof *r->values);
    for (uint32_t v = 0; r->values && v < r->n_values; v++)
        failed |= !(r->values[v] = pp_trace_job_value(d, v));
    failed |= !r->param_names || !r->param_string || !r->values;
    r->n_teams = c->n_teams;
    r->teams = calloc(c->n_teams ? c->n_teams : 1, sizeof *r->teams);
    for (uint32_t k = 0; r->teams && k < c->n_teams; k++) {
        pp_trace_team_def *t = &r->teams[k];
        t->region = c->teams[k].region;
        t->members = malloc((c->n_locations ? c->n_locations : 1) * sizeof *t->members);
        for (uint32_t i = 0; t->members && i < c->n_locations; i++)
            if (c->teams[k].member[i])
                t->members[t->n++] = i;
        failed |= !t->members;
    }
    failed |= !r->teams;
    r->n_comms = j->n_comms;
    r->comms = calloc(j->n_comms ? j->n_comms : 1, sizeof *r->comms);
    for (uint32_t i = 0; r->comms && i < j->n_comms; i++) {
        const pp_trace_comm *s = &j->comms[i];
        if (!s->n)
            continue;
        pp_trace_comm *t = &r->comms[i];
        *t = (pp_trace_comm){s->index, s->parent, s->key, pp_dup(s->name), s->n,
                             malloc(s->n * sizeof *s->world)};
        if (t->world)
            memcpy(t->world, s->world, s->n * sizeof *s->world);
        failed |= !t->world || !t->name;
    }
    failed |= !r->comms;
    r->depend_max = c->depend_max;
    r->n_metrics = d->n_metrics;
    r->metrics = calloc(d->n_metrics ? d->n_metrics : 1, sizeof *r->metrics);
    for (uint32_t i = 0; r->metrics && i < d->n_metrics; i++)
        r->metrics[i] = pp_dup(d->metrics[i]);
    failed |= !r->metrics;
    return failed ? -1 : 0;
}

void pp_trace_job_remove(uint64_t first, uint32_t n, int global)
{
    char path[PATH_MAX];
    for (uint32_t i = 0; i < n; i++) {
        pp_trace_path(path, sizeof path, "%s/%s/%llu.evt", pp_trace_g.dir, pp_trace_g.name,
                      (unsigned long long)(first + i));
        unlink(path);
        pp_trace_path(path, sizeof path, "%s/%s/%llu.def", pp_trace_g.dir, pp_trace_g.name,
                      (unsigned long long)(first + i));
        unlink(path);
    }
    if (!global)
        return;
    unlink(pp_trace_g.anchor);
    pp_trace_path(path, sizeof path, "%s/%s.def", pp_trace_g.dir, pp_trace_g.name);
    unlink(path);
    pp_trace_path(path, sizeof path, "%s/%s", pp_trace_g.dir, pp_trace_g.name);
    rmdir(path);
}

/* ---- the whole ------------------------------------------------------------------------------ */

/* Rank 0: every rank's definitions (packed, concatenated) unified, written
 * as the global definitions; each rank's map packed into maps[i]. */
static int pp_trace_job_unify_root(OTF2_Archive *archive, const uint8_t *all,
                                   const uint64_t *sizes, uint32_t n, uint8_t **maps,
                                   uint64_t *map_sizes)
{
    pp_trace_rank *ranks = calloc(n, sizeof *ranks);
    int rc = ranks ? 0 : -1;
    uint64_t at = 0;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        if (pp_trace_rank_unpack(all + at, sizes[i], &ranks[i]) != 0)
            rc = -1;
        at += sizes[i];
    }
    pp_trace_jobdefs u;
    if (rc == 0 && pp_trace_unify(ranks, n, n, &u) == 0) {
        for (uint32_t i = 0; i < n; i++) {
            size_t m = 0;
            if (pp_trace_jobmap_pack(&u.maps[i], &maps[i], &m) != 0)
                rc = -1;
            map_sizes[i] = m;
        }
        if (rc == 0)
            rc = pp_trace_otf2_job_globals(archive, &u) == 0 ? 0 : -1;
        pp_trace_jobdefs_free(&u);
    } else {
        rc = -1;
    }
    for (uint32_t i = 0; ranks && i < n; i++)
        pp_trace_rank_free(&ranks[i]);
    free(ranks);
    return rc;
}

static double pp_trace_job_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Step 2 of the job's archive: the first location number of each rank,
 * gathered on rank 0 and scattered back (c->loc_offset).  Whether every
 * rank took part. */
static int pp_trace_job_offsets(pp_trace_conv *c, pp_coll *k)
{
    uint64_t *counts = calloc(k->size, sizeof *counts);
    if (!pp_coll_all(k, counts != NULL)) {
        free(counts);
        return 0;
    }
    pp_coll_gather64(k, c->n_locations, counts);
    if (k->rank == 0) {
        for (uint32_t i = 1; i < k->size; i++)
            counts[i] += counts[i - 1];
        for (uint32_t i = k->size; i > 0; i--)
            counts[i - 1] = i > 1 ? counts[i - 2] : 0;
    }
    pp_coll_rc(k, k->cb->otf2_scatter(k->data, k->ctx, counts, &c->loc_offset, 1,
                                       OTF2_TYPE_UINT64, 0));
    free(counts);
    return 1;
}

/* Step 4: this rank's definitions to rank 0, which unifies them and writes
 * the global ones; the map of each rank's ids back to it (*map_bytes, its
 * size; NULL when a rank failed).  Whether all went well. */
static int pp_trace_job_exchange(pp_trace_conv *c, pp_trace_jobstate *j, pp_coll *k, int failed,
                                 uint8_t **map_bytes, size_t *map_size)
{
    pp_trace_rank mine = {0};
    uint8_t *packed = NULL;
    size_t packed_size = 0;
    if (failed || pp_trace_job_summary(c, j, &mine) != 0 ||
        pp_trace_rank_pack(&mine, &packed, &packed_size) != 0)
        failed = 1;
    pp_trace_rank_free(&mine);
    uint64_t *sizes = j->rank == 0 ? calloc(k->size, sizeof *sizes) : NULL;
    uint64_t *map_sizes = j->rank == 0 ? calloc(k->size, sizeof *map_sizes) : NULL;
    uint8_t **maps = j->rank == 0 ? calloc(k->size, sizeof *maps) : NULL;
    int ok = pp_coll_all(k, !failed && (j->rank != 0 || (sizes && map_sizes && maps)));
    uint8_t *all = ok ? pp_coll_gatherv(k, packed, packed_size, sizes) : NULL;
    free(packed);
    int root_ok = 1;
    if (ok && j->rank == 0)
        root_ok = all &&
                  pp_trace_job_unify_root(c->archive, all, sizes, k->size, maps, map_sizes) == 0;
    free(all);
    ok = ok && pp_coll_all(k, root_ok);
    *map_size = 0;
    *map_bytes = ok ? pp_coll_scatterv(k, maps, map_sizes, map_size) : NULL;
    for (uint32_t i = 0; maps && i < k->size; i++)
        free(maps[i]);
    free(maps), free(sizes), free(map_sizes);
    return ok;
}

/* Step 5: the rank's local definitions (the global ones rank 0 wrote in
 * step 4), translated by the map.  Whether it failed. */
static int pp_trace_job_local_defs(pp_trace_conv *c, pp_trace_jobstate *j, uint8_t *map_bytes,
                                   size_t map_size)
{
    pp_trace_jobmap map;
    int have_map = map_bytes && pp_trace_jobmap_unpack(map_bytes, map_size, &map) == 0;
    int failed = !have_map;
    failed |= OTF2_Archive_OpenDefFiles(c->archive) != OTF2_SUCCESS;
    if (have_map) {
        pp_trace_rank defs_r;
        if (pp_trace_job_summary(c, j, &defs_r) != 0 ||
            pp_trace_otf2_job_locals(c->archive, &defs_r, &map) != 0)
            failed = 1;
        pp_trace_rank_free(&defs_r);
        pp_trace_jobmap_free(&map);
    }
    failed |= OTF2_Archive_CloseDefFiles(c->archive) != OTF2_SUCCESS;
    return failed;
}

/* Step 6's verdict, said once: -1 (nothing written: the files removed), 1
 * (written, cut short by the disk or a stop), 0 (whole). */
static int pp_trace_job_outcome(pp_trace_conv *c, pp_trace_jobstate *j, int ok)
{
    if (!ok) {
        pp_trace_job_remove(c->loc_offset, c->n_locations, j->rank == 0);
        if (j->rank == 0)
            pp_message_warn("trace: the job's trace could not be written (a rank failed or the "
                            "OTF2 library reported an error); no trace is written (the profile "
                            "is not affected)");
        return -1;
    }
    if (c->cut_locations) {
        pp_message_warn("trace: rank %d: not enough disk space for its whole trace; %s ends "
                        "%.3f s into the run on %llu of its threads and is complete up to there",
                        j->rank, pp_trace_g.anchor, c->cut_at,
                        (unsigned long long)c->cut_locations);
        return 1;
    }
    return __atomic_load_n(&pp_trace_g.stopped, __ATOMIC_ACQUIRE) ? 1 : 0;
}

/* Step 1: the archive opened by every rank, with OTF2's MPI collectives;
 * NULL (the rank's records left for pompprof-salvage, said once) when that
 * fails. */
static OTF2_Archive *pp_trace_job_open(pp_trace_jobstate *j)
{
    OTF2_Archive *archive =
        OTF2_Archive_Open(pp_trace_g.dir, pp_trace_g.name, OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    /* without the collectives nothing can be written together (nor agreed) */
    if (!archive ||
        OTF2_Archive_SetFlushCallbacks(archive, (OTF2_FlushCallbacks *)&pp_trace_flush_callbacks,
                                       NULL) != OTF2_SUCCESS ||
        !j->set_collectives || j->set_collectives(archive, j->user) != 0 || !j->coll_callbacks) {
        if (archive)
            OTF2_Archive_Close(archive);
        pp_message_warn("trace: rank %d cannot write the job's trace with the other ranks; its "
                        "records stay for pompprof-salvage",
                        j->rank);
        return NULL;
    }
    return archive;
}

int pp_trace_write_job_archive(const pp_trace_defs *defs)
{
    pp_trace_jobstate *j = &pp_trace_g.job;
    double t_start = pp_trace_job_clock();
    char why[512];
    if (pp_trace_otf2_load(why, sizeof why) != 0) {
        pp_message_warn("trace: cannot load the OTF2 library (%s); no trace is written", why);
        return -1;
    }
    pp_trace_conv c = {.defs = defs, .flush_region = defs->n_regions, .job = j};
    for (pp_trace_buf *b = pp_trace_g.first; b; b = b->next)
        if (b->location + 1 > c.n_locations)
            c.n_locations = b->location + 1;
    uint64_t stop = __atomic_load_n(&pp_trace_g.stop_time, __ATOMIC_ACQUIRE);
    c.t_end = pp_trace_clock(j, defs->t_end < stop ? defs->t_end : stop);
    c.events = calloc(c.n_locations + 1, sizeof *c.events);
    c.defined = calloc(c.n_locations + 1, 1);
    int failed = !c.events || !c.defined;
    if (pp_trace_g.reserve[0])
        unlink(pp_trace_g.reserve);
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(pp_trace_otf2_error, &c);
    if (!(c.archive = pp_trace_job_open(j))) {
        OTF2_Error_RegisterCallback(previous, NULL);
        pp_trace_conv_free(&c);
        j->together = 0;
        return pp_trace_job_leave(defs->t_end);
    }
    pp_coll k = {j->coll_callbacks, j->coll_data, j->coll_global, (uint32_t)j->rank,
                 (uint32_t)j->size, 0};
    if (j->rank == 0) {
        OTF2_Archive_SetCreator(c.archive, "pompprof " PACKAGE_VERSION);
        pp_trace_write_facts(&c, defs);
        char ranks[16];
        snprintf(ranks, sizeof ranks, "%d", j->size);
        OTF2_Archive_SetProperty(c.archive, "POMPPROF::RANKS", ranks, true);
    }
    failed |= OTF2_Archive_OpenEvtFiles(c.archive) != OTF2_SUCCESS;
    failed |= !pp_trace_job_offsets(&c, &k);
    /* 3: this rank's threads */
    if (!failed) {
        pp_trace_otf2_event_sizes(&c);
        if (pp_trace_job_convert(&c, pp_trace_free_bytes() / (uint64_t)j->size) != 0)
            pp_message_warn("trace: rank %d: a raw trace file could not be read back; the job's "
                            "trace lacks the events that were in it",
                            j->rank);
    }
    failed |= OTF2_Archive_CloseEvtFiles(c.archive) != OTF2_SUCCESS;
    double t_events = pp_trace_job_clock();
    uint8_t *map_bytes;
    size_t map_size;
    int ok = pp_trace_job_exchange(&c, j, &k, failed, &map_bytes, &map_size);
    failed |= !ok;
    failed |= pp_trace_job_local_defs(&c, j, map_bytes, map_size);
    free(map_bytes);
    /* 6: all or nothing */
    ok = pp_coll_all(&k, !failed && !c.otf2_failed);
    if (OTF2_Archive_Close(c.archive) != OTF2_SUCCESS)
        ok = 0;
    OTF2_Error_RegisterCallback(previous, NULL);
    int status = pp_trace_job_outcome(&c, j, ok);
    if (ok && j->rank == 0) {
        double t_end = pp_trace_job_clock();
        pp_message_verbose(1, "the job's trace of %d ranks written in %.6f s (rank 0's events "
                              "%.6f s, the definitions %.6f s): %s",
                           j->size, t_end - t_start, t_events - t_start, t_end - t_events,
                           pp_trace_g.anchor);
    }
    pp_trace_conv_free(&c);
    return status;
}
