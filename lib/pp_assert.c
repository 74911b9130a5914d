/* The failure of PP_ASSERT (pp_assert.h): one line on stderr, then abort().
 * Only write(2) and abort(), so it is safe wherever an assertion sits (the
 * event path, a signal handler, the signal thread's write). */
#include "lib/pp_assert.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void pp_assert_put(char *buf, size_t size, size_t *len, const char *s)
{
    size_t n = strlen(s);
    if (n > size - *len)
        n = size - *len;
    memcpy(buf + *len, s, n);
    *len += n;
}

void pp_assert_fail(const char *cond, const char *file, int line, const char *func)
{
    char num[16], *p = num + sizeof num;
    *--p = '\0';
    unsigned v = line > 0 ? (unsigned)line : 0;
    do
        *--p = (char)('0' + v % 10);
    while ((v /= 10) != 0 && p > num);
    char buf[512];
    size_t len = 0;
    pp_assert_put(buf, sizeof buf - 1, &len, "pompprof: internal error: assertion '");
    pp_assert_put(buf, sizeof buf - 1, &len, cond);
    pp_assert_put(buf, sizeof buf - 1, &len, "' failed at ");
    pp_assert_put(buf, sizeof buf - 1, &len, file);
    pp_assert_put(buf, sizeof buf - 1, &len, ":");
    pp_assert_put(buf, sizeof buf - 1, &len, p);
    pp_assert_put(buf, sizeof buf - 1, &len, " (");
    pp_assert_put(buf, sizeof buf - 1, &len, func);
    pp_assert_put(buf, sizeof buf - 1, &len, ")");
    buf[len++] = '\n';
    ssize_t w = write(STDERR_FILENO, buf, len);
    (void)w;
    abort();
}
