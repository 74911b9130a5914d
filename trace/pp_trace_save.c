/* What a trace's conversion needs besides the raw records, saved while the
 * program runs: DIR/<name>.raw/defs, one line per definition (the region
 * names, the metrics, the clock, the run's facts).  The raw records name
 * regions by number only; with this file a run that never reached its end
 * (a crash, SIGKILL) still leaves a convertible trace (pompprof-salvage,
 * doc/trace.md).  Definitions are rare and never on the event path: each
 * is one write(2) with O_APPEND, under the trace's lock.
 *
 * A line is a kind and fields separated by tabs; a field's backslash, tab
 * and newline are written as \\, \t and \n:
 *     program <name>           pid <pid>
 *     clock <t0 ticks> <wall-clock seconds at t0> <ticks per second>
 *     region <id> <name> <file> <paradigm> <role> <description> <begin> <end>
 *     metric <index> <name>    fact <key> <value>
 * A later line for the same region or fact replaces the earlier one.  A
 * rank of a job adds its own kinds (pp_trace_job.c). */
#define _GNU_SOURCE
#include "trace/pp_trace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/pp_message.h"

/* Append s to out (at *n, out NULL: only count), escaped. */
static void pp_trace_save_field(char *out, size_t *n, const char *s)
{
    if (out)
        out[*n] = '\t';
    (*n)++;
    for (; s && *s; s++) {
        char e = *s == '\\' ? '\\' : *s == '\t' ? 't' : *s == '\n' ? 'n' : 0;
        if (e) {
            if (out)
                out[*n] = '\\', out[*n + 1] = e;
            *n += 2;
        } else {
            if (out)
                out[*n] = *s;
            (*n)++;
        }
    }
}

/* One line: kind, then n fields. */
void pp_trace_save_kind(const char *kind, unsigned n, const char *const *fields)
{
    if (pp_trace_g.save_fd < 0 || getpid() != pp_trace_g.pid)
        return;
    size_t len = strlen(kind);
    for (unsigned i = 0; i < n; i++)
        pp_trace_save_field(NULL, &len, fields[i]);
    char *line = malloc(len + 1);
    if (!line)
        return;
    memcpy(line, kind, strlen(kind));
    size_t at = strlen(kind);
    for (unsigned i = 0; i < n; i++)
        pp_trace_save_field(line, &at, fields[i]);
    line[at++] = '\n';
    pthread_mutex_lock(&pp_trace_g.lock);
    ssize_t w = pp_trace_g.save_fd >= 0 ? write(pp_trace_g.save_fd, line, at) : (ssize_t)at;
    pthread_mutex_unlock(&pp_trace_g.lock);
    free(line);
    if (w != (ssize_t)at)
        PP_WARN_ONCE("trace: cannot write %s/defs (%s); should the run be interrupted, its "
                     "trace cannot be salvaged (the trace and profile are not affected)",
                     pp_trace_g.raw_dir, w < 0 ? strerror(errno) : "short write");
}

void pp_trace_save_open(void)
{
    char path[PATH_MAX];
    pp_trace_g.save_fd = -1;
    if (pp_trace_path(path, sizeof path, "%s/defs", pp_trace_g.raw_dir) != 0)
        return;
    pp_trace_g.save_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0666);
    char pid[32];
    snprintf(pid, sizeof pid, "%ld", (long)pp_trace_g.pid);
    const char *f[] = {pid};
    pp_trace_save_kind("pid", 1, f);
}

void pp_trace_save_close(void)
{
    if (pp_trace_g.save_fd >= 0)
        close(pp_trace_g.save_fd);
    pp_trace_g.save_fd = -1;
    char path[PATH_MAX];
    if (pp_trace_g.raw_dir[0] &&
        pp_trace_path(path, sizeof path, "%s/defs", pp_trace_g.raw_dir) == 0)
        unlink(path);
}

void pp_trace_save_program(const char *program)
{
    const char *f[] = {program};
    pp_trace_save_kind("program", 1, f);
}

void pp_trace_save_clock(uint64_t t0, double wall_t0, double ticks_per_second)
{
    char a[32], b[48], c[48];
    snprintf(a, sizeof a, "%" PRIu64, t0);
    snprintf(b, sizeof b, "%.9f", wall_t0);
    snprintf(c, sizeof c, "%.6f", ticks_per_second);
    const char *f[] = {a, b, c};
    pp_trace_save_kind("clock", 3, f);
}

void pp_trace_save_region(uint32_t id, const pp_trace_region *r)
{
    char i[16], b[16], e[16];
    snprintf(i, sizeof i, "%u", id);
    snprintf(b, sizeof b, "%d", r->begin_line);
    snprintf(e, sizeof e, "%d", r->end_line);
    const char *f[] = {i, r->name, r->file, r->paradigm, r->role, r->description, b, e};
    pp_trace_save_kind("region", 8, f);
}

void pp_trace_save_metric(uint32_t index, const char *name)
{
    char i[16];
    snprintf(i, sizeof i, "%u", index);
    const char *f[] = {i, name};
    pp_trace_save_kind("metric", 2, f);
}

void pp_trace_save_fact(const char *key, const char *value)
{
    const char *f[] = {key, value};
    pp_trace_save_kind("fact", 2, f);
}
