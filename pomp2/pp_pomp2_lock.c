/* OpenMP lock API wrappers (OPARI2 renames omp_*_lock calls to POMP2_*):
 * each call becomes a region "omp_set_lock" & co. (paradigm openmp, role
 * wrapper, file "OMP", as in the reference profiles) around the real call, so
 * the time spent waiting for a lock is visible. */
#include <opari2/pomp2_lib.h>
#include <omp.h>

#include "pomp2/pp_pomp2_internal.h"
#include "pomp2/pp_pomp2_region.h"

static const char *const pp_pomp2_lock_names[PP_LOCK_N] = {
    "omp_init_lock",      "omp_destroy_lock",      "omp_set_lock",      "omp_unset_lock",
    "omp_test_lock",      "omp_init_nest_lock",    "omp_destroy_nest_lock",
    "omp_set_nest_lock",  "omp_unset_nest_lock",   "omp_test_nest_lock",
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

void POMP2_Init_lock(omp_lock_t *s) { PP_POMP2_LOCK_WRAP(PP_LOCK_INIT, omp_init_lock(s)); }
void POMP2_Destroy_lock(omp_lock_t *s) { PP_POMP2_LOCK_WRAP(PP_LOCK_DESTROY, omp_destroy_lock(s)); }
void POMP2_Set_lock(omp_lock_t *s) { PP_POMP2_LOCK_WRAP(PP_LOCK_SET, omp_set_lock(s)); }
void POMP2_Unset_lock(omp_lock_t *s) { PP_POMP2_LOCK_WRAP(PP_LOCK_UNSET, omp_unset_lock(s)); }

int POMP2_Test_lock(omp_lock_t *s)
{
    int got;
    PP_POMP2_LOCK_WRAP(PP_LOCK_TEST, got = omp_test_lock(s));
    return got;
}

void POMP2_Init_nest_lock(omp_nest_lock_t *s)
{
    PP_POMP2_LOCK_WRAP(PP_NEST_LOCK_INIT, omp_init_nest_lock(s));
}

void POMP2_Destroy_nest_lock(omp_nest_lock_t *s)
{
    PP_POMP2_LOCK_WRAP(PP_NEST_LOCK_DESTROY, omp_destroy_nest_lock(s));
}

void POMP2_Set_nest_lock(omp_nest_lock_t *s)
{
    PP_POMP2_LOCK_WRAP(PP_NEST_LOCK_SET, omp_set_nest_lock(s));
}

void POMP2_Unset_nest_lock(omp_nest_lock_t *s)
{
    PP_POMP2_LOCK_WRAP(PP_NEST_LOCK_UNSET, omp_unset_nest_lock(s));
}

int POMP2_Test_nest_lock(omp_nest_lock_t *s)
{
    int depth;
    PP_POMP2_LOCK_WRAP(PP_NEST_LOCK_TEST, depth = omp_test_nest_lock(s));
    return depth;
}

int POMP2_Lib_get_max_threads(void)
{
    return omp_get_max_threads();
}
