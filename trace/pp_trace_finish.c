/* The end of a trace: every thread's records into one OTF2 archive, then
 * the raw files go.
 *
 * The archive must be readable whatever the disk does, and the OTF2
 * library cannot promise that by itself: it reports a failed write only
 * when files are closed, and leaves a file it could not finish unreadable.
 * So the disk is never allowed to fill: each thread's events are written
 * within a budget (free space, plus what reading its raw file gives back,
 * minus what the definitions need; at most the file size limit), and a
 * thread whose events do not fit ends early, cleanly.  The space the
 * reserve file held since the start is given back first: it is what the
 * definitions, written last, are sure to find.
 * Should OTF2 report an error all the same, the archive is removed rather
 * than left broken. */
#define _GNU_SOURCE
#include "trace/pp_trace_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/pp_message.h"

#ifdef PP_HAVE_OTF2
#include "trace/pp_trace_otf2.h"

OTF2_ErrorCode pp_trace_otf2_error(void *user, const char *file, uint64_t line,
                                          const char *function, OTF2_ErrorCode code,
                                          const char *fmt, va_list va)
{
    (void)file, (void)line, (void)function, (void)fmt, (void)va;
    /* the library's own messages would go to the program's stderr: the
     * failure is reported in one line of ours instead */
    if (code != OTF2_SUCCESS && code != OTF2_WARNING)
        ((pp_trace_conv *)user)->otf2_failed = 1;
    return code;
}

static OTF2_FlushType pp_trace_pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc,
                                         void *caller, bool final)
{
    (void)user, (void)type, (void)loc, (void)caller, (void)final;
    return OTF2_FLUSH;
}

const OTF2_FlushCallbacks pp_trace_flush_callbacks = {pp_trace_pre_flush, NULL};

uint64_t pp_trace_free_bytes(void)
{
    struct statvfs st;
    if (statvfs(pp_trace_g.dir, &st) != 0)
        return UINT64_MAX / 4;
    return (uint64_t)st.f_bavail * st.f_frsize;
}

/* Remove what an archive that failed left (it must not look like a trace). */
static void pp_trace_remove_archive(const pp_trace_conv *c)
{
    char path[PATH_MAX];
    unlink(pp_trace_g.anchor);
    pp_trace_path(path, sizeof path, "%s/%s.def", pp_trace_g.dir, pp_trace_g.name);
    unlink(path);
    for (uint32_t i = 0; i < c->n_locations; i++) {
        pp_trace_path(path, sizeof path, "%s/%s/%u.evt", pp_trace_g.dir, pp_trace_g.name, i);
        unlink(path);
        pp_trace_path(path, sizeof path, "%s/%s/%u.def", pp_trace_g.dir, pp_trace_g.name, i);
        unlink(path);
    }
    pp_trace_path(path, sizeof path, "%s/%s", pp_trace_g.dir, pp_trace_g.name);
    rmdir(path);
}

void pp_trace_conv_free(pp_trace_conv *c)
{
    for (uint32_t k = 0; k < c->n_teams; k++)
        free(c->teams[k].member);
    free(c->teams);
    free(c->locks);
    free(c->events);
    free(c->defined);
}

/* The run's facts as properties: POMPPROF::HOST, POMPPROF::ENV::OMP_NUM_THREADS,
 * ... (OTF2 takes [A-Z0-9_] between the "::").  A fact OTF2 refuses is left
 * out; it never costs the trace. */
