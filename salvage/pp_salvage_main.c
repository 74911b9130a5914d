/* pompprof-salvage RAWDIR: convert what an interrupted traced run left in
 * DIR/<name>.raw (the threads' raw files, the definitions saved while it
 * ran, the space reserve) into the archive DIR/<name>.otf2 that the run
 * would have written, with the trace layer's own conversion.  The archive
 * is marked: its POMPPROF::END property says the run was interrupted and
 * the trace salvaged.  The raw files go only once the archive is complete.
 *
 * What died with the process is lost: the records still in the threads'
 * buffers and everything after the last flush.  The trace ends with the
 * latest record on disk; what is open there is closed there.
 *
 * Exit status: 0 salvaged, 1 a shorter archive (said why), 2 nothing
 * written (one line why). */
#define _GNU_SOURCE
#include "salvage/pp_salvage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/pp_trace_internal.h"

static void pp_salvage_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void pp_salvage_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pompprof-salvage: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* The region a record names (0 and no region: UINT32_MAX). */
static uint32_t pp_salvage_record_region(const uint64_t *rec)
{
    switch ((unsigned)(rec[0] & 0xff)) {
    case PP_TRACE_ENTER:
    case PP_TRACE_LEAVE:
    case PP_TRACE_TEAM_END: return (uint32_t)rec[1];
    case PP_TRACE_TEAM_BEGIN:
    case PP_TRACE_TASK_BEGIN:
    case PP_TRACE_TASK_END: return (uint32_t)rec[2];
    default: return UINT32_MAX;
    }
}

/* The whole records of an open raw (or tail) file after its header: their
 * latest time and highest region id noted, counted, and with keep the
 * records themselves (*kept, *n_kept words; the caller frees them).
 * Returns the bytes of whole records (a record cut by the interruption,
 * or anything not a record, ends them). */
static uint64_t pp_salvage_records(int fd, uint64_t t0, uint64_t *t_last, uint32_t *max_region,
                                   uint64_t *records, int keep, uint64_t **kept, size_t *n_kept)
{
    size_t cap = 1 << 16, have = 0, kcap = 0, kn = 0;
    uint64_t *w = malloc(cap * sizeof *w), *k = NULL;
    uint64_t whole = 0;
    ssize_t got;
    while (w && (got = read(fd, (char *)w + have * 8, (cap - have) * 8)) > 0) {
        have += (size_t)got / 8; /* a file is written in whole words */
        size_t at = 0;
        for (;;) {
            if (have - at < 2)
                break;
            unsigned kind = (unsigned)(w[at] & 0xff);
            if (kind == 0 || kind >= PP_TRACE_KIND_END)
                goto done; /* garbage: the file ends before it */
            unsigned n = pp_trace_record_words(kind);
            if (kind == PP_TRACE_METRICS)
                n = w[at + 1] <= PP_TRACE_METRICS_MAX ? 2 + (unsigned)w[at + 1] : 0;
            if (!n)
                goto done;
            if (have - at < n)
                break;
            if (kind != PP_TRACE_METRICS && t0 + (w[at] >> 8) > *t_last)
                *t_last = t0 + (w[at] >> 8);
            uint32_t r = pp_salvage_record_region(w + at);
            if (r != UINT32_MAX && (*max_region == UINT32_MAX || r > *max_region))
                *max_region = r;
            if (keep) {
                if (kn + n > kcap) {
                    kcap = kcap ? 2 * kcap + n : cap;
                    uint64_t *nk = realloc(k, kcap * sizeof *k);
                    if (!nk)
                        pp_salvage_die("out of memory");
                    k = nk;
                }
                memcpy(k + kn, w + at, n * 8);
                kn += n;
            }
            at += n;
            whole += (uint64_t)n * 8;
            (*records)++;
        }
        memmove(w, w + at, (have - at) * 8);
        have -= at;
    }
done:
    free(w);
    if (keep) {
        *kept = k;
        *n_kept = kn;
    }
    return whole;
}

/* A file's header, checked against this pompprof's raw format; -1 (with a
 * line) when it is not one. */
