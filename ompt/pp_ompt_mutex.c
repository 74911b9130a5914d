/* Critical, ordered and the lock routines as engine events.
 *
 * critical and ordered are regions keyed by their code address: the wait
 * (mutex_acquire -> mutex_acquired) and the body ("critical sblock") nest
 * inside the construct's region, as with OPARI2.  The lock routines are
 * measured as OPARI2 mode measures its lock wrappers: one region per routine
 * ("omp_set_lock" ...), from the call to the lock's acquisition; an unset is
 * a visit of "omp_unset_lock" at the release.  A test that gets its lock is
 * a visit of "omp_test_lock" (libomp reports no end of a failed test, which
 * is therefore not counted). */
#include "ompt/pp_ompt_internal.h"

#include "lib/pp_timer.h"

enum {
    PP_OMPT_INIT_LOCK,
    PP_OMPT_DESTROY_LOCK,
    PP_OMPT_SET_LOCK,
    PP_OMPT_UNSET_LOCK,
    PP_OMPT_TEST_LOCK,
    PP_OMPT_INIT_NEST_LOCK,
    PP_OMPT_DESTROY_NEST_LOCK,
    PP_OMPT_SET_NEST_LOCK,
    PP_OMPT_UNSET_NEST_LOCK,
    PP_OMPT_TEST_NEST_LOCK,
    PP_OMPT_LOCK_N
};
static const char *const pp_ompt_lock_names[PP_OMPT_LOCK_N] = {
    "omp_init_lock",      "omp_destroy_lock",      "omp_set_lock",      "omp_unset_lock",
    "omp_test_lock",      "omp_init_nest_lock",    "omp_destroy_nest_lock",
    "omp_set_nest_lock",  "omp_unset_nest_lock",   "omp_test_nest_lock",
};
static pp_region_id pp_ompt_lock_region[PP_OMPT_LOCK_N];

void pp_ompt_mutex_define_regions(void)
{
    for (int i = 0; i < PP_OMPT_LOCK_N; i++) {
        /* file "OMP", as OPARI2 mode's lock wrappers and the reference */
        pp_region_def def = {.name = pp_ompt_lock_names[i], .file = "OMP", .begin_line = -1,
                             .end_line = -1, .paradigm = "openmp", .role = "wrapper"};
        pp_ompt_lock_region[i] = pp_profile_region_define(&def);
    }
}

static pp_ompt_kind pp_ompt_construct_kind(ompt_mutex_t kind)
{
    return kind == ompt_mutex_critical ? PP_OMPT_CRITICAL : PP_OMPT_ORDERED;
}

static bool pp_ompt_nest(ompt_mutex_t kind)
{
    return kind == ompt_mutex_nest_lock || kind == ompt_mutex_test_nest_lock;
}

/* A visit of lock routine `which` that lasts no time (the runtime reports a
 * point, not the call). */
static void pp_ompt_lock_point(int which)
{
    if (!pp_ompt_event_thread()) /* (what waits for the next event first) */
        return;
    uint64_t now = pp_timer_now();
    pp_profile_enter_at(pp_ompt_lock_region[which], now);
    pp_profile_exit_at(pp_ompt_lock_region[which], now);
}

static void pp_ompt_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                                  ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)hint, (void)impl, (void)wait_id;
    pp_ompt_thread *t = pp_ompt_event_thread();
    if (!t)
        return;
    switch (kind) {
    case ompt_mutex_critical:
    case ompt_mutex_ordered: {
        pp_ompt_construct *c = pp_ompt_construct_find(t, codeptr_ra, pp_ompt_construct_kind(kind));
        pp_ompt_open_push(t, c, 0);
        if (c)
            pp_profile_enter(c->main);
        break;
    }
    case ompt_mutex_lock: pp_profile_enter(pp_ompt_lock_region[PP_OMPT_SET_LOCK]); break;
    case ompt_mutex_nest_lock:
        pp_profile_enter(pp_ompt_lock_region[PP_OMPT_SET_NEST_LOCK]);
        break;
    default: break; /* tests: counted when they succeed; atomic: not measured */
    }
}

