/* POMP2 lifecycle and handle entry points: POMP2_Init/Finalize/On/Off, the
 * handle assignment called by OPARI2's generated POMP2_Init_regions, the
 * version query, and the adapter's own one-time initialization.
 *
 * Also defines pomp_tpd, the threadprivate variable that OPARI2 --omp-tpd
 * copies into every team (copyin(pomp_tpd)): the encountering thread stores
 * the fork context there, so each team thread learns below which call path
 * its tree hangs, also for nested parallel regions. */
#include <opari2/pomp2_lib.h>
#include <opari2/pomp2_user_lib.h>
#include <pthread.h>
#include <stdint.h>

#include "pomp2/pp_pomp2_internal.h"
#include "pomp2/pp_pomp2_region.h"
#include "profile/pp_profile.h"

#ifndef PP_OPARI2_VERSION
#define PP_OPARI2_VERSION "2.0.7"
#endif

__attribute__((visibility("default"), aligned(16))) __thread int64_t pomp_tpd;

/* Generated per program at link time (opari2's awk script, run by the
 * pompprof wrapper).  Weak: a program linked without that unit still works,
 * its handles are then assigned lazily from the region strings. */
extern void POMP2_Init_regions(void) __attribute__((weak));
extern void POMP2_USER_Init_regions(void) __attribute__((weak));

int pp_pomp2_initialized;
static pthread_once_t pp_pomp2_once = PTHREAD_ONCE_INIT;
/* The thread running the initialization re-enters through
 * POMP2_Init_regions -> POMP2_Assign_handle; it must not wait for itself. */
static __thread bool pp_pomp2_in_init;

static void pp_pomp2_init_once(void)
{
    pp_pomp2_in_init = true;
    pp_profile_init();
    pp_pomp2_lock_define_regions();
    /* Defining every region up front (not only the executed ones) lets the
     * profile list constructs that never ran, as the reference does. */
    if (POMP2_Init_regions)
        POMP2_Init_regions();
    if (POMP2_USER_Init_regions)
        POMP2_USER_Init_regions();
    pp_pomp2_in_init = false;
    __atomic_store_n(&pp_pomp2_initialized, 1, __ATOMIC_RELEASE);
}

void pp_pomp2_init_slow(void)
{
    if (pp_pomp2_in_init)
        return;
    pthread_once(&pp_pomp2_once, pp_pomp2_init_once);
}

void POMP2_Init(void)
{
    pp_pomp2_ensure_init();
}

void POMP2_Finalize(void)
{
    pp_pomp2_ensure_init();
    pp_profile_finalize();
}

void POMP2_On(void)
{
    pp_pomp2_ensure_init();
    pp_profile_set_enabled(true);
}

void POMP2_Off(void)
{
    pp_pomp2_ensure_init();
    pp_profile_set_enabled(false);
}

const char *POMP2_Get_opari2_version(void)
{
    return PP_OPARI2_VERSION;
}

void POMP2_Assign_handle(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_pomp2_region_assign(pomp2_handle, ctc_string);
}

void POMP2_USER_Assign_handle(POMP2_USER_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_pomp2_region_assign(pomp2_handle, ctc_string);
}
