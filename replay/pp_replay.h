/* pompprof-replay: replays an OTF2 trace written by pompprof (doc/trace.md)
 * and prints what pompprof-timeline shows as one JSON document:
 *
 * - the breakdown of every thread's time by its classes (pp_replay_class.c:
 *   work, serial code, overhead and idleness as POT defines them adapted to
 *   POMP2 events, MPI time, measurement);
 * - the task graph's work, span and parallelism with Cilkview's speedup
 *   bounds, and the span's path construct by construct;
 * - the data of the pictures (thread view, task view, ready tasks), in bins;
 * - on request, a Chrome trace (Trace Event JSON) of the same events.
 *
 * Events are replayed in time order across threads (OTF2's global event
 * reader).  Files: main (the command line), read (OTF2's reader and
 * definitions), events (OTF2's events), model (a thread's time: classes,
 * readiness), task (tasks), team (thread teams), class (the breakdown's
 * columns), depend (the dependence graph of depend clauses), span (the task
 * graph), mpi (a hybrid trace's messages and collectives), print (the JSON
 * result), view (pictures), graph (--graph), chrome, dot (Graphviz), json
 * (JSON values), fail (the one error policy: a line on stderr and exit 1,
 * out of memory too). */
#ifndef PP_REPLAY_H
#define PP_REPLAY_H

#include <stdint.h>
#include <stdio.h>

/* ---- definitions ------------------------------------------------------------- */

enum pp_replay_kind {
    PP_RK_OTHER = 0, /* user code: work */
    PP_RK_TASK,      /* an explicit task's region */
    PP_RK_PARALLEL,
    PP_RK_CREATE,    /* task creation */
    PP_RK_SCHED,     /* barrier, implicit barrier, taskwait: scheduling points */
    PP_RK_TASKWAIT,  /* (a scheduling point too) */
    PP_RK_SYNC,      /* waiting for a critical section, lock, ordered */
    PP_RK_FLUSH,     /* pompprof's trace flush */
    PP_RK_PROGRAM,   /* the program's root region */
    PP_RK_MPI        /* an MPI function (paradigm MPI) */
};

typedef struct pp_replay_region {
    char *name;
    int kind;
    int depend; /* a task construct (or its creation) with depend clauses */
} pp_replay_region;

/* ---- the classes of a thread's time (pp_replay_class.c) ------------------------ */

/* What a thread does at a moment (doc/trace.md, "One classification of a
 * thread's time"); the breakdown's columns are made of these and of whether
 * a task was ready (pp_replay_class.c).  A class is added here and in the
 * table there. */
enum pp_replay_cat {
    PP_CAT_OFF = 0,       /* a worker in no team (not measured) */
    PP_CAT_WORK_TASK,     /* an explicit task runs its own code (functions included) */
    PP_CAT_WORK_IMPLICIT, /* an implicit task runs its own code */
    PP_CAT_SERIAL,        /* outside any team: the program's serial code */
    PP_CAT_CREATE,        /* task creation */
    PP_CAT_FORKJOIN,      /* from a fork to the team's begin, from its end to the join,
                             and a member's wait for the team's slowest (pp_replay_team_gaps) */
    PP_CAT_SCHED,         /* at a scheduling point, no task running */
    PP_CAT_SYNC,          /* blocked: critical section, lock, ordered */
    PP_CAT_MEASURE,       /* pompprof's own: the trace's start and flushes */
    PP_CAT_MPI_TRANSFER,  /* in an MPI call (paradigm MPI), not found waiting */
    PP_CAT_MPI_WAIT,      /* in an MPI call, waiting for a partner: known only once the
                             partner is seen, so pp_replay_mpi.c moves it out of
                             PP_CAT_MPI_TRANSFER at the end (pp_replay_class_move) */
    PP_CAT_N
};

/* Whether a task was ready: surely (created and not begun, or suspended in a
 * taskwait whose children are done), maybe (only tasks with depend clauses
 * were created and not begun: their readiness is unknown), or not. */
