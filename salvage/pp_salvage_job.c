/* pompprof-salvage for a job (doc/trace.md, "Hybrid traces"): when the
 * ranks of a traced MPI job did not reach MPI_Finalize together (a rank
 * killed or crashed, MPI_Abort, the launcher ending the others), each rank
 * left its raw files in DIR/<name>.raw/rank<r>: what it flushed; for a
 * rank that ended by exit(), a signal or MPI_Abort, everything it held;
 * for one that crashed, the tails its crash handler saved.  The trace layer
 * makes the job's one archive of them (pp_trace_resume_job_*), as the
 * ranks would have written it together.
 *
 * A rank whose directory is missing or holds no record is named missing;
 * one with records that neither wrote all it held nor had its buffers
 * saved by a crash handler is named cut short, with its threads' ends.
 * Both in one line on stderr and in the archive's properties POMPPROF::END,
 * POMPPROF::MISSING_RANKS and POMPPROF::CUT_RANKS.  The raw files go only
 * once the archive is complete. */
#define _GNU_SOURCE
#include "salvage/pp_salvage.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ---- the ranks ------------------------------------------------------------------------------ */

typedef struct pp_salvage_rank {
    int rank;
    pp_salvage_defs d;
    pp_trace_resume *r;
    pp_salvage_sum sum;   /* its threads, records, last record */
    uint64_t t_last;      /* its last record, or its end */
    int cut;              /* killed with records, part of what it held lost */
} pp_salvage_rank;

typedef struct pp_salvage_ranks {
    pp_salvage_rank *k;   /* by rank */
    int n, size;          /* directories; the job's ranks */
    int present;          /* ranks with records */
    char missing[1024], cut[1024]; /* "1, 3" */
} pp_salvage_ranks;

/* Read rank directory dir into k (exits when it cannot be, or when the
 * rank's process still runs). */
static void pp_salvage_rank_read(pp_salvage_rank *k, const char *dir)
{
    char path[PATH_MAX + 64], why[PATH_MAX + 256];
    k->r = pp_salvage_check(pp_trace_resume_new(dir));
    snprintf(path, sizeof path, "%s/defs", dir);
    if (pp_salvage_defs_read(path, &k->d, k->r, why, sizeof why) != 0)
        pp_salvage_die("%s", why);
    if (pp_salvage_process_alive(k->d.pid, pp_salvage_defs_fact_of(&k->d, "host")))
        pp_salvage_die("process %ld (rank %d), which writes %s, is still running: the job's "
                       "trace is converted when it ends", k->d.pid, k->rank, dir);
    if (pp_trace_resume_scan(k->r) != 0)
        pp_salvage_die("%s: %s", dir, strerror(errno));
    k->sum = pp_salvage_sum_of(k->r, k->d.t0);
    uint64_t end = pp_trace_resume_job_end(k->r);
    k->t_last = end > k->sum.last ? end : k->sum.last;
    /* an "end" line: it wrote all it held; tails for all threads: a crash saved it */
    k->cut = k->sum.records > 0 && !end && k->sum.unsaved > 0;
    pp_salvage_defs_complete(&k->d, pp_trace_resume_max_region(k->r));
}

/* Every rank<r> directory of raw_dir, read, by rank. */
static void pp_salvage_ranks_read(const char *raw_dir, pp_salvage_ranks *j)
{
    int cap = 0;
    DIR *dh = opendir(raw_dir);
    if (!dh)
        pp_salvage_die("%s: %s", raw_dir, strerror(errno));
    struct dirent *e;
    while ((e = readdir(dh))) {
        char *end;
        long r = !strncmp(e->d_name, "rank", 4) ? strtol(e->d_name + 4, &end, 10) : -1;
        if (r < 0 || end == e->d_name + 4 || *end)
            continue;
        if (j->n == cap) {
            cap = cap ? 2 * cap : 16;
            j->k = pp_salvage_check(realloc(j->k, (size_t)cap * sizeof *j->k));
        }
        int i = j->n++;
        for (; i > 0 && j->k[i - 1].rank > r; i--)
            j->k[i] = j->k[i - 1];
        memset(&j->k[i], 0, sizeof j->k[i]);
        j->k[i].rank = (int)r;
        char dir[PATH_MAX + 32];
        snprintf(dir, sizeof dir, "%s/rank%ld", raw_dir, r);
        pp_salvage_rank_read(&j->k[i], dir);
        if (pp_trace_resume_job_size(j->k[i].r) > j->size)
            j->size = pp_trace_resume_job_size(j->k[i].r);
    }
    closedir(dh);
}

