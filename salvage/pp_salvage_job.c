/* pompprof-salvage for a job (doc/trace.md, "Hybrid traces"): when the
 * ranks of a traced MPI job did not reach MPI_Finalize together (a rank
 * killed, MPI_Abort, the launcher ending the others), each rank left its
 * raw files in DIR/<name>.raw/rank<r>: what it flushed, and, for a rank
 * that ended by exit(), a signal or MPI_Abort, everything it held.  This
 * makes the job's one archive of them, as the ranks would have written it
 * together: each rank's threads converted with its clock and location
 * numbers, the ranks' definitions unified, each rank's mapping tables and
 * ClockOffsets (pp_trace_rankdefs.h) written for it, all in this process.
 *
 * A rank whose directory is missing or holds no record is named missing:
 * in one line on stderr and in the archive's properties POMPPROF::END and
 * POMPPROF::MISSING_RANKS.  The raw files go only once the archive is
 * complete. */
#define _GNU_SOURCE
#include "salvage/pp_salvage.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "trace/pp_trace_otf2.h"

int pp_salvage_is_job(const char *raw_dir)
{
    DIR *dh = opendir(raw_dir);
    int job = 0;
    struct dirent *e;
    while (dh && !job && (e = readdir(dh)))
        job = !strncmp(e->d_name, "rank", 4) && e->d_name[4] >= '0' && e->d_name[4] <= '9';
    if (dh)
        closedir(dh);
    return job;
}

int pp_salvage_job_line(pp_salvage_defs *d, char **f, unsigned n)
{
    pp_trace_jobstate *j = d->job;
    if (!strcmp(f[0], "job") && n == 3) {
        j->rank = atoi(f[1]);
        j->size = atoi(f[2]);
        j->active = 1;
    } else if (!strcmp(f[0], "skew") && n == 4) {
        j->skew_offset = strtod(f[1], NULL);
        j->skew_drift = strtod(f[2], NULL);
        j->skew_base = strtoull(f[3], NULL, 10);
        j->skewed = 1;
    } else if (!strcmp(f[0], "sync") && n == 4) {
        if (j->n_syncs < PP_TRACE_SYNCS)
            j->syncs[j->n_syncs++] = (pp_trace_sync){strtoull(f[1], NULL, 10),
                                                     strtoll(f[2], NULL, 10), strtod(f[3], NULL)};
    } else if (!strcmp(f[0], "comm") && n == 6) {
        uint32_t members = 1;
        for (const char *p = f[5]; *p; p++)
            members += *p == ',';
        uint32_t *world = malloc(members * sizeof *world);
        if (!world)
            return -1;
        uint32_t k = 0;
        for (char *p = f[5], *end; *p && k < members; p = *end ? end + 1 : end)
            world[k++] = (uint32_t)strtoul(p, &end, 10);
        int rc = pp_trace_job_comm_keep(j, (uint32_t)strtoul(f[1], NULL, 10),
                                        (uint32_t)strtoul(f[2], NULL, 10),
                                        strtoull(f[3], NULL, 10), f[4], world, k);
        free(world);
        return rc < 0 ? -1 : 1;
    } else if (!strcmp(f[0], "end") && n == 2) {
        d->job_end = strtoull(f[1], NULL, 10);
    } else {
        return 0;
    }
    return 1;
}

/* ---- one rank ------------------------------------------------------------------------------ */

typedef struct pp_salvage_rank {
    int rank;
    pp_salvage_defs d;
    pp_trace_jobstate job;
    pp_trace_buf *first;  /* its threads' raw files */
    uint64_t t_last, records;
    uint32_t max_region, n_locations;
    char dir[PATH_MAX];
} pp_salvage_rank;