enum pp_replay_ready { PP_READY_NONE = 0, PP_READY_MAYBE, PP_READY_SURE, PP_READY_N };

/* ---- span (pp_replay_span.c) ------------------------------------------------------ */

/* A piece of the longest path into some point of the execution: dur ticks
 * of work of construct label, after pred.  Shared, reference counted. */
typedef struct pp_replay_seg pp_replay_seg;
struct pp_replay_seg {
    pp_replay_seg *pred;
    uint64_t dur;
    uint32_t label;
    uint32_t refs;
    uint32_t inst; /* the dependent task instance it is a stretch of + 1, 0: none */
    uint32_t loc;  /* where its first work ran */
    uint64_t t0, t1; /* its first and last tick of work (a viewer draws the path) */
};

pp_replay_seg *pp_replay_seg_new(pp_replay_seg *pred, uint32_t label);
void pp_replay_seg_ref(pp_replay_seg *s);
void pp_replay_seg_unref(pp_replay_seg *s);

/* ---- tasks and threads (pp_replay_model.c, pp_replay_task.c, pp_replay_team.c) ------ */

typedef struct pp_replay_team pp_replay_team;

/* The parameters a task keeps (more are dropped: a picture's label has room
 * for a few). */
#define PP_REPLAY_PARAMS 4

/* An open region of a task: which, and since when. */
typedef struct pp_replay_entry {
    uint64_t t;
    uint32_t region;
} pp_replay_entry;

/* ---- dependences (pp_replay_depend.c) -------------------------------------------- */

/* The kinds of pp_depend_kind (profile/pp_profile_depend.h), as the trace
 * carries them. */
enum { PP_DEP_IN = 1, PP_DEP_OUT, PP_DEP_INOUT, PP_DEP_MUTEXINOUTSET, PP_DEP_INOUTSET,
       PP_DEP_UNKNOWN };

typedef struct pp_replay_dep {
    uint64_t addr, size;
    uint32_t kind;
} pp_replay_dep;

/* How a task's readiness is known: it has no depend clause (ready when
 * created), its dependences were recorded (ready when its predecessors
 * completed), or they are not (undetermined until it begins). */
enum { PP_DEPS_NONE = 0, PP_DEPS_KNOWN, PP_DEPS_UNKNOWN };

typedef struct pp_replay_task pp_replay_task;
typedef struct pp_replay_depmap pp_replay_depmap;

/* A successor of a task: a sibling task, or a task waiting in a taskwait
 * depend (wait). */
typedef struct pp_replay_succ {
    pp_replay_task *task;
    int wait;
} pp_replay_succ;

/* A dependent task instance, kept for the graph export and the edges. */
typedef struct pp_replay_inst {
    uint32_t label, loc;
    uint64_t t_create, t_ready, t_begin, t_end, work;
    uint8_t critical;
} pp_replay_inst;

typedef struct pp_replay_edge {
    uint32_t from, to; /* instance indices */
} pp_replay_edge;

