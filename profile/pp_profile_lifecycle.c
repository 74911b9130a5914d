/* The engine's lifecycle: start (configuration, built-in regions, counters),
 * POMP2_On/Off, and finalize (close, unify, write), which runs once from
 * POMP2_Finalize, the atexit handler, exit() on any thread, or the signal
 * flusher (lib/pp_signals.c).  When several threads call exit(), the later
 * ones wait in pp_profile_exit_wait (pp_profile_exit.c) until the first one's
 * atexit handler has written the profile.  It sits above every other engine file and
 * calls only downwards.
 *
 * A child process of fork() inherits a copy of everything measured so far,
 * of every thread's trees, of open regions of threads that do not exist in
 * it.  It measures nothing and writes no profile (its exit, atexit handler
 * or signal find the profile written already); a program it exec()s is a
 * new process that measures itself. */
#define _GNU_SOURCE
#include "profile/pp_profile_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/pp_config.h"
#include "lib/pp_counters.h"
#include "lib/pp_membarrier.h"
#include "lib/pp_message.h"
#include "lib/pp_signals.h"
#include "lib/pp_timer.h"
#include "profile/pp_profile_job.h"
#include "profile/pp_profile_output.h"
#include "profile/pp_profile_runfacts.h"
#include "profile/pp_profile_unify.h"

/* finalize's progress (final_state): a second caller (exit() on another
 * thread, SIGINT or SIGTERM arriving while the profile is written) must
 * neither write again nor let the process die before the running write is
 * complete.  HELD: a layer above took the unified tree (pp_profile_hold); a
 * finalize then writes that tree as the process's own profile. */
enum { PP_FINAL_NONE = 0, PP_FINAL_WRITING, PP_FINAL_HELD, PP_FINAL_DONE };

/* The lifecycle's own state.  Apart from pp_profile_g because the tests'
 * reset (pp_profile_lifecycle_reset) clears pp_profile_g, while the end
 * hooks and the handlers registered with the C library stay. */
static struct {
    /* start, the end's switch, the end hooks' list, the job's settings
     * (doc/engine.md, "Locks and global state") */
    pthread_mutex_t lock;
    int final_state;        /* atomic: PP_FINAL_* */
    pthread_t final_writer; /* atomic: the thread that writes (or wrote) the profile */
    pp_unified *held;       /* the tree a layer above holds (PP_FINAL_HELD) */
    int registering;        /* atomic: the first pp_profile_init registers the handlers */
    int atexit_registered;  /* atomic: the atexit handler is registered */
    int atexit_done;        /* atomic: the atexit handler has written the profile */
    /* what the event sources run at the end (pp_profile_at_end) */
    void (*end_hooks[PP_PROFILE_END_HOOKS])(void);
    int n_end_hooks;
} pp_profile_life = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* POMP2_On/Off.  Under the lock: a call racing with finalize must not
 * switch measurement on again after the end switched it off. */
void pp_profile_set_enabled(bool on)
{
    pthread_mutex_lock(&pp_profile_life.lock);
    pp_profile_g.enabled_by_user = on;
    pp_profile_update_measuring();
    pthread_mutex_unlock(&pp_profile_life.lock);
}

/* ---- program name, command line, date ------------------------------------- */

