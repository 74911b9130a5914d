/* The libgomp entry points the interposer defines, one row each: every fact
 * about an entry's signature comes from here (the pointers to libgomp's own
 * definitions, resolved once at start in pp_gomp_start.c, and their types).
 * The signatures are those of libgomp's external ABI as gcc 12 and gfortran
 * 12 call it (libgomp_g.h, omp.h); the omp_ lock calls are resolved at
 * libgomp's default version OMP_3.0, which the compilers link against.  One
 * row (omp_get_cancellation) is only called, never defined here.
 *
 *   PP_GOMP_ENTRY(ret, name, (parameters), version)
 *
 * version: NULL for a GOMP_ entry (libgomp has one version of each), else
 * the symbol version to look up.  No include guard: the includer defines the
 * macro, includes this file, and undefines it again. */

/* parallel regions (pp_gomp_parallel.c) and what is not measured (pp_gomp_off.c) */
PP_GOMP_ENTRY(void, GOMP_parallel, (void (*)(void *), void *, unsigned, unsigned), NULL)
PP_GOMP_ENTRY(unsigned, GOMP_parallel_reductions, (void (*)(void *), void *, unsigned, unsigned),
              NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_static,
              (void (*)(void *), void *, unsigned, long, long, long, long, unsigned), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_dynamic,
              (void (*)(void *), void *, unsigned, long, long, long, long, unsigned), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_guided,
              (void (*)(void *), void *, unsigned, long, long, long, long, unsigned), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_runtime,
              (void (*)(void *), void *, unsigned, long, long, long, unsigned), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_nonmonotonic_dynamic,
              (void (*)(void *), void *, unsigned, long, long, long, long, unsigned), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_nonmonotonic_guided,
              (void (*)(void *), void *, unsigned, long, long, long, long, unsigned), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_nonmonotonic_runtime,
              (void (*)(void *), void *, unsigned, long, long, long, unsigned), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_maybe_nonmonotonic_runtime,
              (void (*)(void *), void *, unsigned, long, long, long, unsigned), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_sections,
              (void (*)(void *), void *, unsigned, unsigned, unsigned), NULL)
/* the API of gcc before 4.9 */
PP_GOMP_ENTRY(void, GOMP_parallel_start, (void (*)(void *), void *, unsigned), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_end, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_sections_start, (void (*)(void *), void *, unsigned, unsigned),
              NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_static_start,
              (void (*)(void *), void *, unsigned, long, long, long, long), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_dynamic_start,
              (void (*)(void *), void *, unsigned, long, long, long, long), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_guided_start,
              (void (*)(void *), void *, unsigned, long, long, long, long), NULL)
PP_GOMP_ENTRY(void, GOMP_parallel_loop_runtime_start,
              (void (*)(void *), void *, unsigned, long, long, long), NULL)
PP_GOMP_ENTRY(void, GOMP_teams_reg, (void (*)(void *), void *, unsigned, unsigned, unsigned),
              NULL)
PP_GOMP_ENTRY(void, GOMP_target_ext,
              (int, void (*)(void *), size_t, void **, size_t *, unsigned short *, unsigned int,
               void **, void **),
              NULL)

/* tasks (pp_gomp_task.c, pp_gomp_taskloop.c) */
PP_GOMP_ENTRY(void, GOMP_task,
              (void (*)(void *), void *, void (*)(void *, void *), long, long, bool, unsigned,
               void **, int, void *),
              NULL)
PP_GOMP_ENTRY(void, GOMP_taskloop,
              (void (*)(void *), void *, void (*)(void *, void *), long, long, unsigned,
               unsigned long, int, long, long, long),
              NULL)
PP_GOMP_ENTRY(void, GOMP_taskloop_ull,
              (void (*)(void *), void *, void (*)(void *, void *), long, long, unsigned,
               unsigned long, int, unsigned long long, unsigned long long, unsigned long long),
              NULL)
PP_GOMP_ENTRY(void, GOMP_taskwait, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_taskwait_depend, (void **), NULL)
PP_GOMP_ENTRY(void, GOMP_taskyield, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_taskgroup_start, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_taskgroup_end, (void), NULL)

/* worksharing (pp_gomp_loop.c, pp_gomp_worksharing.c) */
/* The loop starts of the five forms that differ in their parameters only:
 * LONG (start, end, incr, chunk, istart, iend), RUNTIME (no chunk), ULL and
 * ULL_RUNTIME (unsigned long long, with the direction first), DOACROSS and
 * DOACROSS_RUNTIME (the counts of each loop of the nest), DOACROSS_ULL and
 * DOACROSS_ULL_RUNTIME.  pp_gomp_loop.c defines them from the same list. */
