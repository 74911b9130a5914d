/* pp_cube_write: check that the definitions make a file CubeLib accepts,
 * write the tar container to a temporary file next to the target, then
 * publish it under the final name without ever replacing an existing file.
 * A reader therefore sees either no file or a complete one, and a previous
 * profile is never clobbered.  Every failure removes the temporary file and
 * leaves "cannot write <path>: <reason>" in pp_cube_error(). */
#define _GNU_SOURCE /* renameat2, RENAME_NOREPLACE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cube-writer/pp_cube_internal.h"

/* Big enough that a 50 MB profile takes ~50 write() calls. */
#define PP_CUBE_WRITE_BUFFER (1u << 20)

/* CubeLib rejects a file without any metric, region, cnode or system-tree
 * node, and a location group without locations (checked with CubeLib 4.8). */
static int pp_cube_write_check(pp_cube *cube, const char *path)
{
    const char *missing = NULL;
    if (cube->num_metrics == 0)
        missing = "no metric defined";
    else if (cube->num_regions == 0)
        missing = "no region defined";
    else if (cube->num_cnodes == 0)
        missing = "no call-tree node (cnode) defined";
    else if (cube->num_sysnodes == 0)
        missing = "no system-tree node defined";
    else if (cube->num_threads == 0)
        missing = "no thread (location) defined";
    if (missing) {
        pp_cube_set_error(cube, "cannot write %s: %s (a CUBE file needs at least one)", path,
                          missing);
        return -1;
    }
    for (int p = 0; p < cube->num_processes; p++) {
        if (cube->processes[p].num_threads == 0) {
            pp_cube_set_error(cube, "cannot write %s: process %d ('%s') has no thread", path, p,
                              cube->processes[p].name);
            return -1;
        }
    }
    /* Larger members would need PAX headers; no real profile gets there. */
    if (pp_cube_data_size(cube) > PP_CUBE_TAR_MAX_SIZE) {
        pp_cube_set_error(cube, "cannot write %s: %d cnodes x %d locations is too large", path,
                          cube->num_cnodes, cube->num_threads);
        return -1;
    }
    return 0;
}

/* Writes the whole container to fd; returns 0 or an errno value. */
static int pp_cube_write_container(pp_cube *cube, int fd, const pp_cube_strbuf *anchor,
                                   int *const orders[3])
{
    pp_cube_sink sink;
    if (pp_cube_sink_open(&sink, fd, PP_CUBE_WRITE_BUFFER) != 0)
        return sink.err;
    /* cubew's member order: metric members first, anchor.xml last. */
    for (int m = 0; m < cube->num_metrics && !sink.err; m++)
        pp_cube_data_write_members(cube, m, orders[cube->metrics[m].kind], &sink);
    pp_cube_tar_member_begin(&sink, "anchor.xml", anchor->len);
    pp_cube_sink_write(&sink, anchor->data, anchor->len);
    pp_cube_tar_member_end(&sink, anchor->len);
    pp_cube_tar_finish(&sink);
    return pp_cube_sink_close(&sink);
}

/* Moves tmp to path unless path exists.  renameat2(RENAME_NOREPLACE) is
 * atomic; on file systems without it, link() gives the same guarantee
 * (it fails with EEXIST) at the cost of a second step to drop the temp. */
static int pp_cube_write_publish(const char *tmp, const char *path)
{
#ifdef RENAME_NOREPLACE
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return -1;
#endif
    if (link(tmp, path) != 0)
        return -1;
    unlink(tmp);
    return 0;
}

int pp_cube_write(pp_cube *cube, const char *path)
{
    if (!cube)
        return -1;
    if (!path || !*path) {
        pp_cube_set_error(cube, "cannot write the profile: empty file name");
        return -1;
    }
    if (pp_cube_write_check(cube, path) != 0)
        return -1;
    /* Fail early and cheaply; the publish step re-checks atomically. */
    struct stat st;
    if (lstat(path, &st) == 0) {
        pp_cube_set_error(cube, "cannot write %s: %s", path, strerror(EEXIST));
        return -1;
    }

    int rc = -1, err = 0;
    int *orders[3] = {NULL, NULL, NULL};
    pp_cube_strbuf anchor;
    pp_cube_strbuf_init(&anchor);
    size_t tmp_len = strlen(path) + 64;
    char *tmp = malloc(tmp_len);
    if (!tmp)
        goto oom;
    for (int m = 0; m < cube->num_metrics; m++) {
        pp_cube_kind kind = cube->metrics[m].kind;
        if (orders[kind])
            continue;
        orders[kind] = malloc((size_t)cube->num_cnodes * sizeof(int));
        if (!orders[kind])
            goto oom;
        pp_cube_rows_order(&cube->cnode_tree, kind, orders[kind]);
    }
    if (pp_cube_xml_build(cube, &anchor) != 0)
        goto out; /* error already set */

    snprintf(tmp, tmp_len, "%s.tmp.%ld.%u", path, (long)getpid(), cube->writes++);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        err = errno;
        goto fail;
    }
    err = pp_cube_write_container(cube, fd, &anchor, orders);
    if (close(fd) != 0 && !err) /* NFS reports write errors here */
        err = errno;
    if (!err && pp_cube_write_publish(tmp, path) != 0)
        err = errno;
    if (err) {
        unlink(tmp);
        goto fail;
    }
    rc = 0;
    goto out;
oom:
    err = ENOMEM;
fail:
    pp_cube_set_error(cube, "cannot write %s: %s", path, strerror(err));
out:
    free(tmp);
    for (int k = 0; k < 3; k++)
        free(orders[k]);
    pp_cube_strbuf_free(&anchor);
    return rc;
}
