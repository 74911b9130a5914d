/* What a crashing program's signal handler saves of the trace
 * (pp_trace_crash_save, pp_trace.h): every thread's records still in its
 * buffer, written beside the thread's raw file as <location>.tail, with
 * open(2), write(2) and close(2) only.  The crashing thread may hold any
 * lock; the other threads run on, and a thread inside an event may be
 * adding a record: each buffer is taken up to the end of its last record as
 * its position says then (the salvage reads up to the first record that is
 * not whole).  When the end of the run writes the archive after all, it
 * removes the tails with the raw files; when it does not (the process died
 * first, POMPPROF_CRASH_WAIT=0), pompprof-salvage appends each tail to its
 * raw file's records, so nothing recorded before the crash is lost.
 *
 * The other threads may still flush after the save, and a rank of a job
 * that ends alone writes what its buffers hold to the raw files
 * (pp_trace_job_leave): a tail's header says how long its raw file was when
 * it was saved, and the salvage passes over the part of the tail that
 * reached the file since (pp_trace_resume.c). */
#include "trace/pp_trace_internal.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* s + the decimal digits of v + suffix into buf (no snprintf: not safe in
 * a signal handler); 0, or -1 when it does not fit. */
static int pp_trace_crash_path(char *buf, size_t size, const char *dir, uint32_t v,
                               const char *suffix)
{
    char digits[12], *d = digits + sizeof digits;
    *--d = '\0';
    do
        *--d = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    size_t a = strlen(dir), b = strlen(d), c = strlen(suffix);
    if (a + 1 + b + c + 1 > size)
        return -1;
    memcpy(buf, dir, a);
    buf[a] = '/';
    memcpy(buf + a + 1, d, b);
    memcpy(buf + a + 1 + b, suffix, c + 1);
    return 0;
}

void pp_trace_tail_path_in(const char *raw_dir, uint32_t loc, char *buf, size_t size)
{
    if (pp_trace_crash_path(buf, size, raw_dir, loc, ".tail") != 0)
        buf[0] = '\0';
}

void pp_trace_tail_path(uint32_t loc, char *buf, size_t size)
{
    pp_trace_tail_path_in(pp_trace_g.raw_dir, loc, buf, size);
}

static void pp_trace_crash_write(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

void pp_trace_crash_save(void)
{
    if (!__atomic_load_n(&pp_trace_g.active, __ATOMIC_ACQUIRE) || getpid() != pp_trace_g.pid)
        return;
    for (pp_trace_buf *b = __atomic_load_n(&pp_trace_g.first, __ATOMIC_ACQUIRE); b;
         b = __atomic_load_n(&b->next, __ATOMIC_ACQUIRE)) {
        /* the file's length before the buffer's end: a flush between the two
         * makes the tail's records the file's, which the salvage then sees */
        uint64_t raw_bytes = __atomic_load_n(&b->file_bytes, __ATOMIC_ACQUIRE);
        const uint64_t *end = b->stopped ? b->kept_end : __atomic_load_n(&b->pos, __ATOMIC_ACQUIRE);
        if (!end || end < b->start || end > b->end)
            continue; /* an empty buffer still gets its tail: saved, nothing is missing */
        char path[PATH_MAX];
        pp_trace_tail_path(b->location, path, sizeof path);
        int fd = path[0] ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : -1;
        if (fd < 0)
            continue;
        pp_trace_raw_header h = {.magic = PP_TRACE_RAW_MAGIC, .version = PP_TRACE_RAW_VERSION,
                                 .location = b->location, .initial_task = b->initial_task,
                                 .t0 = b->t0, .raw_bytes = raw_bytes};
        pp_trace_crash_write(fd, &h, sizeof h);
        pp_trace_crash_write(fd, b->start, (size_t)(end - b->start) * sizeof(uint64_t));
        close(fd);
    }
}
