/* profile/ internals: an index of what each file of the engine offers the
 * others, lowest layer first.  A file calls only files of the layers above
 * its own line (test/unit/profile/test_profile_layers.py checks this list
 * against the objects' symbols):
 *
 *   pp_profile_node.h   types and single-node operations
 *   state               the process-wide state
 *   regions, path       region table, interned fork paths
 *   params              parameter names, values and sets; values per call path
 *   tree                arena, node creation, child lookup
 *   location            per-thread state, task handles
 *   extra               extra metrics: definitions, values added to nodes
 *   depend              dependences of tasks: trace records, their count
 *                       (pp_profile_depend.h)
 *   message             an event source's message records for the trace
 *                       (pp_profile_message.h: MPI)
 *   counters            PAPI values on the event path
 *   instance            instance trees kept and merged per construct
 *   task                explicit tasks: begin, end, switches, stubs
 *   split               a parameter splits the current node (pp_profile.h)
 *   events              enter/exit, fork, parallel begin/end, join
 *   close               closing what is still open at the end
 *   unify               one tree for all locations (pp_profile_unify.h)
 *   system              the system tree of the CUBE file
 *   runfacts            the run's facts: host, cores, settings, how it ended
 *                       (pp_profile_runfacts.h)
 *   quiesce             the wait at the end for the events in flight
 *   metrics             the metrics in the file: types, values, links
 *                       (pp_profile_metrics.h)
 *   output              the CUBE4 file (pp_profile_output.h)
 *   trace               the trace beside the profile: where, and its regions
 *   lifecycle           init, finalize, atexit, signals (pp_profile.h), a
 *                       process of a job (pp_profile_job.h)
 *   exit                exit() on several threads: later callers wait
 *   ctor, test          the library constructor; the tests' hooks
 *                       (pp_profile_test.h)
 */
#ifndef PP_PROFILE_INTERNAL_H
#define PP_PROFILE_INTERNAL_H

#include "lib/pp_assert.h"
#include "lib/pp_timer.h"
#include "lib/pp_tsan.h"
#include "profile/pp_profile_node.h"

/* ---- the process-wide state (pp_profile_state.c) ----------------------------- */

/* Recompute pp_profile_measuring_ from the global state; when it is off,
 * clear every thread's fast pointer (takes pp_profile_g.lock).  The _in_child
 * form takes no lock (a fork child). */
void pp_profile_update_measuring(void);
void pp_profile_update_measuring_in_child(void);

/* ---- regions (pp_profile_regions.c) ----------------------------------------- */

typedef struct pp_region_rec {
    char *name, *file, *paradigm, *role, *description;
    int begin_line, end_line;
    char *mangled; /* NULL: none (the name stands for it) */
    uint32_t alias1; /* 0, or 1 + the region this one stands for (pp_profile_names.h) */
} pp_region_rec;

/* Lock-free lookup by id (records are immutable once published). */
const pp_region_rec *pp_profile_region_get(pp_region_id id);
void pp_profile_regions_reset(void);

/* ---- fork paths (pp_profile_path.c) ----------------------------------------- */

/* The path's child for (region, parameter set), created if missing (takes
 * the path lock). */
pp_path *pp_profile_path_child(pp_path *parent, pp_region_id region, uint32_t pset);
void pp_profile_paths_reset(void);

/* ---- parameters (pp_profile_params.c) ------------------------------------- */

/* A parameter set: its values sorted by parameter key (immutable once made;
 * id 0 is the empty set). */
typedef struct pp_param_entry {
    pp_param_key key;
    pp_param_value val;
} pp_param_entry;

/* A string's hash as pp_param_value.v holds it. */
uint64_t pp_profile_param_hash(const char *s, size_t len);

static inline int pp_profile_param_value_eq(const pp_param_value *a, const pp_param_value *b)
{
    if (a->v != b->v || a->type != b->type)
        return 0;
    return a->type != PP_PARAM_STRING ||
           (a->len == b->len && (a->len == 0 || __builtin_memcmp(a->str, b->str, a->len) == 0));
}

