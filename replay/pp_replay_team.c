/* The replay's thread teams (the model's third file, pp_replay_model.c says
 * what the model is): a team is made at its fork, its members begin and end
 * it in any order, and the thread that forked it goes on after the join.
 * Each member runs an implicit task of its own; the team carries the span
 * from the fork into its members' tasks and out again, and each member's
 * time in it for the fork/join gaps (pp_replay_team_gaps). */
#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"
#include "replay/pp_replay_model.h"

#include <stdlib.h>

static pp_replay_team *pp_replay_team_new(pp_replay *r, uint32_t comm, uint32_t requested,
                                          uint32_t rank)
{
    pp_replay_team *team = pp_replay_alloc_zero(1, sizeof *team);
    team->comm = comm;
    team->requested = requested;
    team->rank = rank;
    team->next_open = r->open_teams;
    r->open_teams = team;
    return team;
}

/* The team is made at the fork: its members begin it in any order (on a busy
 * machine a worker may begin it long before the thread that forked it). */
void pp_replay_fork(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t threads)
{
    pp_replay_settle(r, l, t);
    pp_replay_task *task = l->cur ? l->cur : pp_replay_implicit(l);
    /* a fork without a num_threads clause records 0: the team's size is not known,
     * any worker of the construct may join it */
    pp_replay_team *team =
        pp_replay_team_new(r, PP_REPLAY_NO_COMM, threads ? threads : UINT32_MAX, l->rank);
    team->fork_seg = pp_replay_span_split(task); /* the reference moves to the team */
    team->fork_span = task->span;
    team->fork_rspan = task->rspan;
    team->refs = 1; /* the forking thread's, until it begins the team */
    if (l->fork_team)
        pp_replay_team_release(r, l->fork_team);
    l->fork_team = team;
    l->in_fork_join = 1;
    pp_replay_update(r, l);
}

/* The team l begins (comm: its communicator); *forked: l forked it (its
 * reference from the fork becomes the member's). */
static pp_replay_team *pp_replay_team_find(pp_replay *r, pp_replay_loc *l, uint32_t comm,
                                           int *forked)
{
    pp_replay_team *team = l->fork_team;
    *forked = team != NULL;
    if (team) {
        l->fork_team = NULL;
        team->comm = comm;
        return team;
    }
    /* a worker: the most recent team of this communicator still short of
     * members (nested teams of the same construct could be told apart only
     * by their timing: doc/trace.md), else the most recent team no member
     * has begun yet; of its own process (the ranks of a job fork at once) */
    for (team = r->open_teams; team; team = team->next_open)
        if (team->comm == comm && team->rank == l->rank && team->members < team->requested)
            return team;
    for (team = r->open_teams; team; team = team->next_open)
        if (team->comm == PP_REPLAY_NO_COMM && team->rank == l->rank &&
            team->members < team->requested) {
            team->comm = comm;
            return team;
        }
    return pp_replay_team_new(r, comm, UINT32_MAX, l->rank);
}

void pp_replay_team_begin(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t comm)
{
    pp_replay_settle(r, l, t);
    int forked;
    l->in_fork_join = 0;
    pp_replay_team *team = pp_replay_team_find(r, l, comm, &forked);
    team->members++;
    team->left++;
    if (!forked)
        team->refs++;
    if (l->n_levels == l->cap_levels) {
        l->cap_levels = l->cap_levels ? 2 * l->cap_levels : 4;
        l->levels = pp_replay_resize(l->levels, l->cap_levels, sizeof *l->levels);
    }
    pp_replay_task *implicit =
        pp_replay_task_new(0, team->fork_seg, team->fork_span, team->fork_rspan);
    implicit->team = team;
    implicit->loc = l;
    implicit->frag_start = t;
    pp_replay_task *resume = l->cur ? l->cur : pp_replay_implicit(l);
    resume->refs++;
    l->levels[l->n_levels++] = (pp_replay_level){team, implicit, resume, forked, t};
    l->cur = implicit;
    pp_replay_update(r, l);
}

void pp_replay_team_release(pp_replay *r, pp_replay_team *team)
{
    if (--team->refs)
        return;
    for (pp_replay_team **p = &r->open_teams; *p; p = &(*p)->next_open) {
        if (*p == team) {
            *p = team->next_open;
            break;
        }
    }
    pp_replay_seg_unref(team->fork_seg);
    for (int i = 0; i < 4; i++)
        pp_replay_seg_unref(team->ep[i].seg);
    pp_replay_team_gaps(r, team);
    free(team->workers);
    free(team);
}

/* A member's time in the team, for its fork/join gap (pp_replay_team_gaps). */
static void pp_replay_team_member_end(pp_replay_team *team, const pp_replay_loc *l,
                                      const pp_replay_level *lv, uint64_t t)
{
    uint64_t own = t > lv->begin ? t - lv->begin : 0;
    if (own > team->own_max)
        team->own_max = own;
    if (t > team->end_max)
        team->end_max = t;
    if (lv->forked)
        return;
    struct pp_replay_member *w =
        pp_replay_resize(team->workers, team->n_workers + 1, sizeof *w);
    w[team->n_workers++] = (struct pp_replay_member){l->index, own};
    team->workers = w;
}

void pp_replay_team_end(pp_replay *r, pp_replay_loc *l, uint64_t t)
{
    pp_replay_settle(r, l, t);
    if (l->n_levels == 0)
        return;
    pp_replay_level lv = l->levels[--l->n_levels];
    pp_replay_team_member_end(lv.team, l, &lv, t);
    pp_replay_task *implicit = lv.implicit;
    pp_replay_span_note(r, implicit->span, implicit->rspan, implicit->seg);
    /* the task that forked continues after the whole team (all of it passed
     * the closing implicit barrier, so this implicit task's span is the
     * team's) */
    pp_replay_span_join(lv.resume, implicit->span, implicit->rspan, implicit->seg);
    if (implicit->id) {
        pp_replay_table_remove(r, implicit->id);
        pp_replay_task_release(implicit); /* the table's reference */
    }
    implicit->completed = 1;
    pp_replay_depend_forget(implicit);
    pp_replay_task_release(implicit);
    l->cur = lv.resume;
    pp_replay_task_release(lv.resume);
    pp_replay_team_release(r, lv.team);
    l->in_fork_join = lv.forked; /* until the join */
    pp_replay_update(r, l);
}

void pp_replay_join(pp_replay *r, pp_replay_loc *l, uint64_t t)
{
    pp_replay_settle(r, l, t);
    l->in_fork_join = 0;
    pp_replay_update(r, l);
}
