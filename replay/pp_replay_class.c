/* The classes of a thread's time and the breakdown's columns made of them
 * (doc/trace.md, "One classification of a thread's time"; pompprof-report
 * classifies a profile's time by the same definitions in
 * scripts/pompprof_tools/analysis/overhead.py, and the tests compare the two).
 *
 * The model (pp_replay_model.c) keeps, per thread, the ticks spent in each
 * class (pp_replay_cat) while a task was surely, maybe or not ready.  A
 * column of the breakdown is a part of that table: a set of classes under a
 * set of readiness states; every (class, readiness) pair belongs to exactly
 * one part, so the parts add up to the thread's time.  Parts of one group
 * (work, overhead) are printed with the group's sum before them.  A new
 * class is a new enum value and a row here. */
#include "replay/pp_replay.h"

#include <stdlib.h>
#include <string.h>

#define PP_C(c) (1u << (c))
#define PP_R(k) (1u << (k))
#define PP_ANY (PP_R(PP_READY_NONE) | PP_R(PP_READY_MAYBE) | PP_R(PP_READY_SURE))

typedef struct pp_replay_part {
    const char *key;   /* the column, as printed */
    const char *group; /* the sum it belongs to (itself for a part of its own) */
    uint32_t cats;     /* PP_C(class) ... */
    uint32_t ready;    /* PP_R(readiness) ... */
} pp_replay_part;

static const pp_replay_part pp_replay_parts[] = {
    {"work_task", "work", PP_C(PP_CAT_WORK_TASK), PP_ANY},
    {"work_implicit", "work", PP_C(PP_CAT_WORK_IMPLICIT), PP_ANY},
    {"serial", "serial", PP_C(PP_CAT_SERIAL), PP_ANY},
    /* POT's overhead: task and thread management always, waiting while a task was ready */
    {"overhead_create", "overhead", PP_C(PP_CAT_CREATE), PP_ANY},
    {"overhead_forkjoin", "overhead", PP_C(PP_CAT_FORKJOIN), PP_ANY},
    {"overhead_switch", "overhead", PP_C(PP_CAT_SCHED), PP_R(PP_READY_SURE)},
    {"overhead_sync", "overhead", PP_C(PP_CAT_SYNC), PP_R(PP_READY_SURE)},
    {"idleness", "idleness", PP_C(PP_CAT_SCHED) | PP_C(PP_CAT_SYNC), PP_R(PP_READY_NONE)},
    {"undetermined", "undetermined", PP_C(PP_CAT_SCHED) | PP_C(PP_CAT_SYNC), PP_R(PP_READY_MAYBE)},
    /* time in MPI calls: neither the team's work nor its overhead nor idleness;
     * waiting for a partner, and the rest (pp_replay_mpi.c) */
    {"mpi_wait", "mpi", PP_C(PP_CAT_MPI_WAIT), PP_ANY},
    {"mpi_transfer", "mpi", PP_C(PP_CAT_MPI_TRANSFER), PP_ANY},
    /* pompprof's own time: apart from the program's overhead */
    {"measurement", "measurement", PP_C(PP_CAT_MEASURE), PP_ANY},
};
#define PP_PARTS (sizeof pp_replay_parts / sizeof pp_replay_parts[0])

static uint64_t pp_replay_part_ticks(const uint64_t acc[PP_CAT_N][PP_READY_N],
                                     const pp_replay_part *p)
{
    uint64_t v = 0;
    for (int c = 0; c < PP_CAT_N; c++)
        for (int k = 0; k < PP_READY_N; k++)
            if ((p->cats & PP_C(c)) && (p->ready & PP_R(k)))
                v += acc[c][k];
    return v;
}

static uint64_t pp_replay_group_ticks(const uint64_t acc[PP_CAT_N][PP_READY_N], const char *group)
{
    uint64_t v = 0;
    for (size_t i = 0; i < PP_PARTS; i++)
        if (!group || !strcmp(pp_replay_parts[i].group, group))
            v += pp_replay_part_ticks(acc, &pp_replay_parts[i]);
    return v;
}