/* The site of parameter key at the node with key nkey (region and set)
 * whose parent's path is parent_path: it admits the first
 * POMPPROF_MAX_PARAMETER_VALUES values (created on first use, under the
 * parameters' lock); NULL when out of memory. */
pp_param_site *pp_profile_param_site(const pp_path *parent_path, uint64_t nkey, pp_param_key key);
/* The parameter set that the node's set becomes with key = val at site s:
 * val's own while the site admits it, the site's "<other>" set beyond the
 * cap (warned once).  *interned receives the stored bytes of an admitted
 * string (NULL otherwise).  Lock-free once the site is full.  Returns
 * PP_PSET_NONE when out of memory. */
#define PP_PSET_NONE PP_PSET_INVALID
uint32_t pp_profile_param_site_value(pp_param_site *s, const pp_param_value *val,
                                     const char **interned);
/* The entries of set pset (0: none). */
uint32_t pp_profile_pset_entries(uint32_t pset, const pp_param_entry **entries);
void pp_profile_params_reset(void);

/* ---- nodes and child lookup (pp_profile_tree.c) ----------------------------- */

/* A fresh node for key (pp_node_key_of: region and parameter set; zeroed
 * values, min = UINT64_MAX); force ignores the memory cap (task roots, stubs,
 * merged trees: they must exist).  NULL when the cap is reached. */
pp_node *pp_profile_node_new(pp_location *loc, pp_node *parent, uint64_t key, int kind, int force);
/* The child of parent for key: the slow path of enter (hash, list scan,
 * creation).  NULL when it would exceed POMPPROF_MAX_DEPTH or the memory cap
 * (the caller folds the region into parent). */
pp_node *pp_profile_child_slow(pp_location *loc, pp_node *parent, uint64_t key, int force);
/* The same, inline for the patterns of the event path: the child entered
 * last (loops), then the one after it, wrapping around to the first child
 * (regions entered in turn: create task, create task, taskwait, and again;
 * stubs of alternating task constructs).  A region entered plainly has the
 * key of its region id (no parameters). */
static inline pp_node *pp_profile_child(pp_location *loc, pp_node *parent, uint64_t key, int force)
{
    pp_node *c = parent->last_child;
    if (PP_LIKELY(c != NULL)) {
        if (c->key == key)
            return c;
        pp_node *s = c->next_sibling;
        if (!s)
            s = parent->first_child;
        if (s->key == key) {
            parent->last_child = s;
            return s;
        }
    }
    return pp_profile_child_slow(loc, parent, key, force);
}
/* The child of parent for key when it is the child entered last, or the
 * one after it (wrapping around to the first child); else NULL.  Nothing
 * is created: the fast paths leave a miss to the general path. */
static inline pp_node *pp_profile_child_near(pp_node *parent, uint64_t key)
{
    pp_node *c = parent->last_child;
    if (PP_UNLIKELY(c == NULL))
        return NULL;
    if (c->key == key)
        return c;
    pp_node *s = c->next_sibling;
    if (!s)
        s = parent->first_child;
    if (s->key != key)
        return NULL;
    parent->last_child = s;
    return s;
}
/* A zeroed array of PP_PROFILE_EXTRA_MAX extra-metric values for a node
 * (NULL when memory is short). */
uint64_t *pp_profile_extra_values(pp_location *loc);
/* Recycle a whole subtree (its nodes go to the free list, their extra-value
 * arrays to theirs). */
void pp_profile_subtree_free(pp_location *loc, pp_node *n);
/* A task record, zeroed, from the free list of explicit or implicit ones
 * (made when that list is empty: for explicit ones, that counts
 * loc->max_active_tasks); NULL when memory is short. */
