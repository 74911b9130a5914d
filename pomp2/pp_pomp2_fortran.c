/* Fortran bindings of the POMP2 entry points, for code instrumented by
 * OPARI2 from Fortran sources and compiled with gfortran (or any compiler
 * with the same conventions: every argument passed by reference, the length
 * of a CHARACTER argument passed as a trailing size_t by value).  Link names
 * follow the compiler's name mangling as configure found it (FC_FUNC_ in
 * config.h; pomp2_parallel_fork_ for gfortran).  Built only when configure
 * found a working Fortran compiler.
 *
 * The entry points are the rows of pp_pomp2_fortran_table.h, expanded below
 * by one macro per argument shape.  Each forwards to the C entry point of the
 * same construct, so both languages measure alike and share one region
 * registry.  What differs:
 *  - the region handle is an INTEGER(KIND=8) in a COMMON block; the C side
 *    stores a pointer into it (static assertion below);
 *  - the region string is a CHARACTER constant without a terminating NUL.
 *    It is needed only while a handle is still unassigned (normally never:
 *    POMP2_Init_regions assigns every handle at start-up), so we copy it to a
 *    NUL-terminated string only then; the registry keeps its own copy, the
 *    event path never touches the string;
 *  - OPARI2 copies the Fortran threadprivate COMMON /pomp_tpd/ (symbol
 *    pomp_tpd_ for gfortran) into each team, not the C variable pomp_tpd:
 *    fork stores the context into both, begin takes it from the Fortran one.
 *    Instrumented Fortran objects define pomp_tpd_ as a TLS common symbol in
 *    the program; the library's own (exported, preemptible) definition then
 *    yields to it at load time, so the library and the program use the same
 *    variable;
 *  - Fortran locks are INTEGER(omp_lock_kind): libgomp's Fortran lock
 *    functions (omp_set_lock_ ...) know how such an integer maps to the C
 *    lock (directly or through a pointer), so we wrap those. */
#include "config.h"

#include <opari2/pomp2_lib.h>
#include <opari2/pomp2_user_lib.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pomp2/pp_pomp2_depend.h"
#include "pomp2/pp_pomp2_internal.h"
#include "pomp2/pp_pomp2_region.h"

/* INTEGER(KIND=8) slots hold the C adapter's void* handles (x86-64, LP64). */
_Static_assert(sizeof(int64_t) == sizeof(POMP2_Region_handle),
               "a Fortran INTEGER(KIND=8) region handle must hold a pointer");
_Static_assert(sizeof(int64_t) == sizeof(POMP2_Task_handle),
               "Fortran task handles are INTEGER(KIND=8)");

typedef int64_t pp_f_handle;  /* INTEGER(KIND=8) region handle / task handle */
typedef int32_t pp_f_int;     /* default INTEGER, and LOGICAL (4 bytes, .true. is non-zero) */
typedef size_t pp_f_len;      /* hidden CHARACTER length (gfortran >= 8) */

/* Link names: Fortran's pomp2_<name>, libgomp's Fortran omp_<name>, and the
 * COMMON block /pomp_tpd/ (mangled like a subroutine by gfortran and the
 * other compilers OPARI2 supports). */
#define PP_POMP2_F_NAME(name, NAME) FC_FUNC_(pomp2_##name, POMP2_##NAME)
#define PP_POMPPROF_F_NAME(name, NAME) FC_FUNC_(pompprof_##name, POMPPROF_##NAME)
#define PP_POMP2_F_OMP_NAME(name, NAME) FC_FUNC_(omp_##name, OMP_##NAME)
#define PP_POMP2_F_TPD FC_FUNC_(pomp_tpd, POMP_TPD)

/* Defined in the program's Fortran objects as well (TLS COMMON /pomp_tpd/);
 * see the header comment.  Aligned like the C variable. */
__attribute__((visibility("default"), aligned(16))) __thread int64_t PP_POMP2_F_TPD;

typedef void pp_pomp2_assign_fn(void **slot, const char *ctc);

/* Slow path: assign *slot from a Fortran string (copied to add the NUL). */
static __attribute__((noinline, cold)) void
pp_pomp2_fortran_assign(void **slot, const char *ctc, pp_f_len len, pp_pomp2_assign_fn *assign)
{
    if (!ctc) {
        assign(slot, NULL);
        return;
    }
    while (len > 0 && ctc[len - 1] == ' ') /* CHARACTER values are blank-padded */
        len--;
    char small[512];
    char *copy = len < sizeof small ? small : malloc(len + 1);
    if (!copy) {
        assign(slot, NULL); /* warns, measures as unknown */
        return;
    }
    memcpy(copy, ctc, len);
    copy[len] = '\0';
    assign(slot, copy);
    if (copy != small)
        free(copy);
}

/* The slow path of pp_pomp2_fortran_slot (a call with three arguments keeps
 * the entry points as short as when they were written out by hand). */
static __attribute__((noinline, cold)) void pp_pomp2_fortran_assign_slot(void **slot,
                                                                         const char *ctc,
                                                                         pp_f_len len)
{
    pp_pomp2_fortran_assign(slot, ctc, len, pp_pomp2_region_assign);
}

