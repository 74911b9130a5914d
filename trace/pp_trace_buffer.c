/* The start of a trace, the threads' buffers and their flushes.
 *
 * While the program runs, trace files are written only here: one raw file
 * per thread, a whole buffer per write(2).  The first failure (disk full,
 * RLIMIT_FSIZE, I/O error) stops the trace for every thread: each keeps the
 * records still in its buffer (they reach the archive at the end) and
 * drops everything after, and pp_trace_g.stop_time says where the trace
 * ends.  A file size limit is checked before writing, so the program never
 * receives SIGXFSZ because of us. */
#define _GNU_SOURCE
#include "trace/pp_trace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/pp_message.h"
#include "lib/pp_timer.h"
#ifdef PP_HAVE_OTF2
#include "trace/pp_trace_otf2_api.h"
#endif

pp_trace_state pp_trace_g = {.lock = PTHREAD_MUTEX_INITIALIZER, .stop_time = UINT64_MAX,
                              .save_fd = -1};

int pp_trace_active(void)
{
    return __atomic_load_n(&pp_trace_g.active, __ATOMIC_ACQUIRE);
}

const char *pp_trace_archive_path(void)
{
    return pp_trace_g.anchor;
}

uint64_t pp_trace_lock_order(void)
{
    return __atomic_add_fetch(&pp_trace_g.lock_order, 1, __ATOMIC_RELAXED);
}

int pp_trace_path(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < size ? 0 : -1;
}

void pp_trace_name(char *buf, size_t size, unsigned index)
{
    if (index == 0)
        snprintf(buf, size, "traces");
    else
        snprintf(buf, size, "traces.%u", index);
}

void pp_trace_raw_path_in(const char *raw_dir, uint32_t loc, char *buf, size_t size)
{
    pp_trace_path(buf, size, "%s/%u.raw", raw_dir, loc);
}

void pp_trace_raw_path(uint32_t loc, char *buf, size_t size)
{
    pp_trace_raw_path_in(pp_trace_g.raw_dir, loc, buf, size);
}

/* ---- writing ------------------------------------------------------------------- */

/* Append n bytes to b's raw file: 0, or the errno of the failure, after
 * which the file is cut back to its last complete record. */
static int pp_trace_write_raw(pp_trace_buf *b, const void *data, size_t n)
{
    if (b->fd < 0)
        return EBADF;
    if (pp_trace_g.fsize_limit != UINT64_MAX && b->file_bytes + n > pp_trace_g.fsize_limit)
        return EFBIG;
    const char *p = data;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(b->fd, p + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int err = w < 0 ? errno : ENOSPC;
            if (ftruncate(b->fd, (off_t)b->file_bytes) != 0 ||
                lseek(b->fd, (off_t)b->file_bytes, SEEK_SET) < 0) {
                /* the file's end is unknown now: trust none of it */
                close(b->fd);
                b->fd = -1;
                b->file_bytes = 0;
            }
            return err;
        }
        done += (size_t)w;
    }
    b->file_bytes += n;
    return 0;
}

/* From now on b keeps the records it holds and drops every new one. */
static void pp_trace_keep(pp_trace_buf *b)
{
    b->kept_end = b->pos;
    b->stopped = 1;
    b->pos = b->limit = b->scratch;
}