/* The ranks missing (no records) and cut short, as lists "1, 3". */
static void pp_salvage_ranks_classify(pp_salvage_ranks *j)
{
    size_t at = 0, at_cut = 0;
    for (int r = 0; r < j->size && at + 16 < sizeof j->missing && at_cut + 16 < sizeof j->cut;
         r++) {
        const pp_salvage_rank *k = NULL;
        for (int i = 0; i < j->n; i++)
            if (j->k[i].rank == r && j->k[i].sum.records > 0)
                k = &j->k[i];
        if (!k)
            at += (size_t)snprintf(j->missing + at, sizeof j->missing - at, "%s%d",
                                   at ? ", " : "", r);
        else if (k->cut)
            at_cut += (size_t)snprintf(j->cut + at_cut, sizeof j->cut - at_cut, "%s%d",
                                       at_cut ? ", " : "", r);
    }
    for (int i = 0; i < j->n; i++)
        j->present += j->k[i].sum.records > 0;
}

/* ---- what is said ---------------------------------------------------------------------------- */

/* One line: the ranks, threads and records salvaged, the missing ranks,
 * the ranks cut short with where their threads' records stop. */
static void pp_salvage_job_say(const pp_salvage_ranks *j)
{
    pp_salvage_sum all = {0};
    for (int i = 0; i < j->n; i++) {
        all.threads += j->k[i].sum.threads;
        all.records += j->k[i].sum.records;
        all.tail_records += j->k[i].sum.tail_records;
    }
    char line[4096];
    size_t k = (size_t)snprintf(line, sizeof line, "pompprof-salvage: a job of %d ranks: salvaged "
                                "the raw files of %d rank(s), %u threads, %llu records", j->size,
                                j->present, all.threads, (unsigned long long)all.records);
    if (all.tail_records)
        k += (size_t)snprintf(line + k, sizeof line - k, " (%llu of them saved from the buffers "
                              "by a crash handler)", (unsigned long long)all.tail_records);
    if (*j->missing)
        k += (size_t)snprintf(line + k, sizeof line - k, "; missing: rank(s) %s (no records on "
                              "disk: killed before a buffer was written)", j->missing);
    if (*j->cut) {
        k += (size_t)snprintf(line + k, sizeof line - k, "; cut short: rank(s) %s (killed: what a "
                              "thread recorded after its last write to disk is lost, at most a "
                              "trace buffer each:", j->cut);
        for (int i = 0, said = 0; i < j->n && k + 128 < sizeof line; i++) {
            if (!j->k[i].cut)
                continue;
            k += (size_t)snprintf(line + k, sizeof line - k, "%s rank %d", said++ ? ";" : "",
                                  j->k[i].rank);
            pp_salvage_say_stops(line, sizeof line, &k, j->k[i].r, j->k[i].t_last,
                                 j->k[i].d.ticks_per_second);
        }
        if (k + 40 < sizeof line)
            snprintf(line + k, sizeof line - k, " before its rank's last record)");
    } else if (!*j->missing && k + 64 < sizeof line) {
        snprintf(line + k, sizeof line - k, "; nothing recorded before the end is missing");
    }
    fprintf(stderr, "%s\n", line);
}