static void pp_profile_read_command_line(void)
{
    char buf[8192];
    size_t n = 0;
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (f) {
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    const char *argv0 = n ? buf : program_invocation_name;
    const char *base = strrchr(argv0, '/');
    base = base ? base + 1 : argv0;
    if (!*base)
        base = program_invocation_short_name;
    snprintf(pp_profile_g.program, sizeof pp_profile_g.program, "%s", *base ? base : "program");
    /* arguments are NUL-separated; the attribute shows them space-separated */
    while (n > 0 && buf[n - 1] == '\0')
        n--;
    for (size_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    free(pp_profile_g.command_line);
    pp_profile_g.command_line = strdup(n ? buf : pp_profile_g.program);
}

static void pp_profile_set_date(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    pp_profile_g.wall_init = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    struct tm tm;
    time_t t = ts.tv_sec;
    localtime_r(&t, &tm);
    char zone[8];
    strftime(zone, sizeof zone, "%z", &tm); /* +hhmm */
    char iso[32];
    strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(pp_profile_g.date, sizeof pp_profile_g.date, "%s%.3s:%.2s", iso, zone,
             zone[0] ? zone + 3 : "00");
}

static void pp_profile_define_builtin_regions(void)
{
    pp_region_def program = {.name = pp_profile_g.program, .begin_line = -1, .end_line = -1,
                             .paradigm = "measurement", .role = "artificial"};
    pp_region_def tasks = {.name = "TASKS", .begin_line = -1, .end_line = -1,
                           .paradigm = "openmp", .role = "artificial"};
    pp_profile_g.program_region = pp_profile_region_define(&program);
    pp_profile_g.tasks_region = pp_profile_region_define(&tasks);
    pp_profile_g.path_program = pp_profile_path_child(NULL, pp_profile_g.program_region, 0);
    pp_profile_g.path_tasks = pp_profile_path_child(pp_profile_g.path_program,
                                                    pp_profile_g.tasks_region, 0);
}

/* ---- lifecycle ---------------------------------------------------------------- */

void pp_profile_start_at(uint64_t now)
{
    pthread_mutex_lock(&pp_profile_life.lock);
    if (pp_profile_g.started) {
        pthread_mutex_unlock(&pp_profile_life.lock);
        return;
    }
    const pp_config *cfg = pp_config_get();
    pp_profile_g.config_enable = cfg->enable;
    pp_profile_g.enabled_by_user = 1;
    pp_profile_read_command_line();
    pp_profile_set_date();
    pp_profile_g.max_depth = cfg->max_depth;
    pp_profile_g.max_param_values = cfg->max_parameter_values;
    pp_profile_g.memory_limit = cfg->memory_limit;
    if (cfg->enable && cfg->memory_limit && cfg->memory_limit < 64 * 1024)
        pp_message_warn("POMPPROF_MEMORY=%zu bytes is below the minimum of one 64 KiB block per "
                        "thread; each thread gets that block",
                        cfg->memory_limit);
    if (cfg->enable) {
        pp_profile_define_builtin_regions();
        pp_profile_g.n_ctr = cfg->n_metrics ? (uint32_t)pp_counters_init(cfg->metrics, cfg->n_metrics) : 0;
        pp_profile_g.node_size = sizeof(pp_node) + 2 * (size_t)pp_profile_g.n_ctr * sizeof(uint64_t);
        pp_profile_g.t_init = now;
        pp_profile_trace_start(now);
    }
    pp_profile_g.started = 1;
    pp_profile_update_measuring();
    pthread_mutex_unlock(&pp_profile_life.lock);
    if (!cfg->enable)
        return;
    /* the initialising thread is the master: its program root is open from
     * init to finalize */
    pp_location *loc = pp_profile_tls_ ? pp_profile_tls_ : pp_profile_location_create();
    if (loc) {
        loc->root->start = now;
        loc->last = now;
        loc->root->flags |= PP_NODE_OPEN;
        if (loc->trace)
            pp_trace_put(loc->trace, now, PP_TRACE_ENTER, pp_profile_g.program_region);
        if (loc->n_ctr)
            pp_profile_counters_enter(loc, loc->current, loc->root);
    }
}

static void pp_profile_atexit(void)
{
    pp_profile_finalize();
    __atomic_store_n(&pp_profile_life.atexit_done, 1, __ATOMIC_RELEASE);
}

int pp_profile_exit_wait(void)
{
    if (!__atomic_load_n(&pp_profile_life.atexit_registered, __ATOMIC_ACQUIRE))
        return 0;
    /* bounded like pp_profile_wait_for_writer: a first exit() whose own
     * atexit handlers never return must not hang this one forever */
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 60000; i++) {
        if (__atomic_load_n(&pp_profile_life.atexit_done, __ATOMIC_ACQUIRE) ||
            __atomic_load_n(&pp_profile_life.final_state, __ATOMIC_ACQUIRE) == PP_FINAL_DONE)
            return 1;
        nanosleep(&ms, NULL);
    }
    return 0;
}

/* In the child of fork(), on its only thread: no lock is taken (another
 * thread of the parent may have held one at the fork), nothing is printed. */
static void pp_profile_atfork_child(void)
{
    pp_profile_g.finished = 1;
    pp_profile_update_measuring_in_child();
    __atomic_store_n(&pp_profile_life.final_state, PP_FINAL_DONE, __ATOMIC_RELEASE);
}

/* Whether the calling thread is inside an event (for a signal handler:
 * one TLS load each). */
static int pp_profile_thread_busy(void)
{
    return __atomic_load_n(&pp_profile_thread_.in_event, __ATOMIC_RELAXED) |
           __atomic_load_n(&pp_profile_thread_.in_source, __ATOMIC_RELAXED);
}

/* A crash, on the crashing thread, in the signal handler (async-signal-safe
 * only): the end must not wait for this thread, which will not leave an
 * event it crashed in (its location is then left out: its trees may be
 * torn, pp_profile_quiesce.c); and the trace's records still in memory
 * reach the disk, whether or not the end gets to write the archive. */
static void pp_profile_crash_save(void)
{
    __atomic_store_n(&pp_profile_crashed_thread, &pp_profile_thread_, __ATOMIC_SEQ_CST);
    pp_trace_crash_save();
}

void pp_profile_init(void)
{
    if (__atomic_load_n(&pp_profile_g.started, __ATOMIC_ACQUIRE))
        return;
    const pp_config *cfg = pp_config_get();
    if (cfg->enable)
        pp_timer_init(cfg->timer);
    uint64_t t0 = pp_timer_now();
    pp_profile_start_at(t0);
    /* setting up a trace took time the program did not spend: the trace says so */
    pp_location *loc = pp_profile_tls_;
    if (loc && loc->trace)
        pp_trace_started(loc->trace, t0);
    if (!__atomic_exchange_n(&pp_profile_life.registering, 1, __ATOMIC_ACQ_REL) && cfg->enable) {
        atexit(pp_profile_atexit);
        __atomic_store_n(&pp_profile_life.atexit_registered, 1, __ATOMIC_RELEASE);
        pthread_atfork(NULL, NULL, pp_profile_atfork_child);
        /* the end's barrier (pp_profile_quiesce.c), registered while the
         * process most likely has one thread: the kernel then needs no
         * grace period for it */
        pp_membarrier_register();
        /* Ctrl-C or kill never reach exit(): write what was measured, then
         * die of the signal as the program would have. */
        pp_signals_install(pp_profile_finalize, pp_profile_thread_busy);
        /* and a crash writes what was measured up to it */
        pp_signals_install_crash(pp_profile_finalize, pp_profile_crash_save, cfg->crash_wait);
    }
}

static void pp_profile_report_losses(void)
{
    uint64_t depth = 0, memory = 0;
    for (pp_location *l = pp_profile_g.first; l; l = l->next) {
        depth += l->lost_depth;
        memory += l->lost_memory;
    }
    if (depth)
        pp_message_warn("POMPPROF_MAX_DEPTH=%u: %llu region visits deeper than that were folded into "
                        "their ancestors",
                        pp_profile_g.max_depth, (unsigned long long)depth);
    if (memory)
        pp_message_warn("POMPPROF_MEMORY limit reached: %llu region visits were folded into their "
                        "parents (call paths missing from the profile)",
                        (unsigned long long)memory);
}

/* The writer is named after the state says WRITING, so another thread may
 * read it before or while it is set: atomic.  A stale value is never this
 * thread's own (it sets the name before it could re-enter). */
static void pp_profile_life_claim_writer(void)
{
    pthread_t self = pthread_self();
    __atomic_store(&pp_profile_life.final_writer, &self, __ATOMIC_RELAXED);
}

static void pp_profile_wait_for_writer(void)
{
    pthread_t writer;
    __atomic_load(&pp_profile_life.final_writer, &writer, __ATOMIC_RELAXED);
    if (pthread_equal(writer, pthread_self()))
        return; /* re-entered on the writing thread: nothing to wait for */
    /* nanosleep is async-signal-safe; bounded so a stuck writer never hangs
     * the program's exit forever */
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 60000; i++) {
        if (__atomic_load_n(&pp_profile_life.final_state, __ATOMIC_ACQUIRE) == PP_FINAL_DONE)
            return;
        nanosleep(&ms, NULL);
    }
}