#ifndef PP_GOMP_LOOP_STARTS
#define PP_GOMP_LOOP_STARTS(X)                                                                 \
    X(LONG, GOMP_loop_static_start) X(LONG, GOMP_loop_dynamic_start)                           \
    X(LONG, GOMP_loop_guided_start) X(RUNTIME, GOMP_loop_runtime_start)                        \
    X(LONG, GOMP_loop_nonmonotonic_dynamic_start) X(LONG, GOMP_loop_nonmonotonic_guided_start) \
    X(RUNTIME, GOMP_loop_nonmonotonic_runtime_start)                                           \
    X(RUNTIME, GOMP_loop_maybe_nonmonotonic_runtime_start)                                     \
    X(LONG, GOMP_loop_ordered_static_start) X(LONG, GOMP_loop_ordered_dynamic_start)           \
    X(LONG, GOMP_loop_ordered_guided_start) X(RUNTIME, GOMP_loop_ordered_runtime_start)        \
    X(ULL, GOMP_loop_ull_static_start) X(ULL, GOMP_loop_ull_dynamic_start)                     \
    X(ULL, GOMP_loop_ull_guided_start) X(ULL_RUNTIME, GOMP_loop_ull_runtime_start)             \
    X(ULL, GOMP_loop_ull_nonmonotonic_dynamic_start)                                           \
    X(ULL, GOMP_loop_ull_nonmonotonic_guided_start)                                            \
    X(ULL_RUNTIME, GOMP_loop_ull_nonmonotonic_runtime_start)                                   \
    X(ULL_RUNTIME, GOMP_loop_ull_maybe_nonmonotonic_runtime_start)                             \
    X(ULL, GOMP_loop_ull_ordered_static_start) X(ULL, GOMP_loop_ull_ordered_dynamic_start)     \
    X(ULL, GOMP_loop_ull_ordered_guided_start)                                                 \
    X(ULL_RUNTIME, GOMP_loop_ull_ordered_runtime_start)                                        \
    X(DOACROSS, GOMP_loop_doacross_static_start) X(DOACROSS, GOMP_loop_doacross_dynamic_start) \
    X(DOACROSS, GOMP_loop_doacross_guided_start)                                               \
    X(DOACROSS_RUNTIME, GOMP_loop_doacross_runtime_start)                                      \
    X(DOACROSS_ULL, GOMP_loop_ull_doacross_static_start)                                       \
    X(DOACROSS_ULL, GOMP_loop_ull_doacross_dynamic_start)                                      \
    X(DOACROSS_ULL, GOMP_loop_ull_doacross_guided_start)                                       \
    X(DOACROSS_ULL_RUNTIME, GOMP_loop_ull_doacross_runtime_start)
#endif
#define PP_GOMP_ULL unsigned long long
#define PP_GOMP_PARAMS_LONG (long, long, long, long, long *, long *)
#define PP_GOMP_PARAMS_RUNTIME (long, long, long, long *, long *)
#define PP_GOMP_PARAMS_ULL \
    (bool, PP_GOMP_ULL, PP_GOMP_ULL, PP_GOMP_ULL, PP_GOMP_ULL, PP_GOMP_ULL *, PP_GOMP_ULL *)
#define PP_GOMP_PARAMS_ULL_RUNTIME \
    (bool, PP_GOMP_ULL, PP_GOMP_ULL, PP_GOMP_ULL, PP_GOMP_ULL *, PP_GOMP_ULL *)
#define PP_GOMP_PARAMS_DOACROSS (unsigned, long *, long, long *, long *)
#define PP_GOMP_PARAMS_DOACROSS_RUNTIME (unsigned, long *, long *, long *)
#define PP_GOMP_PARAMS_DOACROSS_ULL \
    (unsigned, PP_GOMP_ULL *, PP_GOMP_ULL, PP_GOMP_ULL *, PP_GOMP_ULL *)
#define PP_GOMP_PARAMS_DOACROSS_ULL_RUNTIME (unsigned, PP_GOMP_ULL *, PP_GOMP_ULL *, PP_GOMP_ULL *)
#define PP_GOMP_LOOP_ENTRY(form, name) PP_GOMP_ENTRY(bool, name, PP_GOMP_PARAMS_##form, NULL)
PP_GOMP_LOOP_STARTS(PP_GOMP_LOOP_ENTRY)
#undef PP_GOMP_LOOP_ENTRY
/* the generic forms of OpenMP 5.0 */
PP_GOMP_ENTRY(bool, GOMP_loop_start,
              (long, long, long, long, long, long *, long *, uintptr_t *, void **), NULL)
