/* The task graph, built while the events are replayed: work, span and the
 * span's path.
 *
 * Every task carries the length of the longest path of work that leads to
 * its current point of execution (its "span") as measured time.  The edges
 * of the graph are the ones POMP2 events show:
 * - creation: a new task starts with its creator's span at the creation;
 * - taskwait: the waiting task continues with at least the span of each
 *   child it waited for;
 * - barrier: every implicit task of the team continues with at least the
 *   span of every implicit task at the barrier and of every explicit task
 *   created in the team before it (barriers complete them all);
 * - fork and join: a team's implicit tasks start with the forking task's
 *   span, which continues with the team's after the join;
 * - dependences (pp_replay_depend.c): a task begins with at least the span
 *   of each predecessor at its end, and a taskwait depend continues with
 *   at least the span of each task it waited for.
 * Time a task spends waiting adds nothing; work, task creation included,
 * adds its duration (a child cannot exist before it is created).  The span
 * of the run is the largest span reached, and its path is kept as a chain
 * of shared, reference-counted segments (one per stretch of a task between
 * two such edges), so memory follows the tasks alive, not the trace.
 *
 * Beside each span value goes the same kind of value for the task region
 * (from the first task's creation on; pp_replay_model.c takes it as it was
 * at the last task's end): its own longest path, without a path kept. */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

static pp_replay_seg *pp_replay_seg_free_list;

pp_replay_seg *pp_replay_seg_new(pp_replay_seg *pred, uint32_t label)
{
    pp_replay_seg *s = pp_replay_seg_free_list;
    if (s)
        pp_replay_seg_free_list = s->pred;
    else
        s = pp_replay_alloc(1, sizeof *s);
    s->pred = pred;
    if (pred)
        pred->refs++;
    s->dur = 0;
    s->label = label;
    s->refs = 1;
    s->inst = 0;
    s->loc = 0;
    s->t0 = s->t1 = 0;
    return s;
}

void pp_replay_seg_ref(pp_replay_seg *s)
{
    if (s)
        s->refs++;
}

/* Iterative: a chain can be as long as the run had tasks. */
void pp_replay_seg_unref(pp_replay_seg *s)
{
    while (s && --s->refs == 0) {
        pp_replay_seg *pred = s->pred;
        s->pred = pp_replay_seg_free_list;
        pp_replay_seg_free_list = s;
        s = pred;
    }
}

void pp_replay_span_join(pp_replay_task *t, uint64_t span, uint64_t rspan, pp_replay_seg *seg)
{
    if (t && rspan > t->rspan)
        t->rspan = rspan;
    if (!t || !seg || span <= t->span)
        return;
    pp_replay_seg *s = pp_replay_seg_new(seg, t->label);
    s->inst = t->inst;
    pp_replay_seg_unref(t->seg);
    t->seg = s;
    t->span = span;
}

pp_replay_seg *pp_replay_span_split(pp_replay_task *t)
{
    pp_replay_seg *frozen = t->seg;
    t->seg = pp_replay_seg_new(frozen, t->label);
    t->seg->inst = t->inst;
    /* t's reference to the frozen segment moves to the caller; the new
     * segment holds one of its own */
    return frozen;
}

void pp_replay_span_note(pp_replay *r, uint64_t span, uint64_t rspan, pp_replay_seg *seg)
{
    if (rspan > r->rspan)
        r->rspan = rspan;
    if (!seg || (r->span_seg && span <= r->span))
        return;
    pp_replay_seg_ref(seg);
    pp_replay_seg_unref(r->span_seg);
    r->span_seg = seg;
    r->span = span;
}

/* ---- barriers: episodes of a team ------------------------------------------------ */

void pp_replay_team_contribute(pp_replay_team *team, uint32_t episode, uint64_t span,
                               uint64_t rspan, pp_replay_seg *seg)
{
    if (!team || !seg)
        return;
    unsigned slot = episode & 3;
    if (team->ep[slot].tag != episode + 1) {
        team->ep[slot].tag = episode + 1;
        team->ep[slot].max = team->ep[slot].rmax = 0;
        pp_replay_seg_unref(team->ep[slot].seg);
        team->ep[slot].seg = NULL;
    }
    if (rspan > team->ep[slot].rmax)
        team->ep[slot].rmax = rspan;
    if (!team->ep[slot].seg || span > team->ep[slot].max) {
        pp_replay_seg_ref(seg);
        pp_replay_seg_unref(team->ep[slot].seg);
        team->ep[slot].seg = seg;
        team->ep[slot].max = span;
    }
}

void pp_replay_barrier_enter(pp_replay_task *implicit)
{
    /* the segment is frozen: what the implicit task does after the barrier
     * is not on the path into it */
    pp_replay_seg *frozen = pp_replay_span_split(implicit);
    pp_replay_team_contribute(implicit->team, implicit->episode, implicit->span, implicit->rspan,
                              frozen);
    pp_replay_seg_unref(frozen);
}

void pp_replay_barrier_leave(pp_replay_task *implicit)
{
    pp_replay_team *team = implicit->team;
    if (team) {
        unsigned slot = implicit->episode & 3;
        if (team->ep[slot].tag == implicit->episode + 1)
            pp_replay_span_join(implicit, team->ep[slot].max, team->ep[slot].rmax,
                                team->ep[slot].seg);
    }
    implicit->episode++;
}