pp_task *pp_profile_task_alloc(pp_location *loc, int is_explicit);
static inline void pp_profile_task_free(pp_location *loc, pp_task *t)
{
    t->next = loc->task_free;
    loc->task_free = t;
}
static inline void pp_profile_implicit_free(pp_location *loc, pp_task *t)
{
    t->next = loc->implicit_free;
    loc->implicit_free = t;
}
/* The fork path of node n (computed once, cached in the node). */
pp_path *pp_profile_node_path(pp_location *loc, pp_node *n);
static inline pp_path *pp_profile_node_path_fast(pp_location *loc, pp_node *n)
{
    return PP_LIKELY(n->path != NULL) ? n->path : pp_profile_node_path(loc, n);
}
void pp_profile_arena_release(pp_location *loc);

/* ---- locations (pp_profile_location.c) -------------------------------------- */

/* The calling thread's location, created and registered; NULL (and
 * measurement stopped, with one message) when memory is short. */
pp_location *pp_profile_location_create(void);

/* A fresh task handle of loc: the location index + 1 in the high 24 bits
 * keeps handles unique across threads without any shared counter.  The
 * location's last handle starts as (index + 1) << 40 (pp_profile_location.c),
 * so a handle costs one increment (2^40 handles per thread before the count
 * reaches the index bits). */
static inline pp_task_handle pp_profile_handle_of(pp_location *loc)
{
    return ++loc->handle_last;
}

static inline pp_location *pp_profile_loc(void)
{
    pp_location *loc = pp_profile_tls_;
    if (PP_UNLIKELY(loc == NULL))
        loc = pp_profile_location_create();
    return loc;
}

/* Make loc (NULL: none) the calling thread's location, and its fast
 * pointer too when the fast paths apply (pp_profile_state.c). */
void pp_profile_tls_set(pp_location *loc);
/* Append the new location loc to the global list and make it the calling
 * thread's (pp_profile_tls_set), all under the global lock, unless
 * measurement is off by then (-1: loc is not listed, finalize may be
 * reading the list). */
int pp_profile_location_publish(pp_location *loc);
/* Set the calling thread's fast pointer to its location loc again if the
 * fast paths apply (after measurement was switched off and on). */
void pp_profile_fast_rearm(pp_location *loc);

/* The prologue of the public events' fast form: the calling thread's
 * location when the fast paths apply to it: measurement is on, the location
 * neither traces nor counts, and the TSC is the source (the event then reads
 * it with pp_timer_tsc()).  Else NULL, and the event takes its general form
 * (pp_profile_event_loc, pp_timer_now); while measurement is off, the events
 * that record nothing then return after one test of the flag.  The pointer
 * alone says all this: switching measurement off clears every thread's
 * (pp_profile_state.c), so the fast path reads no flag. */
static inline pp_location *pp_profile_fast_loc(void)
{
    return __atomic_load_n(&pp_profile_thread_.fast, __ATOMIC_RELAXED);
}

/* ---- the events' bracket -------------------------------------------------------
 * Finalize builds the profile only from trees that no thread is writing
 * (doc/engine.md, "Finalize and the events in flight"): every public event
 * of the engine -- whatever reads the fast pointer or the measuring flag and
 * may then write a location's trees, trace buffer or memos -- runs between
 *
 *     pp_profile_event_begin();   first, before anything is read
 *     ...                         the event
 *     pp_profile_event_end();     last, after the last write, on every way out
 *
 * on the calling thread.  Each is one plain store to the thread's in-event
 * word (pp_profile_thread_), with no fence: begin's signal fence only keeps
 * the compiler from moving the event's loads above the store, and end's
 * release order keeps its writes before it (a plain store on x86 too).
 * Finalize makes that enough with one membarrier after switching
 * measurement off.  The fast paths (the _fast bodies) and the general
 * bodies they tail-call (the _general and _other functions) end the event
 * themselves, so the fast paths keep their tail calls and need no frame; a
 * caller's end after them only repeats the store.  Brackets do not nest:
 * an event calls the engine's bodies, never another public event.  A new
 * entry point of the engine does the same, and so needs no other care for
 * the end; an event source's own per-thread state has a bracket of its own
 * (pp_profile_source.h). */