static void pp_ompt_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                   const void *codeptr_ra)
{
    (void)codeptr_ra;
    pp_ompt_thread *t = pp_ompt_measured();
    if (!t)
        return;
    const void *lock = (const void *)(uintptr_t)wait_id;
    switch (kind) {
    case ompt_mutex_critical:
    case ompt_mutex_ordered: {
        uintptr_t tags;
        pp_ompt_construct *c = pp_ompt_open_top(t, &tags);
        if (c)
            pp_profile_enter(c->inner);
        break;
    }
    case ompt_mutex_lock: pp_profile_exit_acquire(pp_ompt_lock_region[PP_OMPT_SET_LOCK], lock); break;
    case ompt_mutex_nest_lock:
        pp_profile_exit_acquire(pp_ompt_lock_region[PP_OMPT_SET_NEST_LOCK], lock);
        break;
    case ompt_mutex_test_lock:
    case ompt_mutex_test_nest_lock: {
        pp_region_id r = pp_ompt_lock_region[pp_ompt_nest(kind) ? PP_OMPT_TEST_NEST_LOCK
                                                                 : PP_OMPT_TEST_LOCK];
        uint64_t now = pp_timer_now();
        pp_profile_enter_at(r, now);
        pp_profile_exit_acquire_at(r, lock, now);
        break;
    }
    default: break;
    }
}

static void pp_ompt_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                   const void *codeptr_ra)
{
    (void)codeptr_ra;
    pp_ompt_thread *t = pp_ompt_event_thread();
    if (!t)
        return;
    switch (kind) {
    case ompt_mutex_critical:
    case ompt_mutex_ordered: {
        pp_ompt_construct *c = pp_ompt_open_pop(t, pp_ompt_construct_kind(kind), NULL);
        if (c) {
            uint64_t now = pp_timer_now();
            pp_profile_exit_at(c->inner, now);
            pp_profile_exit_at(c->main, now);
        }
        break;
    }
    case ompt_mutex_lock:
    case ompt_mutex_test_lock:
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_nest_lock: {
        pp_region_id r = pp_ompt_lock_region[pp_ompt_nest(kind) ? PP_OMPT_UNSET_NEST_LOCK
                                                                 : PP_OMPT_UNSET_LOCK];
        uint64_t now = pp_timer_now();
        pp_profile_enter_release_at(r, (const void *)(uintptr_t)wait_id, now);
        pp_profile_exit_at(r, now);
        break;
    }
    default: break;
    }
}

/* A nest lock taken again by its owner (begin), or released while the owner
 * still holds it (end). */
static void pp_ompt_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                              const void *codeptr_ra)
{
    (void)wait_id, (void)codeptr_ra;
    if (endpoint == ompt_scope_begin) {
        if (pp_ompt_event_thread())
            pp_profile_exit(pp_ompt_lock_region[PP_OMPT_SET_NEST_LOCK]);
    } else
        pp_ompt_lock_point(PP_OMPT_UNSET_NEST_LOCK);
}

static void pp_ompt_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                              ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)hint, (void)impl, (void)wait_id, (void)codeptr_ra;
    if (kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock)
        pp_ompt_lock_point(kind == ompt_mutex_lock ? PP_OMPT_INIT_LOCK : PP_OMPT_INIT_NEST_LOCK);
}

static void pp_ompt_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                                 const void *codeptr_ra)
{
    (void)wait_id, (void)codeptr_ra;
    if (kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock)
        pp_ompt_lock_point(kind == ompt_mutex_lock ? PP_OMPT_DESTROY_LOCK
                                                   : PP_OMPT_DESTROY_NEST_LOCK);
}

void pp_ompt_mutex_register(ompt_set_callback_t set, const char **missing, int *n_missing)
{
#define PP_WANT(name, fn) \
    pp_ompt_want(set, ompt_callback_##name, (ompt_callback_t)(fn), #name, missing, n_missing)
    PP_WANT(mutex_acquire, pp_ompt_mutex_acquire);
    PP_WANT(mutex_acquired, pp_ompt_mutex_acquired);
    PP_WANT(mutex_released, pp_ompt_mutex_released);
    PP_WANT(nest_lock, pp_ompt_nest_lock);
    PP_WANT(lock_init, pp_ompt_lock_init);
    PP_WANT(lock_destroy, pp_ompt_lock_destroy);
#undef PP_WANT
}