/* Read rank directory dir: 0, or -1 (said why). */
static int pp_salvage_rank_read(pp_salvage_rank *k, const char *dir)
{
    char path[PATH_MAX + 64], why[PATH_MAX + 256];
    snprintf(k->dir, sizeof k->dir, "%s", dir);
    snprintf(path, sizeof path, "%s/defs", dir);
    k->d.job = &k->job;
    if (pp_salvage_defs_read(path, &k->d, why, sizeof why) != 0) {
        fprintf(stderr, "pompprof-salvage: %s\n", why);
        return -1;
    }
    if (pp_salvage_process_alive(k->d.pid, &k->d)) {
        fprintf(stderr, "pompprof-salvage: process %ld (rank %d), which writes %s, is still "
                        "running: the job's trace is converted when it ends\n",
                k->d.pid, k->rank, dir);
        return -1;
    }
    DIR *dh = opendir(dir);
    if (!dh)
        return -1;
    k->t_last = k->d.t0;
    k->max_region = UINT32_MAX;
    struct dirent *e;
    while ((e = readdir(dh))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".raw") || e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        pp_trace_buf *b = pp_salvage_raw(path, &k->t_last, &k->max_region, &k->records);
        if (!b)
            continue;
        pp_trace_buf **at = &k->first;
        while (*at && (*at)->location < b->location)
            at = &(*at)->next;
        b->next = *at;
        *at = b;
        if (b->location + 1 > k->n_locations)
            k->n_locations = b->location + 1;
    }
    closedir(dh);
    if (k->d.job_end > k->t_last)
        k->t_last = k->d.job_end;
    /* regions the records name but the definitions lack get their number */
    if (k->max_region != UINT32_MAX && pp_salvage_defs_regions(&k->d, k->max_region + 1) != 0)
        return -1;
    for (uint32_t i = 0; i < k->d.n_regions; i++)
        if (!k->d.regions[i].name) {
            char name[48];
            snprintf(name, sizeof name, "region %u (not saved)", i);
            k->d.regions[i] = (pp_trace_region){.name = strdup(name), .paradigm = strdup("user"),
                                                .role = strdup("unknown"), .begin_line = -1,
                                                .end_line = -1};
        }
    return 0;
}

