/* How pompprof-replay fails, whatever the cause: one line on stderr,
 * "pompprof-replay: " and what went wrong, and exit status 1.  The replay
 * only reads a trace, which stays as it was, so it stops at the first
 * problem.  Memory is no exception: replay/ allocates only through the
 * functions here, which end the replay so when memory runs out ("out of
 * memory (...)"); no caller checks for NULL. */
#ifndef PP_REPLAY_FAIL_H
#define PP_REPLAY_FAIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* printf's format and arguments: the line after the prefix. */
_Noreturn void pp_replay_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The replay ends: no memory for n elements of each bytes. */
_Noreturn void pp_replay_out_of_memory(size_t n, size_t each);

/* n elements of each bytes: uninitialized, zeroed; p resized to n elements;
 * p resized from old_n to n elements, the ones beyond old_n zeroed.  None
 * returns NULL (n 0 gets a block of one byte).  The first three are inline:
 * the replay makes a few for every task. */
static inline size_t pp_replay_bytes(size_t n, size_t each)
{
    if (each && n > SIZE_MAX / each)
        pp_replay_out_of_memory(n, each);
    return n && each ? n * each : 1;
}

static inline void *pp_replay_alloc(size_t n, size_t each)
{
    void *p = malloc(pp_replay_bytes(n, each));
    if (!p)
        pp_replay_out_of_memory(n, each);
    return p;
}

static inline void *pp_replay_alloc_zero(size_t n, size_t each)
{
    void *p = calloc(1, pp_replay_bytes(n, each));
    if (!p)
        pp_replay_out_of_memory(n, each);
    return p;
}

static inline void *pp_replay_resize(void *p, size_t n, size_t each)
{
    void *q = realloc(p, pp_replay_bytes(n, each));
    if (!q)
        pp_replay_out_of_memory(n, each);
    return q;
}

void *pp_replay_resize_zero(void *p, size_t old_n, size_t n, size_t each);
char *pp_replay_strdup(const char *s);

#endif