struct pp_replay_task {
    uint64_t id;
    uint32_t label;      /* task construct, parallel region or program region */
    uint32_t create_region;
    uint32_t create_loc; /* the location that created it */
    uint8_t is_explicit, depend, begun, completed, ready_tied;
    pp_replay_entry *stack;
    uint32_t depth, cap;
    struct pp_replay_loc *loc; /* where it runs (tied) */
    pp_replay_task *parent;    /* the creating task (referenced) */
    uint32_t live_children;
    uint32_t refs;             /* the id table, children, the location */
    /* the task graph; rspan: the same path's work inside the task region only */
    uint64_t span, rspan;
    pp_replay_seg *seg;
    uint64_t child_max, child_rmax;
    pp_replay_seg *child_max_seg;
    pp_replay_team *team;      /* the team whose barriers wait for it */
    uint32_t episode;          /* its team's barrier episode */
    /* the task view */
    uint64_t t_create, t_begin;
    uint8_t waiting_shown;     /* its wait (create to begin) went to the view */
    int32_t instance;          /* index among the recorded instances, -1 none */
    uint64_t frag_start;       /* chrome/view: start of the running fragment */
    /* its parameters (pompprof_parameter_*): the latest value of each */
    uint32_t n_par;
    uint32_t par_id[PP_REPLAY_PARAMS];
    char *par_val[PP_REPLAY_PARAMS];
    /* dependences (pp_replay_depend.c) */
    uint8_t deps;              /* PP_DEPS_* */
    uint8_t counted;           /* counted as ready: 1 surely, 2 maybe */
    uint8_t in_wait_depend;    /* suspended in a taskwait depend */
    uint8_t children_unknown;  /* a child's dependences are unknown: so are its later
                                  siblings' */
    uint32_t dep_open;         /* predecessors not completed */
    uint32_t wait_open;        /* a taskwait depend's predecessors not completed */
    uint64_t t_ready;
    uint64_t dep_span, wait_span, dep_rspan, wait_rspan;
    pp_replay_seg *dep_seg, *wait_seg;
    pp_replay_succ *succ;
    uint32_t n_succ, cap_succ;
    pp_replay_depmap *children_deps; /* the dependence state of its children */
    uint32_t inst;             /* its pp_replay_inst + 1, 0: none */
    uint64_t work;             /* its own work */
};

/* An instance of a thread team, made at its fork (a worker may begin it
 * before the thread that forked it does). */
#define PP_REPLAY_NO_COMM UINT32_MAX /* a team no member has begun yet */
struct pp_replay_team {
    uint32_t comm;
    uint32_t rank;             /* its process's (a job's trace): its members are all there */
    uint32_t requested, members, left;
    uint64_t fork_span, fork_rspan;
    pp_replay_seg *fork_seg;
    struct {
        uint32_t tag;
        uint64_t max, rmax;
        pp_replay_seg *seg;
    } ep[4];                   /* barrier episodes (at most two are live) */
    pp_replay_team *next_open;
    uint32_t refs;
    /* the fork/join gaps (ompP's rule, as pompprof-report's): each member's time in
     * the team, the longest, and when the last member ended */
    uint64_t own_max, end_max;
    struct pp_replay_member {
        uint32_t loc;
        uint64_t own;
    } *workers;                /* the members that did not fork it */
    uint32_t n_workers;
};

typedef struct pp_replay_level {
    pp_replay_team *team;
    pp_replay_task *implicit;
    pp_replay_task *resume;
    int forked; /* this thread forked the team */
    uint64_t begin;
} pp_replay_level;

typedef struct pp_replay_loc {
    uint64_t id;
    uint32_t index;
    pp_replay_task *cur;     /* NULL right after a task completed */
    pp_replay_task *initial;
    pp_replay_level *levels;
    uint32_t n_levels, cap_levels;
    uint32_t tied_ready;
    int cat;
    uint32_t label;          /* the current segment's label (pictures) */
    uint64_t since;
    uint64_t acc[PP_CAT_N][PP_READY_N]; /* ticks inside the window */
    int in_fork_join;        /* between a fork and its team's begin, or the team's end and
                                the join: the runtime starts or ends the team */
    pp_replay_team *fork_team; /* forked here, not begun here yet (referenced) */
    uint64_t events;
    /* a hybrid trace (pp_replay_mpi.c) */
    uint32_t rank;           /* its location group: the rank of a job */
    char *name;              /* as the trace names it ("rank 1 thread 0", "thread 3") */
    uint64_t mpi_since;      /* the start of its current MPI call */
    uint64_t coll_begin;     /* its current collective's begin */
    uint64_t mpi_wait;       /* ticks in the window its MPI calls waited (late sender, ...):
                                moved to PP_CAT_MPI_WAIT by pp_replay_mpi_finish */
} pp_replay_loc;

