/* Worksharing constructs other than loops, and barriers: sections, single,
 * GOMP_barrier; the begin and end that loops share (pp_gomp_loop.c).
 *
 * A worksharing construct is open on the thread's implicit task from its
 * begin call to its end call (pp_gomp_level).  Its implicit barrier, where
 * libgomp has one in the end call (GOMP_loop_end, GOMP_sections_end), nests
 * inside it as in the rebuild, named after the construct.  An end without
 * barrier (_nowait) leaves the construct to the thread's next event: a
 * parallel region's end nests the region's barrier inside it (a combined
 * construct ends so), any other event closes it where it ended.
 *
 * A single has no end call: gcc calls GOMP_single_start (or
 * GOMP_single_copy_start with copyprivate), runs the body on the thread
 * that got it, and calls GOMP_barrier after it unless nowait.  So a
 * GOMP_barrier on an implicit task with a single open is that single's
 * barrier: the body ("single sblock") ends where the barrier begins, the
 * barrier nests in the single, the single ends with it (a copyprivate
 * single's wait stays the single's own time: the rebuild has no barrier
 * there).  Without a barrier, the body ends at the first event that cannot
 * be inside it (a worksharing construct, a barrier, the parallel region's
 * end); task constructs, critical sections and locks after a nowait single
 * count to its body, since the runtime does not show where the body ended. */
#include "gomp/pp_gomp_internal.h"

#include "lib/pp_timer.h"

pp_gomp_level *pp_gomp_ws_begin(pp_gomp_thread *t, const void *ra, pp_callsite_kind kind)
{
    pp_gomp_level *lv = pp_gomp_level_of(t);
    pp_gomp_settle(t, false);
    pp_callsite *c = pp_gomp_site(ra, kind);
    if (!c)
        return NULL;
    pp_profile_enter(c->main);
    lv->ws = c;
    lv->ws_state = PP_GOMP_WS_OPEN;
    lv->n_ws++;
    pp_callsite_place(c, lv->team ? lv->team->parallel : NULL, ++lv->met[kind]);
    return lv;
}

pp_gomp_level *pp_gomp_ws_open(pp_callsite_kind kind)
{
    pp_gomp_thread *t = pp_gomp_self();
    if (!t)
        return NULL;
    pp_gomp_level *lv = pp_gomp_level_of(t);
    if (!lv->ws || lv->ws->kind != kind || (lv->ws_state & PP_GOMP_WS_ENDED))
        return NULL;
    return lv;
}

pp_callsite *pp_gomp_ws_wait_begin(pp_gomp_level *lv, pp_task_handle *waits)
{
    pp_callsite *c = lv->ws;
    pp_callsite *b = pp_callsite_get(c->codeptr, PP_CALLSITE_IMPLICIT_BARRIER);
    uint64_t now = pp_timer_now();
    if (lv->ws_state & (PP_GOMP_WS_SECTION | PP_GOMP_WS_BODY)) /* section, sblock */
        pp_profile_exit_at(c->inner, now);
    /* waiting in its barrier now: no longer left to the next event */
    lv->ws_state &= ~(uint32_t)(PP_GOMP_WS_SECTION | PP_GOMP_WS_BODY | PP_GOMP_WS_ENDED);
    *waits = pp_profile_task_current();
    if (b)
        pp_profile_enter_at(b->main, now);
    return b;
}

void pp_gomp_ws_wait_end(pp_gomp_level *lv, pp_callsite *barrier, pp_task_handle waits)
{
    uint64_t now = pp_timer_now();
    pp_profile_task_switch_to_at(waits, now);
    if (barrier)
        pp_profile_exit_at(barrier->main, now);
    pp_profile_exit_at(lv->ws->main, now);
    lv->ws = NULL;
    lv->ws_state = 0;
}

