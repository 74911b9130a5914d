/* Loops: every GOMP_loop_*_start form gcc 12 calls (each schedule,
 * nonmonotonic, ordered, doacross, the generic GOMP_loop_start and their
 * unsigned long long twins) begins the loop region at its call site; the
 * _next calls hand out chunks and are not interposed; GOMP_loop_end waits
 * in the loop's implicit barrier, GOMP_loop_end_nowait leaves the loop to
 * the thread's next event (pp_gomp_worksharing.c).  A statically scheduled
 * loop calls none of these (gcc computes its chunks inline): only its
 * barrier, a GOMP_barrier call, is seen. */
#include "gomp/pp_gomp_internal.h"

/* The loop begins, then libgomp's start (which may already wait for the
 * first chunk's share). */
#define PP_GOMP_LOOP_BEGIN()                                                                   \
    do {                                                                                       \
        const void *ra_ = __builtin_return_address(0);                                         \
        pp_gomp_thread *t_ = pp_gomp_self();                                                   \
        if (t_)                                                                                \
            pp_gomp_ws_begin(t_, ra_, PP_CALLSITE_LOOP);                                       \
    } while (0)

/* The forms of pp_gomp_entries.h's PP_GOMP_LOOP_STARTS, each with the
 * names of its parameters: the definitions come from that list. */
#define PP_GOMP_ARGS_LONG (start, end, incr, chunk, istart, iend)
#define PP_GOMP_ARGS_RUNTIME (start, end, incr, istart, iend)
#define PP_GOMP_ARGS_ULL (up, start, end, incr, chunk, istart, iend)
#define PP_GOMP_ARGS_ULL_RUNTIME (up, start, end, incr, istart, iend)
#define PP_GOMP_ARGS_DOACROSS (ncounts, counts, chunk, istart, iend)
#define PP_GOMP_ARGS_DOACROSS_RUNTIME (ncounts, counts, istart, iend)
#define PP_GOMP_ARGS_DOACROSS_ULL PP_GOMP_ARGS_DOACROSS
#define PP_GOMP_ARGS_DOACROSS_ULL_RUNTIME PP_GOMP_ARGS_DOACROSS_RUNTIME
#define PP_GOMP_DECL_LONG                                                                     \
    (long start, long end, long incr, long chunk, long *istart, long *iend)
#define PP_GOMP_DECL_RUNTIME (long start, long end, long incr, long *istart, long *iend)
#define PP_GOMP_DECL_ULL                                                                      \
    (bool up, PP_GOMP_ULL start, PP_GOMP_ULL end, PP_GOMP_ULL incr, PP_GOMP_ULL chunk,          \
     PP_GOMP_ULL *istart, PP_GOMP_ULL *iend)
#define PP_GOMP_DECL_ULL_RUNTIME                                                              \
    (bool up, PP_GOMP_ULL start, PP_GOMP_ULL end, PP_GOMP_ULL incr, PP_GOMP_ULL *istart,        \
     PP_GOMP_ULL *iend)
#define PP_GOMP_DECL_DOACROSS                                                                 \
    (unsigned ncounts, long *counts, long chunk, long *istart, long *iend)
#define PP_GOMP_DECL_DOACROSS_RUNTIME (unsigned ncounts, long *counts, long *istart, long *iend)
#define PP_GOMP_DECL_DOACROSS_ULL                                                             \
    (unsigned ncounts, PP_GOMP_ULL *counts, PP_GOMP_ULL chunk, PP_GOMP_ULL *istart,             \
     PP_GOMP_ULL *iend)
#define PP_GOMP_DECL_DOACROSS_ULL_RUNTIME                                                     \
    (unsigned ncounts, PP_GOMP_ULL *counts, PP_GOMP_ULL *istart, PP_GOMP_ULL *iend)
#define PP_GOMP_LOOP_DEFINE(form, name)                                                        \
    bool name PP_GOMP_DECL_##form                                                              \
    {                                                                                          \
        PP_GOMP_LOOP_BEGIN();                                                                  \
        return PP_GOMP_REAL(name) PP_GOMP_ARGS_##form;                                          \
    }
PP_GOMP_LOOP_STARTS(PP_GOMP_LOOP_DEFINE)

/* the generic forms of OpenMP 5.0 (schedule as an argument, reductions,
 * ordered or doacross memory) */
#define PP_GOMP_LOOP_START_GENERIC(name)                                                       \
    bool name(long start, long end, long incr, long sched, long chunk, long *istart,           \
              long *iend, uintptr_t *reductions, void **mem)                                   \
    {                                                                                          \
        PP_GOMP_LOOP_BEGIN();                                                                  \
        return PP_GOMP_REAL(name)(start, end, incr, sched, chunk, istart, iend, reductions,    \
                                  mem);                                                        \
    }
#define PP_GOMP_LOOP_ULL_START_GENERIC(name)                                                   \
    bool name(bool up, unsigned long long start, unsigned long long end,                       \
              unsigned long long incr, long sched, unsigned long long chunk,                   \
              unsigned long long *istart, unsigned long long *iend, uintptr_t *reductions,     \
              void **mem)                                                                      \
    {                                                                                          \
        PP_GOMP_LOOP_BEGIN();                                                                  \
        return PP_GOMP_REAL(name)(up, start, end, incr, sched, chunk, istart, iend,            \
                                  reductions, mem);                                            \
    }
PP_GOMP_LOOP_START_GENERIC(GOMP_loop_start)
PP_GOMP_LOOP_START_GENERIC(GOMP_loop_ordered_start)
PP_GOMP_LOOP_ULL_START_GENERIC(GOMP_loop_ull_start)
PP_GOMP_LOOP_ULL_START_GENERIC(GOMP_loop_ull_ordered_start)

bool GOMP_loop_doacross_start(unsigned ncounts, long *counts, long sched, long chunk,
                              long *istart, long *iend, uintptr_t *reductions, void **mem)
{
    PP_GOMP_LOOP_BEGIN();
    return PP_GOMP_REAL(GOMP_loop_doacross_start)(ncounts, counts, sched, chunk, istart, iend,
                                                  reductions, mem);
}

bool GOMP_loop_ull_doacross_start(unsigned ncounts, unsigned long long *counts, long sched,
                                  unsigned long long chunk, unsigned long long *istart,
                                  unsigned long long *iend, uintptr_t *reductions, void **mem)
{
    PP_GOMP_LOOP_BEGIN();
    return PP_GOMP_REAL(GOMP_loop_ull_doacross_start)(ncounts, counts, sched, chunk, istart,
                                                      iend, reductions, mem);
}

void GOMP_loop_end(void)
{
    PP_GOMP_WS_END(PP_CALLSITE_LOOP, PP_GOMP_REAL(GOMP_loop_end)());
}

bool GOMP_loop_end_cancel(void)
{
    bool r = false;
    PP_GOMP_WS_END(PP_CALLSITE_LOOP, r = PP_GOMP_REAL(GOMP_loop_end_cancel)());
    return r;
}

void GOMP_loop_end_nowait(void)
{
    PP_GOMP_WS_END_NOWAIT(PP_CALLSITE_LOOP, PP_GOMP_REAL(GOMP_loop_end_nowait)());
}