uint64_t pp_replay_breakdown_value(const uint64_t acc[PP_CAT_N][PP_READY_N], const char *key)
{
    if (!strcmp(key, "time"))
        return pp_replay_group_ticks(acc, NULL);
    for (size_t i = 0; i < PP_PARTS; i++)
        if (!strcmp(pp_replay_parts[i].key, key))
            return pp_replay_part_ticks(acc, &pp_replay_parts[i]);
    return pp_replay_group_ticks(acc, key);
}

static void pp_replay_member(FILE *out, const pp_replay *r, int *first, const char *key,
                             uint64_t ticks)
{
    fprintf(out, "%s\"%s\": ", *first ? "" : ", ", key);
    pp_replay_json_seconds(out, pp_replay_seconds(r, ticks));
    *first = 0;
}

void pp_replay_breakdown_print(FILE *out, const pp_replay *r,
                               const uint64_t acc[PP_CAT_N][PP_READY_N])
{
    int first = 1;
    pp_replay_member(out, r, &first, "time", pp_replay_group_ticks(acc, NULL));
    for (size_t i = 0; i < PP_PARTS; i++) {
        const pp_replay_part *p = &pp_replay_parts[i];
        int own = !strcmp(p->key, p->group);
        if (!own && (i == 0 || strcmp(pp_replay_parts[i - 1].group, p->group)))
            pp_replay_member(out, r, &first, p->group, pp_replay_group_ticks(acc, p->group));
        pp_replay_member(out, r, &first, p->key, pp_replay_part_ticks(acc, p));
    }
}

/* The classes whose time may change class later (pp_replay_class_move). */
static const uint32_t pp_replay_movable = PP_C(PP_CAT_MPI_TRANSFER) | PP_C(PP_CAT_MPI_WAIT);

/* Every (class, readiness) pair but the unmeasured one in exactly one part:
 * the columns add up to the thread's time.  A movable class is in parts of
 * any readiness: which readiness moved ticks leave changes no column. */
int pp_replay_class_check(void)
{
    for (int c = 1; c < PP_CAT_N; c++)
        for (int k = 0; k < PP_READY_N; k++) {
            int n = 0;
            for (size_t i = 0; i < PP_PARTS; i++)
                if ((pp_replay_parts[i].cats & PP_C(c)) && (pp_replay_parts[i].ready & PP_R(k))) {
                    n++;
                    if ((pp_replay_movable & PP_C(c)) && pp_replay_parts[i].ready != PP_ANY)
                        return -1;
                }
            if (n != 1)
                return -1;
        }
    return 0;
}

uint64_t pp_replay_class_move(uint64_t acc[PP_CAT_N][PP_READY_N], int from, int to,
                              uint64_t ticks)
{
    if (!(pp_replay_movable & PP_C(from)) || !(pp_replay_movable & PP_C(to)))
        return 0;
    uint64_t moved = 0;
    for (int k = 0; k < PP_READY_N && moved < ticks; k++) {
        uint64_t v = acc[from][k] < ticks - moved ? acc[from][k] : ticks - moved;
        acc[from][k] -= v;
        acc[to][k] += v;
        moved += v;
    }
    return moved;
}

/* Fork/join as pompprof-report counts it (ompP's startupT + shutdownT): the
 * team's window is its members' longest time in it; a member that did not
 * fork the team waited the rest of the window outside its measured time (for
 * the team to form, or to end), so that is added to its time as fork/join.
 * The member that forked it spent that time between the fork and its begin,
 * or its end and the join, which the model counts as fork/join already.  A
 * team's gaps count when it ended inside the window. */
void pp_replay_team_gaps(pp_replay *r, const pp_replay_team *team)
{
    if (!team->n_workers || team->end_max < r->from || team->end_max > r->to)
        return;
    for (uint32_t i = 0; i < team->n_workers; i++) {
        const struct pp_replay_member *m = &team->workers[i];
        if (m->loc < r->n_locs && team->own_max > m->own)
            r->locs[m->loc].acc[PP_CAT_FORKJOIN][PP_READY_NONE] += team->own_max - m->own;
    }
}
