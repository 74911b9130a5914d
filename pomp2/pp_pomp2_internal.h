/* Declarations shared by the adapter's own files (not part of any API). */
#ifndef PP_POMP2_INTERNAL_H
#define PP_POMP2_INTERNAL_H

#include <stdint.h>

#include "profile/pp_profile.h"

/* The threadprivate fork context (defined in pp_pomp2_entry.c). */
extern __thread int64_t pomp_tpd;

/* Define the omp_*_lock wrapper regions (pp_pomp2_lock.c); called once from
 * the adapter's initialization. */
void pp_pomp2_lock_define_regions(void);

/* The lock calls wrapped as regions, in pp_pomp2_lock.c and (for Fortran's
 * omp_*_lock) pp_pomp2_fortran.c. */
enum {
    PP_LOCK_INIT,
    PP_LOCK_DESTROY,
    PP_LOCK_SET,
    PP_LOCK_UNSET,
    PP_LOCK_TEST,
    PP_NEST_LOCK_INIT,
    PP_NEST_LOCK_DESTROY,
    PP_NEST_LOCK_SET,
    PP_NEST_LOCK_UNSET,
    PP_NEST_LOCK_TEST,
    PP_LOCK_N
};

/* The wrapper region of lock call `which` (valid once the adapter is
 * initialized), so both language bindings share the same regions. */
pp_region_id pp_pomp2_lock_region_id(int which);

/* Measure one lock call as its wrapper region (C and Fortran lock entry
 * points alike); the region ids exist once the adapter is initialized. */
#define PP_POMP2_LOCK_WRAP(which, call)                      \
    do {                                                     \
        pp_pomp2_ensure_init();                              \
        pp_profile_enter(pp_pomp2_lock_region_id(which));    \
        call;                                                \
        pp_profile_exit(pp_pomp2_lock_region_id(which));     \
    } while (0)

#endif
