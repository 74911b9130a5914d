/* Reading one thread's records back at the end of the run: its raw file,
 * block by block, then the records that were still in its buffer.
 *
 * The part of the raw file already read is given back to the file system
 * (FALLOC_FL_PUNCH_HOLE) while the archive is written, so converting needs
 * little more disk space than the raw files already took: that is what lets
 * a nearly full disk still receive a complete archive.  Where punching is not
 * supported, the whole file goes when its thread is done. */
#define _GNU_SOURCE
#include "trace/pp_trace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PP_TRACE_SOURCE_BLOCK ((size_t)1 << 17) /* words: 1 MiB */

int pp_trace_source_open(pp_trace_source *s, pp_trace_buf *b)
{
    memset(s, 0, sizeof *s);
    s->b = b;
    s->fd = -1;
    s->blk_cap = PP_TRACE_SOURCE_BLOCK + PP_TRACE_RECORD_MAX_WORDS;
    s->blk = malloc(s->blk_cap * sizeof(uint64_t));
    if (!s->blk)
        return -1;
    char path[PATH_MAX];
    pp_trace_raw_path(b->location, path, sizeof path);
    if (b->file_bytes > sizeof(pp_trace_raw_header))
        s->fd = open(path, O_RDWR | O_CLOEXEC);
    s->file_off = sizeof(pp_trace_raw_header);
    s->file_end = s->fd >= 0 ? b->file_bytes : s->file_off;
    s->mem = b->start;
    s->mem_end = b->stopped ? b->kept_end : b->pos;
    return 0;
}

/* Give the file's blocks before off back to the file system. */
static void pp_trace_source_punch(pp_trace_source *s, uint64_t off)
{
    uint64_t upto = off & ~(uint64_t)((1 << 16) - 1);
    if (pp_trace_g.salvage)
        return; /* a salvaged run's raw files stay until its archive is complete */
    if (upto > s->punched &&
        fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)s->punched,
                  (off_t)(upto - s->punched)) == 0)
        s->punched = upto;
}

/* Refill the block from the file, keeping the words not handed out yet. */
static int pp_trace_source_fill(pp_trace_source *s)
{
    size_t left = s->blk_n - s->blk_pos;
    memmove(s->blk, s->blk + s->blk_pos, left * sizeof(uint64_t));
    s->blk_pos = 0;
    s->blk_n = left;
    uint64_t want = (s->blk_cap - left) * sizeof(uint64_t);
    if (want > s->file_end - s->file_off)
        want = s->file_end - s->file_off;
    char *dst = (char *)(s->blk + left);
    uint64_t got = 0;
    while (got < want) {
        ssize_t r = pread(s->fd, dst + got, want - got, (off_t)(s->file_off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (uint64_t)r;
    }
    s->file_off += got;
    s->blk_n += got / sizeof(uint64_t);
    pp_trace_source_punch(s, s->file_off - (uint64_t)s->blk_n * sizeof(uint64_t));
    return 0;
}

int pp_trace_source_next(pp_trace_source *s, const uint64_t **rec, unsigned *words)
{
    if (!s->in_memory) {
        if (s->blk_n - s->blk_pos < PP_TRACE_RECORD_MAX_WORDS && s->file_off < s->file_end &&
            pp_trace_source_fill(s) != 0)
            return -1;
        if (s->blk_pos < s->blk_n) {
            unsigned w = pp_trace_record_length(s->blk + s->blk_pos, s->blk_n - s->blk_pos);
            if (!w)
                return -1;
            *rec = s->blk + s->blk_pos;
            *words = w;
            s->blk_pos += w;
            return 1;
        }
        s->in_memory = 1;
    }
    if (s->mem >= s->mem_end)
        return 0;
    unsigned w = pp_trace_record_length(s->mem, (size_t)(s->mem_end - s->mem));
    if (!w)
        return -1;
    *rec = s->mem;
    *words = w;
    s->mem += w;
    return 1;
}

void pp_trace_source_close(pp_trace_source *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    free(s->blk);
    s->blk = NULL;
}
