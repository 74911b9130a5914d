/* A rank of a job (pp_trace_job.h): its clock as the trace sees it, the
 * offsets to rank 0's clock, the MPI layer's communicators, the raw files
 * moved into the job's directory at the start, and the end of a rank that
 * ends alone.  Everything here runs at MPI_Init, at a communicator's
 * creation or at the end, never on the event path; what a salvage needs is
 * saved in the definitions file as it happens (pp_trace_save.c):
 *     job <rank> <size>
 *     skew <offset ticks> <drift> <base ticks>      (POMPPROF_TEST_CLOCK_SKEW)
 *     sync <local ticks> <offset ticks> <sd ticks>
 *     comm <index> <parent> <key> <name> <world ranks, comma-separated>
 *     end <ticks>                                    (a rank that ended alone) */
#define _GNU_SOURCE
#include "trace/pp_trace_job.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/pp_config.h"
#include "lib/pp_message.h"
#include "lib/pp_timer.h"
#include "trace/pp_trace_internal.h"

static pp_trace_jobstate *pp_job(void)
{
    return &pp_trace_g.job;
}

int pp_trace_job_begin(int rank, int size)
{
    if (!pp_trace_active() || rank < 0 || size < 1)
        return -1;
    pp_trace_jobstate *j = pp_job();
    j->active = 1;
    j->rank = rank;
    j->size = size;
    const pp_config *cfg = pp_config_get();
    char a[32], b[32];
    snprintf(a, sizeof a, "%d", rank);
    snprintf(b, sizeof b, "%d", size);
    const char *f[] = {a, b};
    pp_trace_save_kind("job", 2, f);
    if (cfg->skew_rank == rank) {
        double tps = pp_timer_ticks_per_second();
        j->skew_offset = cfg->skew_offset * tps;
        j->skew_drift = cfg->skew_drift_ppm * 1e-6;
        j->skew_base = pp_trace_g.t0;
        j->skewed = 1;
        char o[48], d[48], s[32];
        snprintf(o, sizeof o, "%.3f", j->skew_offset);
        snprintf(d, sizeof d, "%.12g", j->skew_drift);
        snprintf(s, sizeof s, "%" PRIu64, j->skew_base);
        const char *g[] = {o, d, s};
        pp_trace_save_kind("skew", 3, g);
    }
    return 0;
}

void pp_trace_job_forget(void)
{
    pp_job()->active = 0;
}

const char *pp_trace_job_dir(void)
{
    return pp_trace_g.dir;
}

