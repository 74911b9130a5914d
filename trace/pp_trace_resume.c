/* The raw files a process left when it never reached its end, read back
 * and converted by this layer's own conversion (pp_trace_resume.h).
 *
 * Each thread's raw file is read for its whole records (a record the kill
 * cut in half, or anything that is not a record, ends it); the records a
 * crash saved beside it as a tail (pp_trace_crash.c) follow them, as the
 * records still in memory follow the raw file's at a run's end.  A tail
 * records how long its raw file was when it was saved: what reached the
 * file since (another thread's flush, a rank writing what it held as it
 * ended alone) is the beginning of the tail again, and is passed over.
 * The layer's state is then set up as the run would have left it, and
 * pp_trace_finish writes the archive; the raw files stay until it is
 * complete (pp_trace_g.salvage). */
#define _GNU_SOURCE
#include "trace/pp_trace_resume.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "trace/pp_trace_internal.h"

pp_trace_resume *pp_trace_resume_new(const char *raw_dir)
{
    pp_trace_resume *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (pp_trace_path(r->raw_dir, sizeof r->raw_dir, "%s", raw_dir) != 0) {
        free(r);
        return NULL;
    }
    r->max_region = UINT32_MAX;
    return r;
}

void pp_trace_resume_free(pp_trace_resume *r)
{
    if (!r)
        return;
    for (pp_trace_buf *b = r->first, *n; b; b = n) {
        n = b->next;
        free(b->start);
        free(b);
    }
    for (uint32_t i = 0; i < r->job.n_comms; i++)
        free(r->job.comms[i].name), free(r->job.comms[i].world);
    free(r->job.comms);
    free(r->threads);
    free(r);
}

/* ---- the job layer's lines (pp_trace_job.c writes them) ------------------------------------- */

/* "comm <index> <parent> <key> <name> <world ranks, by commas>" */
static int pp_trace_resume_comm(pp_trace_resume *r, char **f)
{
    uint32_t members = 1;
    for (const char *p = f[5]; *p; p++)
        members += *p == ',';
    uint32_t *world = malloc(members * sizeof *world);
    if (!world)
        return -1;
    uint32_t k = 0;
    for (char *p = f[5], *end; *p && k < members; p = *end ? end + 1 : end)
        world[k++] = (uint32_t)strtoul(p, &end, 10);
    int rc = pp_trace_job_comm_keep(&r->job, (uint32_t)strtoul(f[1], NULL, 10),
                                    (uint32_t)strtoul(f[2], NULL, 10), strtoull(f[3], NULL, 10),
                                    f[4], world, k);
    free(world);
    return rc < 0 ? -1 : 1;
}

int pp_trace_resume_job_line(pp_trace_resume *r, char **f, unsigned n)
{
    pp_trace_jobstate *j = &r->job;
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
        return pp_trace_resume_comm(r, f);
    } else if (!strcmp(f[0], "end") && n == 2) {
        r->job_end = strtoull(f[1], NULL, 10);
    } else {
        return 0;
    }
    return 1;
}

int pp_trace_resume_job_size(const pp_trace_resume *r)
{
    return r->job.active ? r->job.size : 0;
}

uint64_t pp_trace_resume_job_end(const pp_trace_resume *r)
{
    return r->job_end;
}

/* ---- reading the files ------------------------------------------------------------------- */

/* What the records of one file show, as they are read. */
typedef struct pp_resume_read {
    uint64_t t0;                /* the file's header's */
    uint64_t skip;              /* bytes of records to pass over first */
    uint64_t bytes;             /* of the whole records read (those passed over included) */
    pp_trace_resume_thread *t;  /* its thread's latest time and records */
    uint32_t *max_region;
    int keep;                   /* keep the records (a tail's) */
    uint64_t *kept;
    size_t n_kept, cap_kept;
} pp_resume_read;

/* The region a record names (UINT32_MAX: none). */
static uint32_t pp_resume_region(const uint64_t *rec)
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

/* One whole record of n words: 0, or -1 out of memory. */
static int pp_resume_record(pp_resume_read *rd, const uint64_t *rec, unsigned n)
{
    rd->bytes += (uint64_t)n * 8;
    if (rd->skip) {
        rd->skip = rd->skip > (uint64_t)n * 8 ? rd->skip - (uint64_t)n * 8 : 0;
        return 0;
    }
    if ((rec[0] & 0xff) != PP_TRACE_METRICS && rd->t0 + (rec[0] >> 8) > rd->t->last)
        rd->t->last = rd->t0 + (rec[0] >> 8);
    uint32_t region = pp_resume_region(rec);
    if (region != UINT32_MAX && (*rd->max_region == UINT32_MAX || region > *rd->max_region))
        *rd->max_region = region;
    rd->t->records++;
    if (!rd->keep)
        return 0;
    if (rd->n_kept + n > rd->cap_kept) {
        size_t cap = rd->cap_kept ? 2 * rd->cap_kept + n : 1 << 12;
        uint64_t *k = realloc(rd->kept, cap * sizeof *k);
        if (!k)
            return -1;
        rd->kept = k;
        rd->cap_kept = cap;
    }
    memcpy(rd->kept + rd->n_kept, rec, n * sizeof *rec);
    rd->n_kept += n;
    return 0;
}

