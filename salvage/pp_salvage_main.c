/* pompprof-salvage RAWDIR: convert what an interrupted traced run left in
 * DIR/<name>.raw (the threads' raw files, the tails a crash handler saved
 * beside them, the definitions saved while it ran, the space reserve) into
 * the archive DIR/<name>.otf2 that the run would have written, with the
 * trace layer's own conversion.  The archive is marked: its POMPPROF::END
 * property says the run was interrupted and the trace salvaged.  The raw
 * files go only once the archive is complete.
 *
 * What died with the process is lost: the records still in the threads'
 * buffers, unless a crash handler saved them as tails.  The trace ends with
 * the latest record on disk; what is open there is closed there.  One line
 * on stderr says what was salvaged and what is missing.
 *
 * Exit status: 0 salvaged, 1 a shorter archive (said why), 2 nothing
 * written (one line why). */
#define _GNU_SOURCE
#include "salvage/pp_salvage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The command line: the raw directory, and the archive it becomes, which
 * must not exist yet. */
static void pp_salvage_args(int argc, char **argv, pp_salvage_target *t)
{
    if (argc != 2 || argv[1][0] == '-')
        pp_salvage_die("usage: pompprof-salvage DIR/traces.raw (what an interrupted run with "
                       "POMPPROF_TRACE=1 left); writes DIR/traces.otf2");
    if (!realpath(argv[1], t->raw_dir))
        pp_salvage_die("%s: %s", argv[1], strerror(errno));
    size_t len = strlen(t->raw_dir);
    char *slash = strrchr(t->raw_dir, '/');
    if (len < 5 || strcmp(t->raw_dir + len - 4, ".raw") || !slash ||
        len - (size_t)(slash - t->raw_dir) > 60)
        pp_salvage_die("%s is not a raw trace directory (DIR/traces.raw)", t->raw_dir);
    snprintf(t->name, sizeof t->name, "%.*s", (int)(len - 4 - (size_t)(slash + 1 - t->raw_dir)),
             slash + 1);
    snprintf(t->dir, sizeof t->dir, "%.*s", slash == t->raw_dir ? 1 : (int)(slash - t->raw_dir),
             t->raw_dir);
    char archive_dir[sizeof t->anchor];
    snprintf(t->anchor, sizeof t->anchor, "%s/%s.otf2", t->dir, t->name);
    snprintf(archive_dir, sizeof archive_dir, "%s/%s", t->dir, t->name);
    if (access(t->anchor, F_OK) == 0 || access(archive_dir, F_OK) == 0)
        pp_salvage_die("%s exists already: remove it (or move %s elsewhere) to salvage into it",
                       t->anchor, t->raw_dir);
}

/* A single process's raw files, read with its definitions: r. */
static pp_trace_resume *pp_salvage_process_read(const pp_salvage_target *t, pp_salvage_defs *d)
{
    char path[PATH_MAX + 64], why[PATH_MAX + 256];
    pp_trace_resume *r = pp_salvage_check(pp_trace_resume_new(t->raw_dir));
    snprintf(path, sizeof path, "%s/defs", t->raw_dir);
    if (pp_salvage_defs_read(path, d, r, why, sizeof why) != 0)
        pp_salvage_die("%s", why);
    if (pp_salvage_process_alive(d->pid, pp_salvage_defs_fact_of(d, "host")))
        pp_salvage_die("process %ld, which writes %s, is still running: its trace is converted "
                       "when it ends", d->pid, t->raw_dir);
    if (pp_trace_resume_scan(r) != 0)
        pp_salvage_die("%s: %s", t->raw_dir, strerror(errno));
    pp_salvage_sum s = pp_salvage_sum_of(r, d->t0);
    if (!s.threads)
        pp_salvage_die("%s holds no raw thread file: nothing to salvage", t->raw_dir);
    if (!s.records)
        pp_salvage_die("no record reached the disk before the process died: every event was "
                       "still in the threads' trace buffers (a buffer is written when full; "
                       "a smaller POMPPROF_TRACE_BUFFER writes sooner), so there is nothing "
                       "to salvage; remove %s", t->raw_dir);
    return r;
}

/* A single process's raw files into its archive; the exit status. */
static int pp_salvage_process(const pp_salvage_target *t)
{
    pp_salvage_defs d;
    pp_trace_resume *r = pp_salvage_process_read(t, &d);
    pp_salvage_defs_complete(&d, pp_trace_resume_max_region(r));
    pp_salvage_say_process(r, &d);
    pp_salvage_sum s = pp_salvage_sum_of(r, d.t0);
    double seconds = (double)(s.last - d.t0) / d.ticks_per_second;
    char end[256], threads[16];
    snprintf(end, sizeof end, "interrupted: trace salvaged from raw files by pompprof-salvage; "
             "ends %.3f s into the run, at the last record on disk", seconds);
    snprintf(threads, sizeof threads, "%u", s.threads);
    pp_salvage_defs_fact(&d, "end", end);
    pp_salvage_defs_fact(&d, "salvaged", "1");
    pp_salvage_defs_fact(&d, "threads", threads);
    pp_trace_defs defs = pp_salvage_defs_trace(&d, s.last);
    int status = pp_trace_resume_write(r, t->dir, t->name, d.t0, &defs);
    pp_trace_resume_free(r);
    pp_salvage_defs_free(&d);
    if (status < 0)
        pp_salvage_die("no archive written; %s is left as it was", t->raw_dir);
    /* what the tools show: the archive, and how far it goes */
    printf("%s\n%.6f\n", t->anchor, seconds);
    return status == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    pp_salvage_target t;
    pp_salvage_args(argc, argv, &t);
    if (pp_salvage_is_job(t.raw_dir))
        return pp_salvage_job(&t); /* the ranks of a job, into its one archive */
    return pp_salvage_process(&t);
}