/* The process's own profile: where the configuration (or the job's layer,
 * pp_profile_set_process) says, with the job's note. */
static void pp_profile_write_own(const pp_unified *u)
{
    const char *output = pp_profile_g.own_output ? pp_profile_g.own_output : pp_config_get()->output;
    char path[4096];
    if (pp_profile_output_write(u, output, path, sizeof path) == 0 && pp_profile_g.own_note)
        pp_message_warn("%s %s", pp_profile_g.own_note, path);
}

/* The hooks run at the end, once the events in flight are done and before
 * the trees are closed (pp_profile.h). */
int pp_profile_at_end(void (*hook)(void))
{
    pthread_mutex_lock(&pp_profile_life.lock);
    int ok = pp_profile_life.n_end_hooks < PP_PROFILE_END_HOOKS;
    if (ok)
        pp_profile_life.end_hooks[pp_profile_life.n_end_hooks++] = hook;
    pthread_mutex_unlock(&pp_profile_life.lock);
    return ok ? 0 : -1;
}

/* Close everything and unify (and finish the trace), with SIGINT/SIGTERM
 * held (another thread that takes them waits in
 * pp_profile_wait_for_writer).  now_given: the end's timestamp (the tests'
 * fake clock), NULL: read it.  NULL when there is nothing to write. */
