/* The engine's data model: call-tree nodes, tasks, locations, the global
 * state, and the operations on a single node that the event path inlines.
 *
 * doc/engine.md tells the algorithm; in short:
 * - one pp_location per OS thread that sends events, reached through a
 *   thread-local pointer; it owns an arena of call-tree nodes and tasks;
 * - every task (implicit or explicit) is a pp_task with a position (pos) in
 *   some call tree.  Implicit tasks move inside the thread's main tree (or a
 *   worker root, or the tree of the explicit task that forked); explicit
 *   task instances own a small tree rooted at the task region;
 * - suspended time never counts: every explicit task keeps a "virtual clock"
 *   (real time minus the time it spent suspended, t->susp), and all its
 *   nodes store their start in that clock, so a switch is O(1);
 * - stubs (task region nodes below the scheduling point of the implicit
 *   task) measure fragments of explicit tasks in real time;
 * - a finished instance tree is kept per construct for the next instance
 *   and its values reach the construct's merged tree below TASKS
 *   (pp_profile_instance.c).
 *
 * Everything here is private to profile/. */
#ifndef PP_PROFILE_NODE_H
#define PP_PROFILE_NODE_H

#include "config.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/pp_counters.h"
#include "profile/pp_profile.h"
#include "profile/pp_profile_source.h"
#include "trace/pp_trace.h"

#define PP_LIKELY(x) __builtin_expect(!!(x), 1)
#define PP_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- fork paths -----------------------------------------------------------
 * A global, immutable, interned tree of call paths (pp_profile_path.c).  A
 * fork context is a pointer to one of these: it stays valid when the forking
 * task instance's nodes are recycled, and workers of any thread can read it. */

typedef struct pp_path pp_path;
struct pp_path {
    pp_path *parent;
    pp_path *first_child, *next_sibling;
    pp_region_id region;
    uint32_t pset; /* parameter set (pp_profile_params.c), 0 = none */
    uint32_t depth;
};

/* ---- call-tree nodes -------------------------------------------------------- */

enum pp_node_kind {
    PP_NODE_REGION = 0, /* an ordinary region (also stubs) */
    PP_NODE_PROGRAM,    /* the program root of a location's main tree */
    PP_NODE_TASK_ROOT,  /* root of an explicit task instance tree */
    PP_NODE_WORKER,     /* the fork point a worker's team tree hangs below */
    PP_NODE_TASKS,      /* the per-location artificial TASKS node */
    PP_NODE_MERGED      /* a node of a merged task tree */
};

/* A node's identity below its parent: its region and its parameter set
 * (pp_profile_params.c; 0 = no parameters), compared as one 64-bit word so
 * that a child lookup costs what it cost with the region alone. */
typedef union pp_node_key {
    struct {
        pp_region_id region;
        uint32_t pset;
    } s;
    uint64_t word;
} pp_node_key;

static inline uint64_t pp_node_key_of(pp_region_id region, uint32_t pset)
{
    return ((pp_node_key){.s = {region, pset}}).word;
}

/* pp_node.flags */
#define PP_NODE_OPEN 1u    /* the program root's visit is in progress (closed at finalize) */
#define PP_NODE_PARTIAL 2u /* holds time of a visit that a parameter moved to a sibling
                            * (no visit counted here; pp_profile_split.c) */

typedef struct pp_node pp_node;
struct pp_node {
    union {
        struct {
            pp_region_id region;
            uint32_t pset;
        };
        uint64_t key; /* pp_node_key_of(region, pset) */
    };
    uint32_t depth;      /* program root = 0 */
    uint16_t kind;
    uint16_t flags;      /* PP_NODE_OPEN, PP_NODE_PARTIAL */
    pp_node *parent;
    pp_node *first_child, *next_sibling;
    pp_node *last_child; /* the child entered last: O(1) lookup for loops */
    pp_path *path;       /* fork path of this node (cache), or a worker root's */
    /* instance-tree node: its twin in the merged tree (NULL until the first
     * merge); merged construct root: its list of spare instance trees
     * (roots linked through next_sibling).  Fits the 16-byte padding. */
    pp_node *link;
    /* values of the extra metrics (pp_profile_extra.c) added at this call
     * path, NULL until the first one: most nodes never get any */
    uint64_t *extra;
    union {
        uint64_t start;  /* start of the open visit, in its task's clock */
        /* merged construct root (never visited itself): the stub node its
         * last instance began with, which the next one checks first */
        pp_node *stub_hint;
    };
    uint64_t visits, sum, min, max;
    /* merged construct root (below TASKS): the instance trees of the
     * construct (with its parameter set) on this location, and the most
     * there were, which is the most instances active at once: a tree is made
     * only when all the others are in use (pp_profile_instance_made), so the
     * event path counts nothing.  They fill the 8-byte padding. */
    uint32_t instance_trees, instances_max;
    uint64_t ctr[];      /* with counters: [0,n) start values, [n,2n) sums */
};

/* ---- tasks ------------------------------------------------------------------- */

