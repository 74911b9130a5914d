/* The OpenMP lock routines, C (omp_set_lock) and Fortran (omp_set_lock_):
 * each call is a region "omp_set_lock" & co. (paradigm openmp, role wrapper,
 * file "OMP"), as the rebuild's lock wrappers make them: a set call from the
 * call to the lock's acquisition, a test that gets its lock with the
 * acquisition, an unset with the release (the trace's lock events).  The
 * Fortran routines share the C ones' regions. */
#include "gomp/pp_gomp_internal.h"

enum {
    PP_GOMP_INIT_LOCK,
    PP_GOMP_DESTROY_LOCK,
    PP_GOMP_SET_LOCK,
    PP_GOMP_UNSET_LOCK,
    PP_GOMP_TEST_LOCK,
    PP_GOMP_INIT_NEST_LOCK,
    PP_GOMP_DESTROY_NEST_LOCK,
    PP_GOMP_SET_NEST_LOCK,
    PP_GOMP_UNSET_NEST_LOCK,
    PP_GOMP_TEST_NEST_LOCK,
    PP_GOMP_LOCK_N
};

static const char *const pp_gomp_lock_names[PP_GOMP_LOCK_N] = {
    [PP_GOMP_INIT_LOCK] = "omp_init_lock",
    [PP_GOMP_DESTROY_LOCK] = "omp_destroy_lock",
    [PP_GOMP_SET_LOCK] = "omp_set_lock",
    [PP_GOMP_UNSET_LOCK] = "omp_unset_lock",
    [PP_GOMP_TEST_LOCK] = "omp_test_lock",
    [PP_GOMP_INIT_NEST_LOCK] = "omp_init_nest_lock",
    [PP_GOMP_DESTROY_NEST_LOCK] = "omp_destroy_nest_lock",
    [PP_GOMP_SET_NEST_LOCK] = "omp_set_nest_lock",
    [PP_GOMP_UNSET_NEST_LOCK] = "omp_unset_nest_lock",
    [PP_GOMP_TEST_NEST_LOCK] = "omp_test_nest_lock",
};

static pp_region_id pp_gomp_lock_region[PP_GOMP_LOCK_N];

void pp_gomp_lock_define_regions(void)
{
    for (int i = 0; i < PP_GOMP_LOCK_N; i++) {
        pp_region_def def = {.name = pp_gomp_lock_names[i], .file = "OMP", .begin_line = -1,
                             .end_line = -1, .paradigm = "openmp", .role = "wrapper"};
        pp_gomp_lock_region[i] = pp_profile_region_define(&def);
    }
}

/* The routine's region around the real call, or the real call alone when
 * the thread is not measured. */
static inline pp_region_id pp_gomp_lock_enter(int which)
{
    pp_gomp_thread *t = pp_gomp_self();
    if (!t)
        return PP_REGION_INVALID;
    pp_gomp_settle(t, true);
    if (!__atomic_load_n(&pp_gomp_measured, __ATOMIC_RELAXED))
        __atomic_store_n(&pp_gomp_measured, true, __ATOMIC_RELAXED);
    return pp_gomp_lock_region[which];
}

/* A routine without result: begin and end are the engine's events around
 * the real call (lock: the routine's argument, r: its region). */
#define PP_GOMP_LOCK_ROUTINE(name, which, type, begin, end)                                    \
    void name(type *lock)                                                                      \
    {                                                                                          \
        pp_region_id r = pp_gomp_lock_enter(which);                                            \
        if (r == PP_REGION_INVALID) {                                                          \
            PP_GOMP_REAL(name)(lock);                                                          \
            return;                                                                            \
        }                                                                                      \
        begin;                                                                                 \
        PP_GOMP_REAL(name)(lock);                                                              \
        end;                                                                                   \
    }
#define PP_GOMP_LOCK_PLAIN(name, which, type)                                                  \
    PP_GOMP_LOCK_ROUTINE(name, which, type, pp_profile_enter(r), pp_profile_exit(r))
#define PP_GOMP_LOCK_SET(name, which, type)                                                    \
    PP_GOMP_LOCK_ROUTINE(name, which, type, pp_profile_enter(r), pp_profile_exit_acquire(r, lock))
#define PP_GOMP_LOCK_UNSET(name, which, type)                                                  \
    PP_GOMP_LOCK_ROUTINE(name, which, type, pp_profile_enter_release(r, lock), pp_profile_exit(r))
/* A test: the lock acquired when it returns non-zero. */
#define PP_GOMP_LOCK_TEST(name, which, type, ret)                                              \
    ret name(type *lock)                                                                       \
    {                                                                                          \
        pp_region_id r = pp_gomp_lock_enter(which);                                            \
        if (r == PP_REGION_INVALID)                                                            \
            return PP_GOMP_REAL(name)(lock);                                                   \
        pp_profile_enter(r);                                                                   \
        ret got = PP_GOMP_REAL(name)(lock);                                                    \
        if (got)                                                                               \
            pp_profile_exit_acquire(r, lock);                                                  \
        else                                                                                   \
            pp_profile_exit(r);                                                                \
        return got;                                                                            \
    }

/* Every routine, C (suffix empty, tests return int) and Fortran (suffix _,
 * the lock by reference, tests return a default logical). */
#define PP_GOMP_LOCK_ROUTINES(S, test_ret)                                                     \
    PP_GOMP_LOCK_PLAIN(omp_init_lock##S, PP_GOMP_INIT_LOCK, omp_lock_t)                        \
    PP_GOMP_LOCK_PLAIN(omp_destroy_lock##S, PP_GOMP_DESTROY_LOCK, omp_lock_t)                  \
    PP_GOMP_LOCK_SET(omp_set_lock##S, PP_GOMP_SET_LOCK, omp_lock_t)                            \
    PP_GOMP_LOCK_UNSET(omp_unset_lock##S, PP_GOMP_UNSET_LOCK, omp_lock_t)                      \
    PP_GOMP_LOCK_TEST(omp_test_lock##S, PP_GOMP_TEST_LOCK, omp_lock_t, test_ret)               \
    PP_GOMP_LOCK_PLAIN(omp_init_nest_lock##S, PP_GOMP_INIT_NEST_LOCK, omp_nest_lock_t)         \
    PP_GOMP_LOCK_PLAIN(omp_destroy_nest_lock##S, PP_GOMP_DESTROY_NEST_LOCK, omp_nest_lock_t)   \
    PP_GOMP_LOCK_SET(omp_set_nest_lock##S, PP_GOMP_SET_NEST_LOCK, omp_nest_lock_t)             \
    PP_GOMP_LOCK_UNSET(omp_unset_nest_lock##S, PP_GOMP_UNSET_NEST_LOCK, omp_nest_lock_t)       \
    PP_GOMP_LOCK_TEST(omp_test_nest_lock##S, PP_GOMP_TEST_NEST_LOCK, omp_nest_lock_t, test_ret)

PP_GOMP_LOCK_ROUTINES(, int)
PP_GOMP_LOCK_ROUTINES(_, int32_t)