/* The C slot of a Fortran handle, assigned if it was not yet. */
static inline void **pp_pomp2_fortran_slot(pp_f_handle *handle, const char *ctc, pp_f_len len)
{
    void **slot = (void **)handle;
    if (__builtin_expect(slot && __atomic_load_n(slot, __ATOMIC_ACQUIRE) != NULL, 1))
        return slot;
    if (slot)
        pp_pomp2_fortran_assign_slot(slot, ctc, len);
    return slot;
}

/* For calls that carry no string: the C side deals with a NULL slot. */
#define PP_SLOT(h) ((void **)(h))
#define PP_TASK(p) ((POMP2_Task_handle *)(p))
/* Arguments read by value; a missing one (NULL) reads as 0 / .true. */
#define PP_TASK_VALUE(p) ((p) ? *(p) : 0)
#define PP_IF_VALUE(p) ((p) ? *(p) != 0 : 1)

/* ---- one definition per argument shape (see pp_pomp2_fortran_table.h) ---- */

#define PP_POMP2_F_CALL(name, NAME, entry) \
    void PP_POMP2_F_NAME(name, NAME)(void) { entry(); }

#define PP_POMP2_F_QUERY(name, NAME, entry) \
    pp_f_int PP_POMP2_F_NAME(name, NAME)(void) { return entry(); }

#define PP_POMP2_F_ASSIGN(name, NAME, entry)                                        \
    void PP_POMP2_F_NAME(name, NAME)(pp_f_handle *h, const char *ctc, pp_f_len len) \
    {                                                                               \
        if (h && !*h)                                                               \
            pp_pomp2_fortran_assign(PP_SLOT(h), ctc, len, entry);                   \
    }

#define PP_POMP2_F_REGION(name, NAME, entry) \
    void PP_POMP2_F_NAME(name, NAME)(pp_f_handle *h) { entry(PP_SLOT(h)); }

#define PP_POMP2_F_REGION_CTC(name, NAME, entry)                                    \
    void PP_POMP2_F_NAME(name, NAME)(pp_f_handle *h, const char *ctc, pp_f_len len) \
    {                                                                               \
        entry(pp_pomp2_fortran_slot(h, ctc, len), NULL);                            \
    }

#define PP_POMP2_F_TASK_IN(name, NAME, entry)                                      \
    void PP_POMP2_F_NAME(name, NAME)(pp_f_handle *h, const pp_f_handle *task)       \
    {                                                                               \
        entry(PP_SLOT(h), PP_TASK_VALUE(task));                                     \
    }

#define PP_POMP2_F_TASK_OUT(name, NAME, entry)                                     \
    void PP_POMP2_F_NAME(name, NAME)(pp_f_handle *h, pp_f_handle *old_task)         \
    {                                                                               \
        entry(PP_SLOT(h), PP_TASK(old_task));                                       \
    }

#define PP_POMP2_F_TASK_OUT_CTC(name, NAME, entry)                                 \
    void PP_POMP2_F_NAME(name, NAME)(pp_f_handle *h, pp_f_handle *old_task,         \
                                     const char *ctc, pp_f_len len)                 \
    {                                                                               \
        entry(pp_pomp2_fortran_slot(h, ctc, len), PP_TASK(old_task), NULL);         \
    }

#define PP_POMP2_F_TASK_CREATE(name, NAME, entry)                                  \
    void PP_POMP2_F_NAME(name, NAME)(pp_f_handle *h, pp_f_handle *new_task,         \
                                     pp_f_handle *old_task, const pp_f_int *if_clause, \
                                     const char *ctc, pp_f_len len)                 \
    {                                                                               \
        entry(pp_pomp2_fortran_slot(h, ctc, len), PP_TASK(new_task), PP_TASK(old_task), \
              PP_IF_VALUE(if_clause), NULL);                                        \
    }

/* copyin(pomp_tpd) copies the Fortran context to the team: store it there too */
#define PP_POMP2_F_FORK(name, NAME, entry)                                         \
    void PP_POMP2_F_NAME(name, NAME)(pp_f_handle *h, const pp_f_int *if_clause,     \
                                     const pp_f_int *num_threads, pp_f_handle *old_task, \
                                     const char *ctc, pp_f_len len)                 \
    {                                                                               \
        entry(pp_pomp2_fortran_slot(h, ctc, len), PP_IF_VALUE(if_clause),           \
              num_threads ? *num_threads : 0, PP_TASK(old_task), NULL);             \
        PP_POMP2_F_TPD = pomp_tpd;                                                  \
    }

/* ... and each team thread takes it from there */
#define PP_POMP2_F_TEAM_BEGIN(name, NAME, entry)                                   \
    void PP_POMP2_F_NAME(name, NAME)(pp_f_handle *h)                                \
    {                                                                               \
        pomp_tpd = PP_POMP2_F_TPD;                                                  \
        entry(PP_SLOT(h));                                                          \
    }