static int pp_salvage_header(int fd, const char *path, pp_trace_raw_header *h)
{
    if (fd < 0 || read(fd, h, sizeof *h) != (ssize_t)sizeof *h || h->magic != PP_TRACE_RAW_MAGIC ||
        h->version != PP_TRACE_RAW_VERSION) {
        fprintf(stderr, "pompprof-salvage: %s is not a raw trace file of this pompprof; "
                        "left out\n", path);
        return -1;
    }
    return 0;
}

/* One raw file: its header checked, its whole records counted (a record
 * cut by the interruption is left out), its latest time and highest region
 * id noted; and the tail a crash saved beside it (pp_trace_crash.c), whose
 * records follow the file's, as the records still in memory follow them at
 * a run's end.  Returns the buffer to convert, NULL (with a line) when the
 * file is not usable; *tail_records: the records the tail added. */
static pp_trace_buf *pp_salvage_raw(const char *path, uint64_t *t_last, uint32_t *max_region,
                                    uint64_t *records, uint64_t *tail_records)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    pp_trace_raw_header h;
    if (pp_salvage_header(fd, path, &h) != 0) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    uint64_t whole = sizeof h + pp_salvage_records(fd, h.t0, t_last, max_region, records, 0,
                                                   NULL, NULL);
    close(fd);
    pp_trace_buf *b = calloc(1, sizeof *b);
    if (!b)
        pp_salvage_die("out of memory");
    b->fd = -1;
    b->location = h.location;
    b->initial_task = h.initial_task;
    b->t0 = h.t0;
    b->file_bytes = whole;
    char tail[PATH_MAX];
    pp_trace_tail_path(h.location, tail, sizeof tail);
    pp_trace_raw_header th;
    int tfd = tail[0] ? open(tail, O_RDONLY | O_CLOEXEC) : -1;
    if (tfd >= 0 && pp_salvage_header(tfd, tail, &th) == 0 && th.location == h.location) {
        uint64_t *kept = NULL;
        size_t n = 0;
        uint64_t before = *records;
        pp_salvage_records(tfd, th.t0, t_last, max_region, records, 1, &kept, &n);
        *tail_records += *records - before;
        if (n) {
            b->start = kept;
            b->pos = b->end = b->limit = kept + n;
        } else {
            free(kept);
        }
    }
    if (tfd >= 0)
        close(tfd);
    return b;
}

typedef struct pp_salvage_end {
    uint32_t location;
    uint64_t last;  /* ticks of its last record */
    int saved;      /* a crash saved its buffer: nothing of it is missing */
} pp_salvage_end;

/* One line: what was salvaged, and what is missing -- nothing when a crash
 * handler saved every thread's buffer, else each thread's records after
 * its last write to disk (at most its trace buffer), said as how long
 * before the trace's last record each such thread's trace stops. */
static void pp_salvage_say_missing(const pp_salvage_end *ends, uint32_t n, uint64_t t_last,
                                   uint64_t records, uint64_t tail_records,
                                   const pp_salvage_defs *d)
{
    char line[2048];
    size_t k = (size_t)snprintf(line, sizeof line, "pompprof-salvage: %u thread%s, %llu records",
                                n, n == 1 ? "" : "s", (unsigned long long)records);
    if (tail_records)
        k += (size_t)snprintf(line + k, sizeof line - k,
                              " (%llu of them saved from the buffers by the crash handler)",
                              (unsigned long long)tail_records);
    uint32_t unsaved = 0;
    for (uint32_t i = 0; i < n; i++)
        unsaved += !ends[i].saved;
    if (!unsaved) {
        snprintf(line + k, sizeof line - k, "; nothing recorded before the end is missing");
    } else {
        k += (size_t)snprintf(line + k, sizeof line - k,
                              "; missing: what %s recorded after %s last write to disk (at most "
                              "a trace buffer, POMPPROF_TRACE_BUFFER, each):",
                              unsaved == n ? "each thread" : "these threads",
                              unsaved == n ? "its" : "their");
        for (uint32_t i = 0, said = 0; i < n && k < sizeof line - 96; i++) {
            if (ends[i].saved)
                continue;
            k += (size_t)snprintf(line + k, sizeof line - k, "%s thread %u stops %.3f s",
                                  said++ ? "," : "", ends[i].location,
                                  (double)(t_last - ends[i].last) / d->ticks_per_second);
        }
        if (k < sizeof line - 40)
            snprintf(line + k, sizeof line - k, " before the trace's last record");
    }
    fprintf(stderr, "%s\n", line);
}