static pp_unified *pp_profile_end(const uint64_t *now_given)
{
    sigset_t saved;
    pp_signals_hold(&saved);
    pthread_mutex_lock(&pp_profile_life.lock);
    int write = pp_profile_g.started && !pp_profile_g.finished;
    pp_profile_g.finished = 1;
    pp_profile_update_measuring();
    pthread_mutex_unlock(&pp_profile_life.lock);
    pp_unified *u = NULL;
    if (write && pp_profile_g.config_enable) {
        /* Threads may still be inside an event that started before the flag
         * changed (exit() called while a team runs): wait until they left
         * it before their trees are read (pp_profile_quiesce.c).  The end's
         * time is read after: no event is recorded later than it. */
        pp_profile_quiesce_default();
        uint64_t now = now_given ? *now_given : pp_timer_now();
        pp_profile_runfacts_note_end();
        pp_profile_g.end_time = now;
        for (int i = 0; i < pp_profile_life.n_end_hooks; i++)
            pp_profile_life.end_hooks[i]();
        u = pp_profile_unify_at(now);
        pp_profile_report_losses();
        pp_profile_trace_finish(now, u ? u->ticks_per_second : 0);
    }
    pp_signals_release(&saved);
    return u;
}

static void pp_profile_finalize_impl(const uint64_t *now_given)
{
    int expected = PP_FINAL_NONE;
    if (!__atomic_compare_exchange_n(&pp_profile_life.final_state, &expected, PP_FINAL_WRITING, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        if (expected == PP_FINAL_HELD &&
            __atomic_compare_exchange_n(&pp_profile_life.final_state, &expected, PP_FINAL_WRITING, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            /* the job never wrote its common profile: this process's own */
            pp_profile_life_claim_writer();
            sigset_t saved;
            pp_signals_hold(&saved);
            pp_profile_write_own(pp_profile_life.held);
            __atomic_store_n(&pp_profile_life.final_state, PP_FINAL_DONE, __ATOMIC_RELEASE);
            pp_signals_release(&saved);
        } else if (expected == PP_FINAL_WRITING) {
            pp_profile_wait_for_writer();
        }
        return;
    }
    pp_profile_life_claim_writer();
    sigset_t saved;
    pp_signals_hold(&saved);
    pp_unified *u = pp_profile_end(now_given);
    if (u) {
        pp_profile_write_own(u);
        pp_unified_free(u);
    }
    __atomic_store_n(&pp_profile_life.final_state, PP_FINAL_DONE, __ATOMIC_RELEASE);
    pp_signals_release(&saved);
}

void pp_profile_finalize(void)
{
    pp_profile_finalize_impl(NULL);
}

void pp_profile_finalize_at(uint64_t now)
{
    pp_profile_finalize_impl(&now);
}

void pp_profile_discard(void)
{
    int expected = PP_FINAL_NONE;
    if (!__atomic_compare_exchange_n(&pp_profile_life.final_state, &expected, PP_FINAL_DONE, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return; /* finalize ran, runs, or the tree is held: nothing to undo */
    pthread_mutex_lock(&pp_profile_life.lock);
    pp_profile_g.finished = 1;
    pp_profile_update_measuring();
    pthread_mutex_unlock(&pp_profile_life.lock);
}

/* ---- a process of a job (pp_profile_job.h) ------------------------------------ */

static bool (*pp_profile_starter)(void);

void pp_profile_set_starter(bool (*starter)(void))
{
    __atomic_store_n(&pp_profile_starter, starter, __ATOMIC_RELEASE);
}

bool pp_profile_job_engine(void)
{
    bool (*starter)(void) = __atomic_load_n(&pp_profile_starter, __ATOMIC_ACQUIRE);
    if (!__atomic_load_n(&pp_profile_g.started, __ATOMIC_ACQUIRE) && starter)
        return starter();
    return __atomic_load_n(&pp_profile_g.started, __ATOMIC_ACQUIRE) != 0;
}

bool pp_profile_in_job(void)
{
    return __atomic_load_n(&pp_profile_g.in_job, __ATOMIC_ACQUIRE) != 0;
}

void pp_profile_set_process(int rank, const char *name, const char *output, const char *note)
{
    pthread_mutex_lock(&pp_profile_life.lock);
    __atomic_store_n(&pp_profile_g.in_job, 1, __ATOMIC_RELEASE);
    pp_profile_g.process_rank = rank;
    snprintf(pp_profile_g.process_name, sizeof pp_profile_g.process_name, "%s", name ? name : "");
    free(pp_profile_g.own_output);
    free(pp_profile_g.own_note);
    pp_profile_g.own_output = output ? strdup(output) : NULL;
    pp_profile_g.own_note = note ? strdup(note) : NULL;
    pthread_mutex_unlock(&pp_profile_life.lock);
}

const char *pp_profile_program_name(void)
{
    return pp_profile_g.program;
}

pp_unified *pp_profile_hold(void)
{
    int expected = PP_FINAL_NONE;
    if (!__atomic_compare_exchange_n(&pp_profile_life.final_state, &expected, PP_FINAL_WRITING, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return NULL;
    pp_profile_life_claim_writer();
    pp_unified *u = pp_profile_end(NULL);
    pp_profile_life.held = u;
    __atomic_store_n(&pp_profile_life.final_state, u ? PP_FINAL_HELD : PP_FINAL_DONE,
                     __ATOMIC_RELEASE);
    return u;
}

void pp_profile_release(pp_unified *u, int written)
{
    if (!u)
        return;
    int expected = PP_FINAL_HELD;
    if (__atomic_compare_exchange_n(&pp_profile_life.final_state, &expected, PP_FINAL_WRITING, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        pp_profile_life_claim_writer();
        if (!written) {
            sigset_t saved;
            pp_signals_hold(&saved);
            pp_profile_write_own(u);
            pp_signals_release(&saved);
        }
        pp_profile_life.held = NULL;
        __atomic_store_n(&pp_profile_life.final_state, PP_FINAL_DONE, __ATOMIC_RELEASE);
    } else {
        /* a finalize wrote it as the process's own (or is writing it) */
        pp_profile_wait_for_writer();
        pp_profile_life.held = NULL;
    }
    pp_unified_free(u);
}

void pp_profile_lifecycle_reset(void)
{
    pthread_mutex_lock(&pp_profile_life.lock);
    __atomic_store_n(&pp_profile_life.final_state, PP_FINAL_NONE, __ATOMIC_RELEASE);
    pp_location *l = pp_profile_g.first;
    while (l) {
        pp_location *n = l->next;
        pp_profile_arena_release(l);
        free(l);
        l = n;
    }
    free(pp_profile_g.command_line);
    free(pp_profile_g.own_output);
    free(pp_profile_g.own_note);
    pp_unified_free(pp_profile_life.held);
    pp_profile_life.held = NULL;
    pp_profile_paths_reset();
    pp_profile_extra_reset();
    pp_profile_regions_reset();
    pp_profile_params_reset();
    pp_profile_runfacts_reset();
    pp_trace_reset();
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    memset(&pp_profile_g, 0, sizeof pp_profile_g);
    pp_profile_g.lock = lock;
    pp_profile_tls_set(NULL);
    pp_profile_thread_.source_listed = 0; /* the list is gone with the global record */
    __atomic_store_n(&pp_profile_crashed_thread, NULL, __ATOMIC_RELAXED);
    pp_profile_update_measuring();
    pthread_mutex_unlock(&pp_profile_life.lock);
}
