/* Mutual exclusion: critical (unnamed and named), atomic (the atomics gcc
 * cannot compile to instructions call GOMP_atomic_start/end; all others are
 * instructions, unseen), ordered, and the wait of an ordered depend(sink)
 * (doacross).  As in the rebuild: the construct's region holds the wait for
 * the lock and the body ("critical sblock", "ordered sblock"), which begins
 * when libgomp returns the lock and ends before it is released.  The end
 * call closes the innermost construct of its kind open on the thread, named
 * after its begin. */
#include "gomp/pp_gomp_internal.h"

#include <stdarg.h>

/* The begin: region entered, libgomp's wait (real_call), body entered. */
#define PP_GOMP_MUTEX_BEGIN(kind, real_call, body)                                            \
    do {                                                                                      \
        pp_callsite *c_ = pp_gomp_begin(__builtin_return_address(0), (kind), true);           \
        if (c_) {                                                                             \
            pp_gomp_open_push(pp_gomp_mine.thread, c_);                                               \
            pp_profile_enter(c_->main);                                                       \
        }                                                                                     \
        real_call;                                                                            \
        if (c_ && (body))                                                                     \
            pp_profile_enter(c_->inner);                                                      \
    } while (0)

/* The end: body left, libgomp's release (real_call), region left. */
#define PP_GOMP_MUTEX_END(kind, real_call, body)                                              \
    do {                                                                                      \
        pp_gomp_thread *t_ = pp_gomp_self();                                                  \
        pp_callsite *c_ = t_ ? pp_gomp_open_pop(t_, (kind)) : NULL;                           \
        if (c_ && (body))                                                                     \
            pp_profile_exit(c_->inner);                                                       \
        real_call;                                                                            \
        if (c_)                                                                               \
            pp_profile_exit(c_->main);                                                        \
    } while (0)

void GOMP_critical_start(void)
{
    PP_GOMP_MUTEX_BEGIN(PP_CALLSITE_CRITICAL, PP_GOMP_REAL(GOMP_critical_start)(), true);
}

void GOMP_critical_end(void)
{
    PP_GOMP_MUTEX_END(PP_CALLSITE_CRITICAL, PP_GOMP_REAL(GOMP_critical_end)(), true);
}

void GOMP_critical_name_start(void **pptr)
{
    PP_GOMP_MUTEX_BEGIN(PP_CALLSITE_CRITICAL, PP_GOMP_REAL(GOMP_critical_name_start)(pptr),
                        true);
}

void GOMP_critical_name_end(void **pptr)
{
    PP_GOMP_MUTEX_END(PP_CALLSITE_CRITICAL, PP_GOMP_REAL(GOMP_critical_name_end)(pptr), true);
}

void GOMP_atomic_start(void)
{
    PP_GOMP_MUTEX_BEGIN(PP_CALLSITE_ATOMIC, PP_GOMP_REAL(GOMP_atomic_start)(), false);
}

void GOMP_atomic_end(void)
{
    PP_GOMP_MUTEX_END(PP_CALLSITE_ATOMIC, PP_GOMP_REAL(GOMP_atomic_end)(), false);
}

void GOMP_ordered_start(void)
{
    PP_GOMP_MUTEX_BEGIN(PP_CALLSITE_ORDERED, PP_GOMP_REAL(GOMP_ordered_start)(), true);
}

void GOMP_ordered_end(void)
{
    PP_GOMP_MUTEX_END(PP_CALLSITE_ORDERED, PP_GOMP_REAL(GOMP_ordered_end)(), true);
}

/* ordered depend(sink: ...): the ordered region is the wait.  The waits
 * are variadic (one iteration number per loop of the nest): the wrapper
 * passes on up to 16 more than the first, which covers any ordered(n)
 * nest a compiler accepts in practice; libgomp reads as many as the loop
 * has. */
#define PP_GOMP_DOACROSS_MORE 15
#define PP_GOMP_DOACROSS_WAIT(name, type)                                                     \
    void name(type first, ...)                                                                \
    {                                                                                         \
        type more[PP_GOMP_DOACROSS_MORE];                                                     \
        va_list ap;                                                                           \
        va_start(ap, first);                                                                  \
        for (int i = 0; i < PP_GOMP_DOACROSS_MORE; i++)                                       \
            more[i] = va_arg(ap, type);                                                       \
        va_end(ap);                                                                           \
        pp_callsite *c =                                                                      \
            pp_gomp_begin(__builtin_return_address(0), PP_CALLSITE_ORDERED, true);            \
        if (c)                                                                                \
            pp_profile_enter(c->main);                                                        \
        PP_GOMP_REAL(name)(first, more[0], more[1], more[2], more[3], more[4], more[5],       \
                           more[6], more[7], more[8], more[9], more[10], more[11], more[12],  \
                           more[13], more[14]);                                               \
        if (c)                                                                                \
            pp_profile_exit(c->main);                                                         \
    }
PP_GOMP_DOACROSS_WAIT(GOMP_doacross_wait, long)
PP_GOMP_DOACROSS_WAIT(GOMP_doacross_ull_wait, unsigned long long)
