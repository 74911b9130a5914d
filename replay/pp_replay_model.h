/* What the model's three files share (pp_replay_model.c: a thread's time;
 * pp_replay_task.c: the tasks; pp_replay_team.c: the thread teams), and
 * nothing else of the replay uses: pp_replay.h has the model's events. */
#ifndef PP_REPLAY_MODEL_H
#define PP_REPLAY_MODEL_H

#include "replay/pp_replay.h"
#include "replay/pp_replay_fail.h"

/* ---- a thread's time (pp_replay_model.c) ---------------------------------------- */

/* The implicit task l runs in (its initial task outside any team). */
pp_replay_task *pp_replay_implicit(const pp_replay_loc *l);
/* Account l's time up to t to what it was doing (before anything changes it). */
void pp_replay_settle(pp_replay *r, pp_replay_loc *l, uint64_t t);
static inline void pp_replay_settle_all(pp_replay *r, uint64_t t)
{
    for (uint32_t i = 0; i < r->n_locs; i++)
        pp_replay_settle(r, &r->locs[i], t);
}
/* What l does now (a pp_replay_cat). */
int pp_replay_cat_of(const pp_replay *r, const pp_replay_loc *l);
/* l's class anew, once what it does changed (inline, as the next one: they
 * come with most events). */
static inline void pp_replay_update(pp_replay *r, pp_replay_loc *l)
{
    l->cat = pp_replay_cat_of(r, l);
}
/* The ready counts change at t by ds (surely ready), dm (maybe), dt (tied to tl). */
void pp_replay_ready_change(pp_replay *r, uint64_t t, int ds, int dm, pp_replay_loc *tl, int dt);

/* ---- tasks (pp_replay_task.c) --------------------------------------------------- */

/* The table of live tasks by id. */
void pp_replay_table_init(pp_replay *r);
pp_replay_task *pp_replay_table_get(pp_replay *r, uint64_t id);
void pp_replay_table_put(pp_replay *r, pp_replay_task *t);
void pp_replay_table_remove(pp_replay *r, uint64_t id);
/* A task (referenced once) whose span starts from (pred, span, rspan). */
pp_replay_task *pp_replay_task_new(uint64_t id, pp_replay_seg *pred, uint64_t span,
                                  uint64_t rspan);
/* Task t entered region at now. */
static inline void pp_replay_task_push(pp_replay_task *t, uint32_t region, uint64_t now)
{
    if (t->depth == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 8;
        t->stack = pp_replay_resize(t->stack, t->cap, sizeof *t->stack);
    }
    t->stack[t->depth++] = (pp_replay_entry){now, region};
}
/* Task t stops running on l at now (suspended, completed, or the trace ends):
 * its fragment goes to the pictures and the Chrome trace. */
void pp_replay_switch_out(pp_replay *r, pp_replay_loc *l, pp_replay_task *t, uint64_t now);

/* ---- thread teams (pp_replay_team.c) --------------------------------------------- */

/* Drop a reference to team (a member's, a task's, the fork's); the last one
 * frees it and counts its fork/join gaps. */
void pp_replay_team_release(pp_replay *r, pp_replay_team *team);

#endif