/* The records of fd after its header, up to the first that is not whole:
 * 0, or -1 out of memory. */
static int pp_resume_records(int fd, pp_resume_read *rd)
{
    const size_t cap = (size_t)1 << 16; /* words */
    uint64_t *w = malloc(cap * sizeof *w);
    if (!w)
        return -1;
    size_t bytes = 0;
    int rc = 0, end = 0;
    while (!end && rc == 0) {
        ssize_t got = read(fd, (char *)w + bytes, cap * 8 - bytes);
        if (got < 0 && errno == EINTR)
            continue;
        end = got <= 0;
        bytes += got > 0 ? (size_t)got : 0;
        size_t words = bytes / 8, at = 0;
        /* a record is parsed whole: with all the longest needs, or at the end */
        while (rc == 0 && at < words && (end || words - at >= PP_TRACE_RECORD_MAX_WORDS)) {
            unsigned n = pp_trace_record_length(w + at, words - at);
            if (!n) {
                end = 1; /* cut, or not a record: the file ends before it */
                break;
            }
            rc = pp_resume_record(rd, w + at, n);
            at += n;
        }
        memmove(w, w + at, bytes - at * 8);
        bytes -= at * 8;
    }
    free(w);
    return rc;
}

/* fd's header, checked against this pompprof's raw format: 1, or 0 (one
 * line) when it is not one. */
static int pp_resume_header(int fd, const char *path, pp_trace_raw_header *h)
{
    if (read(fd, h, sizeof *h) == (ssize_t)sizeof *h && h->magic == PP_TRACE_RAW_MAGIC &&
        h->version == PP_TRACE_RAW_VERSION)
        return 1;
    fprintf(stderr, "pompprof-salvage: %s is not a raw trace file of this pompprof; left out\n",
            path);
    return 0;
}

/* The tail a crash saved beside b's raw file, its records after the file's
 * (those the file has since passed over): 0, or -1 out of memory. */
static int pp_resume_tail(pp_trace_resume *r, pp_trace_buf *b, pp_trace_resume_thread *t)
{
    char path[PATH_MAX];
    pp_trace_tail_path_in(r->raw_dir, b->location, path, sizeof path);
    int fd = path[0] ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0)
        return 0;
    pp_trace_raw_header h;
    int rc = 0;
    if (pp_resume_header(fd, path, &h) && h.location == b->location) {
        uint64_t before = t->records;
        pp_resume_read rd = {.t0 = h.t0, .t = t, .max_region = &r->max_region, .keep = 1};
        if (h.raw_bytes && b->file_bytes > h.raw_bytes)
            rd.skip = b->file_bytes - h.raw_bytes;
        rc = pp_resume_records(fd, &rd);
        t->saved = 1;
        t->tail_records = t->records - before;
        if (rd.n_kept) {
            b->start = rd.kept;
            b->pos = b->end = b->limit = rd.kept + rd.n_kept;
        } else {
            free(rd.kept);
        }
    }
    close(fd);
    return rc;
}

/* Keep thread t (buffer b) among r's, both in the order of their location. */
static int pp_resume_keep(pp_trace_resume *r, pp_trace_buf *b, const pp_trace_resume_thread *t)
{
    if (r->n_threads == r->cap_threads) {
        uint32_t cap = r->cap_threads ? 2 * r->cap_threads : 16;
        pp_trace_resume_thread *grown = realloc(r->threads, cap * sizeof *grown);
        if (!grown)
            return -1;
        r->threads = grown;
        r->cap_threads = cap;
    }
    uint32_t i = r->n_threads++;
    for (; i > 0 && r->threads[i - 1].location > t->location; i--)
        r->threads[i] = r->threads[i - 1];
    r->threads[i] = *t;
    pp_trace_buf **at = &r->first;
    while (*at && (*at)->location < b->location)
        at = &(*at)->next;
    b->next = *at;
    *at = b;
    if (b->location + 1 > r->n_locations)
        r->n_locations = b->location + 1;
    return 0;
}

