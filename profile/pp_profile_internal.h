/* pp_profile internals shared by the engine's files (not for other modules).
 *
 * Data model (design.md, "The task profiling algorithm"):
 * - one pp_location per OS thread that sends events, reached through a
 *   thread-local pointer; it owns an arena of call-tree nodes and tasks;
 * - every task (implicit or explicit) is a pp_task with a position (pos) in
 *   some call tree.  Implicit tasks move inside the thread's main tree (or a
 *   worker root, or the tree of the explicit task that forked); explicit
 *   task instances own a small tree rooted at the task region;
 * - suspended time never counts: every explicit task keeps a "virtual clock"
 *   (real time minus the time it spent suspended, t->susp), and all its
 *   nodes store their start in that clock.  A switch is therefore O(1): no
 *   walk over the open regions, one subtraction per enter/exit;
 * - stubs (task region nodes below the scheduling point of the implicit task)
 *   measure fragments of explicit tasks in real time;
 * - at task end the instance tree keeps its nodes (its shape) and waits on
 *   the construct's spare list for the next instance of the same construct;
 *   its values are added into the thread's merged tree for that construct
 *   (children of loc->tasks) and zeroed when the instance added nodes to
 *   it, else they stay and add up until such an instance or the flush
 *   before unification (pp_profile_instance.c).  Tiny tasks thus cost no node
 *   allocation, no child creation and no lookups in the merged tree: every
 *   instance node remembers its merged twin.
 */
#ifndef PP_PROFILE_INTERNAL_H
#define PP_PROFILE_INTERNAL_H

#include "config.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/pp_profile.h"

#define PP_LIKELY(x) __builtin_expect(!!(x), 1)
#define PP_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- regions (pp_profile_regions.c) -------------------------------------- */

typedef struct pp_region_rec {
    char *name, *file, *paradigm, *role;
    int begin_line, end_line;
} pp_region_rec;

/* Lock-free lookup by id (records are immutable once published). */
const pp_region_rec *pp_profile_region_get(pp_region_id id);
uint32_t pp_profile_region_count(void);
void pp_profile_regions_reset(void);

/* ---- fork paths (pp_profile_path.c) --------------------------------------
 * A global, immutable, interned tree of call paths.  A fork context is a
 * pointer to one of these: it stays valid when the forking task instance's
 * nodes are recycled, and workers of any thread can read it. */

typedef struct pp_path pp_path;
struct pp_path {
    pp_path *parent;
    pp_path *first_child, *next_sibling;
    pp_region_id region;
    uint32_t depth;
};

/* The path's child for region, created if missing (takes the path lock). */
pp_path *pp_profile_path_child(pp_path *parent, pp_region_id region);
void pp_profile_paths_reset(void);

/* ---- call-tree nodes (pp_profile_tree.c) ---------------------------------- */

enum pp_node_kind {
    PP_NODE_REGION = 0, /* an ordinary region (also stubs) */
    PP_NODE_PROGRAM,    /* the program root of a location's main tree */
    PP_NODE_TASK_ROOT,  /* root of an explicit task instance tree */
    PP_NODE_WORKER,     /* the fork point a worker's team tree hangs below */
    PP_NODE_TASKS,      /* the per-location artificial TASKS node */
    PP_NODE_MERGED      /* a node of a merged task tree */
};

typedef struct pp_node pp_node;
struct pp_node {
    pp_region_id region;
    uint16_t kind;
    uint16_t open;       /* a visit is in progress (for closing at finalize) */
    uint32_t depth;      /* program root = 0 */
    pp_node *parent;
    pp_node *first_child, *next_sibling;
    pp_node *last_child; /* the child entered last: O(1) lookup for loops */
    pp_path *path;       /* fork path of this node (cache), or a worker root's */
    /* instance-tree node: its twin in the merged tree (NULL until the first
     * merge); merged construct root: its list of spare instance trees
     * (roots linked through next_sibling).  Fits the 16-byte padding. */
    pp_node *link;
    uint64_t start;      /* start of the open visit, in the owner task's clock */
    uint64_t visits, sum, min, max;
    uint64_t ctr[];      /* with counters: [0,n) start values, [n,2n) sums */
};

/* ---- tasks ------------------------------------------------------------------ */

typedef struct pp_task pp_task;
/* pp_profile_task_alloc sets every field one by one: keep it in sync. */
struct pp_task {
    pp_task_handle handle;
    pp_node *pos;          /* current node */
    uint64_t susp;         /* ticks spent suspended (explicit tasks) */
    pp_node *floor;        /* a generic exit never leaves this node */
    uint32_t fold;         /* open regions that were folded (depth/memory) */
    uint8_t is_explicit;
    uint8_t suspended;
    pp_region_id region;   /* explicit: the task construct */
    pp_node *stub;         /* explicit and running: its open stub */
    uint64_t suspend_start;
    pp_task *next;         /* task table chain / free list */
    pp_task *parent_task;  /* implicit: task to resume at parallel end */
    pp_task *parent_implicit;
    uint64_t *csusp;       /* counters: [0,n) suspended sums, [n,2n) at suspend */
    uint64_t nodes_mark;   /* explicit: loc->nodes_made when it began */
};