/* ---- the whole replay -------------------------------------------------------------------- */

typedef struct pp_replay_view pp_replay_view;
typedef struct pp_replay_chrome pp_replay_chrome;
typedef struct pp_replay_mpi pp_replay_mpi;

typedef struct pp_replay {
    /* definitions */
    pp_replay_region *regions;
    uint32_t n_regions;
    char **strings;
    uint32_t n_strings;
    uint32_t *param_name; /* parameter id -> its name's string */
    uint32_t n_params;
    pp_replay_loc *locs;
    uint32_t n_locs;
    uint64_t resolution, offset, length;
    uint32_t program_region;
    char *end; /* the archive's POMPPROF::END property (how the run ended), NULL none */
    int job;   /* a job's trace: location groups "rank R" */
    uint32_t *group_rank; /* a job's location group -> its rank */
    uint32_t n_group_ranks;
    /* the window, in ticks */
    uint64_t from, to;
    /* readiness */
    uint64_t ready_sure, ready_maybe; /* created, not begun (without / with depend) */
    uint64_t tied_total;
    uint64_t ready_since;
    /* task table: open addressing by id */
    pp_replay_task **table;
    uint64_t table_cap, table_n;
    pp_replay_team *open_teams;
    /* task graph: work and span count only work inside the window */
    uint64_t work;
    uint64_t span;
    /* the task region's graph (from the first task's creation to the last task's end,
     * inside the window): its work (and of that creation and serial code), the
     * longest region span noted, and all of them as they were at the last task end */
    uint64_t first_create, last_end;
    uint64_t rwork, rwork_create, rwork_serial, rspan;
    uint64_t end_rwork, end_rwork_create, end_rwork_serial, end_rspan;
    int last_end_after_window;
    pp_replay_seg *span_seg;
    uint64_t n_tasks, n_depend_tasks; /* depend tasks: those of unknown dependences */
    uint8_t *depend_construct; /* region id -> a task of unknown dependences ran or waited */
    /* dependences */
    uint8_t *attr_role;        /* attribute id -> 1 + field of a depend[i] item, 0: not one */
    uint32_t n_attr_roles;
    pp_replay_dep *items;      /* the event's items */
    uint32_t cap_items;
    uint64_t n_known_tasks, n_items, n_unknown_items, n_waits;
    pp_replay_inst *insts;
    uint32_t n_insts, cap_insts;
    pp_replay_edge *edges;
    uint64_t n_edges, cap_edges;
    struct {
        uint64_t count, total, max;
    } *ready_wait;             /* by region id: ready to begin, tasks of known readiness */
    /* counts */
    uint64_t events, t_last;
    pp_replay_view *view;
    pp_replay_chrome *chrome;
    pp_replay_mpi *mpi;        /* MPI definitions, messages, collectives */
} pp_replay;

/* reading (pp_replay_read.c) */
typedef struct pp_replay_options {
    double from, to; /* seconds; to < 0: the end */
    uint32_t bins, instances, levels;
    int pictures;
    const char *chrome;
} pp_replay_options;
/* Read the trace at path and replay its events into r: its definitions, the
 * window and the outputs o asks for, then every event in time order. */
void pp_replay_read(pp_replay *r, const char *path, const pp_replay_options *o);

/* printing (pp_replay_print.c): the JSON result; graph: with --graph N, the
 * path's stretches and the dependence graph */
void pp_replay_print(FILE *out, pp_replay *r, const char *path, uint32_t graph);

/* model */
void pp_replay_model_init(pp_replay *r);
void pp_replay_enter(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t region);
/* A parameter's value (as text) in the task running on l. */
void pp_replay_param(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t param,
                     const char *value);