PP_GOMP_ENTRY(bool, GOMP_loop_ordered_start,
              (long, long, long, long, long, long *, long *, uintptr_t *, void **), NULL)
PP_GOMP_ENTRY(bool, GOMP_loop_doacross_start,
              (unsigned, long *, long, long, long *, long *, uintptr_t *, void **), NULL)
PP_GOMP_ENTRY(bool, GOMP_loop_ull_start,
              (bool, PP_GOMP_ULL, PP_GOMP_ULL, PP_GOMP_ULL, long, PP_GOMP_ULL, PP_GOMP_ULL *,
               PP_GOMP_ULL *, uintptr_t *, void **),
              NULL)
PP_GOMP_ENTRY(bool, GOMP_loop_ull_ordered_start,
              (bool, PP_GOMP_ULL, PP_GOMP_ULL, PP_GOMP_ULL, long, PP_GOMP_ULL, PP_GOMP_ULL *,
               PP_GOMP_ULL *, uintptr_t *, void **),
              NULL)
PP_GOMP_ENTRY(bool, GOMP_loop_ull_doacross_start,
              (unsigned, PP_GOMP_ULL *, long, PP_GOMP_ULL, PP_GOMP_ULL *, PP_GOMP_ULL *,
               uintptr_t *, void **),
              NULL)
PP_GOMP_ENTRY(void, GOMP_loop_end, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_loop_end_nowait, (void), NULL)
PP_GOMP_ENTRY(bool, GOMP_loop_end_cancel, (void), NULL)
PP_GOMP_ENTRY(unsigned, GOMP_sections_start, (unsigned), NULL)
PP_GOMP_ENTRY(unsigned, GOMP_sections2_start, (unsigned, uintptr_t *, void **), NULL)
PP_GOMP_ENTRY(unsigned, GOMP_sections_next, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_sections_end, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_sections_end_nowait, (void), NULL)
PP_GOMP_ENTRY(bool, GOMP_sections_end_cancel, (void), NULL)
PP_GOMP_ENTRY(bool, GOMP_single_start, (void), NULL)
PP_GOMP_ENTRY(void *, GOMP_single_copy_start, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_single_copy_end, (void *), NULL)
PP_GOMP_ENTRY(void, GOMP_barrier, (void), NULL)
PP_GOMP_ENTRY(bool, GOMP_barrier_cancel, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_workshare_task_reduction_unregister, (bool), NULL)

/* mutual exclusion (pp_gomp_mutex.c) */
PP_GOMP_ENTRY(void, GOMP_critical_start, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_critical_end, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_critical_name_start, (void **), NULL)
PP_GOMP_ENTRY(void, GOMP_critical_name_end, (void **), NULL)
PP_GOMP_ENTRY(void, GOMP_atomic_start, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_atomic_end, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_ordered_start, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_ordered_end, (void), NULL)
PP_GOMP_ENTRY(void, GOMP_doacross_wait, (long, ...), NULL)
PP_GOMP_ENTRY(void, GOMP_doacross_ull_wait, (unsigned long long, ...), NULL)

/* called, not defined: whether cancellation is on (pp_gomp_task.c) */
PP_GOMP_ENTRY(int, omp_get_cancellation, (void), "OMP_4.0")

/* the lock routines, C and Fortran (pp_gomp_lock.c) */
PP_GOMP_ENTRY(void, omp_init_lock, (omp_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_destroy_lock, (omp_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_set_lock, (omp_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_unset_lock, (omp_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(int, omp_test_lock, (omp_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_init_nest_lock, (omp_nest_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_destroy_nest_lock, (omp_nest_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_set_nest_lock, (omp_nest_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_unset_nest_lock, (omp_nest_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(int, omp_test_nest_lock, (omp_nest_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_init_lock_, (omp_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_destroy_lock_, (omp_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_set_lock_, (omp_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_unset_lock_, (omp_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(int32_t, omp_test_lock_, (omp_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_init_nest_lock_, (omp_nest_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_destroy_nest_lock_, (omp_nest_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_set_nest_lock_, (omp_nest_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(void, omp_unset_nest_lock_, (omp_nest_lock_t *), "OMP_3.0")
PP_GOMP_ENTRY(int32_t, omp_test_nest_lock_, (omp_nest_lock_t *), "OMP_3.0")
