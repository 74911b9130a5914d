/* Strict test-side reader of the .cubex tar container (format note 1). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/unit/cube/cube_test_util.h"

static int cube_test_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int cube_test_is_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

/* A numeric field of `digits` octal digits followed by NUL. */
static int cube_test_octal(const unsigned char *field, int digits, unsigned long long *value)
{
    *value = 0;
    for (int i = 0; i < digits; i++) {
        if (field[i] < '0' || field[i] > '7')
            return -1;
        *value = *value * 8 + (unsigned)(field[i] - '0');
    }
    return field[digits] == '\0' ? 0 : -1;
}

static int cube_test_header_check(const unsigned char *h, size_t pos, char *err, size_t errlen)
{
    unsigned long long v;
    if (memchr(h, '\0', 100) == NULL)
        return cube_test_fail(err, errlen, "header@%zu: name not NUL-terminated", pos);
    if (memcmp(h + 100, "0000600", 8) != 0)
        return cube_test_fail(err, errlen, "header@%zu: mode is not 0000600", pos);
    if (cube_test_octal(h + 108, 7, &v) || cube_test_octal(h + 116, 7, &v))
        return cube_test_fail(err, errlen, "header@%zu: bad uid/gid field", pos);
    if (cube_test_octal(h + 124, 11, &v) || cube_test_octal(h + 136, 11, &v))
        return cube_test_fail(err, errlen, "header@%zu: bad size/mtime field", pos);
    if (h[156] != '0')
        return cube_test_fail(err, errlen, "header@%zu: typeflag %c", pos, h[156]);
    if (memcmp(h + 257, "ustar", 6) != 0 || memcmp(h + 263, "00", 2) != 0)
        return cube_test_fail(err, errlen, "header@%zu: magic/version not ustar/00", pos);
    if (strcmp((const char *)h + 265, "nouser") || strcmp((const char *)h + 297, "users"))
        return cube_test_fail(err, errlen, "header@%zu: uname/gname", pos);
    if (!cube_test_is_zero(h + 157, 100) || !cube_test_is_zero(h + 329, 512 - 329))
        return cube_test_fail(err, errlen, "header@%zu: linkname/tail not zero", pos);
    unsigned long sum = 0;
    for (int i = 0; i < 512; i++)
        sum += (i >= 148 && i < 156) ? ' ' : h[i];
    if (cube_test_octal(h + 148, 6, &v) || h[155] != ' ' || v != sum)
        return cube_test_fail(err, errlen, "header@%zu: checksum field wrong (want %lo)", pos, sum);
    return 0;
}

int cube_test_tar_load(const char *path, cube_test_tar *tar, char *err, size_t errlen)
{
    memset(tar, 0, sizeof *tar);
    FILE *f = fopen(path, "rb");
    if (!f)
        return cube_test_fail(err, errlen, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    tar->bytes = malloc(len > 0 ? (size_t)len : 1);
    tar->len = (size_t)len;
    size_t got = fread(tar->bytes, 1, tar->len, f);
    fclose(f);
    if (got != tar->len)
        return cube_test_fail(err, errlen, "short read of %s", path);
    if (tar->len % 512 != 0)
        return cube_test_fail(err, errlen, "file length %zu is not a multiple of 512", tar->len);

    size_t pos = 0;
    for (;;) {
        if (pos + 512 > tar->len)
            return cube_test_fail(err, errlen, "archive ends without two zero blocks");
        const unsigned char *h = tar->bytes + pos;
        if (cube_test_is_zero(h, 512)) {
            /* the end: exactly two zero blocks, then EOF */
            if (pos + 1024 != tar->len || !cube_test_is_zero(h + 512, 512))
                return cube_test_fail(err, errlen, "zero block at %zu is not the 2-block end", pos);
            break;
        }
        if (cube_test_header_check(h, pos, err, errlen) != 0)
            return -1;
        unsigned long long size;
        cube_test_octal(h + 124, 11, &size);
        if (size == 0 || size % 512 == 0)
            return cube_test_fail(err, errlen, "member %.100s has size %llu (multiple of 512)",
                                  (const char *)h, size);
        /* CubeLib's rule: always (size/512 + 1) blocks after the header */
        size_t next = pos + 512 + (size_t)(size / 512 + 1) * 512;
        if (next > tar->len)
            return cube_test_fail(err, errlen, "member %.100s runs past EOF", (const char *)h);
        if (!cube_test_is_zero(h + 512 + size, next - pos - 512 - size))
            return cube_test_fail(err, errlen, "padding of %.100s not zero", (const char *)h);
        tar->members = realloc(tar->members, (size_t)(tar->num_members + 1) * sizeof *tar->members);
        cube_test_member *m = &tar->members[tar->num_members++];
        snprintf(m->name, sizeof m->name, "%.100s", (const char *)h);
        for (int i = 0; i < tar->num_members - 1; i++)
            if (strcmp(tar->members[i].name, m->name) == 0)
                return cube_test_fail(err, errlen, "member %s occurs twice", m->name);
        m->header_offset = pos;
        m->offset = pos + 512;
        m->size = (size_t)size;
        pos = next;
    }
    if (tar->num_members == 0 || memcmp(tar->bytes + 257, "ustar", 5) != 0)
        return cube_test_fail(err, errlen, "no members / first header not ustar");
    return 0;
}

void cube_test_tar_free(cube_test_tar *tar)
{
    free(tar->bytes);
    free(tar->members);
    memset(tar, 0, sizeof *tar);
}

const cube_test_member *cube_test_tar_find(const cube_test_tar *tar, const char *name)
{
    for (int i = 0; i < tar->num_members; i++)
        if (strcmp(tar->members[i].name, name) == 0)
            return &tar->members[i];
    return NULL;
}