/* "depth=3, kind=leaf": a task's parameters into buf ("" without any). */
void pp_replay_task_params(const pp_replay *r, const pp_replay_task *t, char *buf, size_t size);
void pp_replay_leave(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t region);
void pp_replay_fork(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t threads);
void pp_replay_team_begin(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t comm);
void pp_replay_team_end(pp_replay *r, pp_replay_loc *l, uint64_t t);
void pp_replay_join(pp_replay *r, pp_replay_loc *l, uint64_t t);
/* items: the task's recorded dependences (n 0: none recorded) */
void pp_replay_task_create(pp_replay *r, pp_replay_loc *l, uint64_t t, uint64_t id,
                           const pp_replay_dep *items, uint32_t n);
/* A taskwait depend of l's current task (before its taskwait's enter). */
void pp_replay_taskwait_depend(pp_replay *r, pp_replay_loc *l, uint64_t t,
                               const pp_replay_dep *items, uint32_t n);
/* Task t's predecessors are all done: it is ready now (pp_replay_depend.c
 * calls it). */
void pp_replay_task_ready(pp_replay *r, pp_replay_task *t, uint64_t now);
/* A task suspended in a taskwait (depend) may have become ready. */
void pp_replay_check_tied(pp_replay *r, pp_replay_task *t, uint64_t now);
void pp_replay_task_switch(pp_replay *r, pp_replay_loc *l, uint64_t t, uint64_t id);
void pp_replay_task_complete(pp_replay *r, pp_replay_loc *l, uint64_t t, uint64_t id);
/* Drop a reference to t (the table's, a child's, a dependence's, ...); the
 * last one frees it and releases its parent. */
void pp_replay_task_release(pp_replay_task *t);
void pp_replay_finish(pp_replay *r, uint64_t t);
/* The team is gone: its members' fork/join gaps (pp_replay_class.c). */
void pp_replay_team_gaps(pp_replay *r, const pp_replay_team *team);

/* class: the breakdown of acc (ticks per class and readiness) as JSON
 * members ("time": ..., "work": ..., ...), the one place that says which
 * columns a class makes. */
void pp_replay_breakdown_print(FILE *out, const pp_replay *r,
                               const uint64_t acc[PP_CAT_N][PP_READY_N]);
/* Whether every measured (class, readiness) pair is in exactly one column,
 * and the classes pp_replay_class_move moves between are columns of any
 * readiness: 0. */
int pp_replay_class_check(void);
/* Up to ticks of acc's class `from` become class `to` (time whose class is
 * known only later: an MPI call's waiting, once its partner is seen); returns
 * the ticks moved. */
uint64_t pp_replay_class_move(uint64_t acc[PP_CAT_N][PP_READY_N], int from, int to,
                              uint64_t ticks);
/* The ticks of the columns named key (as printed) in acc. */
uint64_t pp_replay_breakdown_value(const uint64_t acc[PP_CAT_N][PP_READY_N], const char *key);
/* The label of what location l does now (pictures). */
uint32_t pp_replay_label(const pp_replay *r, const pp_replay_loc *l);
/* The task l runs now (its implicit one between tasks). */
pp_replay_task *pp_replay_running(pp_replay_loc *l);

/* mpi (pp_replay_mpi.c): a hybrid trace's MPI definitions and events */
void pp_replay_mpi_init(pp_replay *r);
/* definitions: a group's members; a communicator's group */
void pp_replay_mpi_group(pp_replay *r, uint32_t id, int is_mpi, int is_locations, uint32_t n,
                         const uint64_t *members);
void pp_replay_mpi_comm(pp_replay *r, uint32_t id, uint32_t group);
/* events */
void pp_replay_mpi_enter(pp_replay *r, pp_replay_loc *l, uint64_t t);
void pp_replay_mpi_send(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t receiver,
                        uint32_t comm, uint32_t tag, uint64_t bytes);
void pp_replay_mpi_recv(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t sender,
                        uint32_t comm, uint32_t tag, uint64_t bytes);
void pp_replay_mpi_coll_begin(pp_replay *r, pp_replay_loc *l, uint64_t t);
void pp_replay_mpi_coll_end(pp_replay *r, pp_replay_loc *l, uint64_t t, uint32_t op,
                            uint32_t comm, uint32_t root);
