/* Locations (one per thread that sends events), the measurement state and
 * the lifecycle (init, finalize, POMP2_On/Off).
 *
 * The event path reaches its location through an initial-exec TLS pointer
 * (libpompprof is linked into the program, never dlopen'ed, so the static TLS
 * model is available and costs one %fs-relative load).  The global list of
 * locations is touched only when a location is created (under a mutex) and
 * at the end. */
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
#include "lib/pp_message.h"
#include "lib/pp_signals.h"
#include "lib/pp_timer.h"
#include "profile/pp_profile_test.h"

pp_profile_global pp_profile_g = {.lock = PTHREAD_MUTEX_INITIALIZER};
int pp_profile_measuring_;
__thread pp_location *pp_profile_tls_ __attribute__((tls_model("initial-exec")));

static pthread_mutex_t pp_profile_init_lock = PTHREAD_MUTEX_INITIALIZER;

void pp_profile_update_measuring(void)
{
    int on = pp_profile_g.started && !pp_profile_g.finished && pp_profile_g.config_enable &&
             pp_profile_g.enabled_by_user;
    __atomic_store_n(&pp_profile_measuring_, on, __ATOMIC_RELAXED);
}

void pp_profile_set_enabled(bool on)
{
    pp_profile_g.enabled_by_user = on;
    pp_profile_update_measuring();
}

static pp_task_handle pp_profile_handle_of(pp_location *loc)
{
    /* the location index in the high 24 bits keeps handles unique across
     * threads without any shared counter */
    return ((uint64_t)(loc->index + 1) << 40) | (++loc->handle_counter & ((1ull << 40) - 1));
}

pp_location *pp_profile_location_create(void)
{
    pp_location *loc = calloc(1, sizeof *loc);
    if (!loc) {
        /* without a location nothing can be recorded on this thread: stop
         * measuring altogether rather than crash */
        pp_message_warn("out of memory for a thread's profile; measurement stops");
        pp_profile_g.finished = 1;
        pp_profile_update_measuring();
        return NULL;
    }
    loc->counter_set = -1;
    pthread_mutex_lock(&pp_profile_g.lock);
    loc->index = pp_profile_g.n_locations++;
    pthread_mutex_unlock(&pp_profile_g.lock);

    loc->root = pp_profile_node_new(loc, NULL, pp_profile_g.program_region, PP_NODE_PROGRAM, 1);
    loc->tasks = pp_profile_node_new(loc, NULL, pp_profile_g.tasks_region, PP_NODE_TASKS, 1);
    if (!loc->root || !loc->tasks) {
        pp_message_warn("out of memory for a thread's profile; measurement stops");
        pp_profile_g.finished = 1;
        pp_profile_update_measuring();
        return NULL;
    }
    loc->tasks->depth = 1;
    loc->initial.handle = pp_profile_handle_of(loc);
    loc->initial.pos = loc->root;
    loc->initial.floor = loc->root;
    loc->current = loc->implicit = &loc->initial;
    loc->n_ctr = pp_profile_g.n_ctr;
    if (loc->n_ctr) {
        loc->counter_set = pp_counters_thread_start();
        if (loc->counter_set < 0)
            loc->n_ctr = 0; /* warned by pp_counters; this thread records time only */
    }

    pthread_mutex_lock(&pp_profile_g.lock);
    if (pp_profile_g.last)
        pp_profile_g.last->next = loc;
    else
        pp_profile_g.first = loc;
    pp_profile_g.last = loc;
    pthread_mutex_unlock(&pp_profile_g.lock);
    pp_profile_tls_ = loc;
    return loc;
}

pp_task_handle pp_profile_task_new_handle(void)
{
    pp_location *loc = pp_profile_tls_;
    if (PP_LIKELY(loc != NULL) || (pp_profile_measuring() && (loc = pp_profile_location_create())))
        return pp_profile_handle_of(loc);
    /* not measuring and no location: still unique (0xffffff never is a
     * location index); rare, so an atomic is fine here */
    static uint64_t pp_profile_off_handles;
    return (0xffffffull << 40) | __atomic_add_fetch(&pp_profile_off_handles, 1, __ATOMIC_RELAXED);
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
    pp_profile_g.path_program = pp_profile_path_child(NULL, pp_profile_g.program_region);
    pp_profile_g.path_tasks = pp_profile_path_child(pp_profile_g.path_program,
                                                    pp_profile_g.tasks_region);
}

/* ---- lifecycle ---------------------------------------------------------------- */

void pp_profile_test_start_at(uint64_t now)
{
    pthread_mutex_lock(&pp_profile_init_lock);
    if (pp_profile_g.started) {
        pthread_mutex_unlock(&pp_profile_init_lock);
        return;
    }
    const pp_config *cfg = pp_config_get();
    pp_profile_g.config_enable = cfg->enable;
    pp_profile_g.enabled_by_user = 1;
    pp_profile_read_command_line();
    pp_profile_set_date();
    pp_profile_g.max_depth = cfg->max_depth;
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
    }
    pp_profile_g.started = 1;
    pp_profile_update_measuring();
    pthread_mutex_unlock(&pp_profile_init_lock);
    if (!cfg->enable)
        return;
    /* the initialising thread is the master: its program root is open from
     * init to finalize */
    pp_location *loc = pp_profile_tls_ ? pp_profile_tls_ : pp_profile_location_create();
    if (loc) {
        loc->root->start = now;
        loc->root->open = 1;
        if (loc->n_ctr)
            pp_profile_counters_enter(loc, loc->current, loc->root);
    }
}

