/* A growable text buffer for anchor.xml: the XML is built in memory because
 * its size must be known before the tar header is written. */
#include <stdlib.h>
#include <string.h>

#include "cube-writer/pp_cube_internal.h"

void pp_cube_strbuf_init(pp_cube_strbuf *sb)
{
    sb->data = NULL;
    sb->len = 0;
    sb->cap = 0;
    sb->failed = 0;
}

void pp_cube_strbuf_free(pp_cube_strbuf *sb)
{
    free(sb->data);
    pp_cube_strbuf_init(sb);
}

static int pp_cube_strbuf_reserve(pp_cube_strbuf *sb, size_t extra)
{
    if (sb->failed)
        return -1;
    if (sb->len + extra <= sb->cap)
        return 0;
    size_t cap = sb->cap ? sb->cap : 4096;
    while (cap < sb->len + extra) {
        if (cap > SIZE_MAX / 2) {
            sb->failed = 1;
            return -1;
        }
        cap *= 2;
    }
    char *grown = realloc(sb->data, cap);
    if (!grown) {
        sb->failed = 1;
        return -1;
    }
    sb->data = grown;
    sb->cap = cap;
    return 0;
}

void pp_cube_strbuf_append(pp_cube_strbuf *sb, const char *text, size_t len)
{
    if (len == 0 || pp_cube_strbuf_reserve(sb, len) != 0)
        return;
    memcpy(sb->data + sb->len, text, len);
    sb->len += len;
}

void pp_cube_strbuf_puts(pp_cube_strbuf *sb, const char *text)
{
    pp_cube_strbuf_append(sb, text, strlen(text));
}

void pp_cube_strbuf_putc(pp_cube_strbuf *sb, char c)
{
    if (pp_cube_strbuf_reserve(sb, 1) != 0)
        return;
    sb->data[sb->len++] = c;
}

/* Hand-rolled because the call tree may have 10^5+ nodes with several ids
 * each, and snprintf per id is a measurable part of the write time. */
void pp_cube_strbuf_put_int(pp_cube_strbuf *sb, long long value)
{
    char digits[24];
    int n = sizeof digits;
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value
                                             : (unsigned long long)value;
    do {
        digits[--n] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (value < 0)
        digits[--n] = '-';
    pp_cube_strbuf_append(sb, digits + n, sizeof digits - (size_t)n);
}