static void pp_salvage_rank_free(pp_salvage_rank *k)
{
    for (pp_trace_buf *b = k->first, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    for (uint32_t i = 0; i < k->job.n_comms; i++)
        free(k->job.comms[i].name), free(k->job.comms[i].world);
    free(k->job.comms);
    pp_salvage_defs_free(&k->d);
}

/* Convert rank k's threads into the archive (its locations from loc_offset)
 * and make its definitions: 0, or -1. */
static int pp_salvage_rank_convert(OTF2_Archive *archive, pp_salvage_rank *k, uint64_t loc_offset,
                                   pp_trace_rank *out)
{
    pp_trace_state *g = &pp_trace_g;
    snprintf(g->raw_dir, sizeof g->raw_dir, "%s", k->dir);
    g->first = k->first;
    g->t0 = k->d.t0;
    k->job.rank = k->rank;
    pp_trace_defs defs = {
        .regions = k->d.regions, .n_regions = k->d.n_regions,
        .metrics = (const char *const *)k->d.metrics, .n_metrics = k->d.n_metrics,
        .program = k->d.program, .pid = k->d.pid, .t_end = k->t_last,
        .ticks_per_second = k->d.ticks_per_second, .wall_t0 = k->d.wall_t0,
        .fact_keys = (const char *const *)k->d.fact_keys,
        .fact_values = (const char *const *)k->d.fact_values, .n_facts = k->d.n_facts,
    };
    for (uint32_t i = 0; i < k->d.n_facts; i++)
        if (!strcmp(k->d.fact_keys[i], "host"))
            defs.host = k->d.fact_values[i];
    pp_trace_conv c = {.archive = archive, .defs = &defs, .flush_region = defs.n_regions,
                       .job = &k->job, .loc_offset = loc_offset, .n_locations = k->n_locations,
                       .t_end = pp_trace_clock(&k->job, k->t_last)};
    c.events = calloc(c.n_locations + 1, sizeof *c.events);
    c.defined = calloc(c.n_locations + 1, 1);
    int rc = -1;
    if (c.events && c.defined) {
        pp_trace_otf2_event_sizes(&c);
        rc = pp_trace_job_convert(&c, UINT64_MAX / 4) == 0 &&
                     pp_trace_job_summary(&c, &k->job, out) == 0
                 ? 0
                 : -1;
    }
    if (c.otf2_failed)
        rc = -1;
    pp_trace_conv_free(&c);
    g->first = NULL;
    return rc;
}

/* ---- the job -------------------------------------------------------------------------------- */

/* The archive's properties: the run's facts (the lowest rank's), and how it ended. */
static void pp_salvage_job_facts(OTF2_Archive *archive, pp_salvage_rank *k, const char *end,
                                 const char *missing, const char *cut, int size)
{
    char ranks[16];
    snprintf(ranks, sizeof ranks, "%d", size);
    if (pp_salvage_defs_fact(&k->d, "end", end) != 0 ||
        pp_salvage_defs_fact(&k->d, "salvaged", "1") != 0 ||
        pp_salvage_defs_fact(&k->d, "missing_ranks", *missing ? missing : "none") != 0 ||
        pp_salvage_defs_fact(&k->d, "cut_ranks", *cut ? cut : "none") != 0 ||
        pp_salvage_defs_fact(&k->d, "ranks", ranks) != 0)
        return;
    pp_trace_defs defs = {.fact_keys = (const char *const *)k->d.fact_keys,
                          .fact_values = (const char *const *)k->d.fact_values,
                          .n_facts = k->d.n_facts};
    pp_trace_conv c = {.archive = archive};
    pp_trace_write_facts(&c, &defs);
}

int pp_salvage_job(const char *raw_dir)
{
    pp_trace_state *g = &pp_trace_g;
    char why[512];
    if (pp_trace_otf2_load(why, sizeof why) != 0) {
        fprintf(stderr, "pompprof-salvage: cannot load the OTF2 library (%s)\n", why);
        return 2;
    }
    /* the ranks' directories, by rank */
    int size = 0, n = 0, cap = 0;
    pp_salvage_rank *ranks = NULL;
    DIR *dh = opendir(raw_dir);
    struct dirent *e;
    while (dh && (e = readdir(dh))) {
        char *end;
        long r = !strncmp(e->d_name, "rank", 4) ? strtol(e->d_name + 4, &end, 10) : -1;
        if (r < 0 || end == e->d_name + 4 || *end)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            ranks = realloc(ranks, (size_t)cap * sizeof *ranks);
            if (!ranks)
                return 2;
        }
        memset(&ranks[n], 0, sizeof ranks[n]);
        ranks[n].rank = (int)r;
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s/%s", raw_dir, e->d_name);
        if (pp_salvage_rank_read(&ranks[n], dir) != 0) {
            closedir(dh);
            return 2;
        }
        if (ranks[n].job.size > size)
            size = ranks[n].job.size;
        n++;
    }
    if (dh)
        closedir(dh);
    /* by rank; the ranks without records are missing */
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && ranks[k - 1].rank > ranks[k].rank; k--) {
            pp_salvage_rank t = ranks[k];
            ranks[k] = ranks[k - 1];
            ranks[k - 1] = t;
        }
    /* missing: no records; cut: records, but it died before writing what it
     * held (a rank that ended alone wrote an "end" line) */
    char missing[1024] = "", cut[1024] = "";
    size_t at = 0, at_cut = 0;
    for (int r = 0; r < size && at < sizeof missing - 16 && at_cut < sizeof cut - 16; r++) {
        const pp_salvage_rank *k = NULL;
        for (int i = 0; i < n; i++)
            if (ranks[i].rank == r && ranks[i].records > 0)
                k = &ranks[i];
        if (!k)
            at += (size_t)snprintf(missing + at, sizeof missing - at, "%s%d", at ? ", " : "", r);
        else if (!k->d.job_end)
            at_cut += (size_t)snprintf(cut + at_cut, sizeof cut - at_cut, "%s%d",
                                       at_cut ? ", " : "", r);
    }
    int present = 0;
    for (int i = 0; i < n; i++)
        present += ranks[i].records > 0;
    if (!present) {
        fprintf(stderr, "pompprof-salvage: no rank of the job wrote a record to disk before it "
                        "ended: nothing to salvage; remove %s\n", raw_dir);
        return 2;
    }
    /* the archive: this process writes every rank's part */
    g->active = g->salvage = 1;
    g->pid = getpid();
    g->save_fd = -1;
    struct rlimit rl;
    g->fsize_limit = getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                         ? (uint64_t)rl.rlim_cur
                         : UINT64_MAX;
    pp_trace_conv top = {0};
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(pp_trace_otf2_error, &top);
    OTF2_Archive *archive = OTF2_Archive_Open(g->dir, g->name, OTF2_FILEMODE_WRITE, 1 << 20,
                                              4 << 20, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    int failed = !archive ||
                 OTF2_Archive_SetFlushCallbacks(archive,
                                                (OTF2_FlushCallbacks *)&pp_trace_flush_callbacks,
                                                NULL) != OTF2_SUCCESS ||
                 OTF2_Archive_SetSerialCollectiveCallbacks(archive) != OTF2_SUCCESS ||
                 OTF2_Archive_SetCreator(archive, "pompprof " PACKAGE_VERSION) != OTF2_SUCCESS ||
                 OTF2_Archive_OpenEvtFiles(archive) != OTF2_SUCCESS;
    pp_trace_rank *defs = calloc((size_t)n, sizeof *defs);
    int n_defs = 0;
    uint64_t loc_offset = 0, t_first = UINT64_MAX, t_last = 0;
    double tps = 0;
    for (int i = 0; !failed && i < n; i++) {
        if (!ranks[i].records)
            continue;
        if (!defs || pp_salvage_rank_convert(archive, &ranks[i], loc_offset, &defs[n_defs]) != 0) {
            failed = 1;
            break;
        }
        loc_offset += defs[n_defs].n_locations;
        if (!tps)
            tps = defs[n_defs].ticks_per_second;
        t_first = defs[n_defs].t_first < t_first ? defs[n_defs].t_first : t_first;
        t_last = defs[n_defs].t_last > t_last ? defs[n_defs].t_last : t_last;
        n_defs++;
    }
    failed |= !archive || OTF2_Archive_CloseEvtFiles(archive) != OTF2_SUCCESS;
    pp_trace_jobdefs u;
    int unified = !failed && pp_trace_unify(defs, (uint32_t)n_defs, (uint32_t)size, &u) == 0;
    failed |= !unified;
    if (!failed) {
        failed |= OTF2_Archive_OpenDefFiles(archive) != OTF2_SUCCESS;
        for (int i = 0; !failed && i < n_defs; i++)
            failed |= pp_trace_otf2_job_locals(archive, &defs[i], &u.maps[i]) != 0;
        failed |= OTF2_Archive_CloseDefFiles(archive) != OTF2_SUCCESS;
        failed |= pp_trace_otf2_job_globals(archive, &u) != 0;
    }
    double seconds = tps > 0 && t_last > t_first ? (double)(t_last - t_first) / tps : 0;
    if (!failed) {
        char end[2600];
        snprintf(end, sizeof end, "interrupted: the job's trace salvaged from the ranks' raw "
                 "files by pompprof-salvage; %s%s%s%s%s%sends %.3f s into the run, at the last "
                 "record on disk", *missing ? "missing rank(s) " : "", missing,
                 *missing ? " (no records on disk); " : "", *cut ? "rank(s) " : "", cut,
                 *cut ? " cut short (killed: their last records died with them); " : "",
                 seconds);
        for (int i = 0; i < n; i++)
            if (ranks[i].records) {
                pp_salvage_job_facts(archive, &ranks[i], end, missing, cut, size);
                break;
            }
    }
    if (unified)
        pp_trace_jobdefs_free(&u);
    for (int i = 0; i < n_defs; i++)
        pp_trace_rank_free(&defs[i]);
    free(defs);
    if (archive && OTF2_Archive_Close(archive) != OTF2_SUCCESS)
        failed = 1;
    OTF2_Error_RegisterCallback(previous, NULL);
    failed |= top.otf2_failed;
    if (failed) {
        pp_trace_job_remove(0, (uint32_t)loc_offset, 1);
        fprintf(stderr, "pompprof-salvage: the job's archive could not be written; %s is left "
                        "as it was\n", raw_dir);
    } else {
        /* complete: the raw files go */
        char path[PATH_MAX + 64];
        for (int i = 0; i < n; i++) {
            for (pp_trace_buf *b = ranks[i].first; b; b = b->next) {
                snprintf(path, sizeof path, "%s/%u.raw", ranks[i].dir, b->location);
                unlink(path);
            }
            const char *extra[] = {"defs", "reserve"};
            for (int k = 0; k < 2; k++) {
                snprintf(path, sizeof path, "%s/%s", ranks[i].dir, extra[k]);
                unlink(path);
            }
            rmdir(ranks[i].dir);
        }
        rmdir(raw_dir);
        fprintf(stderr, "pompprof-salvage: a job of %d ranks: salvaged the raw files of %d "
                        "rank(s)%s%s%s%s%s%s\n", size, present,
                *missing ? "; missing: rank(s) " : "", missing,
                *missing ? " (no records on disk: killed before a buffer was written)" : "",
                *cut ? "; cut short: rank(s) " : "", cut,
                *cut ? " (killed: the records it still held are lost)" : "");
        printf("%s\n%.6f\n", g->anchor, seconds);
    }
    for (int i = 0; i < n; i++)
        pp_salvage_rank_free(&ranks[i]);
    free(ranks);
    return failed ? 2 : 0;
}