/* ---- locations (pp_profile_location.c) ----------------------------------- */

#define PP_CHILD_HASH 4096  /* power of two */
#define PP_TASK_BUCKETS 1024 /* power of two */
#define PP_CONSTRUCT_CACHE 64 /* power of two */

typedef struct pp_chunk pp_chunk;

typedef struct pp_location pp_location;
struct pp_location {
    pp_task *current;  /* the task executing now */
    pp_task *implicit; /* the implicit task of the innermost team */
    uint32_t index;
    uint32_t n_ctr;    /* PAPI counters read at every event (0: none) */
    uint64_t handle_counter;
    /* call-tree nodes created by child lookups so far: a task instance
     * during which none was created added no node to its kept tree, so its
     * values can stay there until the next flush (pp_profile_instance.c) */
    uint64_t nodes_made;

    /* arena */
    char *arena_ptr, *arena_end;
    pp_chunk *chunks;
    size_t arena_bytes;
    pp_node *node_free;
    pp_task *task_free;

    pp_node *root;    /* program root of the main tree */
    pp_node *tasks;   /* TASKS: children are the merged task trees */
    pp_node *workers; /* worker roots, linked through next_sibling */
    pp_task initial;  /* the implicit task outside any parallel region */

    pp_path *fork_pending; /* set by fork, consumed by the master's parallel_begin */
    int fork_pending_set;

    uint64_t active_tasks, max_active_tasks;
    uint64_t lost_depth, lost_memory;

    int counter_set; /* PAPI event set, -1 none */

    pp_location *next; /* global list, creation order */
    pp_task *task_table[PP_TASK_BUCKETS];
    /* merged construct roots by region id (direct-mapped, checked by
     * region): task begin finds the construct's spare trees in O(1) */
    pp_node *construct_cache[PP_CONSTRUCT_CACHE];
    pp_node *child_hash[PP_CHILD_HASH];
};

typedef struct pp_profile_global {
    pthread_mutex_t lock;
    pp_location *first, *last;
    uint32_t n_locations;
    size_t node_size;    /* sizeof(pp_node) + counters */
    uint32_t n_ctr;
    unsigned max_depth;  /* 0 = unlimited */
    size_t memory_limit; /* 0 = unlimited */
    size_t memory_used;  /* atomic: bytes of all arenas */
    pp_region_id program_region, tasks_region;
    pp_path *path_program, *path_tasks;
    uint64_t t_init;
    double wall_init;    /* CLOCK_REALTIME seconds */
    char date[40];
    char program[256];
    char *command_line;
    int started, finished;
    int enabled_by_user; /* POMP2_On/Off */
    int config_enable;
} pp_profile_global;

extern pp_profile_global pp_profile_g;

/* Nonzero while events are recorded: the one shared variable the event path
 * reads (relaxed; written only by init/finalize/POMP2_On/Off). */
extern int pp_profile_measuring_;

extern __thread pp_location *pp_profile_tls_ __attribute__((tls_model("initial-exec")));

static inline int pp_profile_measuring(void)
{
    return __atomic_load_n(&pp_profile_measuring_, __ATOMIC_RELAXED);
}

pp_location *pp_profile_location_create(void);
void pp_profile_update_measuring(void);

static inline pp_location *pp_profile_loc(void)
{
    pp_location *loc = pp_profile_tls_;
    if (PP_UNLIKELY(loc == NULL))
        loc = pp_profile_location_create();
    return loc;
}

/* ---- tree operations (pp_profile_tree.c) ---------------------------------- */

/* A fresh node (zeroed values, min = UINT64_MAX); force ignores the memory
 * cap (task roots, stubs, merged trees: they must exist).  NULL when the cap
 * is reached. */
pp_node *pp_profile_node_new(pp_location *loc, pp_node *parent, pp_region_id region, int kind,
                             int force);
/* The child of parent for region: the slow path of enter (hash, list scan,
 * creation).  NULL when it would exceed POMPPROF_MAX_DEPTH or the memory cap
 * (the caller folds the region into parent). */
pp_node *pp_profile_child_slow(pp_location *loc, pp_node *parent, pp_region_id region, int force);
/* The same, inline for the patterns of the event path: the child entered
 * last (loops), then the one after it, wrapping around to the first child
 * (regions entered in turn: create task, create task, taskwait, and again;
 * stubs of alternating task constructs). */