typedef struct pp_task pp_task;
/* pp_profile_task_alloc sets every field one by one: keep it in sync. */
struct pp_task {
    pp_task_handle handle;
    pp_node *pos;          /* current node */
    uint64_t susp;         /* ticks spent suspended (explicit tasks) */
    pp_node *floor;        /* a generic exit never leaves this node */
    union {
        struct {
            uint32_t fold; /* open regions that were folded (depth/memory) */
            uint8_t is_explicit;
            uint8_t suspended;
            uint8_t moved; /* an untied task resumed on another location: a shell */
            /* explicit: a node was made while it was the current task (so
             * its instance tree may have grown: pp_profile_instance_keep) */
            uint8_t grew;
        };
        /* the five above in one word: the fast paths set and compare them
         * at once (pp_task_state_running) */
        uint64_t state;
    };
    pp_region_id region;   /* explicit: the task construct */
    pp_node *stub;         /* explicit and running: its open stub */
    uint64_t suspend_start;
    pp_task *next; /* explicit and active: the one begun before (active
                    * list, pp_location.active_top); else the free list */
    pp_task *parent_task;  /* implicit: task to resume at parallel end */
    pp_task *parent_implicit;
    uint64_t *csusp;       /* counters: [0,n) suspended sums, [n,2n) at suspend */
};

/* The state word of an explicit task that runs with nothing unusual: no
 * folded region, not suspended, not moved, its tree not grown (a constant
 * the compiler folds). */
static inline uint64_t pp_task_state_running(void)
{
    pp_task t = {.fold = 0, .is_explicit = 1, .suspended = 0, .moved = 0, .grew = 0};
    return t.state;
}

/* ---- parameters (pp_profile_params.c, pp_profile_split.c) ---------------------- */

enum pp_param_type {
    PP_PARAM_INT64 = 0,
    PP_PARAM_STRING = 1,
    PP_PARAM_OTHER = 2 /* the values beyond POMPPROF_MAX_PARAMETER_VALUES */
};

/* One value of a parameter. */
typedef struct pp_param_value {
    int64_t v;       /* INT64: the value; STRING: a hash of the bytes */
    const char *str; /* STRING: the bytes (not NUL-terminated while a caller's) */
    uint32_t len;    /* STRING: their number */
    uint32_t type;   /* enum pp_param_type */
} pp_param_value;

typedef struct pp_param_site pp_param_site;

/* A location's memo of parameter calls: (path of the node's parent, node
 * key, parameter, value) -> the parameter set of the sibling the call
 * moves to, and the node it moved to last (for a task root: the merged root
 * of that set), used when it still is the child of the same parent for that
 * key.  Direct-mapped; a miss asks the global tables (pp_profile_params.c). */
#define PP_PARAM_CACHE 256    /* power of two */
#define PP_PARAM_SITES 64     /* power of two */
typedef struct pp_param_memo {
    const pp_path *path;
    uint64_t nkey;
    pp_param_value val; /* str: the interned copy */
    uint32_t key;
    uint32_t pset;
    pp_node *node;
} pp_param_memo;
typedef struct pp_param_site_memo {
    const pp_path *path;
    uint64_t nkey;
    uint32_t key;
    pp_param_site *site;
} pp_param_site_memo;

/* ---- locations ---------------------------------------------------------------- */

#define PP_CHILD_HASH 4096    /* power of two */
#define PP_CONSTRUCT_CACHE 64 /* power of two */

typedef struct pp_chunk pp_chunk;

typedef struct pp_location pp_location;
/* (pp_thread_words, a thread's fast pointer and in-event words:
 * pp_profile_source.h) */
struct pp_location {
    pp_task *current;  /* the task executing now */
    pp_task *implicit; /* the implicit task of the innermost team */
    /* the time of the thread's last timed event (enter, exit, task begin,
     * end, switch, parallel begin, end): where a parameter call splits the
     * current node, so the call itself reads no clock (pp_profile_split.c) */
    uint64_t last;
    uint32_t index;
    uint32_t n_ctr;    /* PAPI counters read at every event (0: none) */
    uint64_t handle_last; /* the last task handle handed out (pp_profile_handle_of) */
    /* nonzero when this location neither traces nor reads counters (fixed
     * when it is made): the event path's fast case tests this one flag */
    uint32_t plain;
    /* the thread's trace buffer: NULL unless POMPPROF_TRACE=1, so the event
     * path pays one predictable branch for tracing when it is off */
    pp_trace_buf *trace;

    /* arena */
    char *arena_ptr, *arena_end;
    pp_chunk *chunks;
    size_t arena_bytes;
    pp_node *node_free;
    pp_task *task_free;     /* explicit task records */
    pp_task *implicit_free; /* implicit task records */
    uint64_t *extra_free; /* recycled extra-value arrays, linked through [0] */

    pp_node *root;    /* program root of the main tree */
    pp_node *tasks;   /* TASKS: children are the merged task trees */
    pp_node *workers; /* worker roots, linked through next_sibling */
    pp_task initial;  /* the implicit task outside any parallel region */

    pp_path *fork_pending; /* set by fork, consumed by the master's parallel_begin */
    int fork_pending_set;

