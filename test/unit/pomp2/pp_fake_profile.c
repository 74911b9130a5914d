/* Recording fake of the engine API; see pp_fake_profile.h. */
#include "test/unit/pomp2/pp_fake_profile.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pp_region_def pp_fake_regions[PP_FAKE_MAX_REGIONS];
int pp_fake_n_regions;
pp_fake_event pp_fake_events[PP_FAKE_MAX_EVENTS];
int pp_fake_n_events;
pp_task_handle pp_fake_current_task = 1;
int64_t pp_fake_fork_context = 4242;

static pthread_mutex_t pp_fake_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t pp_fake_next_handle = 100;

static char *pp_fake_dup(const char *s) { return s ? strdup(s) : NULL; }

static void pp_fake_record(pp_fake_kind kind, pp_region_id region, int64_t value, int untied)
{
    pthread_mutex_lock(&pp_fake_lock);
    if (pp_fake_n_events < PP_FAKE_MAX_EVENTS)
        pp_fake_events[pp_fake_n_events++] = (pp_fake_event){kind, region, value, untied, ""};
    pthread_mutex_unlock(&pp_fake_lock);
}

void pp_fake_reset_events(void)
{
    pthread_mutex_lock(&pp_fake_lock);
    pp_fake_n_events = 0;
    pthread_mutex_unlock(&pp_fake_lock);
}

pp_region_id pp_fake_region_by_name(const char *name)
{
    for (int i = 0; i < pp_fake_n_regions; i++)
        if (strcmp(pp_fake_regions[i].name, name) == 0)
            return (pp_region_id)i;
    return PP_REGION_INVALID;
}

pp_region_id pp_profile_region_define(const pp_region_def *def)
{
    pthread_mutex_lock(&pp_fake_lock);
    pp_region_id id = PP_REGION_INVALID;
    if (pp_fake_n_regions < PP_FAKE_MAX_REGIONS) {
        id = (pp_region_id)pp_fake_n_regions++;
        pp_fake_regions[id] = (pp_region_def){
            pp_fake_dup(def->name), pp_fake_dup(def->file), def->begin_line,
            def->end_line, pp_fake_dup(def->paradigm), pp_fake_dup(def->role), NULL, NULL};
    }
    pthread_mutex_unlock(&pp_fake_lock);
    return id;
}

void pp_profile_init(void) { pp_fake_record(PP_FAKE_INIT, PP_REGION_INVALID, 0, 0); }
void pp_profile_finalize(void) { pp_fake_record(PP_FAKE_FINALIZE, PP_REGION_INVALID, 0, 0); }
void pp_profile_set_enabled(bool on)
{
    pp_fake_record(on ? PP_FAKE_ENABLE : PP_FAKE_DISABLE, PP_REGION_INVALID, 0, 0);
}
void pp_profile_enter(pp_region_id r) { pp_fake_record(PP_FAKE_ENTER, r, 0, 0); }
void pp_profile_exit(pp_region_id r) { pp_fake_record(PP_FAKE_EXIT, r, 0, 0); }
int64_t pp_profile_fork(pp_region_id r, int num_threads)
{
    pp_fake_record(PP_FAKE_FORK, r, num_threads, 0);
    return pp_fake_fork_context;
}
void pp_profile_parallel_begin(pp_region_id r, int64_t ctx)
{
    pp_fake_record(PP_FAKE_PARALLEL_BEGIN, r, ctx, 0);
}
void pp_profile_parallel_end(pp_region_id r) { pp_fake_record(PP_FAKE_PARALLEL_END, r, 0, 0); }
void pp_profile_join(pp_region_id r, pp_task_handle t)
{
    pp_fake_record(PP_FAKE_JOIN, r, (int64_t)t, 0);
}
pp_task_handle pp_profile_task_new_handle(void)
{
    pp_task_handle h = __atomic_fetch_add(&pp_fake_next_handle, 1, __ATOMIC_RELAXED);
    pp_fake_record(PP_FAKE_NEW_HANDLE, PP_REGION_INVALID, (int64_t)h, 0);
    return h;
}
pp_task_handle pp_profile_task_current(void) { return pp_fake_current_task; }
void pp_profile_task_switch_to(pp_task_handle t)
{
    pp_fake_record(PP_FAKE_SWITCH, PP_REGION_INVALID, (int64_t)t, 0);
    pp_fake_current_task = t; /* as the engine: t runs now */
}
/* the engine's one-timestamp form of "switch back, then exit": recorded as
 * the two events it stands for */
void pp_profile_switch_exit(pp_task_handle t, pp_region_id r)
{
    pp_profile_task_switch_to(t);
    pp_profile_exit(r);
}
void pp_profile_task_begin(pp_region_id r, pp_task_handle t, bool untied)
{
    pp_fake_record(PP_FAKE_TASK_BEGIN, r, (int64_t)t, untied);
}
/* the adapter's forms of the two above: recorded as those */
void pp_profile_exit_resume(pp_region_id r, pp_task_handle t) { pp_profile_switch_exit(t, r); }
void pp_profile_task_begin_tied(pp_region_id r, pp_task_handle t) { pp_profile_task_begin(r, t, false); }
void pp_profile_task_end(pp_region_id r) { pp_fake_record(PP_FAKE_TASK_END, r, 0, 0); }
/* the one-timestamp forms of the trace's extra events: recorded as the
 * region event and the trace event (the lock or the created task) */