void pp_gomp_ws_nowait(pp_gomp_level *lv)
{
    uint64_t now = pp_timer_now();
    if (lv->ws_state & (PP_GOMP_WS_SECTION | PP_GOMP_WS_BODY))
        pp_profile_exit_at(lv->ws->inner, now);
    lv->ws_state = (lv->ws_state & PP_GOMP_WS_COMBINED) | PP_GOMP_WS_OPEN | PP_GOMP_WS_ENDED;
    lv->ws_end = now;
}

/* ---- sections -------------------------------------------------------------- */

/* A section begins (n != 0: the section libgomp handed this thread). */
static unsigned pp_gomp_section(pp_gomp_level *lv, unsigned n)
{
    if (lv && n) {
        pp_profile_enter(lv->ws->inner);
        lv->ws_state |= PP_GOMP_WS_SECTION;
    }
    return n;
}

unsigned GOMP_sections_start(unsigned count)
{
    const void *ra = __builtin_return_address(0);
    pp_gomp_thread *t = pp_gomp_self();
    pp_gomp_level *lv = t ? pp_gomp_ws_begin(t, ra, PP_CALLSITE_SECTIONS) : NULL;
    return pp_gomp_section(lv, PP_GOMP_REAL(GOMP_sections_start)(count));
}

unsigned GOMP_sections2_start(unsigned count, uintptr_t *reductions, void **mem)
{
    const void *ra = __builtin_return_address(0);
    pp_gomp_thread *t = pp_gomp_self();
    pp_gomp_level *lv = t ? pp_gomp_ws_begin(t, ra, PP_CALLSITE_SECTIONS) : NULL;
    return pp_gomp_section(lv, PP_GOMP_REAL(GOMP_sections2_start)(count, reductions, mem));
}

unsigned GOMP_sections_next(void)
{
    pp_gomp_level *lv = pp_gomp_ws_open(PP_CALLSITE_SECTIONS);
    if (lv && (lv->ws_state & PP_GOMP_WS_SECTION)) {
        pp_profile_exit(lv->ws->inner);
        lv->ws_state &= ~(uint32_t)PP_GOMP_WS_SECTION;
    }
    return pp_gomp_section(lv, PP_GOMP_REAL(GOMP_sections_next)());
}

void GOMP_sections_end(void)
{
    PP_GOMP_WS_END(PP_CALLSITE_SECTIONS, PP_GOMP_REAL(GOMP_sections_end)());
}

bool GOMP_sections_end_cancel(void)
{
    bool r = false;
    PP_GOMP_WS_END(PP_CALLSITE_SECTIONS, r = PP_GOMP_REAL(GOMP_sections_end_cancel)());
    return r;
}

void GOMP_sections_end_nowait(void)
{
    PP_GOMP_WS_END_NOWAIT(PP_CALLSITE_SECTIONS, PP_GOMP_REAL(GOMP_sections_end_nowait)());
}

/* ---- single ------------------------------------------------------------------ */

bool GOMP_single_start(void)
{
    const void *ra = __builtin_return_address(0);
    pp_gomp_thread *t = pp_gomp_self();
    pp_gomp_level *lv = t ? pp_gomp_ws_begin(t, ra, PP_CALLSITE_SINGLE) : NULL;
    bool mine = PP_GOMP_REAL(GOMP_single_start)();
    if (lv) {
        if (mine) {
            pp_profile_enter(lv->ws->inner);
            lv->ws_state |= PP_GOMP_WS_BODY;
        } else { /* nothing to do here: its barrier follows, or the next event */
            lv->ws_state |= PP_GOMP_WS_ENDED;
            lv->ws_end = pp_timer_now();
        }
    }
    return mine;
}

void *GOMP_single_copy_start(void)
{
    const void *ra = __builtin_return_address(0);
    pp_gomp_thread *t = pp_gomp_self();
    pp_gomp_level *lv = t ? pp_gomp_ws_begin(t, ra, PP_CALLSITE_SINGLE) : NULL;
    void *copied = PP_GOMP_REAL(GOMP_single_copy_start)();
    if (lv) {
        lv->ws_state |= PP_GOMP_WS_COPY;
        if (!copied) { /* this thread runs the body; the others wait in the call */
            pp_profile_enter(lv->ws->inner);
            lv->ws_state |= PP_GOMP_WS_BODY;
        }
    }
    return copied;
}

