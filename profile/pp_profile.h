/* pp_profile: the task-aware call-tree profiler (the engine).
 *
 * Fed by the POMP2 adapter (pomp2/), knows nothing about POMP2 calling
 * conventions or file formats.  Every event function acts on the calling
 * thread's own data only: no locks, no malloc in the common case, no
 * syscalls, one clock read.  doc/engine.md describes the algorithm.
 *
 * Each event exists in two forms: pp_profile_X(...) reads the clock once,
 * pp_profile_X_at(..., now) takes the timestamp from the caller (the unit
 * tests replay synthetic event streams with a fake clock through these). */
#ifndef PP_PROFILE_H
#define PP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint32_t pp_region_id;
typedef uint64_t pp_task_handle; /* 0 is never a valid handle */

#define PP_REGION_INVALID ((pp_region_id)0xffffffffu)

/* A region as the profile shows it (doc/cube4-layout.md, "Regions"). */
typedef struct pp_region_def {
    const char *name;     /* e.g. "!$omp task @fib.c:9" */
    const char *file;     /* source file, NULL if none */
    int begin_line;       /* -1 if unknown */
    int end_line;         /* -1 if unknown */
    const char *paradigm; /* "openmp", "user", "measurement" */
    const char *role;     /* "parallel", "task", "task create", "taskwait", "barrier", ... */
    const char *description; /* NULL, or a note the trace keeps ("depend": a task construct
                                with depend clauses, doc/trace.md) */
    const char *mangled;  /* NULL, or the link name (a C++ function's mangled name) */
} pp_region_def;

/* Define a region; strings are copied.  Thread-safe (takes a lock: called
 * once per region, never on the hot path).  Returns PP_REGION_INVALID only
 * when out of memory. */
pp_region_id pp_profile_region_define(const pp_region_def *def);
/* How many regions are defined (ids are 0 .. count-1), and the definition
 * of one (its strings stay valid; returns -1 for an unknown id). */
uint32_t pp_profile_region_count(void);
int pp_profile_region_describe(pp_region_id id, pp_region_def *def);
/* Give a defined region its final name, file, lines and role (the function
 * event source defines a function's region at its first call under its
 * address and names it at the end, doc/functions.md; a call site found to
 * be a construct's implicit barrier takes that role).  def's NULL strings
 * keep the old ones.  Takes the lock; call it from an end hook (below), before the
 * profile is written.  Returns -1 for an unknown id or when out of memory
 * (the region keeps its old definition). */
int pp_profile_region_rename(pp_region_id id, const pp_region_def *def);
/* An end hook: run once, at finalize, after the last event is counted and
 * before the trees are unified and written (on whatever thread finalizes,
 * possibly the signal thread).  At most PP_PROFILE_END_HOOKS; returns -1 when
 * full. */
#define PP_PROFILE_END_HOOKS 4
int pp_profile_at_end(void (*hook)(void));

/* Lifecycle.  init is idempotent and cheap after the first call; finalize is
 * idempotent, unifies all threads' trees and writes the profile (also called
 * from an atexit handler, so a program leaving through exit() from any thread
 * still gets its profile). */
void pp_profile_init(void);
void pp_profile_finalize(void);
/* End measurement without writing a profile (an event source that found
 * nothing to measure says so itself).  A later finalize does nothing; after
 * a finalize (or while one runs) discard does nothing. */
void pp_profile_discard(void);

/* POMP2_On/POMP2_Off: measurement on or off for all threads. */
void pp_profile_set_enabled(bool on);

/* Generic regions (worksharing, critical, single, master, atomic, flush,
 * ordered, user regions, lock wrappers, barriers, taskwait, task creation):
 * enter/exit move the current task's position in its call tree. */
void pp_profile_enter(pp_region_id region);
void pp_profile_exit(pp_region_id region);

/* Parallel regions.  fork runs on the encountering thread before the team
 * starts and returns a context value that the adapter passes to every team
 * thread (through OPARI2's copyin(pomp_tpd)); parallel_begin runs on each
 * team thread and hangs its tree below the forking thread's call path;
 * join runs on the encountering thread after the team ended and resumes the
 * task that forked. */