/* One thread's raw file (name in r's directory) and its tail: 0 (a file
 * not of this pompprof left out), or -1 out of memory. */
static int pp_resume_thread(pp_trace_resume *r, const char *name)
{
    char path[PATH_MAX + 256];
    snprintf(path, sizeof path, "%s/%s", r->raw_dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    pp_trace_raw_header h;
    if (fd < 0 || !pp_resume_header(fd, path, &h)) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    pp_trace_resume_thread t = {.location = h.location, .last = h.t0};
    pp_resume_read rd = {.t0 = h.t0, .t = &t, .max_region = &r->max_region};
    int rc = pp_resume_records(fd, &rd);
    close(fd);
    pp_trace_buf *b = rc == 0 ? calloc(1, sizeof *b) : NULL;
    if (!b)
        return -1;
    *b = (pp_trace_buf){.t0 = h.t0, .fd = -1, .file_bytes = sizeof h + rd.bytes,
                        .location = h.location, .initial_task = h.initial_task};
    if (pp_resume_tail(r, b, &t) != 0 || pp_resume_keep(r, b, &t) != 0) {
        free(b->start);
        free(b);
        return -1;
    }
    return 0;
}

int pp_trace_resume_scan(pp_trace_resume *r)
{
    DIR *dh = opendir(r->raw_dir);
    if (!dh)
        return -1;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(dh))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".raw") && e->d_name[0] >= '0' &&
            e->d_name[0] <= '9')
            rc = pp_resume_thread(r, e->d_name);
    }
    closedir(dh);
    if (rc != 0)
        errno = ENOMEM;
    return rc;
}

const pp_trace_resume_thread *pp_trace_resume_threads(const pp_trace_resume *r, uint32_t *n)
{
    *n = r->n_threads;
    return r->threads;
}

uint32_t pp_trace_resume_max_region(const pp_trace_resume *r)
{
    return r->max_region;
}

/* ---- converting -------------------------------------------------------------------------- */

int pp_trace_resume_begin(const char *dir, const char *name)
{
    pp_trace_state *g = &pp_trace_g;
    pp_trace_reset();
    if (pp_trace_path(g->dir, sizeof g->dir, "%s", dir) != 0 ||
        pp_trace_path(g->name, sizeof g->name, "%s", name) != 0 ||
        pp_trace_path(g->anchor, sizeof g->anchor, "%s/%s.otf2", dir, name) != 0) {
        fprintf(stderr, "pompprof-salvage: path too long: %s/%s\n", dir, name);
        return -1;
    }
    g->pid = getpid();
    g->active = 1;
    g->salvage = 1;
    struct rlimit rl;
    g->fsize_limit = getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                         ? (uint64_t)rl.rlim_cur
                         : UINT64_MAX;
    return 0;
}

void pp_trace_resume_lend(pp_trace_resume *r, uint64_t t0)
{
    pp_trace_state *g = &pp_trace_g;
    memcpy(g->raw_dir, r->raw_dir, sizeof g->raw_dir);
    g->first = r->first;
    g->n_buffers = r->n_threads;
    for (g->last = r->first; g->last && g->last->next;)
        g->last = g->last->next;
    g->t0 = t0;
}

void pp_trace_resume_return(void)
{
    pp_trace_g.first = pp_trace_g.last = NULL;
    pp_trace_g.n_buffers = 0;
}

int pp_trace_resume_write(pp_trace_resume *r, const char *dir, const char *name, uint64_t t0,
                          const pp_trace_defs *defs)
{
    if (pp_trace_resume_begin(dir, name) != 0)
        return -1;
    pp_trace_resume_lend(r, t0);
    if (pp_trace_path(pp_trace_g.reserve, sizeof pp_trace_g.reserve, "%s/reserve", r->raw_dir) !=
            0 ||
        access(pp_trace_g.reserve, F_OK) != 0)
        pp_trace_g.reserve[0] = '\0';
    int status = pp_trace_finish(defs);
    pp_trace_resume_return();
    pp_trace_reset();
    return status;
}

void pp_trace_resume_remove(pp_trace_resume *r)
{
    char path[PATH_MAX];
    for (pp_trace_buf *b = r->first; b; b = b->next) {
        pp_trace_raw_path_in(r->raw_dir, b->location, path, sizeof path);
        unlink(path);
        pp_trace_tail_path_in(r->raw_dir, b->location, path, sizeof path);
        if (path[0])
            unlink(path);
    }
    const char *extra[] = {"defs", "reserve"};
    for (int k = 0; k < 2; k++)
        if (pp_trace_path(path, sizeof path, "%s/%s", r->raw_dir, extra[k]) == 0)
            unlink(path);
    rmdir(r->raw_dir);
}
