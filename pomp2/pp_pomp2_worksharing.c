/* POMP2 worksharing and synchronization constructs: plain enter/exit pairs.
 *
 * Constructs with a body that only some threads execute get two regions:
 * *_enter/_exit bracket the whole construct (where threads also wait), the
 * *_begin/_end calls bracket the body ("sblock", "section").  For combined
 * "parallel for/sections/workshare" the loop part is the entry's worksharing
 * region, so it nests below the parallel region. */
#include <opari2/pomp2_lib.h>

#include "pomp2/pp_pomp2_region.h"

/* Each pair below: one atomic load of the handle, one engine call; written
 * out, not generated, so each entry point and its region can be found by name. */

void POMP2_For_enter(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->worksharing);
}

void POMP2_For_exit(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->worksharing);
}

void POMP2_Sections_enter(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->worksharing);
}

void POMP2_Sections_exit(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->worksharing);
}

void POMP2_Section_begin(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->inner);
}

void POMP2_Section_end(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->inner);
}

void POMP2_Workshare_enter(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->worksharing);
}

void POMP2_Workshare_exit(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->worksharing);
}

void POMP2_Single_enter(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->main);
}

void POMP2_Single_exit(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->main);
}

void POMP2_Single_begin(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, NULL)->inner);
}

void POMP2_Single_end(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->inner);
}

void POMP2_Master_begin(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->main);
}

void POMP2_Master_end(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->main);
}

void POMP2_Critical_enter(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->main);
}

void POMP2_Critical_exit(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->main);
}

void POMP2_Critical_begin(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, NULL)->inner);
}

void POMP2_Critical_end(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->inner);
}

void POMP2_Ordered_enter(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->main);
}

void POMP2_Ordered_exit(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->main);
}

void POMP2_Ordered_begin(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, NULL)->inner);
}

void POMP2_Ordered_end(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->inner);
}

void POMP2_Atomic_enter(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->main);
}

void POMP2_Atomic_exit(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->main);
}

void POMP2_Flush_enter(POMP2_Region_handle *pomp2_handle, const char ctc_string[])
{
    pp_profile_enter(pp_pomp2_region_of(pomp2_handle, ctc_string)->main);
}

void POMP2_Flush_exit(POMP2_Region_handle *pomp2_handle)
{
    pp_profile_exit(pp_pomp2_region_of(pomp2_handle, NULL)->main);
}