static int pp_salvage_process_alive(long pid, const pp_salvage_defs *d)
{
    if (pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno != EPERM))
        return 0;
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    for (uint32_t i = 0; i < d->n_facts; i++)
        if (!strcmp(d->fact_keys[i], "host"))
            return !strcmp(d->fact_values[i], host);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-')
        pp_salvage_die("usage: pompprof-salvage DIR/traces.raw (what an interrupted run with "
                       "POMPPROF_TRACE=1 left); writes DIR/traces.otf2");
    char raw_dir[PATH_MAX];
    if (!realpath(argv[1], raw_dir))
        pp_salvage_die("%s: %s", argv[1], strerror(errno));
    size_t len = strlen(raw_dir);
    char *slash = strrchr(raw_dir, '/');
    if (len < 5 || strcmp(raw_dir + len - 4, ".raw") || !slash || len - (size_t)(slash - raw_dir) > 60)
        pp_salvage_die("%s is not a raw trace directory (DIR/traces.raw)", raw_dir);

    pp_trace_state *g = &pp_trace_g;
    snprintf(g->raw_dir, sizeof g->raw_dir, "%s", raw_dir);
    snprintf(g->name, sizeof g->name, "%.*s", (int)(len - 4 - (size_t)(slash + 1 - raw_dir)),
             slash + 1);
    snprintf(g->dir, sizeof g->dir, "%.*s", slash == raw_dir ? 1 : (int)(slash - raw_dir), raw_dir);
    if (pp_trace_path(g->anchor, sizeof g->anchor, "%s/%s.otf2", g->dir, g->name) != 0)
        pp_salvage_die("path too long: %s", raw_dir);
    char archive_dir[PATH_MAX];
    pp_trace_path(archive_dir, sizeof archive_dir, "%s/%s", g->dir, g->name);
    if (access(g->anchor, F_OK) == 0 || access(archive_dir, F_OK) == 0)
        pp_salvage_die("%s exists already: remove it (or move %s elsewhere) to salvage into it",
                       g->anchor, raw_dir);

    char path[PATH_MAX + 64], why[PATH_MAX + 256];
    pp_salvage_defs d;
    snprintf(path, sizeof path, "%s/defs", raw_dir);
    if (pp_salvage_defs_read(path, &d, why, sizeof why) != 0)
        pp_salvage_die("%s", why);
    if (pp_salvage_process_alive(d.pid, &d))
        pp_salvage_die("process %ld, which writes %s, is still running: its trace is converted "
                       "when it ends", d.pid, raw_dir);

    /* the threads' raw files, in the order of their location index */
    DIR *dh = opendir(raw_dir);
    if (!dh)
        pp_salvage_die("%s: %s", raw_dir, strerror(errno));
    uint64_t t_last = d.t0;
    uint32_t max_region = UINT32_MAX;
    uint64_t records = 0, tail_records = 0;
    /* each thread's last record, and whether a crash saved its buffer */
    pp_salvage_end *ends = NULL;
    uint32_t n_ends = 0;
    struct dirent *e;
    while ((e = readdir(dh))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".raw") || e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "%s/%s", raw_dir, e->d_name);
        uint64_t t_thread = d.t0, tails_before = tail_records;
        pp_trace_buf *b = pp_salvage_raw(path, &t_thread, &max_region, &records, &tail_records);
        if (!b)
            continue;
        if (t_thread > t_last)
            t_last = t_thread;
        pp_salvage_end *grown = realloc(ends, (n_ends + 1) * sizeof *ends);
        if (!grown)
            pp_salvage_die("out of memory");
        ends = grown;
        ends[n_ends++] = (pp_salvage_end){b->location, t_thread, tail_records > tails_before};
        pp_trace_buf **at = &g->first;
        while (*at && (*at)->location < b->location)
            at = &(*at)->next;
        b->next = *at;
        *at = b;
        g->n_buffers++;
    }
    closedir(dh);
    if (!g->first)
        pp_salvage_die("%s holds no raw thread file: nothing to salvage", raw_dir);
    if (!records)
        pp_salvage_die("no record reached the disk before the process died: every event was "
                       "still in the threads' trace buffers (a buffer is written when full; "
                       "a smaller POMPPROF_TRACE_BUFFER writes sooner), so there is nothing "
                       "to salvage; remove %s", raw_dir);

    /* regions the records name but the definitions lack get their number */
    if (max_region != UINT32_MAX && pp_salvage_defs_regions(&d, max_region + 1) != 0)
        pp_salvage_die("out of memory");
    char (*unnamed)[32] = calloc(d.n_regions ? d.n_regions : 1, sizeof *unnamed);
    for (uint32_t i = 0; unnamed && i < d.n_regions; i++)
        if (!d.regions[i].name) {
            snprintf(unnamed[i], sizeof unnamed[i], "region %u (not saved)", i);
            d.regions[i] = (pp_trace_region){.name = strdup(unnamed[i]), .paradigm = strdup("user"),
                                             .role = strdup("unknown"), .begin_line = -1,
                                             .end_line = -1};
        }
    free(unnamed);
    pp_salvage_say_missing(ends, n_ends, t_last, records, tail_records, &d);
    free(ends);
    for (uint32_t i = 0; i < d.n_metrics; i++)
        if (!d.metrics[i]) {
            char m[32];
            snprintf(m, sizeof m, "metric %u", i);
            d.metrics[i] = strdup(m);
        }
    double seconds = (double)(t_last - d.t0) / d.ticks_per_second;
    snprintf(why, sizeof why, "interrupted: trace salvaged from raw files by pompprof-salvage; "
             "ends %.3f s into the run, at the last record on disk", seconds);
    char threads[16];
    snprintf(threads, sizeof threads, "%u", g->n_buffers);
    if (pp_salvage_defs_fact(&d, "end", why) != 0 || pp_salvage_defs_fact(&d, "salvaged", "1") != 0 ||
        pp_salvage_defs_fact(&d, "threads", threads) != 0)
        pp_salvage_die("out of memory");

    /* the trace layer's state as the run would have left it */
    pp_trace_path(g->reserve, sizeof g->reserve, "%s/reserve", raw_dir);
    if (access(g->reserve, F_OK) != 0)
        g->reserve[0] = '\0';
    g->t0 = d.t0;
    g->pid = getpid();
    g->active = 1;
    g->salvage = 1;
    g->save_fd = -1;
    struct rlimit rl;
    g->fsize_limit = getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                         ? (uint64_t)rl.rlim_cur
                         : UINT64_MAX;
    pp_trace_defs defs = {
        .regions = d.regions,
        .n_regions = d.n_regions,
        .metrics = (const char *const *)d.metrics,
        .n_metrics = d.n_metrics,
        .program = d.program,
        .host = NULL,
        .pid = d.pid,
        .t_end = t_last,
        .ticks_per_second = d.ticks_per_second,
        .wall_t0 = d.wall_t0,
        .fact_keys = (const char *const *)d.fact_keys,
        .fact_values = (const char *const *)d.fact_values,
        .n_facts = d.n_facts,
    };
    for (uint32_t i = 0; i < d.n_facts; i++)
        if (!strcmp(d.fact_keys[i], "host"))
            defs.host = d.fact_values[i]; /* the run's machine, not the salvager's */
    int status = pp_trace_finish(&defs);
    char anchor[sizeof g->anchor];
    memcpy(anchor, g->anchor, sizeof anchor); /* the reset below clears it */
    pp_trace_reset();
    pp_salvage_defs_free(&d);
    if (status < 0)
        pp_salvage_die("no archive written; %s is left as it was", raw_dir);
    /* what the tools show: the archive, and how far it goes */
    printf("%s\n%.6f\n", anchor, seconds);
    return status == 0 ? 0 : 1;
}