void GOMP_single_copy_end(void *data)
{
    pp_gomp_level *lv = pp_gomp_ws_open(PP_CALLSITE_SINGLE);
    if (lv && (lv->ws_state & PP_GOMP_WS_BODY)) {
        pp_profile_exit(lv->ws->inner);
        lv->ws_state &= ~(uint32_t)PP_GOMP_WS_BODY;
    }
    PP_GOMP_REAL(GOMP_single_copy_end)(data);
}

/* ---- barriers ---------------------------------------------------------------- */

/* The barrier after a single, on the single's level (see above). */
#define PP_GOMP_SINGLE_BARRIER(lv, real_call)                                                 \
    do {                                                                                      \
        if ((lv)->ws_state & PP_GOMP_WS_COPY) {                                               \
            if ((lv)->ws_state & PP_GOMP_WS_BODY)                                             \
                pp_profile_exit((lv)->ws->inner);                                             \
            real_call;                                                                        \
            pp_profile_exit((lv)->ws->main);                                                  \
            (lv)->ws = NULL;                                                                  \
            (lv)->ws_state = 0;                                                               \
            break;                                                                            \
        }                                                                                     \
        pp_task_handle waits_;                                                                \
        pp_callsite *b_ = pp_gomp_ws_wait_begin((lv), &waits_);                               \
        real_call;                                                                            \
        pp_gomp_ws_wait_end((lv), b_, waits_);                                                \
    } while (0)

/* The single open on the calling thread's implicit task, if any. */
static pp_gomp_level *pp_gomp_single_open(void)
{
    pp_gomp_thread *t = pp_gomp_self();
    pp_gomp_level *lv = t ? pp_gomp_level_of(t) : NULL;
    return lv && lv->ws && lv->ws->kind == PP_CALLSITE_SINGLE ? lv : NULL;
}

/* After a single, its barrier (above); any other barrier is an explicit
 * one, or the implicit barrier of a construct the runtime does not show (a
 * statically scheduled loop): the source tells them apart when names are
 * made. */
#define PP_GOMP_BARRIER(real_call)                                                            \
    do {                                                                                      \
        pp_gomp_level *single_ = pp_gomp_single_open();                                       \
        if (single_)                                                                          \
            PP_GOMP_SINGLE_BARRIER(single_, real_call);                                       \
        else                                                                                  \
            PP_GOMP_SCHEDULING_POINT(PP_CALLSITE_ANY_BARRIER, false, real_call);              \
    } while (0)

void GOMP_barrier(void)
{
    PP_GOMP_BARRIER(PP_GOMP_REAL(GOMP_barrier)());
}

bool GOMP_barrier_cancel(void)
{
    bool r = false;
    PP_GOMP_BARRIER(r = PP_GOMP_REAL(GOMP_barrier_cancel)());
    return r;
}

/* The end of a worksharing construct with task reductions: its barrier is
 * in this call (after the construct's _nowait end). */
void GOMP_workshare_task_reduction_unregister(bool cancelled)
{
    pp_gomp_thread *t = pp_gomp_self();
    pp_gomp_level *lv = t ? pp_gomp_level_of(t) : NULL;
    if (!lv || !lv->ws || !(lv->ws_state & PP_GOMP_WS_ENDED) || cancelled) {
        PP_GOMP_REAL(GOMP_workshare_task_reduction_unregister)(cancelled);
        return;
    }
    lv->ws_state &= ~(uint32_t)PP_GOMP_WS_ENDED;
    pp_task_handle waits;
    pp_callsite *b = pp_gomp_ws_wait_begin(lv, &waits);
    PP_GOMP_REAL(GOMP_workshare_task_reduction_unregister)(cancelled);
    pp_gomp_ws_wait_end(lv, b, waits);
}
