/* pompprof-salvage's policies: one line and exit status 2 when nothing can
 * be written (running out of memory included: this is a command-line tool,
 * which has nothing to degrade to), and whether the process that writes a
 * raw directory still runs. */
#define _GNU_SOURCE
#include "salvage/pp_salvage.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void pp_salvage_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pompprof-salvage: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

void *pp_salvage_check(void *p)
{
    if (!p)
        pp_salvage_die("out of memory");
    return p;
}

char *pp_salvage_strdup(const char *s)
{
    return pp_salvage_check(strdup(s));
}

/* A zombie is dead: one whose parent ended without reaping it stays so
 * where nothing reaps orphans (a container's init; mpirun's ranks). */
static int pp_salvage_zombie(long pid)
{
    char path[64], stat[256];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *paren = strrchr(stat, ')'); /* the state follows the name */
    return paren && paren[1] == ' ' && paren[2] == 'Z';
}

int pp_salvage_process_alive(long pid, const char *host)
{
    if (pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno != EPERM) || pp_salvage_zombie(pid))
        return 0;
    char here[256] = "";
    gethostname(here, sizeof here - 1);
    return !host || !strcmp(host, here);
}