static void pp_profile_atexit(void)
{
    pp_profile_finalize();
}

void pp_profile_init(void)
{
    if (__atomic_load_n(&pp_profile_g.started, __ATOMIC_ACQUIRE))
        return;
    const pp_config *cfg = pp_config_get();
    if (cfg->enable)
        pp_timer_init(cfg->timer);
    pp_profile_test_start_at(pp_timer_now());
    static int registered;
    if (!__atomic_exchange_n(&registered, 1, __ATOMIC_ACQ_REL) && cfg->enable) {
        atexit(pp_profile_atexit);
        /* Ctrl-C or kill never reach exit(): write what was measured, then
         * die of the signal as the program would have. */
        pp_signals_install(pp_profile_finalize);
    }
}

/* finalize's progress: a second caller (exit() on another thread, SIGINT or
 * SIGTERM arriving while the profile is written) must neither write again
 * nor let the process die before the running write is complete. */
enum { PP_FINAL_NONE = 0, PP_FINAL_WRITING, PP_FINAL_DONE };
static int pp_profile_final_state;
static pthread_t pp_profile_final_writer;

static void pp_profile_wait_for_writer(void)
{
    if (pthread_equal(pp_profile_final_writer, pthread_self()))
        return; /* re-entered on the writing thread: nothing to wait for */
    /* nanosleep is async-signal-safe; bounded so a stuck writer never hangs
     * the program's exit forever */
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 60000; i++) {
        if (__atomic_load_n(&pp_profile_final_state, __ATOMIC_ACQUIRE) == PP_FINAL_DONE)
            return;
        nanosleep(&ms, NULL);
    }
}

void pp_profile_finalize(void)
{
    int expected = PP_FINAL_NONE;
    if (!__atomic_compare_exchange_n(&pp_profile_final_state, &expected, PP_FINAL_WRITING, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        if (expected == PP_FINAL_WRITING)
            pp_profile_wait_for_writer();
        return;
    }
    pp_profile_final_writer = pthread_self();
    /* SIGINT/SIGTERM wait until the profile is on disk (another thread that
     * takes them waits in pp_profile_wait_for_writer) */
    sigset_t saved;
    pp_signals_hold(&saved);
    pthread_mutex_lock(&pp_profile_init_lock);
    int write = pp_profile_g.started && !pp_profile_g.finished;
    pp_profile_g.finished = 1;
    pp_profile_update_measuring();
    uint64_t now = pp_timer_now();
    pthread_mutex_unlock(&pp_profile_init_lock);
    if (write && pp_profile_g.config_enable) {
        /* Threads may still be inside an event that started before the flag
         * changed (exit() called while a team runs): an event lasts
         * nanoseconds, so a short pause lets them leave before their trees
         * are read. */
        if (pp_profile_g.n_locations > 1)
            usleep(2000);
        pp_unified *u = pp_profile_unify_at(now);
        if (u) {
            pp_profile_output_write(u, pp_config_get()->output, NULL, 0);
            pp_unified_free(u);
        }
        pp_profile_report_losses();
    }
    __atomic_store_n(&pp_profile_final_state, PP_FINAL_DONE, __ATOMIC_RELEASE);
    pp_signals_release(&saved);
}

void pp_profile_report_losses(void)
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

/* ---- test support -------------------------------------------------------------- */

void pp_profile_test_reset(void)
{
    pthread_mutex_lock(&pp_profile_init_lock);
    __atomic_store_n(&pp_profile_final_state, PP_FINAL_NONE, __ATOMIC_RELEASE);
    pp_location *l = pp_profile_g.first;
    while (l) {
        pp_location *n = l->next;
        pp_profile_arena_release(l);
        free(l);
        l = n;
    }
    free(pp_profile_g.command_line);
    pp_profile_paths_reset();
    pp_profile_regions_reset();
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    memset(&pp_profile_g, 0, sizeof pp_profile_g);
    pp_profile_g.lock = lock;
    pp_profile_tls_ = NULL;
    pp_profile_update_measuring();
    pthread_mutex_unlock(&pp_profile_init_lock);
}

void pp_profile_test_use_location(uint32_t index)
{
    for (;;) {
        for (pp_location *l = pp_profile_g.first; l; l = l->next)
            if (l->index == index) {
                pp_profile_tls_ = l;
                return;
            }
        pp_profile_tls_ = NULL;
        if (!pp_profile_location_create())
            return;
    }
}

void pp_profile_test_set_limits(unsigned max_depth, size_t memory_limit)
{
    pp_profile_g.max_depth = max_depth;
    pp_profile_g.memory_limit = memory_limit;
}

size_t pp_profile_test_arena_bytes(uint32_t index)
{
    for (pp_location *l = pp_profile_g.first; l; l = l->next)
        if (l->index == index)
            return l->arena_bytes;
    return 0;
}

uint64_t pp_profile_test_lost(int memory)
{
    uint64_t s = 0;
    for (pp_location *l = pp_profile_g.first; l; l = l->next)
        s += memory ? l->lost_memory : l->lost_depth;
    return s;
}

pp_region_id pp_profile_program_region(void)
{
    return pp_profile_g.program_region;
}

pp_region_id pp_profile_tasks_region(void)
{
    return pp_profile_g.tasks_region;
}
