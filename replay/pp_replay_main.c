/* pompprof-replay [--from S] [--to S] [--bins N] [--instances N]
 *                 [--levels N] [--pictures] [--chrome FILE]
 *                 [--dot FILE [--dot-instances N]] [--graph N] ARCHIVE.otf2
 *
 * Reads a trace written by pompprof with OTF2's reader, replays its events
 * in time order (pp_replay_read.c, pp_replay_model.c) and prints one JSON
 * document on stdout (pp_replay_print.c; pp_replay.h says what it holds).
 * pompprof-timeline runs it; it is in C because the replay of a trace of ten
 * million events must take seconds (doc/trace.md has the figures).  Any
 * problem: one line on stderr, exit 1 (pp_replay_fail.h).  This file reads
 * the command line and runs the rest. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The command line. */
typedef struct pp_args {
    double from, to; /* to < 0: the end */
    unsigned long bins, instances, levels;
    int pictures;
    const char *chrome, *path, *dot;
    unsigned long dot_instances, graph;
} pp_args;

static double pp_arg_seconds(const char *opt, const char *v)
{
    char *end;
    errno = 0;
    double s = strtod(v, &end);
    if (errno || end == v || *end || s < 0)
        pp_replay_die("%s needs a number of seconds from the start of the trace, not '%s'", opt, v);
    return s;
}

static unsigned long pp_arg_count(const char *opt, const char *v, unsigned long max)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (errno || end == v || *end || n == 0 || n > max)
        pp_replay_die("%s needs a whole number from 1 to %lu, not '%s'", opt, max, v);
    return n;
}

static pp_args pp_args_parse(int argc, char **argv)
{
    pp_args a = {.to = -1, .bins = 2000, .instances = 64, .levels = 1, .dot_instances = 200};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(o, "--from") && has_value)
            a.from = pp_arg_seconds(o, argv[++i]);
        else if (!strcmp(o, "--to") && has_value)
            a.to = pp_arg_seconds(o, argv[++i]);
        else if (!strcmp(o, "--bins") && has_value)
            a.bins = pp_arg_count(o, argv[++i], 100000);
        else if (!strcmp(o, "--instances") && has_value)
            a.instances = pp_arg_count(o, argv[++i], 100000);
        else if (!strcmp(o, "--levels") && has_value)
            a.levels = pp_arg_count(o, argv[++i], 8);
        else if (!strcmp(o, "--chrome") && has_value)
            a.chrome = argv[++i];
        else if (!strcmp(o, "--dot") && has_value)
            a.dot = argv[++i];
        else if (!strcmp(o, "--dot-instances") && has_value)
            a.dot_instances = pp_arg_count(o, argv[++i], 100000);
        else if (!strcmp(o, "--graph") && has_value)
            a.graph = pp_arg_count(o, argv[++i], 100000);
        else if (!strcmp(o, "--pictures"))
            a.pictures = 1;
        else if (o[0] == '-' || a.path)
            pp_replay_die("usage: pompprof-replay [--from S] [--to S] [--bins N] [--instances N] "
                          "[--levels N] [--pictures] [--chrome FILE] "
                          "[--dot FILE [--dot-instances N]] [--graph N] ARCHIVE.otf2");
        else
            a.path = o;
    }
    if (!a.path)
        pp_replay_die("usage: pompprof-replay [options] ARCHIVE.otf2");
    return a;
}

int main(int argc, char **argv)
{
    pp_args a = pp_args_parse(argc, argv);
    FILE *probe = fopen(a.path, "r");
    if (!probe)
        pp_replay_die("%s: %s", a.path, strerror(errno));
    fclose(probe);

    pp_replay r = {.program_region = PP_LABEL_NONE};
    if ((unsigned long long)a.bins << (2 * (a.levels - 1)) > 4000000ull)
        pp_replay_die("--bins %lu with --levels %lu: the finest level would have more than "
                      "4000000 bins", a.bins, a.levels);
    if (pp_replay_class_check() != 0)
        pp_replay_die("internal error: the breakdown's columns do not cover every class once");
    pp_replay_options opt = {a.from,           a.to,       (uint32_t)a.bins, (uint32_t)a.instances,
                             (uint32_t)a.levels, a.pictures, a.chrome};
    pp_replay_read(&r, a.path, &opt);
    if (r.chrome && pp_replay_chrome_close(r.chrome, &r) != 0)
        pp_replay_die("cannot write %s: %s", a.chrome, strerror(errno));
    pp_replay_depend_mark_critical(&r);
    if (a.dot && pp_replay_dot_write(&r, a.dot, (uint32_t)a.dot_instances) != 0)
        pp_replay_die("cannot write %s: %s", a.dot, strerror(errno));
    pp_replay_print(stdout, &r, a.path, (uint32_t)a.graph);
    pp_replay_mpi_free(&r);
    if (fflush(stdout) != 0 || ferror(stdout))
        pp_replay_die("cannot write the result: %s", strerror(errno));
    return 0;
}