    /* explicit task records made: the most explicit tasks active at once,
     * since a record is made only when none is free (pp_profile_task_alloc;
     * implicit tasks have a free list of their own) */
    uint64_t max_active_tasks;
    uint64_t lost_depth, lost_memory;

    int counter_set; /* PAPI event set, -1 none */

    pp_location *next; /* global list, creation order */
    /* the words of the thread that made this location its own (its fast
     * pointer, which switching measurement off clears, and its in-event
     * word, which finalize waits on); NULL once that thread ended (under
     * pp_profile_g.lock; pp_profile_state.c) */
    struct pp_thread_words *thread;
    /* set by finalize when it gave up waiting for this location's thread to
     * leave an event: its trees are left out of the profile */
    int busy_at_end;
    /* the active explicit instances, newest first (pp_task.next): with tied
     * tasks they form a stack, so the task a scheduling point's end resumes
     * is found at the top */
    pp_task *active_top;
    /* merged construct roots by region id (direct-mapped, checked by
     * region): task begin finds the construct's spare trees in O(1) */
    pp_node *construct_cache[PP_CONSTRUCT_CACHE];
    pp_node *child_hash[PP_CHILD_HASH];
    pp_param_memo param_memo[PP_PARAM_CACHE];
    pp_param_site_memo site_memo[PP_PARAM_SITES];
};

/* ---- the process-wide state (pp_profile_state.c) ----------------------------- */

typedef struct pp_profile_global {
    pthread_mutex_t lock;
    pp_location *first, *last;
    /* the threads that ran an event source's callback (pp_profile_source.h) */
    pp_thread_words *source_threads;
    uint32_t n_locations;
    size_t node_size;    /* sizeof(pp_node) + counters */
    uint32_t n_ctr;
    unsigned max_depth;  /* 0 = unlimited */
    uint32_t max_param_values; /* distinct values per parameter and call path */
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
    uint64_t end_time; /* the end's timestamp, once the end hooks run */
    int enabled_by_user; /* POMP2_On/Off */
    int config_enable;
    /* one process of a job (pp_profile_job.h): its rank and name in the
     * system tree; where and with what note it writes a profile by itself */
    int in_job;
    int process_rank;
    char process_name[64];
    char *own_output, *own_note;
} pp_profile_global;

extern pp_profile_global pp_profile_g;

/* pp_profile_measuring_ (pp_profile_source.h): nonzero while events are
 * recorded, the one shared variable the event path reads (relaxed; written
 * only by the lifecycle and POMP2_On/Off).  Hidden: no other module reads
 * it (an event source linked with its own copy of the engine does, within
 * its library), and so every event loads it PC-relative in one instruction,
 * not through the GOT in two. */

extern __thread pp_location *pp_profile_tls_ __attribute__((tls_model("initial-exec")));

static inline int pp_profile_measuring(void)
{
    return __atomic_load_n(&pp_profile_measuring_, __ATOMIC_RELAXED);
}

/* Nonzero once finalize has begun (set with measuring_ cleared, never
 * cleared but by the tests' reset): from then on the end reads and closes
 * every location, so what reads a location outside the recording events
 * (the handle of the current task, pp_profile_task_current) must not. */
extern int pp_profile_ended_ __attribute__((visibility("hidden")));

static inline int pp_profile_ended(void)
{
    return __atomic_load_n(&pp_profile_ended_, __ATOMIC_RELAXED);
}

/* The words of the thread that crashed (a signal handler set them; NULL:
 * none): the end does not wait for it (pp_profile_quiesce.c). */
extern pp_thread_words *pp_profile_crashed_thread __attribute__((visibility("hidden")));

/* ---- operations on one node ----------------------------------------------------- */

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

/* n holds values not yet moved on: a visit, or the part of one that a
 * parameter moved to a sibling. */
static inline int pp_profile_node_has_values(const pp_node *n)
{
    return n->visits || (n->flags & PP_NODE_PARTIAL);
}

/* Add src's values into dst (NULL: they are dropped) and zero src's. */
static inline void pp_profile_node_move(pp_node *src, pp_node *dst, uint32_t n_ctr)
{
    src->flags &= (uint16_t)~PP_NODE_PARTIAL;
    if (dst) {
        dst->visits += src->visits;
        dst->sum += src->sum;
        if (src->min < dst->min)
            dst->min = src->min;
        if (src->max > dst->max)
            dst->max = src->max;
        for (uint32_t i = 0; i < n_ctr; i++)
            dst->ctr[n_ctr + i] += src->ctr[n_ctr + i];
    }
    src->visits = src->sum = src->max = 0;
    src->min = UINT64_MAX;
    for (uint32_t i = 0; i < n_ctr; i++)
        src->ctr[n_ctr + i] = 0;
}

/* The node after n in a pre-order walk of the subtree rooted at top (NULL at
 * the end).  Iterative, so finalize-time walks need no stack however deep
 * the tree is. */
static inline pp_node *pp_profile_node_next(const pp_node *n, const pp_node *top)
{
    if (n->first_child)
        return n->first_child;
    while (n != top && !n->next_sibling)
        n = n->parent;
    return n == top ? NULL : n->next_sibling;
}

#endif