/* pompprof.h's parameters: the name's and a string value's CHARACTER
 * lengths come last; trailing blanks do not count (a CHARACTER variable is
 * blank-padded).  No copy: the engine takes bytes with a length. */
static inline size_t pp_pomp2_fortran_trim(const char *s, pp_f_len len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    return len;
}

#define PP_POMPPROF_F_PARAM_INT64(name, NAME, c_name)                              \
    void PP_POMPPROF_F_NAME(name, NAME)(const char *key, const int64_t *value,      \
                                        pp_f_len key_len)                           \
    {                                                                               \
        pp_param_key k = pp_pomp2_param_key(key, pp_pomp2_fortran_trim(key, key_len)); \
        if (k != PP_PARAM_INVALID && value)                                         \
            pp_profile_parameter_int64(k, *value);                                  \
    }

#define PP_POMPPROF_F_PARAM_STRING(name, NAME, c_name)                             \
    void PP_POMPPROF_F_NAME(name, NAME)(const char *key, const char *value,         \
                                        pp_f_len key_len, pp_f_len value_len)       \
    {                                                                               \
        pp_param_key k = pp_pomp2_param_key(key, pp_pomp2_fortran_trim(key, key_len)); \
        if (k != PP_PARAM_INVALID)                                                  \
            pp_profile_parameter_string(k, value,                                   \
                                        value ? pp_pomp2_fortran_trim(value, value_len) : 0); \
    }

/* The regions of the C lock wrappers (pp_pomp2_lock.c) around libgomp's
 * Fortran lock functions (see above); the test functions return a default
 * LOGICAL / INTEGER. */
#define PP_POMP2_LOCK_CALL(name, NAME, Name, lock_type)                            \
    void PP_POMP2_F_OMP_NAME(name, NAME)(void *lock);                               \
    void PP_POMP2_F_NAME(name, NAME)(void *lock)                                    \
    {                                                                               \
        PP_POMP2_LOCK_WRAP(PP_LOCK_##NAME, lock, PP_POMP2_F_OMP_NAME(name, NAME)(lock), 0); \
    }
#define PP_POMP2_LOCK_TEST(name, NAME, Name, lock_type)                            \
    pp_f_int PP_POMP2_F_OMP_NAME(name, NAME)(void *lock);                           \
    pp_f_int PP_POMP2_F_NAME(name, NAME)(void *lock)                                \
    {                                                                               \
        pp_f_int result;                                                            \
        PP_POMP2_LOCK_WRAP(PP_LOCK_##NAME, lock, result = PP_POMP2_F_OMP_NAME(name, NAME)(lock), \
                           result);                                                       \
        return result;                                                              \
    }
/* the hint is an INTEGER(omp_sync_hint_kind), passed on by reference; the
 * hinted call is a weak reference, as in C (pp_pomp2_lock.c) */
#define PP_POMP2_LOCK_HINT(name, NAME, Name, lock_type, plain, PLAIN)                     \
    void PP_POMP2_F_OMP_NAME(name, NAME)(void *lock, const void *hint)              \
        __attribute__((weak));                                                      \
    void PP_POMP2_F_OMP_NAME(plain, PLAIN)(void *lock);                             \
    void PP_POMP2_F_NAME(name, NAME)(void *lock, const void *hint)                  \
    {                                                                               \
        PP_POMP2_LOCK_WRAP(PP_LOCK_##NAME, lock,                                    \
                           PP_POMP2_F_OMP_NAME(name, NAME)                          \
                               ? PP_POMP2_F_OMP_NAME(name, NAME)(lock, hint)        \
                               : PP_POMP2_F_OMP_NAME(plain, PLAIN)(lock), 0);       \
    }

#include "pomp2/pp_pomp2_fortran_table.h"

/* Dependences of Fortran tasks (wrapper/fortran_depend.py inserts the calls):
 * one list item per call, INTEGER(KIND=8) address and size (LOC, SIZEOF),
 * default INTEGER kind; pp_pomp2_depend.c does the rest. */
void PP_POMPPROF_F_NAME(task_depend, TASK_DEPEND)(const pp_f_handle *task, const int64_t *addr,
                                                  const int64_t *size, const pp_f_int *kind);
void PP_POMPPROF_F_NAME(taskwait_depend, TASKWAIT_DEPEND)(const int64_t *addr,
                                                          const int64_t *size,
                                                          const pp_f_int *kind);

void PP_POMPPROF_F_NAME(task_depend, TASK_DEPEND)(const pp_f_handle *task, const int64_t *addr,
                                                  const int64_t *size, const pp_f_int *kind)
{
    pp_depend d = {(uint64_t)*addr, (uint64_t)*size, (uint32_t)*kind};
    pompprof_task_depend((POMP2_Task_handle)*task, &d, 1);
}

void PP_POMPPROF_F_NAME(taskwait_depend, TASKWAIT_DEPEND)(const int64_t *addr,
                                                          const int64_t *size,
                                                          const pp_f_int *kind)
{
    pp_depend d = {(uint64_t)*addr, (uint64_t)*size, (uint32_t)*kind};
    pompprof_taskwait_depend(&d, 1);
}