int64_t pp_profile_fork(pp_region_id region, int num_threads);
void pp_profile_parallel_begin(pp_region_id region, int64_t fork_context);
void pp_profile_parallel_end(pp_region_id region);
void pp_profile_join(pp_region_id region, pp_task_handle forking_task);

/* Tasks.
 * - new_handle: a fresh handle, unique across threads without a global lock.
 * - current: the handle of the task this thread executes now (implicit or
 *   explicit); the adapter stores it into pomp2_old_task at the start of a
 *   scheduling point.
 * - switch_to: the end of a scheduling point hands back that handle; if it
 *   differs from the current task, switch (stop the clocks of the suspended
 *   explicit task's open regions, restart the resumed one's).
 * - task_begin/task_end: an explicit task instance starts/completes on this
 *   thread.  untied: measured as tied, with a one-time warning. */
pp_task_handle pp_profile_task_new_handle(void);
pp_task_handle pp_profile_task_current(void);
void pp_profile_task_switch_to(pp_task_handle resumed);
void pp_profile_task_begin(pp_region_id task_region, pp_task_handle task, bool untied);
/* pp_profile_task_begin(task_region, task, false): a tied task, one test fewer. */
void pp_profile_task_begin_tied(pp_region_id task_region, pp_task_handle task);
void pp_profile_task_end(pp_region_id task_region);
/* task_end(task_region) and, at the same time, switch_to(resumed) or, with
 * a created_in region, switch_exit(resumed, created_in): the end of a task
 * that an event source reports together with the task that goes on (an
 * undeferred task's creation region ends with the task). */
void pp_profile_task_end_resume(pp_region_id task_region, pp_task_handle resumed,
                                pp_region_id created_in);
/* The start of a task creation: enter(region) and, in a trace, the creation
 * of task (one clock read). */
void pp_profile_task_create_enter(pp_region_id region, pp_task_handle task);
/* A task whose creation the event source could not see (libgomp makes a
 * taskloop's tasks inside it): its creation in the trace, now, on this
 * thread, just before its begin; nothing in the profile (no clock read
 * without a trace). */
void pp_profile_task_created(pp_task_handle task);
/* A creation of no duration (an event source that sees no end of it, as
 * OMPT's task_create of a deferred task): task_create_enter(region, task)
 * and exit(region) at one time. */
void pp_profile_task_create_point(pp_region_id region, pp_task_handle task);
/* The same two starts of a scheduling point in one call each (one location
 * look-up and one clock read instead of two or three calls):
 * - task_create_begin: a new handle for the task to be created into *task,
 *   the handle of the current task into *current (each unless NULL), and
 *   task_create_enter(region, new handle);
 * - scheduling_enter: the handle of the current task into *current (unless
 *   NULL; what the end of the scheduling point hands to switch_exit), and
 *   enter(region).
 * Equivalent to new_handle, current, task_create_enter and enter called in
 * turn, also while measurement is off. */
void pp_profile_task_create_begin(pp_region_id region, pp_task_handle *task,
                                  pp_task_handle *current);
void pp_profile_scheduling_enter(pp_region_id region, pp_task_handle *current);
/* Lock wrappers: exit(region) with lock acquired at that moment, and
 * enter(region) with lock released at that moment (one clock read each; the
 * trace records the lock events). */
void pp_profile_exit_acquire(pp_region_id region, const void *lock);
void pp_profile_enter_release(pp_region_id region, const void *lock);
/* The end of a scheduling point in one event: switch_to(resumed) followed by
 * exit(region), sharing one clock read (the adapter's Taskwait_end,
 * Task_create_end, barrier exits: when other tasks ran in between, both the
 * switch and the exit need the time). */
void pp_profile_switch_exit(pp_task_handle resumed, pp_region_id region);
/* The same with the arguments in the order POMP2 passes them (its region handle
 * first, the task to resume second), so the adapter's tail call moves nothing. */
