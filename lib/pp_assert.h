/* PP_ASSERT(cond): an invariant of pompprof's own data (a tree's parent
 * links, the stack of active tasks, a location's current task), checked
 * where a broken one would otherwise turn into wrong numbers far from its
 * cause.
 *
 * Compiled in only in a debug build: the unit tests' copy of the engine
 * (profile/libpp_profile_debug.la, -DPP_DEBUG=1) and `./configure
 * --enable-debug`.  In a release build the condition is not even evaluated
 * (it must have no side effects), so the event path pays nothing.  A failed
 * assertion prints one "pompprof: internal error" line naming the condition,
 * file, line and function, with async-signal-safe calls only, and aborts:
 * in a debug build an inconsistency must stop the test where it arises.
 * (Release builds keep the library's rule: inconsistent event streams warn
 * once and go on.) */
#ifndef PP_ASSERT_H
#define PP_ASSERT_H

#include "config.h"

#if defined(PP_DEBUG) && PP_DEBUG
#define PP_ASSERT(cond)                                                                  \
    ((void)(__builtin_expect(!!(cond), 1) ? 0                                            \
                                          : (pp_assert_fail(#cond, __FILE__, __LINE__,   \
                                                            __func__),                   \
                                             0)))
#define PP_ASSERTIONS 1
#else
#define PP_ASSERT(cond) ((void)0)
#define PP_ASSERTIONS 0
#endif

/* Report a failed assertion and abort (never returns). */
void pp_assert_fail(const char *cond, const char *file, int line, const char *func)
    __attribute__((noreturn, cold));

#endif