static inline __attribute__((always_inline)) void pp_profile_event_begin(void)
{
    __atomic_store_n(&pp_profile_thread_.in_event, 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline __attribute__((always_inline)) void pp_profile_event_end(void)
{
    __atomic_store_n(&pp_profile_thread_.in_event, 0, __ATOMIC_RELEASE);
}

/* The same where the event has no register to spare: the compiler keeps
 * the word's address in one from the begin on, which costs a fast path
 * without a frame two pushes and pops; this form reads the address again
 * from the GOT instead (one load).  A plain store with a compiler barrier
 * is a release store on x86.  ThreadSanitizer builds take the C form: they
 * must see the store. */
#if defined(__x86_64__) && defined(__PIC__) && !PP_TSAN
static inline __attribute__((always_inline)) void pp_profile_event_end_reloaded(void)
{
    uint64_t address;
    __asm__ volatile("movq pp_profile_thread_@gottpoff(%%rip), %0\n\t"
                     "movb $0, %%fs:%c1(%0)"
                     : "=r"(address)
                     : "i"(offsetof(pp_thread_words, in_event))
                     : "memory");
}
#else
#define pp_profile_event_end_reloaded pp_profile_event_end
#endif

/* The prologue of every event: the calling thread's location, or NULL when
 * nothing is to be recorded (measurement off, or no memory for a location).
 * A location of the fast kind whose fast pointer measurement's switching off
 * cleared gets it back here, in the first general event after it is on. */
static inline pp_location *pp_profile_event_loc(void)
{
    if (PP_UNLIKELY(!pp_profile_measuring()))
        return NULL;
    pp_location *loc = pp_profile_loc();
    /* its thread's words forgotten (the thread is ending: an event from a
     * key destructor after ours) or, with the fast kind, its fast pointer
     * cleared: tie them again */
    if (PP_UNLIKELY(loc != NULL && ((loc->plain && pp_profile_fast_loc() == NULL &&
                                     pp_timer_is_tsc()) ||
                                    loc->thread == NULL)))
        pp_profile_fast_rearm(loc);
    return loc;
}

/* ---- extra metrics (pp_profile_extra.c) -------------------------------------- */

typedef struct pp_extra_def {
    char *uniq, *disp, *unit, *descr;
} pp_extra_def;

/* The metrics defined so far (lock-free: definitions are immutable once
 * counted). */
uint32_t pp_profile_extra_count(void);
const pp_extra_def *pp_profile_extra_get(uint32_t metric);
/* pp_profile_extra_add's body, on loc (inside an event). */
void pp_profile_extra_add_loc(pp_location *loc, int metric, uint64_t value);
/* Add src's extra values into dst (allocating dst's array; NULL dst: they
 * are dropped) and zero src's. */
void pp_profile_extra_move(pp_location *loc, pp_node *src, pp_node *dst);
void pp_profile_extra_reset(void);

/* ---- counters on the event path (pp_profile_counters.c) --------------------- */

/* Only called when loc->n_ctr: the no-counter path never gets there. */
void pp_profile_counters_enter(pp_location *loc, pp_task *t, pp_node *n);
void pp_profile_counters_exit(pp_location *loc, pp_task *t, pp_node *n);
void pp_profile_counters_suspend(pp_location *loc, pp_task *t);
void pp_profile_counters_resume(pp_location *loc, pp_task *t);

/* Close the open visit of n at time now of task t's clock. */
static inline void pp_profile_close_node(pp_location *loc, pp_task *t, pp_node *n, uint64_t now)
{
    if (loc->n_ctr)
        pp_profile_counters_exit(loc, t, n);
    uint64_t v = now - t->susp;
    pp_profile_node_visit(n, v > n->start ? v - n->start : 0);
}

/* End the open visit of n at now without counting a visit: a parameter
 * moved the visit on to a sibling, which counts it (pp_profile_split.c). */
static inline void pp_profile_close_partial(pp_location *loc, pp_task *t, pp_node *n, uint64_t now)
{
    if (loc->n_ctr)
        pp_profile_counters_exit(loc, t, n);
    uint64_t v = now - t->susp;
    n->sum += v > n->start ? v - n->start : 0;
    n->flags |= PP_NODE_PARTIAL;
}

/* ---- invariants (PP_ASSERT: debug builds and the unit tests only) --------------- */

/* Node n lies on the parent chain from task t's position up to its floor:
 * t's open regions form one path of its tree (O(depth): the end and the
 * checks at close call it, not the event path). */
static inline int pp_profile_task_path_ok(const pp_task *t, const pp_node *n)
{
    for (const pp_node *m = t->pos; m; m = m->parent)
        if (m == n)
            return 1;
    return 0;
}

/* The location's current task is its implicit task or an explicit one
 * that runs (not suspended, not a moved shell) at the top of the stack of
 * active instances, whose next is either suspended or its own parent's. */
static inline int pp_profile_current_ok(const pp_location *loc)
{
    const pp_task *c = loc->current;
    if (!c->is_explicit)
        return c == loc->implicit || c == &loc->initial;
    return !c->suspended && !c->moved && c->floor != NULL;
}

/* ---- instance trees (pp_profile_instance.c) --------------------------------- */

/* The slot of loc->construct_cache for a merged root's key (region and
 * parameter set; a set-less construct's slot is its region's). */
static inline uint32_t pp_profile_construct_slot(uint64_t key)
{
    return ((uint32_t)key ^ (uint32_t)(key >> 32) * 0x9E3779B1u) & (PP_CONSTRUCT_CACHE - 1);
}

/* A spare instance tree of the merged root m (nodes kept from earlier
 * instances, values possibly not yet merged), NULL if none. */
static inline pp_node *pp_profile_instance_take(pp_node *m)
{
    pp_node *root = m->link;
    if (!root)
        return NULL;
    m->link = root->next_sibling;
    root->next_sibling = NULL;
    return root;
}

/* A new instance tree (its root) for the merged root m, whose spare list is
 * empty; NULL when out of memory. */
pp_node *pp_profile_instance_new(pp_location *loc, pp_node *m);

/* A spare instance tree of m, or a new one; NULL when out of memory. */
static inline pp_node *pp_profile_instance_get(pp_location *loc, pp_node *m)
{
    pp_node *root = pp_profile_instance_take(m);
    return root ? root : pp_profile_instance_new(loc, m);
}

/* The merged root below TASKS of task construct region (no parameters),
 * made on its first instance; NULL when out of memory.  It comes from a
 * direct-mapped cache, or from TASKS' children when another construct took
 * the slot. */
static inline pp_node *pp_profile_instance_merged(pp_location *loc, pp_region_id region)
{
    uint64_t key = pp_node_key_of(region, 0);
    pp_node **slot = &loc->construct_cache[pp_profile_construct_slot(key)];
    pp_node *m = *slot;
    if (PP_UNLIKELY(!m || m->key != key))
        *slot = m = pp_profile_child(loc, loc->tasks, key, 1);
    return m;
}

/* The slow part of pp_profile_instance_keep (below): an instance during
 * which the tree grew, counters, first use of the construct. */
void pp_profile_instance_keep_slow(pp_location *loc, pp_node *root);
/* Move the values still held by loc's spare instance trees into the merged
 * trees (before anything reads the merged trees). */
void pp_profile_instance_flush(pp_location *loc);

/* Keep the instance tree of explicit task t rooted at root, whose regions
 * are all closed (the root's visit too, or moved on by a parameter): let
 * its values reach the merged tree of its construct (and parameter set) and
 * keep the tree as a spare for the next instance. */
static inline void pp_profile_instance_keep(pp_location *loc, pp_task *t, pp_node *root)
{
    pp_node *merged = root->link;
    if (PP_LIKELY(merged != NULL && !t->grew && !loc->n_ctr)) {
        /* No node was created while this instance ran, so every node it
         * visited already has its merged twin and the tree keeps its size:
         * its values stay in the tree (they add up with the earlier
         * instances' ones) until a later keep drains it or the flush. */
        root->next_sibling = merged->link;
        merged->link = root;
        return;
    }
    pp_profile_instance_keep_slow(loc, root);
}

/* Finish the instance tree of explicit task t (its floor) whose other
 * regions are closed: close the root at tnow (t's clock; the root has
 * exactly this one visit: entered at task begin or at its parameter split,
 * exits never close it) and keep the tree. */
static inline void pp_profile_instance_retire(pp_location *loc, pp_task *t, uint64_t tnow)
{
    pp_profile_close_node(loc, t, t->floor, tnow);
    pp_profile_instance_keep(loc, t, t->floor);
}

/* ---- tasks (pp_profile_task.c) ------------------------------------------------ */

/* Record a visit of n from its start to now, both in the same clock (a
 * stub's: real time), never negative. */
static inline void pp_profile_node_close_at(pp_node *n, uint64_t now)
{
    pp_profile_node_visit(n, now > n->start ? now - n->start : 0);
}

/* The fast path of the end of a scheduling point on a location that
 * neither traces nor counts (loc->plain): when the task to resume is not
 * the current one but the newest active instance, suspended, with its stub
 * node at hand, resume it and return it; else NULL (nothing changed: the
 * general path does the switch). */
static inline pp_task *pp_profile_task_resume_top(pp_location *loc, pp_task *cur,
                                                  pp_task_handle resumed, uint64_t now)
{
    pp_task *t = loc->active_top;
    pp_node *s;
    if (PP_UNLIKELY(!t || t->handle != resumed || cur->is_explicit || !t->suspended ||
                    !(s = pp_profile_child_near(loc->implicit->pos,
                                                pp_node_key_of(t->region, 0)))))
        return NULL;
    t->susp += now - t->suspend_start;
    t->suspended = 0;
    s->start = now;
    t->stub = s;
    loc->current = t;
    return t;
}

/* The active instances of a location: a stack (newest on top,
 * pp_profile_task.c). */
static inline void pp_profile_task_push_active(pp_location *loc, pp_task *t)
{
    t->next = loc->active_top;
    loc->active_top = t;
}

/* Make t (from the free list or fresh; its handle, construct and state set
 * by the caller) the running instance task in the tree rooted at root, from
 * now on. */
static inline __attribute__((always_inline)) void
pp_profile_task_start(pp_location *loc, pp_task *t, pp_node *root, uint64_t now)
{
    t->pos = t->floor = root;
    root->start = now;
    loc->last = now;
    pp_profile_task_push_active(loc, t);
    loc->current = t;
}

/* The begin of an explicit task on a location of the fast kind (loc->plain),
 * the body of the task begin events (pp_profile_task.c) and of
 * pp_profile_task_create_run (pp_profile_events.c): the common case (a
 * spare instance tree and a free task at hand, the stub's node found next
 * to the one entered last) in straight-line code, anything else in the
 * general body, before anything changed.  Both end the event (the bracket
 * above). */
void pp_profile_task_begin_general(pp_location *loc, pp_region_id task_region, pp_task_handle task,
                                   bool untied, uint64_t now);

/* The stub's node for an instance of the construct whose merged root is m
 * (key), below the implicit task's position: where the construct's last
 * instance had it, nearly always, else next to the node entered last there;
 * NULL when neither (the general body's case).  The hint may be a node
 * freed since (its parent is then NULL: pp_profile_subtree_free) or made
 * again for another region: checked by parent and key, it is the stub's
 * node or a miss. */
static inline __attribute__((always_inline)) pp_node *
pp_profile_task_stub_near(pp_location *loc, pp_node *m, uint64_t key)
{
    pp_node *below = loc->implicit->pos, *s = m->stub_hint;
    if (PP_UNLIKELY(s == NULL || s->parent != below || s->key != key)) {
        if (!(s = pp_profile_child_near(below, key)))
            return NULL;
        m->stub_hint = s;
    }
    return s;
}

/* The running task cur stops at now for an explicit task's begin
 * (pp_profile_task_suspend without counters). */
static inline __attribute__((always_inline)) void pp_profile_task_suspend_fast(pp_task *cur,
                                                                               uint64_t now)
{
    if (cur->is_explicit) {
        cur->suspend_start = now;
        cur->suspended = 1;
        if (cur->stub) {
            pp_profile_node_close_at(cur->stub, now); /* before the new stub opens: it may be it */
            cur->stub = NULL;
        }
    }
}

/* The begin of the fast kind, without the event's end: t the free task
 * record at the head of the free list, root the spare instance tree at the
 * head of the merged root m's list, s the stub's node
 * (pp_profile_task_stub_near). */
static inline __attribute__((always_inline)) void
pp_profile_task_begin_apply(pp_location *loc, pp_region_id task_region, pp_task_handle task,
                            pp_task *t, pp_node *m, pp_node *root, pp_node *s, uint64_t now)
{
    loc->task_free = t->next;
    /* first what frees registers for the suspension below */
    t->handle = task;
    t->region = task_region;
    t->susp = 0;
    t->state = pp_task_state_running();
    m->link = root->next_sibling;
    root->next_sibling = NULL;
    pp_task *cur = loc->current;
    pp_profile_task_suspend_fast(cur, now);
    pp_profile_task_start(loc, t, root, now);
    s->start = now;
    t->stub = s;
    PP_ASSERT(pp_profile_current_ok(loc) && (!cur->is_explicit || cur->suspended));
}

static inline __attribute__((always_inline)) void
pp_profile_task_begin_fast(pp_location *loc, pp_region_id task_region, pp_task_handle task,
                           bool untied, uint64_t now)
{
    uint64_t key = pp_node_key_of(task_region, 0);
    pp_task *t = loc->task_free;
    pp_node *m = loc->construct_cache[pp_profile_construct_slot(key)];
    pp_node *root, *s;
    if (PP_UNLIKELY(untied || !t || !m || m->key != key || !(root = m->link))) {
        pp_profile_task_begin_general(loc, task_region, task, untied, now);
        return;
    }
    if (PP_UNLIKELY(!(s = pp_profile_task_stub_near(loc, m, key)))) {
        pp_profile_task_begin_general(loc, task_region, task, untied, now);
        return;
    }
    pp_profile_task_begin_apply(loc, task_region, task, t, m, root, s, now);
    pp_profile_event_end_reloaded();
}

/* The end of the running explicit task on a location of the fast kind
 * (loc->plain), the body of the task end events (pp_profile_task.c) and of
 * pp_profile_task_end_resume (pp_profile_events.c): the common case (the
 * task's state word a running task's, no open region, its instance on top
 * of the stack) in straight-line code, anything else in the general body,
 * before anything changed.  Both end the event (the bracket above). */
void pp_profile_task_end_general(pp_location *loc, pp_region_id task_region, uint64_t now);
/* The general body of a task's end inside an event that goes on after it
 * (pp_profile_task_end_resume): it leaves the event's end to its caller. */
void pp_profile_task_end_within(pp_location *loc, pp_region_id task_region, uint64_t now);
/* The same for a tied task's begin (pp_profile_task_create_run_end). */
void pp_profile_task_begin_within(pp_location *loc, pp_region_id task_region, pp_task_handle task,
                                  uint64_t now);
static inline __attribute__((always_inline)) void
pp_profile_task_end_fast(pp_location *loc, pp_region_id task_region, uint64_t now)
{
    pp_task *t = loc->current;
    pp_node *root = t->floor, *m;
    /* the state word: explicit, nothing folded, not moved, the tree not grown */
    if (PP_UNLIKELY(t->state != pp_task_state_running() || t->region != task_region ||
                    t->pos != root || !(m = root->link) || loc->active_top != t)) {
        pp_profile_task_end_general(loc, task_region, now);
        return;
    }
    loc->last = now;
    if (t->stub)
        pp_profile_node_close_at(t->stub, now);
    pp_profile_node_close_at(root, now - t->susp);
    /* pp_profile_instance_keep: no node was made while it ran */
    root->next_sibling = m->link;
    m->link = root;
    loc->active_top = t->next;
    loc->current = loc->implicit;
    pp_profile_task_free(loc, t);
    PP_ASSERT(pp_profile_current_ok(loc));
    pp_profile_event_end_reloaded();
}

/* pp_profile_task_current inside an event (no bracket of its own). */
pp_task_handle pp_profile_task_current_loc(void);
/* Finish explicit task t at now: close its regions, merge, recycle. */
void pp_profile_task_finish(pp_location *loc, pp_task *t, uint64_t now);
/* Make the task with handle resumed current on loc (the body of
 * pp_profile_task_switch_to_at for a caller that checked the rest). */
void pp_profile_task_switch_loc(pp_location *loc, pp_task_handle resumed, uint64_t now);

/* ---- closing at the end (pp_profile_close.c) ---------------------------------- */

/* Close every region still open on loc at now, finish its active task
 * instances and flush its instance trees: afterwards its trees hold every
 * measured value and nothing is open. */
void pp_profile_close_location(pp_location *loc, uint64_t now);

/* ---- the events in flight at the end (pp_profile_quiesce.c) ------------------------ */

/* After measurement was switched off: wait (at most wait_ns, in real time)
 * until no thread but the caller is inside an event; the locations of the
 * threads still inside one then are marked busy_at_end (left out of the
 * profile) and named in the run facts.  Returns their number.  _default:
 * with the engine's bound (1 s). */
uint32_t pp_profile_quiesce(uint64_t wait_ns);
uint32_t pp_profile_quiesce_default(void);

/* ---- the trace (pp_profile_trace.c) ---------------------------------------------- */

/* With POMPPROF_TRACE=1: start the trace in the profile's directory (before
 * the first location exists, so every thread gets a buffer). */
void pp_profile_trace_start(uint64_t now);
/* Save region id in the trace's definitions file, for the salvage of an
 * interrupted trace (only while tracing; pp_profile_regions.c does it when a
 * region is defined or renamed, never on the event path). */
void pp_profile_region_save(pp_region_id id);
/* Region id as the trace defines it (its strings stay the region's): 0, or
 * -1 when there is no such region. */
int pp_profile_region_as_trace(pp_region_id id, pp_trace_region *t);
/* Write the trace (after the profile), with the engine's regions. */
/* ticks_per_second: the clock's rate the profile's seconds use (one for both). */
void pp_profile_trace_finish(uint64_t now, double ticks_per_second);

/* ---- lifecycle (pp_profile_lifecycle.c) ---------------------------------------- */

/* Start measuring at timestamp now (idempotent): configuration, built-in
 * regions, counters, the calling thread's location.  pp_profile_init adds
 * the timer calibration and the exit and signal hooks. */
void pp_profile_start_at(uint64_t now);
/* pp_profile_finalize with the end at timestamp now (the tests' clock). */
void pp_profile_finalize_at(uint64_t now);
/* Back to the state before the first start (the tests' reset). */
void pp_profile_lifecycle_reset(void);
/* For an exit() that another thread's exit() precedes (pp_profile_exit.c):
 * wait (bounded) until the engine's atexit handler has written the profile.
 * 1: it has; 0: none is registered, or it took too long. */
int pp_profile_exit_wait(void);

#endif