void pp_profile_exit_resume(pp_region_id region, pp_task_handle resumed);
/* Two adjacent events in one call, with one clock read: the end of a task
 * creation or scheduling point (exit_resume(ended, resumed)) and the start
 * of the next one, which the wrapper's merged calls know to follow with no
 * code in between (doc/wrapper.md):
 * - exit_resume_create: then task_create_begin(region, task, NULL);
 * - exit_resume_enter: then scheduling_enter(region, NULL).
 * The current task of the second event is `resumed`, which the caller holds
 * already; task is not NULL.  Equivalent to the two calls in turn, also
 * while measurement is off. */
void pp_profile_exit_resume_create(pp_region_id ended, pp_task_handle resumed,
                                   pp_region_id region, pp_task_handle *task);
void pp_profile_exit_resume_enter(pp_region_id ended, pp_task_handle resumed, pp_region_id region);

/* Two events of an event source that holds the first back until the second
 * (the OMPT layer does, to make one call of two), in one call: the first
 * half at the given time, the second now (one clock read).  Equivalent to
 * the two calls in turn, also while measurement is off:
 * - task_create_run: an undeferred task, which runs inside its creation:
 *   task_create_enter(region, task) at `created`, task_begin(task_region,
 *   task, false) now;
 * - scheduling_visit: a scheduling point in which no other task ran:
 *   enter(region) at `entered`, switch_exit(resumed, region) now. */
void pp_profile_task_create_run(pp_region_id region, pp_task_handle task, uint64_t created,
                                pp_region_id task_region);
void pp_profile_scheduling_visit(pp_region_id region, uint64_t entered, pp_task_handle resumed);
/* - task_create_visit: a creation in which no task ran on this thread (the
 *   task was queued): task_create_enter(region, task) at `created`, then
 *   exit(region) now, the task that created still current. */
void pp_profile_task_create_visit(pp_region_id region, pp_task_handle task, uint64_t created);
/* - task_create_run_at: task_create_run with the begin at `begun` too (the
 *   source held it back as well, and then saw another event than the
 *   task's end);
 * - task_create_run_end: a whole undeferred task in which nothing else
 *   happened: task_create_run(region, task, created, task_region) at
 *   `begun`, then task_end_resume(task_region, resumed, region) now. */
void pp_profile_task_create_run_at(pp_region_id region, pp_task_handle task, uint64_t created,
                                   pp_region_id task_region, uint64_t begun);
void pp_profile_task_create_run_end(pp_region_id region, pp_task_handle task, uint64_t created,
                                    uint64_t begun, pp_region_id task_region,
                                    pp_task_handle resumed);
/* - task_run: a whole tied task instance in which nothing else happened (a
 *   leaf of a recursion; the libgomp interposer holds a task's begin until
 *   its end or the next event inside it): task_begin(task_region, task,
 *   false) at `begun`, then task_end(task_region) now. */
void pp_profile_task_run(pp_region_id task_region, pp_task_handle task, uint64_t begun);
/* - task_begin_create_visit: such a task whose first event is a creation in
 *   which no task ran: task_begin(task_region, task, false) at `begun`,
 *   then task_create_visit(region, created_task, created) now. */
void pp_profile_task_begin_create_visit(pp_region_id task_region, pp_task_handle task,
                                        uint64_t begun, pp_region_id region,
                                        pp_task_handle created_task, uint64_t created);

/* Parameters: a value that splits the current call path.  Called inside a
 * region or a task, the node of the innermost open region (or the task's
 * root) is left for a sibling of the same region that carries the value:
 * from the thread's last event before the call (normally the region's enter
 * or the task's begin) on, the time of that visit, its visit and whatever
 * runs below it go there; the time before stays with the node, without a
 * visit.  Inside a task the task's root splits, so each task construct's
 * merged tree is split per value.  Several parameters combine; giving a
 * parameter again replaces its value.  At most POMPPROF_MAX_PARAMETER_VALUES
 * distinct values per parameter and call path: later ones share one
 * "<other>" node.  The call reads no clock.  doc/engine.md, "Parameters".
 * - param_define: the key of a parameter name (len bytes; thread-safe, takes
 *   a lock: the caller keeps the key), PP_PARAM_INVALID when out of memory;
 *   param_name: the engine's copy of a key's name (kept until the end);
 * - parameter_int64 / parameter_string: the event (string: len bytes). */
