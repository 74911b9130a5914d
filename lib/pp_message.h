/* pp_message: the library's only way to talk to the user.
 *
 * Every line starts with "pompprof: " and goes to stderr in a single write(2),
 * so messages from several threads never interleave and the profiled
 * program's own stdout is never touched. */
#ifndef PP_MESSAGE_H
#define PP_MESSAGE_H

#include <stdatomic.h>

/* Print one "pompprof: ..." line on stderr (a newline is appended). */
void pp_message_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Same, but only when POMPPROF_VERBOSE >= level. */
void pp_message_verbose(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Set by the configuration; 0 = quiet (warnings only). */
void pp_message_set_verbosity(int level);

/* Warn at most once per call site, also when many threads race to it. */
#define PP_WARN_ONCE(...)                                         \
    do {                                                          \
        static atomic_flag pp_warned_ = ATOMIC_FLAG_INIT;         \
        if (!atomic_flag_test_and_set(&pp_warned_))               \
            pp_message_warn(__VA_ARGS__);                         \
    } while (0)

#endif
