/* What is not measured, as in a program built with the wrapper: target
 * regions (also when they fall back to the host) and host teams regions,
 * with everything inside them.  The threads that run them are marked off
 * while they do, so every entry point there goes straight to libgomp; the
 * regions are counted for the line a run that measured nothing gets. */
#include "gomp/pp_gomp_internal.h"

typedef struct pp_gomp_league {
    void (*fn)(void *);
    void *data;
} pp_gomp_league;

/* Each initial thread of a league runs the teams region's function off. */
static void pp_gomp_league_run(void *arg)
{
    pp_gomp_league *league = arg;
    pp_gomp_run_flush(&pp_gomp_mine);
    pp_gomp_thread *t = pp_gomp_mine.thread ? pp_gomp_mine.thread : pp_gomp_thread_create();
    if (t)
        t->off++;
    league->fn(league->data);
    if (t)
        t->off--;
}

void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams, unsigned thread_limit,
                    unsigned flags)
{
    pp_gomp_thread *t = pp_gomp_self();
    if (!t) {
        PP_GOMP_REAL(GOMP_teams_reg)(fn, data, num_teams, thread_limit, flags);
        return;
    }
    pp_gomp_settle(t, false);
    __atomic_fetch_add(&pp_gomp_unmeasured, 1, __ATOMIC_RELAXED);
    pp_gomp_league league = {fn, data};
    PP_GOMP_REAL(GOMP_teams_reg)(pp_gomp_league_run, &league, num_teams, thread_limit, flags);
}

void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs,
                     size_t *sizes, unsigned short *kinds, unsigned int flags, void **depend,
                     void **args)
{
    pp_gomp_thread *t = pp_gomp_self();
    if (t) {
        pp_gomp_settle(t, true);
        __atomic_fetch_add(&pp_gomp_unmeasured, 1, __ATOMIC_RELAXED);
        t->off++;
    }
    PP_GOMP_REAL(GOMP_target_ext)(device, fn, mapnum, hostaddrs, sizes, kinds, flags, depend,
                                  args);
    if (t)
        t->off--;
}