typedef uint32_t pp_param_key;
#define PP_PARAM_INVALID ((pp_param_key)0xffffffffu)
pp_param_key pp_profile_param_define(const char *name, size_t len);
const char *pp_profile_param_name(pp_param_key key);
void pp_profile_parameter_int64(pp_param_key key, int64_t value);
void pp_profile_parameter_string(pp_param_key key, const char *value, size_t len);
/* Parameter sets as a layer that moves profiles between processes sees
 * them (the MPI layer, which merges the ranks' profiles): ids are this
 * process's, 0 is the empty set, and the unified nodes' pset fields hold
 * them.  pset_count: the ids in use are 0 .. count-1.  pset_get: up to max
 * entries of a set into out (the number of entries is returned; names and
 * strings stay valid until the end).  pset_make: the id of the set with
 * these entries (in any order), made if new; PP_PSET_INVALID when out of
 * memory.  type is 0 for a number (value), 1 for a string (str, len bytes),
 * 2 for "<other>" (the values beyond the cap). */
typedef struct pp_param_item {
    const char *name; /* NUL-terminated */
    uint32_t type;
    int64_t value;
    const char *str;
    uint32_t len;
} pp_param_item;
#define PP_PSET_INVALID UINT32_MAX
uint32_t pp_profile_pset_count(void);
uint32_t pp_profile_pset_get(uint32_t pset, pp_param_item *out, uint32_t max);
uint32_t pp_profile_pset_make(const pp_param_item *items, uint32_t n);

/* Extra metrics: unsigned sums per call path and thread that a layer above
 * the engine feeds (the MPI layer's bytes sent and received).  define
 * returns the metric's index (the existing one for a name defined before),
 * or -1 when PP_PROFILE_EXTRA_MAX are defined or memory is short; the
 * profile shows every defined metric, stored exclusive (the value of the
 * call path itself).  add adds value at the calling thread's current call
 * path: no lock, no clock read (pp_profile_extra.c). */
#define PP_PROFILE_EXTRA_MAX 4
int pp_profile_extra_define(const char *uniq_name, const char *display_name, const char *unit,
                            const char *description);
void pp_profile_extra_add(int metric, uint64_t value);
/* The unique name of a defined extra metric (NULL: none), and the index of
 * a unique name (-1: not defined). */
const char *pp_profile_extra_name(int metric);
int pp_profile_extra_index(const char *uniq_name);

/* The same events with the timestamp given by the caller (ticks). */
void pp_profile_enter_at(pp_region_id region, uint64_t now);
void pp_profile_exit_at(pp_region_id region, uint64_t now);
int64_t pp_profile_fork_at(pp_region_id region, int num_threads, uint64_t now);
void pp_profile_parallel_begin_at(pp_region_id region, int64_t fork_context, uint64_t now);
void pp_profile_parallel_end_at(pp_region_id region, uint64_t now);
void pp_profile_join_at(pp_region_id region, pp_task_handle forking_task, uint64_t now);
void pp_profile_task_switch_to_at(pp_task_handle resumed, uint64_t now);
void pp_profile_task_begin_at(pp_region_id task_region, pp_task_handle task, bool untied,
                              uint64_t now);
void pp_profile_task_end_at(pp_region_id task_region, uint64_t now);
void pp_profile_task_create_enter_at(pp_region_id region, pp_task_handle task, uint64_t now);
void pp_profile_switch_exit_at(pp_task_handle resumed, pp_region_id region, uint64_t now);
void pp_profile_exit_acquire_at(pp_region_id region, const void *lock, uint64_t now);
void pp_profile_enter_release_at(pp_region_id region, const void *lock, uint64_t now);

#endif