/* The archive's properties: the run's facts (the lowest present rank's),
 * and how it ended. */
static pp_trace_defs pp_salvage_job_facts(pp_salvage_ranks *j, pp_salvage_defs *d,
                                          double seconds)
{
    char end[2600], ranks[16];
    snprintf(end, sizeof end, "interrupted: the job's trace salvaged from the ranks' raw "
             "files by pompprof-salvage; %s%s%s%s%s%sends %.3f s into the run, at the last "
             "record on disk", *j->missing ? "missing rank(s) " : "", j->missing,
             *j->missing ? " (no records on disk); " : "", *j->cut ? "rank(s) " : "", j->cut,
             *j->cut ? " cut short (killed: their last records died with them); " : "",
             seconds);
    snprintf(ranks, sizeof ranks, "%d", j->size);
    pp_salvage_defs_fact(d, "end", end);
    pp_salvage_defs_fact(d, "salvaged", "1");
    pp_salvage_defs_fact(d, "missing_ranks", *j->missing ? j->missing : "none");
    pp_salvage_defs_fact(d, "cut_ranks", *j->cut ? j->cut : "none");
    pp_salvage_defs_fact(d, "ranks", ranks);
    return (pp_trace_defs){.fact_keys = (const char *const *)d->fact_keys,
                           .fact_values = (const char *const *)d->fact_values,
                           .n_facts = d->n_facts};
}

/* ---- the archive ----------------------------------------------------------------------------- */

/* Write the job's archive of the ranks with records: 0 complete, -1 none
 * (said why); *seconds: how long the job's trace is. */
static int pp_salvage_job_write(const pp_salvage_target *t, pp_salvage_ranks *j,
                                double *seconds)
{
    char why[512];
    pp_trace_resume_job *w = pp_trace_resume_job_open(t->dir, t->name, why, sizeof why);
    if (!w) {
        fprintf(stderr, "pompprof-salvage: %s; %s is left as it was\n", why, t->raw_dir);
        return -1;
    }
    pp_salvage_rank *lowest = NULL;
    for (int i = 0; i < j->n; i++) {
        pp_salvage_rank *k = &j->k[i];
        if (!k->sum.records)
            continue;
        lowest = lowest ? lowest : k;
        pp_trace_defs defs = pp_salvage_defs_trace(&k->d, k->t_last);
        if (pp_trace_resume_job_rank(w, k->r, k->rank, k->d.t0, &defs) != 0)
            break;
    }
    *seconds = pp_trace_resume_job_seconds(w);
    pp_trace_defs facts = pp_salvage_job_facts(j, &lowest->d, *seconds);
    if (pp_trace_resume_job_close(w, j->size, &facts) != 0) {
        fprintf(stderr, "pompprof-salvage: the job's archive could not be written; %s is left "
                        "as it was\n", t->raw_dir);
        return -1;
    }
    return 0;
}

int pp_salvage_job(const pp_salvage_target *t)
{
    pp_salvage_ranks j = {0};
    pp_salvage_ranks_read(t->raw_dir, &j);
    pp_salvage_ranks_classify(&j);
    if (!j.present)
        pp_salvage_die("no rank of the job wrote a record to disk before it ended: nothing to "
                       "salvage; remove %s", t->raw_dir);
    double seconds = 0;
    int status = pp_salvage_job_write(t, &j, &seconds);
    if (status == 0) {
        for (int i = 0; i < j.n; i++)
            pp_trace_resume_remove(j.k[i].r); /* complete: the raw files go */
        rmdir(t->raw_dir);
        pp_salvage_job_say(&j);
        printf("%s\n%.6f\n", t->anchor, seconds);
    }
    for (int i = 0; i < j.n; i++) {
        pp_trace_resume_free(j.k[i].r);
        pp_salvage_defs_free(&j.k[i].d);
    }
    free(j.k);
    return status == 0 ? 0 : 2;
}