/* after the last event: the collectives' waiting */
void pp_replay_mpi_finish(pp_replay *r);
/* the JSON result's "mpi" part (lines: the messages as lines for pictures) */
void pp_replay_mpi_print(FILE *out, const pp_replay *r, int lines);
void pp_replay_mpi_free(pp_replay *r);

/* depend */
/* The predecessors of task (a child of parent; NULL: a taskwait depend of
 * parent) by OpenMP's rules: edges from its earlier siblings, each
 * predecessor told to wake it; the state updated with task's items.
 * Returns how many predecessors have not completed. */
uint32_t pp_replay_depend_add(pp_replay *r, pp_replay_task *parent, pp_replay_task *task,
                              const pp_replay_dep *items, uint32_t n, uint64_t now);
/* Task t completed at now: its successors learn it. */
void pp_replay_depend_complete(pp_replay *r, pp_replay_task *t, uint64_t now);
/* Parent's children can gain no more siblings: drop their state. */
void pp_replay_depend_forget(pp_replay_task *parent);
/* Free what t holds of the graph (it is being freed). */
void pp_replay_depend_free(pp_replay_task *t);
/* Mark the instances and edges on the span's path (before the output). */
void pp_replay_depend_mark_critical(pp_replay *r);

/* dot: the dependence graph as Graphviz; instances up to max_instances,
 * collapsed to constructs beyond.  0, or -1 (errno). */
int pp_replay_dot_write(const pp_replay *r, const char *path, uint32_t max_instances);
/* The instances along the span's path, from its end back (each once). */
uint32_t *pp_replay_chain(const pp_replay *r, uint32_t *n);
/* Whether the path (a chain) goes from instance a straight to instance b. */
int pp_replay_on_path(const uint32_t *chain, uint32_t n, uint32_t a, uint32_t b);
/* The graph collapsed to task constructs (dense numbers in order of first
 * appearance): instances and work per construct, and the dependences per
 * pair of constructs (how many, the predecessors' work, on the path). */
typedef struct pp_replay_pair {
    uint32_t from, to;
    uint64_t count;  /* dependences */
    uint64_t weight; /* the predecessors' work, each predecessor once */
    uint64_t preds;  /* distinct predecessor instances */
    uint32_t pred;   /* (while collapsing: the predecessor instance) */
    int on_path;
} pp_replay_pair;
typedef struct pp_replay_collapsed {
    uint32_t *num; /* region (n_regions: none) -> construct number */
    uint32_t n_cons;
    uint64_t *count, *work;
    uint32_t *label;
    uint8_t *critical;
    pp_replay_pair *pairs;
    uint64_t n_pairs;
} pp_replay_collapsed;
void pp_replay_collapse(const pp_replay *r, pp_replay_collapsed *c);
void pp_replay_collapsed_free(pp_replay_collapsed *c);

/* graph: for pompprof-view (--graph N), the span's path stretch by stretch
 * with where and when it ran, and the dependence graph as JSON (instances
 * up to max_instances, collapsed to constructs beyond). */
void pp_replay_graph_print(FILE *out, const pp_replay *r, uint32_t max_instances);

/* span */
/* Task t did the work from tick a to tick b on location loc; only its part
 * inside the window counts (--from/--to restrict the graph too); region: its
 * part inside the task region. */
static inline void pp_replay_span_work(pp_replay *r, pp_replay_task *t, uint64_t a, uint64_t b,
                                       uint32_t loc, uint64_t region)
{
    t->rspan += region;
    if (a < r->from)
        a = r->from;
    if (b > r->to)
        b = r->to;
    if (b <= a)
        return;
    uint64_t dt = b - a;
    if (!t->seg->dur) {
        t->seg->t0 = a;
        t->seg->loc = loc;
    }
    t->seg->t1 = b;
    t->work += dt;
    t->span += dt;
    t->seg->dur += dt;
    r->work += dt;
}
/* t's span becomes at least the one of (span, seg), its region span at least
 * rspan. */
