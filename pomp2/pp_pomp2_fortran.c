/* Fortran bindings of the POMP2 entry points, for code instrumented by
 * OPARI2 from Fortran sources and compiled with gfortran (or any compiler
 * with the same conventions: lower-case names with one trailing underscore,
 * every argument passed by reference, the length of a CHARACTER argument
 * passed as a trailing size_t by value).
 *
 * Each binding forwards to the C entry point of the same construct, so both
 * languages measure alike and share one region registry.  What differs:
 *  - the region handle is an INTEGER(KIND=8) in a COMMON block; the C side
 *    stores a pointer into it (static assertion below);
 *  - the region string is a CHARACTER constant without a terminating NUL.
 *    It is needed only while a handle is still unassigned (normally never:
 *    POMP2_Init_regions assigns every handle at start-up), so we copy it to a
 *    NUL-terminated string only then; the registry keeps its own copy, the
 *    event path never touches the string;
 *  - OPARI2 copies the Fortran threadprivate COMMON /pomp_tpd/ (symbol
 *    pomp_tpd_) into each team, not the C variable pomp_tpd: fork stores the
 *    context into both, begin takes it from the Fortran one.  Instrumented
 *    Fortran objects define pomp_tpd_ as a TLS common symbol in the program;
 *    the library's own (exported, preemptible) definition then yields to it
 *    at load time, so the library and the program use the same variable;
 *  - Fortran locks are INTEGER(omp_lock_kind): libgomp's Fortran lock
 *    functions (omp_set_lock_ ...) know how such an integer maps to the C
 *    lock (directly or through a pointer), so we wrap those. */
#include <opari2/pomp2_lib.h>
#include <opari2/pomp2_user_lib.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pomp2/pp_pomp2_internal.h"
#include "pomp2/pp_pomp2_region.h"

/* INTEGER(KIND=8) slots hold the C adapter's void* handles (x86-64, LP64). */
_Static_assert(sizeof(int64_t) == sizeof(POMP2_Region_handle),
               "a Fortran INTEGER(KIND=8) region handle must hold a pointer");
_Static_assert(sizeof(int64_t) == sizeof(POMP2_Task_handle),
               "Fortran task handles are INTEGER(KIND=8)");

typedef int64_t pp_f_handle;  /* INTEGER(KIND=8) region handle / task handle */
typedef int32_t pp_f_int;     /* INTEGER(KIND=4) */
typedef int32_t pp_f_logical; /* default LOGICAL: 4 bytes, .true. is non-zero */
typedef size_t pp_f_len;      /* hidden CHARACTER length (gfortran >= 8) */

/* Defined in the program's Fortran objects as well (TLS COMMON /pomp_tpd/);
 * see the header comment.  Aligned like the C variable. */
__attribute__((visibility("default"), aligned(16))) __thread int64_t pomp_tpd_;

/* Slow path: assign *slot from a Fortran string (copied to add the NUL). */
static __attribute__((noinline, cold)) void pp_pomp2_fortran_assign(void **slot,
                                                                    const char *ctc,
                                                                    pp_f_len len)
{
    if (!ctc) {
        pp_pomp2_region_assign(slot, NULL);
        return;
    }
    while (len > 0 && ctc[len - 1] == ' ') /* CHARACTER values are blank-padded */
        len--;
    char small[512];
    char *copy = len < sizeof small ? small : malloc(len + 1);
    if (!copy) {
        pp_pomp2_region_assign(slot, NULL); /* warns, measures as unknown */
        return;
    }
    memcpy(copy, ctc, len);
    copy[len] = '\0';
    pp_pomp2_region_assign(slot, copy);
    if (copy != small)
        free(copy);
}

/* The C slot of a Fortran handle, assigned if it was not yet. */
static inline void **pp_pomp2_fortran_slot(pp_f_handle *handle, const char *ctc, pp_f_len len)
{
    void **slot = (void **)handle;
    if (__builtin_expect(slot && __atomic_load_n(slot, __ATOMIC_ACQUIRE) != NULL, 1))
        return slot;
    if (slot)
        pp_pomp2_fortran_assign(slot, ctc, len);
    return slot;
}

/* For calls that carry no string: the C side deals with a NULL slot. */
#define PP_SLOT(h) ((void **)(h))
#define PP_TASK(p) ((POMP2_Task_handle *)(p))

/* ---- handles, lifecycle, user regions --------------------------------- */

void pomp2_assign_handle_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    if (h && !*h)
        pp_pomp2_fortran_assign(PP_SLOT(h), ctc, len);
}

void pomp2_user_assign_handle_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    pomp2_assign_handle_(h, ctc, len);
}

void pomp2_init_(void) { POMP2_Init(); }
void pomp2_finalize_(void) { POMP2_Finalize(); }
void pomp2_on_(void) { POMP2_On(); }
void pomp2_off_(void) { POMP2_Off(); }