void pp_trace_stop(uint64_t at, int err, const char *path)
{
    int expected = 0;
    if (!__atomic_compare_exchange_n(&pp_trace_g.stopped, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return;
    __atomic_store_n(&pp_trace_g.stop_time, at, __ATOMIC_RELEASE);
    pp_message_warn("trace: cannot write %s: %s; the trace stops %.3f s into the run and keeps "
                    "what was recorded before (the profile is not affected)",
                    path, err == EFBIG ? "file size limit reached" : strerror(err),
                    (double)(at - pp_trace_g.t0) / pp_timer_ticks_per_second());
}

void pp_trace_flush(pp_trace_buf *b)
{
    if (b->stopped) {
        b->pos = b->scratch;
        return;
    }
    uint64_t t1 = pp_timer_now();
    /* a child after fork() shares the raw files' offsets with its parent:
     * it must not write to them (nor, at its end, turn them into a trace) */
    if (__atomic_load_n(&pp_trace_g.stopped, __ATOMIC_ACQUIRE) || getpid() != pp_trace_g.pid) {
        pp_trace_keep(b);
        return;
    }
    int err = pp_trace_write_raw(b, b->start, (size_t)(b->pos - b->start) * sizeof(uint64_t));
    if (err) {
        char path[PATH_MAX];
        pp_trace_raw_path(b->location, path, sizeof path);
        pp_trace_stop(t1, err, path);
        pp_trace_keep(b);
        return;
    }
    b->flushes++;
    b->pos = b->start;
    pp_trace_put(b, t1, PP_TRACE_FLUSH_BEGIN, 0);
    pp_trace_put(b, pp_timer_now(), PP_TRACE_FLUSH_END, 0);
}

void pp_trace_started(pp_trace_buf *b, uint64_t since)
{
    pp_trace_put(b, since, PP_TRACE_FLUSH_BEGIN, 1);
    pp_trace_put(b, pp_timer_now(), PP_TRACE_FLUSH_END, 1);
}

/* ---- threads ------------------------------------------------------------------- */

pp_trace_buf *pp_trace_thread_start(uint32_t location, uint64_t initial_task)
{
    if (!pp_trace_active() || getpid() != pp_trace_g.pid)
        return NULL;
    pp_trace_buf *b = calloc(1, sizeof *b);
    uint64_t *mem = b ? malloc(pp_trace_g.buffer_words * sizeof(uint64_t)) : NULL;
    if (!mem) {
        free(b);
        PP_WARN_ONCE("trace: out of memory for a thread's trace buffer (POMPPROF_TRACE_BUFFER); "
                     "that thread is not traced");
        return NULL;
    }
    b->start = b->pos = mem;
    b->end = mem + pp_trace_g.buffer_words;
    b->limit = b->end - PP_TRACE_RECORD_MAX_WORDS - 1;
    b->t0 = pp_trace_g.t0;
    b->location = location;
    b->initial_task = initial_task;
    char path[PATH_MAX];
    /* under the lock: a rank of a job moves the raw directory once (pp_trace_job_move) */
    pthread_mutex_lock(&pp_trace_g.lock);
    pp_trace_raw_path(location, path, sizeof path);
    b->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    pp_trace_raw_header h = {.magic = PP_TRACE_RAW_MAGIC, .version = PP_TRACE_RAW_VERSION,
                             .location = location, .initial_task = initial_task,
                             .t0 = pp_trace_g.t0};
    int err = b->fd < 0 ? errno : pp_trace_write_raw(b, &h, sizeof h);
    pthread_mutex_unlock(&pp_trace_g.lock);
    if (err)
        pp_trace_stop(pp_timer_now(), err, path);
    if (__atomic_load_n(&pp_trace_g.stopped, __ATOMIC_ACQUIRE))
        pp_trace_keep(b);
    pthread_mutex_lock(&pp_trace_g.lock);
    if (pp_trace_g.last)
        pp_trace_g.last->next = b;
    else
        pp_trace_g.first = b;
    pp_trace_g.last = b;
    pp_trace_g.n_buffers++;
    pthread_mutex_unlock(&pp_trace_g.lock);
    return b;
}

int pp_trace_spill(pp_trace_buf *b)
{
    uint64_t *end = b->stopped ? b->kept_end : b->pos;
    if (!end || end == b->start)
        return 0;
    int err = pp_trace_write_raw(b, b->start, (size_t)(end - b->start) * sizeof(uint64_t));
    if (!err) {
        if (b->stopped)
            b->kept_end = b->start;
        else
            b->pos = b->start;
    }
    return err;
}

/* ---- start ---------------------------------------------------------------------- */

/* DIR/<name>.raw made exclusively, for the first name whose archive files
 * do not exist yet: an existing trace is never replaced. */
static int pp_trace_choose_name(char *why, size_t why_size)
{
    for (unsigned i = 0; i < 1000; i++) {
        pp_trace_name(pp_trace_g.name, sizeof pp_trace_g.name, i);
        pp_trace_g.name_index = (int)i;
        char archive_dir[PATH_MAX];
        if (strlen(pp_trace_g.dir) > PATH_MAX - 128) {
            snprintf(why, why_size, "path too long: %.200s...", pp_trace_g.dir);
            return -1;
        }
        pp_trace_path(pp_trace_g.anchor, sizeof pp_trace_g.anchor, "%s/%s.otf2", pp_trace_g.dir,
                      pp_trace_g.name);
        pp_trace_path(archive_dir, sizeof archive_dir, "%s/%s", pp_trace_g.dir, pp_trace_g.name);
        pp_trace_path(pp_trace_g.raw_dir, sizeof pp_trace_g.raw_dir, "%s/%s.raw", pp_trace_g.dir,
                      pp_trace_g.name);
        if (access(pp_trace_g.anchor, F_OK) == 0 || access(archive_dir, F_OK) == 0)
            continue;
        if (mkdir(pp_trace_g.raw_dir, 0777) == 0)
            return 0;
        if (errno != EEXIST) {
            snprintf(why, why_size, "cannot create %s: %s", pp_trace_g.raw_dir, strerror(errno));
            return -1;
        }
    }
    snprintf(why, why_size, "%s holds too many traces already", pp_trace_g.dir);
    return -1;
}

/* Hold disk space for the definitions, which are written last, when the
 * events may have filled the disk. */
static int pp_trace_reserve_space(char *why, size_t why_size)
{
    uint64_t bytes = PP_TRACE_RESERVE_BYTES;
    struct statvfs st;
    if (statvfs(pp_trace_g.dir, &st) == 0 && (uint64_t)st.f_bavail * st.f_frsize / 4 < bytes)
        bytes = (uint64_t)st.f_bavail * st.f_frsize / 4;
    if (pp_trace_g.fsize_limit < bytes)
        bytes = pp_trace_g.fsize_limit;
    bytes &= ~(uint64_t)4095;
    pp_trace_g.reserve_bytes = bytes;
    pp_trace_path(pp_trace_g.reserve, sizeof pp_trace_g.reserve, "%s/reserve", pp_trace_g.raw_dir);
    int fd = open(pp_trace_g.reserve, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    int err = fd < 0 ? errno : (bytes ? posix_fallocate(fd, 0, (off_t)bytes) : 0);
    if (fd >= 0)
        close(fd);
    if (err) {
        snprintf(why, why_size, "cannot write %s: %s", pp_trace_g.reserve, strerror(err));
        unlink(pp_trace_g.reserve);
        pp_trace_g.reserve[0] = '\0';
        return -1;
    }
    return 0;
}

int pp_trace_start(const char *dir, size_t buffer_bytes, uint64_t t0)
{
#ifndef PP_HAVE_OTF2
    (void)dir, (void)buffer_bytes, (void)t0;
    pp_message_warn("POMPPROF_TRACE=1, but this pompprof was built without OTF2 (install the "
                    "Debian package libotf2-trace-dev and rebuild): no trace is written");
    return -1;
#else
    pthread_mutex_lock(&pp_trace_g.lock);
    if (pp_trace_g.active) {
        pthread_mutex_unlock(&pp_trace_g.lock);
        return 0;
    }
    char why[PATH_MAX + 128] = "";
    /* OTF2 is loaded now, not linked (pp_trace_otf2_api.h): without it the
     * run goes on untraced, before anything is written for the trace */
    if (pp_trace_otf2_load(why, sizeof why) != 0) {
        pthread_mutex_unlock(&pp_trace_g.lock);
        pp_message_warn("trace: cannot load the OTF2 library (%s); no trace is written (the "
                        "profile is not affected)",
                        why);
        return -1;
    }
    snprintf(pp_trace_g.dir, sizeof pp_trace_g.dir, "%s", dir);
    pp_trace_g.buffer_words = buffer_bytes / sizeof(uint64_t);
    pp_trace_g.t0 = t0;
    pp_trace_g.pid = getpid();
    pp_trace_g.stop_time = UINT64_MAX;
    struct rlimit rl;
    pp_trace_g.fsize_limit = getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
                                 ? (uint64_t)rl.rlim_cur
                                 : UINT64_MAX;
    mkdir(dir, 0777); /* the profile's rules made it already; a failure shows below */
    int ok = pp_trace_choose_name(why, sizeof why) == 0;
    if (ok && pp_trace_reserve_space(why, sizeof why) != 0) {
        rmdir(pp_trace_g.raw_dir);
        ok = 0;
    }
    if (ok)
        __atomic_store_n(&pp_trace_g.active, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&pp_trace_g.lock);
    if (!ok) {
        pp_trace_g.anchor[0] = '\0';
        pp_message_warn("trace: %s; no trace is written (the profile is not affected)", why);
        return -1;
    }
    pp_trace_save_open();
    return 0;
#endif
}

void pp_trace_reset(void)
{
    pp_trace_buf *b = pp_trace_g.first;
    while (b) {
        pp_trace_buf *n = b->next;
        if (b->fd >= 0)
            close(b->fd);
        free(b->start);
        free(b);
        b = n;
    }
    if (pp_trace_g.save_fd >= 0)
        close(pp_trace_g.save_fd);
    pp_trace_job_reset();
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    memset(&pp_trace_g, 0, sizeof pp_trace_g);
    pp_trace_g.lock = lock;
    pp_trace_g.stop_time = UINT64_MAX;
    pp_trace_g.save_fd = -1;
}
