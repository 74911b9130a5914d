/* Buffered output to a file descriptor.  The data members of a large
 * profile are tens of MB made of small rows; copying rows into a big buffer
 * keeps the number of write() calls at size/buffer instead of one per row.
 * The first error sticks (later writes are dropped) so callers check once. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cube-writer/pp_cube_internal.h"

int pp_cube_sink_open(pp_cube_sink *sink, int fd, size_t buffer_size)
{
    sink->fd = fd;
    sink->len = 0;
    sink->written = 0;
    sink->err = 0;
    sink->cap = buffer_size;
    sink->buf = malloc(buffer_size);
    if (!sink->buf) {
        sink->err = ENOMEM;
        return -1;
    }
    return 0;
}

/* write() may be partial (e.g. the disk fills up mid-buffer): loop until all
 * is out or a real error comes back.  A zero return would loop forever, so it
 * counts as "no space". */
static void pp_cube_sink_raw(pp_cube_sink *sink, const char *data, size_t len)
{
    while (len > 0 && !sink->err) {
        ssize_t n = write(sink->fd, data, len);
        if (n < 0) {
            if (errno != EINTR)
                sink->err = errno;
            continue;
        }
        if (n == 0) {
            sink->err = ENOSPC;
            break;
        }
        data += n;
        len -= (size_t)n;
    }
}

static void pp_cube_sink_flush(pp_cube_sink *sink)
{
    pp_cube_sink_raw(sink, sink->buf, sink->len);
    sink->len = 0;
}

void pp_cube_sink_write(pp_cube_sink *sink, const void *data, size_t len)
{
    if (sink->err)
        return;
    sink->written += len;
    if (sink->len + len <= sink->cap) {
        memcpy(sink->buf + sink->len, data, len);
        sink->len += len;
        return;
    }
    pp_cube_sink_flush(sink);
    if (len >= sink->cap) { /* big blocks (the XML) go out directly */
        pp_cube_sink_raw(sink, data, len);
        return;
    }
    memcpy(sink->buf, data, len);
    sink->len = len;
}

void pp_cube_sink_zeros(pp_cube_sink *sink, size_t len)
{
    static const char zeros[PP_CUBE_TAR_BLOCK];
    while (len > 0 && !sink->err) {
        size_t chunk = len < sizeof zeros ? len : sizeof zeros;
        pp_cube_sink_write(sink, zeros, chunk);
        len -= chunk;
    }
}

int pp_cube_sink_close(pp_cube_sink *sink)
{
    if (sink->buf && !sink->err)
        pp_cube_sink_flush(sink);
    free(sink->buf);
    sink->buf = NULL;
    sink->len = 0;
    return sink->err;
}