static int pp_trace_same_dir(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

int pp_trace_job_name_index(const char *dir)
{
    return pp_trace_same_dir(pp_trace_g.dir, dir) ? pp_trace_g.name_index : -1;
}

int pp_trace_job_choose(const char *dir, const int *taken, int n)
{
    for (unsigned k = 0; k < 1000; k++) {
        char name[64], path[PATH_MAX];
        pp_trace_name(name, sizeof name, k);
        if (pp_trace_path(path, sizeof path, "%s/%s.otf2", dir, name) != 0)
            return 0;
        if (access(path, F_OK) == 0)
            continue;
        pp_trace_path(path, sizeof path, "%s/%s", dir, name);
        if (access(path, F_OK) == 0)
            continue;
        pp_trace_path(path, sizeof path, "%s/%s.raw", dir, name);
        if (access(path, F_OK) != 0)
            return (int)k;
        for (int i = 0; i < n; i++)
            if (taken[i] == (int)k)
                return (int)k;
    }
    return 0;
}

/* The raw directory is now path (the reserve moved along with it). */
static void pp_trace_job_raw_moved(const char *path)
{
    snprintf(pp_trace_g.raw_dir, sizeof pp_trace_g.raw_dir, "%s", path);
    if (pp_trace_g.reserve[0])
        pp_trace_path(pp_trace_g.reserve, sizeof pp_trace_g.reserve, "%s/reserve", path);
}

void pp_trace_job_move(const char *dir, int index, int step)
{
    pp_trace_jobstate *j = pp_job();
    if (!j->active || index < 0)
        return;
    char name[64], path[PATH_MAX];
    pp_trace_name(name, sizeof name, (unsigned)index);
    pthread_mutex_lock(&pp_trace_g.lock);
    if (step == 1) {
        if (pp_trace_path(path, sizeof path, "%s/.%s.rank%d.raw", dir, name, j->rank) == 0 &&
            rename(pp_trace_g.raw_dir, path) == 0)
            pp_trace_job_raw_moved(path);
    } else if (step == 2) {
        if (pp_trace_path(path, sizeof path, "%s/%s.raw", dir, name) == 0)
            mkdir(path, 0777);
    } else {
        char from[PATH_MAX];
        snprintf(from, sizeof from, "%s", pp_trace_g.dir);
        int moved = pp_trace_path(path, sizeof path, "%s/%s.raw/rank%d", dir, name, j->rank) == 0 &&
                    rename(pp_trace_g.raw_dir, path) == 0;
        if (moved)
            pp_trace_job_raw_moved(path);
        else
            pp_message_warn("trace: rank %d cannot move its raw trace files from %s into %s/%s.raw "
                            "(%s); they stay there and are converted at the end",
                            j->rank, pp_trace_g.raw_dir, dir, name, strerror(errno));
        /* the job's archive, wherever the files are */
        snprintf(pp_trace_g.dir, sizeof pp_trace_g.dir, "%s", dir);
        snprintf(pp_trace_g.name, sizeof pp_trace_g.name, "%s", name);
        pp_trace_g.name_index = index;
        pp_trace_path(pp_trace_g.anchor, sizeof pp_trace_g.anchor, "%s/%s.otf2", dir, name);
        /* the directory this rank's trace started in, made for it alone
         * (the default, pompprof-<program>-<date>-<pid>): gone if empty */
        if (moved && !pp_trace_same_dir(from, dir))
            rmdir(from);
    }
    pthread_mutex_unlock(&pp_trace_g.lock);
}

/* ---- clocks ---------------------------------------------------------------------------- */

uint64_t pp_trace_job_now(void)
{
    return pp_trace_clock(pp_job(), pp_timer_now());
}

double pp_trace_job_ticks_per_second(void)
{
    return pp_timer_ticks_per_second();
}

int pp_trace_job_clock_shared(void)
{
    return !pp_job()->skewed;
}

void pp_trace_job_sync(uint64_t local, int64_t offset, double sd)
{
    pp_trace_jobstate *j = pp_job();
    if (!j->active || j->n_syncs == PP_TRACE_SYNCS)
        return;
    /* readers take the offsets as the ends of intervals: one per time */
    if (j->n_syncs && local <= j->syncs[j->n_syncs - 1].time)
        return;
    j->syncs[j->n_syncs++] = (pp_trace_sync){local, offset, sd};
    char a[32], b[32], c[48];
    snprintf(a, sizeof a, "%" PRIu64, local);
    snprintf(b, sizeof b, "%" PRId64, offset);
    snprintf(c, sizeof c, "%.3f", sd);
    const char *f[] = {a, b, c};
    pp_trace_save_kind("sync", 3, f);
}

/* ---- communicators ---------------------------------------------------------------------- */

/* Keep communicator index (the definitions file has it too). */
int pp_trace_job_comm_keep(pp_trace_jobstate *j, uint32_t index, uint32_t parent, uint64_t key,
                           const char *name, const uint32_t *world, uint32_t n)
{
    if (index >= j->n_comms) {
        uint32_t cap = j->n_comms ? 2 * j->n_comms : 16;
        while (cap <= index)
            cap *= 2;
        pp_trace_comm *c = realloc(j->comms, cap * sizeof *c);
        if (!c)
            return -1;
        memset(c + j->n_comms, 0, (cap - j->n_comms) * sizeof *c);
        j->comms = c;
        j->n_comms = cap;
    }
    pp_trace_comm *c = &j->comms[index];
    free(c->name);
    free(c->world);
    *c = (pp_trace_comm){index, parent, key, strdup(name ? name : "communicator"), n,
                         malloc((n ? n : 1) * sizeof *world)};
    if (!c->name || !c->world) {
        free(c->name), free(c->world);
        memset(c, 0, sizeof *c);
        return -1;
    }
    memcpy(c->world, world, n * sizeof *world);
    return 0;
}

void pp_trace_job_comm(uint32_t index, uint32_t parent, uint64_t key, const char *name,
                       const uint32_t *world, uint32_t n)
{
    pp_trace_jobstate *j = pp_job();
    if (!j->active || n == 0)
        return;
    pthread_mutex_lock(&pp_trace_g.lock);
    int ok = pp_trace_job_comm_keep(j, index, parent, key, name, world, n) == 0;
    pthread_mutex_unlock(&pp_trace_g.lock);
    if (!ok) {
        PP_WARN_ONCE("trace: out of memory for a communicator; its messages are not matched");
        return;
    }
    size_t len = 12 * (size_t)n + 1;
    char *members = malloc(len);
    if (!members)
        return;
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++)
        at += (size_t)snprintf(members + at, len - at, "%s%u", i ? "," : "", world[i]);
    char a[16], b[16], k[32];
    snprintf(a, sizeof a, "%u", index);
    snprintf(b, sizeof b, "%u", parent);
    snprintf(k, sizeof k, "%" PRIu64, key);
    const char *f[] = {a, b, k, name ? name : "communicator", members};
    pp_trace_save_kind("comm", 5, f);
    free(members);
}

/* ---- the end ----------------------------------------------------------------------------- */

void pp_trace_job_end(int (*set_collectives)(void *archive, void *user), void *user)
{
    pp_trace_jobstate *j = pp_job();
    j->together = j->active && set_collectives != NULL;
    j->set_collectives = set_collectives;
    j->user = user;
}

int pp_trace_job_leave(uint64_t t_end)
{
    pp_trace_jobstate *j = pp_job();
    int lost = 0;
    for (pp_trace_buf *b = pp_trace_g.first; b; b = b->next) {
        if (b->fd >= 0 && !__atomic_load_n(&pp_trace_g.stopped, __ATOMIC_ACQUIRE) &&
            pp_trace_spill(b) != 0)
            lost = 1;
        if (b->fd >= 0)
            close(b->fd);
        b->fd = -1;
    }
    char t[32];
    snprintf(t, sizeof t, "%" PRIu64, t_end);
    const char *f[] = {t};
    pp_trace_save_kind("end", 1, f);
    pp_message_warn("trace: rank %d ended before the job's trace was written; its records stay "
                    "in %s%s (pompprof-salvage, or pompprof-timeline %s, makes the job's "
                    "archive of them)",
                    j->rank, pp_trace_g.raw_dir,
                    lost ? ", except those the disk did not take" : "", pp_trace_g.dir);
    if (pp_trace_g.save_fd >= 0)
        close(pp_trace_g.save_fd);
    pp_trace_g.save_fd = -1;
    return -1;
}

void pp_trace_job_reset(void)
{
    pp_trace_jobstate *j = pp_job();
    for (uint32_t i = 0; i < j->n_comms; i++)
        free(j->comms[i].name), free(j->comms[i].world);
    free(j->comms);
    memset(j, 0, sizeof *j);
}
