/* OpenMP lock API wrappers (OPARI2 renames omp_*_lock calls to POMP2_*):
 * each call becomes a region "omp_set_lock" & co. (paradigm openmp, role
 * wrapper, file "OMP", as in the reference profiles) around the real call, so
 * the time spent waiting for a lock is visible.  The calls are the rows of
 * pp_pomp2_lock_table.h. */
#include <opari2/pomp2_lib.h>
#include <omp.h>

#include "pomp2/pp_pomp2_internal.h"
#include "pomp2/pp_pomp2_region.h"

static const char *const pp_pomp2_lock_names[PP_LOCK_N] = {
#define PP_POMP2_LOCK_CALL(name, NAME, Name, lock_type) [PP_LOCK_##NAME] = "omp_" #name,
#define PP_POMP2_LOCK_TEST PP_POMP2_LOCK_CALL
#define PP_POMP2_LOCK_HINT(name, NAME, Name, lock_type, plain, PLAIN) \
    PP_POMP2_LOCK_CALL(name, NAME, Name, lock_type)
#include "pomp2/pp_pomp2_lock_table.h"
#undef PP_POMP2_LOCK_CALL
#undef PP_POMP2_LOCK_TEST
#undef PP_POMP2_LOCK_HINT
};

static pp_region_id pp_pomp2_lock_region[PP_LOCK_N];

pp_region_id pp_pomp2_lock_region_id(int which)
{
    return pp_pomp2_lock_region[which];
}

void pp_pomp2_lock_define_regions(void)
{
    for (int i = 0; i < PP_LOCK_N; i++) {
        pp_region_def def = {
            .name = pp_pomp2_lock_names[i],
            .file = "OMP",
            .begin_line = -1,
            .end_line = -1,
            .paradigm = "openmp",
            .role = "wrapper",
        };
        pp_pomp2_lock_region[i] = pp_profile_region_define(&def);
    }
}

/* void POMP2_Set_lock(omp_lock_t *s) & co., int POMP2_Test_lock(omp_lock_t *s) & co.,
 * void POMP2_Init_lock_with_hint(omp_lock_t *s, omp_sync_hint_t hint) & co. */
#define PP_POMP2_LOCK_CALL(name, NAME, Name, lock_type)                \
    void POMP2_##Name(lock_type *s)                                    \
    {                                                                  \
        PP_POMP2_LOCK_WRAP(PP_LOCK_##NAME, s, omp_##name(s), 0);       \
    }
#define PP_POMP2_LOCK_TEST(name, NAME, Name, lock_type)                \
    int POMP2_##Name(lock_type *s)                                     \
    {                                                                  \
        int result;                                                    \
        PP_POMP2_LOCK_WRAP(PP_LOCK_##NAME, s, result = omp_##name(s), result); \
        return result;                                                 \
    }
/* The hinted calls are weak references: a program that calls them links
 * against any runtime, and gets the plain call where the runtime has none. */
#define PP_POMP2_LOCK_HINT(name, NAME, Name, lock_type, plain, PLAIN)         \
    extern __typeof__(omp_##name) omp_##name __attribute__((weak));    \
    void POMP2_##Name(lock_type *s, omp_sync_hint_t hint)              \
    {                                                                  \
        PP_POMP2_LOCK_WRAP(PP_LOCK_##NAME, s,                          \
                           omp_##name ? omp_##name(s, hint) : omp_##plain(s), 0); \
    }
#include "pomp2/pp_pomp2_lock_table.h"
#undef PP_POMP2_LOCK_CALL
#undef PP_POMP2_LOCK_TEST
#undef PP_POMP2_LOCK_HINT

int POMP2_Lib_get_max_threads(void)
{
    return omp_get_max_threads();
}
