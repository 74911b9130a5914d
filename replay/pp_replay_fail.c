/* pompprof-replay's one way to fail (pp_replay_fail.h): every error and every
 * allocation that fails ends the replay with one line on stderr and exit 1. */
#include "replay/pp_replay_fail.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pp_replay_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pompprof-replay: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void pp_replay_out_of_memory(size_t n, size_t each)
{
    if (each && n > SIZE_MAX / each)
        pp_replay_die("out of memory (%zu elements of %zu bytes)", n, each);
    pp_replay_die("out of memory (asking for %zu bytes)", pp_replay_bytes(n, each));
}

void *pp_replay_resize_zero(void *p, size_t old_n, size_t n, size_t each)
{
    char *q = pp_replay_resize(p, n, each);
    if (n > old_n)
        memset(q + old_n * each, 0, (n - old_n) * each);
    return q;
}

char *pp_replay_strdup(const char *s)
{
    size_t bytes = strlen(s) + 1;
    return memcpy(pp_replay_alloc(bytes, 1), s, bytes);
}
