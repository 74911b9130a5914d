#include "lib/pp_message.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int pp_verbosity;

void pp_message_set_verbosity(int level) { pp_verbosity = level; }

static void pp_message_vwrite(const char *fmt, va_list ap)
{
    char line[1024];
    const size_t prefix = sizeof("pompprof: ") - 1;
    memcpy(line, "pompprof: ", prefix);
    int n = vsnprintf(line + prefix, sizeof(line) - prefix - 1, fmt, ap);
    size_t len = prefix + (n < 0 ? 0 : (size_t)n);
    if (len > sizeof(line) - 2)
        len = sizeof(line) - 2; /* truncated message: still one line */
    line[len++] = '\n';
    /* errno belongs to the program; a failed write must not change it. */
    int saved = errno;
    ssize_t w = write(STDERR_FILENO, line, len);
    (void)w;
    errno = saved;
}

void pp_message_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pp_message_vwrite(fmt, ap);
    va_end(ap);
}

void pp_message_verbose(int level, const char *fmt, ...)
{
    if (pp_verbosity < level)
        return;
    va_list ap;
    va_start(ap, fmt);
    pp_message_vwrite(fmt, ap);
    va_end(ap);
}
