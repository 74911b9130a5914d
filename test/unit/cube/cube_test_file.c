/* Loading a whole .cubex for the tests: tar + anchor.xml + the data and
 * index member of every metric, and reading single values back. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test/unit/cube/cube_test_util.h"

static int cube_test_file_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* <id>.data: marker + one row per cnode; <id>.index: 18-byte dense index. */
static int cube_test_metric_members(const cube_test_file *f, int m, char *err, size_t errlen)
{
    static const unsigned char dense_index[18] = {'C', 'U', 'B', 'E', 'X', '.', 'I', 'N', 'D',
                                                  'E', 'X', 1, 0, 0, 0, 0, 0, 3};
    char name[32];
    snprintf(name, sizeof name, "%d.data", m);
    const cube_test_member *data = cube_test_tar_find(&f->tar, name);
    snprintf(name, sizeof name, "%d.index", m);
    const cube_test_member *index = cube_test_tar_find(&f->tar, name);
    if (!data || !index)
        return cube_test_file_fail(err, errlen, "metric %d: data or index member missing", m);
    size_t want = 10 + (size_t)f->anchor.num_cnodes * (size_t)f->anchor.num_locations * 8;
    if (data->size != want || memcmp(f->tar.bytes + data->offset, "CUBEX.DATA", 10) != 0)
        return cube_test_file_fail(err, errlen, "metric %d: data member size %zu (want %zu) or marker",
                                   m, data->size, want);
    if (index->size != sizeof dense_index ||
        memcmp(f->tar.bytes + index->offset, dense_index, sizeof dense_index) != 0)
        return cube_test_file_fail(err, errlen, "metric %d: index is not the dense LE index", m);
    return 0;
}

int cube_test_load(const char *path, cube_test_file *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    if (cube_test_tar_load(path, &f->tar, err, errlen))
        return -1;
    const cube_test_member *anchor = cube_test_tar_find(&f->tar, "anchor.xml");
    if (!anchor)
        return cube_test_file_fail(err, errlen, "no anchor.xml member");
    if (cube_test_anchor_check((const char *)f->tar.bytes + anchor->offset, anchor->size,
                               &f->anchor, err, errlen))
        return -1;
    for (int m = 0; m < f->anchor.num_metrics; m++)
        if (cube_test_metric_members(f, m, err, errlen))
            return -1;
    /* nothing but anchor.xml and the metric members */
    if (f->tar.num_members != 1 + 2 * f->anchor.num_metrics)
        return cube_test_file_fail(err, errlen, "%d members for %d metrics", f->tar.num_members,
                                   f->anchor.num_metrics);
    return 0;
}

void cube_test_file_free(cube_test_file *f)
{
    cube_test_anchor_free(&f->anchor);
    cube_test_tar_free(&f->tar);
}

uint64_t cube_test_raw(const cube_test_file *f, int metric, int cnode, int location)
{
    char name[32];
    snprintf(name, sizeof name, "%d.data", metric);
    const cube_test_member *data = cube_test_tar_find(&f->tar, name);
    int row = f->anchor.position[f->anchor.metric_kind[metric]][cnode];
    size_t at = data->offset + 10 +
                ((size_t)row * (size_t)f->anchor.num_locations + (size_t)location) * 8;
    uint64_t value = 0;
    for (int b = 7; b >= 0; b--) /* the index declares little-endian */
        value = value << 8 | f->tar.bytes[at + (size_t)b];
    return value;
}

double cube_test_double(const cube_test_file *f, int metric, int cnode, int location)
{
    uint64_t bits = cube_test_raw(f, metric, cnode, location);
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

void cube_test_mkdtemp(char *dir, size_t len)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, len, "%s/pp_cube_test.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir))
        dir[0] = '\0';
}

void cube_test_rmdir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

int cube_test_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}
