/* How pompprof-replay fails, whatever the cause: one line on stderr,
 * "pompprof-replay: " and what went wrong, and exit status 1.  The replay
 * only reads a trace, which stays as it was, so it stops at the first
 * problem.  Memory is no exception: replay/ allocates only through the
 * functions here, which end the replay so when memory runs out ("out of
 * memory (...)"); no caller checks for NULL. */
#ifndef PP_REPLAY_FAIL_H
#define PP_REPLAY_FAIL_H

#include <stddef.h>

/* printf's format and arguments: the line after the prefix. */
_Noreturn void pp_replay_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* n elements of each bytes: uninitialized, zeroed; p resized to n elements;
 * p resized from old_n to n elements, the ones beyond old_n zeroed.  None
 * returns NULL (n 0 gets a block of one byte). */
void *pp_replay_alloc(size_t n, size_t each);
void *pp_replay_alloc_zero(size_t n, size_t each);
void *pp_replay_resize(void *p, size_t n, size_t each);
void *pp_replay_resize_zero(void *p, size_t old_n, size_t n, size_t each);
char *pp_replay_strdup(const char *s);

#endif