static inline pp_node *pp_profile_child(pp_location *loc, pp_node *parent, pp_region_id region,
                                        int force)
{
    pp_node *c = parent->last_child;
    if (PP_LIKELY(c != NULL)) {
        if (c->region == region)
            return c;
        pp_node *s = c->next_sibling;
        if (!s)
            s = parent->first_child;
        if (s->region == region) {
            parent->last_child = s;
            return s;
        }
    }
    return pp_profile_child_slow(loc, parent, region, force);
}
/* Finish the instance tree of explicit task t (its floor) whose other
 * regions are closed: close the root at tnow (t's clock), add the tree's
 * values into the merged tree of its construct, zero them and keep the tree
 * as a spare for the next instance (or recycle its nodes when it grew much
 * larger than what this instance used, so memory stays bounded by the
 * active instances' needs).  The slow part of pp_profile_instance_retire
 * (below): an instance during which the tree grew, counters, first use. */
void pp_profile_instance_retire_slow(pp_location *loc, pp_task *t, uint64_t tnow);
/* Move the values still held by loc's spare instance trees into the merged
 * trees (before anything reads the merged trees: unify). */
void pp_profile_instance_flush(pp_location *loc);
/* Recycle a whole subtree (its nodes go to the free list). */
void pp_profile_subtree_free(pp_location *loc, pp_node *n);
pp_task *pp_profile_task_alloc(pp_location *loc);
static inline void pp_profile_task_free(pp_location *loc, pp_task *t)
{
    t->next = loc->task_free;
    loc->task_free = t;
}
/* The fork path of node n (computed once, cached in the node). */
pp_path *pp_profile_node_path(pp_location *loc, pp_node *n);
void pp_profile_arena_release(pp_location *loc);

/* A spare instance tree of task construct region (nodes kept from earlier
 * instances, values possibly not yet merged: see pp_profile_instance.c),
 * NULL if none. */
static inline pp_node *pp_profile_instance_reuse(pp_location *loc, pp_region_id region)
{
    pp_node *m = loc->construct_cache[region & (PP_CONSTRUCT_CACHE - 1)];
    pp_node *root;
    if (!m || m->region != region || !(root = m->link))
        return NULL;
    m->link = root->next_sibling;
    root->next_sibling = NULL;
    return root;
}

/* Record one finished visit of n lasting d ticks. */
static inline void pp_profile_node_visit(pp_node *n, uint64_t d)
{
    n->visits++;
    n->sum += d;
    if (d < n->min)
        n->min = d;
    if (d > n->max)
        n->max = d;
}

/* Retire (see above): the common case inline, the rest in the slow part. */
static inline void pp_profile_instance_retire(pp_location *loc, pp_task *t, uint64_t tnow)
{
    pp_node *root = t->floor;
    pp_node *merged = root->link;
    if (PP_LIKELY(merged != NULL && loc->nodes_made == t->nodes_mark && !loc->n_ctr)) {
        /* No node was created while this instance ran, so every node it
         * visited already has its merged twin and the tree keeps its size:
         * its values stay in the tree (they add up with the earlier
         * instances' ones) until a later retire drains it or the flush at
         * unify (pp_profile_instance.c).  The root has exactly this one
         * visit (entered at task begin; exits never close it). */
        uint64_t v = tnow - t->susp;
        pp_profile_node_visit(root, v > root->start ? v - root->start : 0);
        loc->construct_cache[root->region & (PP_CONSTRUCT_CACHE - 1)] = merged;
        root->next_sibling = merged->link;
        merged->link = root;
        return;
    }
    pp_profile_instance_retire_slow(loc, t, tnow);
}

/* ---- counters on the event path ------------------------------------------- */

/* Reads this location's counters into vals (only called when loc->n_ctr). */
void pp_profile_counters_read(pp_location *loc, uint64_t *vals);
void pp_profile_counters_enter(pp_location *loc, pp_task *t, pp_node *n);
void pp_profile_counters_exit(pp_location *loc, pp_task *t, pp_node *n);
void pp_profile_counters_suspend(pp_location *loc, pp_task *t);
void pp_profile_counters_resume(pp_location *loc, pp_task *t);

/* ---- events used across files ---------------------------------------------- */

/* Close the open visit of n at time now of task t's clock. */
void pp_profile_close_node(pp_location *loc, pp_task *t, pp_node *n, uint64_t now);
/* Finish explicit task t at now: close its regions, merge, recycle. */
void pp_profile_task_finish(pp_location *loc, pp_task *t, uint64_t now);
/* Make the task with handle resumed current on loc (the body of
 * pp_profile_task_switch_to_at for a caller that checked the rest). */
void pp_profile_task_switch_loc(pp_location *loc, pp_task_handle resumed, uint64_t now);
/* The explicit task with this handle (NULL if not active here). */
pp_task *pp_profile_task_lookup(pp_location *loc, pp_task_handle h);

#endif