void pp_trace_write_facts(pp_trace_conv *c, const pp_trace_defs *defs)
{
    int failed = c->otf2_failed;
    for (uint32_t i = 0; i < defs->n_facts; i++) {
        char name[192];
        int n = snprintf(name, sizeof name, "POMPPROF::%s", defs->fact_keys[i]);
        if (n < 0 || (size_t)n >= sizeof name)
            continue;
        for (char *p = name + 10; *p; p++) {
            if (*p >= 'a' && *p <= 'z')
                *p = (char)(*p - 'a' + 'A');
            else if (*p != ':' && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9'))
                *p = '_';
        }
        OTF2_Archive_SetProperty(c->archive, name, *defs->fact_values[i] ? defs->fact_values[i] : "-",
                                 true);
    }
    c->otf2_failed = failed;
}

static int pp_trace_write_archive(const pp_trace_defs *defs)
{
    char why[512];
    if (pp_trace_otf2_load(why, sizeof why) != 0) {
        /* a converter that did not start the trace (pompprof-salvage) */
        pp_message_warn("trace: cannot load the OTF2 library (%s); no trace is written", why);
        return -1;
    }
    pp_trace_conv c = {.defs = defs, .flush_region = defs->n_regions};
    for (pp_trace_buf *b = pp_trace_g.first; b; b = b->next)
        if (b->location + 1 > c.n_locations)
            c.n_locations = b->location + 1;
    uint64_t stop = __atomic_load_n(&pp_trace_g.stop_time, __ATOMIC_ACQUIRE);
    c.t_end = defs->t_end < stop ? defs->t_end : stop;
    c.events = calloc(c.n_locations + 1, sizeof *c.events);
    c.defined = calloc(c.n_locations + 1, 1);
    if (!c.events || !c.defined) {
        pp_trace_conv_free(&c);
        pp_message_warn("trace: out of memory while writing the trace; no trace is written");
        return -1;
    }
    if (pp_trace_g.reserve[0])
        unlink(pp_trace_g.reserve);
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(pp_trace_otf2_error, &c);
    c.archive = OTF2_Archive_Open(pp_trace_g.dir, pp_trace_g.name, OTF2_FILEMODE_WRITE,
                                  1 << 20, 4 << 20, OTF2_SUBSTRATE_POSIX,
                                  OTF2_COMPRESSION_NONE);
    int status = -1;
    if (c.archive &&
        OTF2_Archive_SetFlushCallbacks(c.archive, (OTF2_FlushCallbacks *)&pp_trace_flush_callbacks,
                                       NULL) ==
                         OTF2_SUCCESS &&
        OTF2_Archive_SetSerialCollectiveCallbacks(c.archive) == OTF2_SUCCESS &&
        OTF2_Archive_SetCreator(c.archive, "pompprof " PACKAGE_VERSION) == OTF2_SUCCESS &&
        OTF2_Archive_OpenEvtFiles(c.archive) == OTF2_SUCCESS) {
        pp_trace_write_facts(&c, defs);
        pp_trace_otf2_event_sizes(&c);
        pp_trace_budget budget = {
            .margin = pp_trace_otf2_definitions_size(defs, c.n_locations) +
                      (uint64_t)c.n_locations * 4096 + 16384,
            .limit = pp_trace_g.fsize_limit == UINT64_MAX ? UINT64_MAX
                                                            : pp_trace_g.fsize_limit - 4096,
        };
        status = 0;
        for (pp_trace_buf *b = pp_trace_g.first; b; b = b->next) {
            budget.free_at_start = pp_trace_free_bytes();
            if (pp_trace_otf2_location(&c, b, &budget) != 0)
                status = -1;
            char raw[PATH_MAX];
            pp_trace_raw_path(b->location, raw, sizeof raw);
            if (!pp_trace_g.salvage)
                unlink(raw); /* its space is the next thread's */
        }
        if (OTF2_Archive_CloseEvtFiles(c.archive) != OTF2_SUCCESS)
            c.otf2_failed = 1;
        if (pp_trace_otf2_definitions(&c) != 0)
            c.otf2_failed = 1;
    }
    if (c.archive && OTF2_Archive_Close(c.archive) != OTF2_SUCCESS)
        c.otf2_failed = 1;
    OTF2_Error_RegisterCallback(previous, NULL);
    if (!c.archive || c.otf2_failed) {
        pp_trace_remove_archive(&c);
        pp_message_warn("trace: the OTF2 library could not write %s; no trace is written (the "
                        "profile is not affected)",
                        pp_trace_g.anchor);
        status = -1;
    } else if (status != 0) {
        pp_message_warn("trace: a raw trace file could not be read back; %s lacks the events "
                        "that were in it",
                        pp_trace_g.anchor);
        status = 1;
    } else if (c.cut_locations) {
        if (!__atomic_load_n(&pp_trace_g.stopped, __ATOMIC_ACQUIRE))
            pp_message_warn("trace: not enough disk space for the whole trace; %s ends %.3f s "
                            "into the run on %llu thread(s) and is complete up to there",
                            pp_trace_g.anchor, c.cut_at, (unsigned long long)c.cut_locations);
        status = 1;
    } else if (__atomic_load_n(&pp_trace_g.stopped, __ATOMIC_ACQUIRE)) {
        status = 1;
    }
    pp_trace_conv_free(&c);
    return status;
}
#endif

int pp_trace_finish(const pp_trace_defs *defs)
{
    if (getpid() != pp_trace_g.pid)
        return -1; /* a child after fork(): the trace is its parent's */
    pthread_mutex_lock(&pp_trace_g.lock);
    int was_active = pp_trace_g.active;
    __atomic_store_n(&pp_trace_g.active, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&pp_trace_g.lock);
    if (!was_active)
        return -1;
    int status = -1;
#ifdef PP_HAVE_OTF2
    if (defs && pp_trace_g.job.active && !pp_trace_g.job.together && !pp_trace_g.salvage)
        return pp_trace_job_leave(defs->t_end); /* alone: the raw files stay for a salvage */
    if (defs && pp_trace_g.job.active && !pp_trace_g.salvage)
        status = pp_trace_write_job_archive(defs);
    else if (defs)
        status = pp_trace_write_archive(defs);
    else
        pp_message_warn("trace: out of memory at the end of the run; no trace is written");
#else
    (void)defs;
#endif
    char raw[PATH_MAX];
    for (pp_trace_buf *b = pp_trace_g.first; b; b = b->next) {
        if (b->fd >= 0)
            close(b->fd);
        b->fd = -1;
    }
    if (pp_trace_g.salvage && status < 0)
        return status; /* what an interrupted run left stays for another try */
    for (pp_trace_buf *b = pp_trace_g.first; b; b = b->next) {
        pp_trace_raw_path(b->location, raw, sizeof raw);
        unlink(raw);
        pp_trace_tail_path(b->location, raw, sizeof raw);
        if (raw[0])
            unlink(raw); /* a crash's tail: the archive holds its records */
    }
    if (pp_trace_g.reserve[0])
        unlink(pp_trace_g.reserve);
    pp_trace_save_close();
    rmdir(pp_trace_g.raw_dir);
    if (pp_trace_g.job.active) {
        /* the job's raw directory, empty once every rank removed its own */
        char job_raw[PATH_MAX];
        if (pp_trace_path(job_raw, sizeof job_raw, "%s/%s.raw", pp_trace_g.dir, pp_trace_g.name) == 0)
            rmdir(job_raw);
    }
    return status;
}