void pp_profile_task_create_enter(pp_region_id r, pp_task_handle t)
{
    pp_profile_enter(r);
    pp_fake_record(PP_FAKE_TASK_CREATE, r, (int64_t)t, 0);
}
/* the one-call starts of a scheduling point: recorded as the calls they
 * stand for, in turn */
void pp_profile_task_create_begin(pp_region_id r, pp_task_handle *task, pp_task_handle *current)
{
    pp_task_handle t = pp_profile_task_new_handle();
    if (task)
        *task = t;
    if (current)
        *current = pp_profile_task_current();
    pp_profile_task_create_enter(r, t);
}
void pp_profile_scheduling_enter(pp_region_id r, pp_task_handle *current)
{
    if (current)
        *current = pp_profile_task_current();
    pp_profile_enter(r);
}
/* the merged calls for adjacent events: recorded as the two calls */
void pp_profile_exit_resume_create(pp_region_id ended, pp_task_handle resumed, pp_region_id r,
                                   pp_task_handle *task)
{
    pp_profile_exit_resume(ended, resumed);
    pp_profile_task_create_begin(r, task, NULL);
}
void pp_profile_exit_resume_enter(pp_region_id ended, pp_task_handle resumed, pp_region_id r)
{
    pp_profile_exit_resume(ended, resumed);
    pp_profile_scheduling_enter(r, NULL);
}
void pp_profile_exit_acquire(pp_region_id r, const void *lock)
{
    pp_profile_exit(r);
    pp_fake_record(PP_FAKE_LOCK_ACQUIRE, r, (int64_t)(intptr_t)lock, 0);
}
void pp_profile_enter_release(pp_region_id r, const void *lock)
{
    pp_fake_record(PP_FAKE_LOCK_RELEASE, r, (int64_t)(intptr_t)lock, 0);
    pp_profile_enter(r);
}

char *pp_fake_params[PP_FAKE_MAX_PARAMS];
int pp_fake_n_params;

pp_param_key pp_profile_param_define(const char *name, size_t len)
{
    pthread_mutex_lock(&pp_fake_lock);
    pp_param_key k = PP_PARAM_INVALID;
    for (int i = 0; i < pp_fake_n_params && k == PP_PARAM_INVALID; i++)
        if (strlen(pp_fake_params[i]) == len && memcmp(pp_fake_params[i], name, len) == 0)
            k = (pp_param_key)i;
    if (k == PP_PARAM_INVALID && pp_fake_n_params < PP_FAKE_MAX_PARAMS) {
        pp_fake_params[pp_fake_n_params] = strndup(name, len);
        k = (pp_param_key)pp_fake_n_params++;
    }
    pthread_mutex_unlock(&pp_fake_lock);
    return k;
}
const char *pp_profile_param_name(pp_param_key key)
{
    return (int)key < pp_fake_n_params ? pp_fake_params[key] : "?";
}
void pp_profile_parameter_int64(pp_param_key key, int64_t value)
{
    pp_fake_record(PP_FAKE_PARAM_INT64, key, value, 0);
}
void pp_profile_parameter_string(pp_param_key key, const char *value, size_t len)
{
    pp_fake_record(PP_FAKE_PARAM_STRING, key, (int64_t)len, 0);
    pthread_mutex_lock(&pp_fake_lock);
    pp_fake_event *e = &pp_fake_events[pp_fake_n_events - 1];
    snprintf(e->text, sizeof e->text, "%.*s", (int)len, value);
    pthread_mutex_unlock(&pp_fake_lock);
}

/* The _at forms are not used by the adapter; present so the API is complete. */
void pp_profile_enter_at(pp_region_id r, uint64_t now) { (void)now; pp_profile_enter(r); }
void pp_profile_exit_at(pp_region_id r, uint64_t now) { (void)now; pp_profile_exit(r); }
int64_t pp_profile_fork_at(pp_region_id r, int n, uint64_t now) { (void)now; return pp_profile_fork(r, n); }
void pp_profile_parallel_begin_at(pp_region_id r, int64_t c, uint64_t now) { (void)now; pp_profile_parallel_begin(r, c); }
void pp_profile_parallel_end_at(pp_region_id r, uint64_t now) { (void)now; pp_profile_parallel_end(r); }
void pp_profile_join_at(pp_region_id r, pp_task_handle t, uint64_t now) { (void)now; pp_profile_join(r, t); }
void pp_profile_task_switch_to_at(pp_task_handle t, uint64_t now) { (void)now; pp_profile_task_switch_to(t); }
void pp_profile_task_create_enter_at(pp_region_id r, pp_task_handle t, uint64_t now) { (void)now; pp_profile_task_create_enter(r, t); }
void pp_profile_exit_acquire_at(pp_region_id r, const void *l, uint64_t now) { (void)now; pp_profile_exit_acquire(r, l); }
void pp_profile_enter_release_at(pp_region_id r, const void *l, uint64_t now) { (void)now; pp_profile_enter_release(r, l); }
void pp_profile_task_begin_at(pp_region_id r, pp_task_handle t, bool u, uint64_t now) { (void)now; pp_profile_task_begin(r, t, u); }
void pp_profile_task_end_at(pp_region_id r, uint64_t now) { (void)now; pp_profile_task_end(r); }