void pomp2_begin_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_Begin(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_end_(pp_f_handle *h) { POMP2_End(PP_SLOT(h)); }

pp_f_int pomp2_lib_get_max_threads_(void) { return POMP2_Lib_get_max_threads(); }

/* ---- parallel regions and barriers ------------------------------------ */

void pomp2_parallel_fork_(pp_f_handle *h, const pp_f_logical *if_clause,
                          const pp_f_int *num_threads, pp_f_handle *old_task,
                          const char *ctc, pp_f_len len)
{
    POMP2_Parallel_fork(pp_pomp2_fortran_slot(h, ctc, len), if_clause ? *if_clause != 0 : 1,
                        num_threads ? *num_threads : 0, PP_TASK(old_task), NULL);
    pomp_tpd_ = pomp_tpd; /* copyin(pomp_tpd) copies the Fortran one */
}

void pomp2_parallel_begin_(pp_f_handle *h)
{
    pomp_tpd = pomp_tpd_;
    POMP2_Parallel_begin(PP_SLOT(h));
}

void pomp2_parallel_end_(pp_f_handle *h) { POMP2_Parallel_end(PP_SLOT(h)); }

void pomp2_parallel_join_(pp_f_handle *h, const pp_f_handle *old_task)
{
    POMP2_Parallel_join(PP_SLOT(h), old_task ? *old_task : 0);
}

void pomp2_barrier_enter_(pp_f_handle *h, pp_f_handle *old_task, const char *ctc, pp_f_len len)
{
    POMP2_Barrier_enter(pp_pomp2_fortran_slot(h, ctc, len), PP_TASK(old_task), NULL);
}

void pomp2_barrier_exit_(pp_f_handle *h, const pp_f_handle *old_task)
{
    POMP2_Barrier_exit(PP_SLOT(h), old_task ? *old_task : 0);
}

void pomp2_implicit_barrier_enter_(pp_f_handle *h, pp_f_handle *old_task)
{
    POMP2_Implicit_barrier_enter(PP_SLOT(h), PP_TASK(old_task));
}

void pomp2_implicit_barrier_exit_(pp_f_handle *h, const pp_f_handle *old_task)
{
    POMP2_Implicit_barrier_exit(PP_SLOT(h), old_task ? *old_task : 0);
}

/* ---- worksharing and synchronization ---------------------------------- */

/* Fortran "do" is C "for"; the region string tells the profile it was do. */
void pomp2_do_enter_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_For_enter(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_do_exit_(pp_f_handle *h) { POMP2_For_exit(PP_SLOT(h)); }

/* OPARI2 calls this without the string for "parallel sections" (the pompprof
 * wrapper adds it back, gfortran rejects the mixed argument lists).  Without
 * it the handle was assigned by the fork just before, so the string is not
 * read then. */
void pomp2_sections_enter_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_Sections_enter(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_sections_exit_(pp_f_handle *h) { POMP2_Sections_exit(PP_SLOT(h)); }

void pomp2_section_begin_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_Section_begin(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_section_end_(pp_f_handle *h) { POMP2_Section_end(PP_SLOT(h)); }

void pomp2_workshare_enter_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_Workshare_enter(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_workshare_exit_(pp_f_handle *h) { POMP2_Workshare_exit(PP_SLOT(h)); }

void pomp2_single_enter_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_Single_enter(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_single_exit_(pp_f_handle *h) { POMP2_Single_exit(PP_SLOT(h)); }
void pomp2_single_begin_(pp_f_handle *h) { POMP2_Single_begin(PP_SLOT(h)); }
void pomp2_single_end_(pp_f_handle *h) { POMP2_Single_end(PP_SLOT(h)); }

void pomp2_master_begin_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_Master_begin(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_master_end_(pp_f_handle *h) { POMP2_Master_end(PP_SLOT(h)); }

void pomp2_critical_enter_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_Critical_enter(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_critical_exit_(pp_f_handle *h) { POMP2_Critical_exit(PP_SLOT(h)); }
void pomp2_critical_begin_(pp_f_handle *h) { POMP2_Critical_begin(PP_SLOT(h)); }
void pomp2_critical_end_(pp_f_handle *h) { POMP2_Critical_end(PP_SLOT(h)); }

void pomp2_ordered_enter_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_Ordered_enter(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_ordered_exit_(pp_f_handle *h) { POMP2_Ordered_exit(PP_SLOT(h)); }
void pomp2_ordered_begin_(pp_f_handle *h) { POMP2_Ordered_begin(PP_SLOT(h)); }
void pomp2_ordered_end_(pp_f_handle *h) { POMP2_Ordered_end(PP_SLOT(h)); }

void pomp2_atomic_enter_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_Atomic_enter(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_atomic_exit_(pp_f_handle *h) { POMP2_Atomic_exit(PP_SLOT(h)); }

void pomp2_flush_enter_(pp_f_handle *h, const char *ctc, pp_f_len len)
{
    POMP2_Flush_enter(pp_pomp2_fortran_slot(h, ctc, len), NULL);
}

void pomp2_flush_exit_(pp_f_handle *h) { POMP2_Flush_exit(PP_SLOT(h)); }

/* ---- tasks ------------------------------------------------------------ */

void pomp2_task_create_begin_(pp_f_handle *h, pp_f_handle *new_task, pp_f_handle *old_task,
                              const pp_f_logical *if_clause, const char *ctc, pp_f_len len)
{
    POMP2_Task_create_begin(pp_pomp2_fortran_slot(h, ctc, len), PP_TASK(new_task),
                            PP_TASK(old_task), if_clause ? *if_clause != 0 : 1, NULL);
}

void pomp2_task_create_end_(pp_f_handle *h, const pp_f_handle *old_task)
{
    POMP2_Task_create_end(PP_SLOT(h), old_task ? *old_task : 0);
}

void pomp2_task_begin_(pp_f_handle *h, const pp_f_handle *task)
{
    POMP2_Task_begin(PP_SLOT(h), task ? *task : 0);
}

void pomp2_task_end_(pp_f_handle *h) { POMP2_Task_end(PP_SLOT(h)); }

void pomp2_untied_task_create_begin_(pp_f_handle *h, pp_f_handle *new_task,
                                     pp_f_handle *old_task, const pp_f_logical *if_clause,
                                     const char *ctc, pp_f_len len)
{
    POMP2_Untied_task_create_begin(pp_pomp2_fortran_slot(h, ctc, len), PP_TASK(new_task),
                                   PP_TASK(old_task), if_clause ? *if_clause != 0 : 1, NULL);
}

void pomp2_untied_task_create_end_(pp_f_handle *h, const pp_f_handle *old_task)
{
    POMP2_Untied_task_create_end(PP_SLOT(h), old_task ? *old_task : 0);
}

void pomp2_untied_task_begin_(pp_f_handle *h, const pp_f_handle *task)
{
    POMP2_Untied_task_begin(PP_SLOT(h), task ? *task : 0);
}

void pomp2_untied_task_end_(pp_f_handle *h) { POMP2_Untied_task_end(PP_SLOT(h)); }

void pomp2_taskwait_begin_(pp_f_handle *h, pp_f_handle *old_task, const char *ctc,
                           pp_f_len len)
{
    POMP2_Taskwait_begin(pp_pomp2_fortran_slot(h, ctc, len), PP_TASK(old_task), NULL);
}

void pomp2_taskwait_end_(pp_f_handle *h, const pp_f_handle *old_task)
{
    POMP2_Taskwait_end(PP_SLOT(h), old_task ? *old_task : 0);
}

/* ---- locks ------------------------------------------------------------ */

/* libgomp's Fortran lock API: the argument is the INTEGER(omp_lock_kind) /
 * INTEGER(omp_nest_lock_kind) variable; the test functions return a default
 * LOGICAL / INTEGER. */
void omp_init_lock_(void *lock);
void omp_destroy_lock_(void *lock);
void omp_set_lock_(void *lock);
void omp_unset_lock_(void *lock);
pp_f_logical omp_test_lock_(void *lock);
void omp_init_nest_lock_(void *lock);
void omp_destroy_nest_lock_(void *lock);
void omp_set_nest_lock_(void *lock);
void omp_unset_nest_lock_(void *lock);
pp_f_int omp_test_nest_lock_(void *lock);

/* Same regions as the C wrappers (pp_pomp2_lock.c). */
void pomp2_init_lock_(void *s) { PP_POMP2_LOCK_WRAP(PP_LOCK_INIT, omp_init_lock_(s)); }
void pomp2_destroy_lock_(void *s) { PP_POMP2_LOCK_WRAP(PP_LOCK_DESTROY, omp_destroy_lock_(s)); }
void pomp2_set_lock_(void *s) { PP_POMP2_LOCK_WRAP(PP_LOCK_SET, omp_set_lock_(s)); }
void pomp2_unset_lock_(void *s) { PP_POMP2_LOCK_WRAP(PP_LOCK_UNSET, omp_unset_lock_(s)); }

pp_f_logical pomp2_test_lock_(void *s)
{
    pp_f_logical got;
    PP_POMP2_LOCK_WRAP(PP_LOCK_TEST, got = omp_test_lock_(s));
    return got;
}

void pomp2_init_nest_lock_(void *s)
{
    PP_POMP2_LOCK_WRAP(PP_NEST_LOCK_INIT, omp_init_nest_lock_(s));
}

void pomp2_destroy_nest_lock_(void *s)
{
    PP_POMP2_LOCK_WRAP(PP_NEST_LOCK_DESTROY, omp_destroy_nest_lock_(s));
}

void pomp2_set_nest_lock_(void *s)
{
    PP_POMP2_LOCK_WRAP(PP_NEST_LOCK_SET, omp_set_nest_lock_(s));
}

void pomp2_unset_nest_lock_(void *s)
{
    PP_POMP2_LOCK_WRAP(PP_NEST_LOCK_UNSET, omp_unset_nest_lock_(s));
}

pp_f_int pomp2_test_nest_lock_(void *s)
{
    pp_f_int depth;
    PP_POMP2_LOCK_WRAP(PP_NEST_LOCK_TEST, depth = omp_test_nest_lock_(s));
    return depth;
}