void pp_replay_span_join(pp_replay_task *t, uint64_t span, uint64_t rspan, pp_replay_seg *seg);
/* The fork-like point where t hands its span to something new: t's
 * segment is frozen and t continues in a new one; returns the frozen one
 * (referenced for the caller). */
pp_replay_seg *pp_replay_span_split(pp_replay_task *t);
void pp_replay_span_note(pp_replay *r, uint64_t span, uint64_t rspan, pp_replay_seg *seg);
void pp_replay_barrier_enter(pp_replay_task *implicit);
void pp_replay_barrier_leave(pp_replay_task *implicit);
void pp_replay_team_contribute(pp_replay_team *team, uint32_t episode, uint64_t span,
                               uint64_t rspan, pp_replay_seg *seg);

/* view (pictures) */
/* levels > 1: also levels - 1 finer resolutions of the thread view and the
 * ready curve, each 4 x finer (pompprof-view's zoom). */
pp_replay_view *pp_replay_view_new(const pp_replay *r, uint32_t bins, uint32_t max_instances,
                                   uint32_t levels);
/* Location l did label from a to b (clipped to the window inside). */
void pp_replay_view_segment(pp_replay_view *v, const pp_replay *r, uint32_t loc, uint64_t a,
                            uint64_t b, uint32_t label);
/* The ready count was n (of which depend tasks nd) from a to b. */
void pp_replay_view_ready(pp_replay_view *v, const pp_replay *r, uint64_t a, uint64_t b,
                          uint64_t n, uint64_t nd);
/* An explicit task ran from a to b on loc / waited from a to b (called
 * once its construct is known, i.e. after its first fragment). */
void pp_replay_view_task(pp_replay_view *v, const pp_replay *r, pp_replay_task *t, uint32_t loc,
                         uint64_t a, uint64_t b, int running);
void pp_replay_view_print(pp_replay_view *v, const pp_replay *r, FILE *out);
void pp_replay_view_free(pp_replay_view *v);

/* labels of the pictures beyond the region ids */
enum {
    PP_LABEL_IDLE = 0x7fffff00u,
    PP_LABEL_OVERHEAD_SCHED,
    PP_LABEL_OVERHEAD_SYNC,
    PP_LABEL_CREATE,
    PP_LABEL_FLUSH,
    PP_LABEL_UNDETERMINED,
    PP_LABEL_SERIAL,
    PP_LABEL_FORKJOIN,
    PP_LABEL_MPI,
    PP_LABEL_NONE
};
const char *pp_replay_label_name(const pp_replay *r, uint32_t label);

/* chrome */
/* NULL when path cannot be written (errno says why). */
pp_replay_chrome *pp_replay_chrome_open(const char *path);
void pp_replay_chrome_slice(pp_replay_chrome *c, const pp_replay *r, uint32_t loc, uint32_t region,
                            uint64_t a, uint64_t b, const pp_replay_task *task);
void pp_replay_chrome_flow(pp_replay_chrome *c, const pp_replay *r, uint32_t loc, uint64_t t,
                           uint64_t task, int begin);
void pp_replay_chrome_counter(pp_replay_chrome *c, const pp_replay *r, uint64_t t, uint64_t ready);
/* A message from location a at ta to location b at tb (flow n). */
void pp_replay_chrome_message(pp_replay_chrome *c, const pp_replay *r, uint32_t a, uint64_t ta,
                              uint32_t b, uint64_t tb, uint64_t n);
int pp_replay_chrome_close(pp_replay_chrome *c, const pp_replay *r);

/* json */
void pp_replay_json_string(FILE *out, const char *s);
void pp_replay_json_seconds(FILE *out, double s);
double pp_replay_seconds(const pp_replay *r, uint64_t ticks);

#endif
