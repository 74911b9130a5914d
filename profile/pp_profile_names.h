/* Regions named late, beyond renaming (pp_profile.h: pp_profile_region_rename
 * from an end hook, pp_profile_at_end).
 *
 * An event source that learns its regions' names only at the end (the OMPT
 * layer, ompt/, knows a code address on the event path and resolves it to a
 * file and line at finalize) may find two regions to be one construct (one
 * construct inlined at two call sites): an alias makes them one, as
 * unification treats the alias as the region it stands for.  And a thread
 * whose last events the runtime reports late can be closed from the hook. */
#ifndef PP_PROFILE_NAMES_H
#define PP_PROFILE_NAMES_H

#include "profile/pp_profile.h"

/* From now on unification merges id into same_as (same_as must not itself
 * be an alias; ignored for unknown ids or id == same_as). */
void pp_profile_region_alias(pp_region_id id, pp_region_id same_as);

/* The region id stands for: same_as of an alias, else id. */
pp_region_id pp_profile_region_canonical(pp_region_id id);

/* Threads whose end the runtime reports late.  location_ref: the calling
 * thread's engine location (opaque; NULL when not measuring).  From the
 * hook only: location_close_at closes everything still open on that
 * location at `when` (a worker's last team, whose end libomp reports only
 * at the next fork, ends when the team did); the engine's own close at the
 * end then finds nothing open there. */
void *pp_profile_location_ref(void);
void pp_profile_location_close_at(void *location, uint64_t when);

/* What a thread held back and had not recorded when measurement ended (a
 * task's begin an event source records with the task's next event, and that
 * thread is still inside the task's body): from the hook only, recorded on
 * the thread's location at `when`, in the order the thread would have
 * recorded them; the close at the end then ends what they opened.  Nothing
 * is recorded for a `when` after the end's time (the thread began the task
 * after the end). */
void pp_profile_location_task_begin_at(void *location, pp_region_id task_region,
                                       pp_task_handle task, uint64_t when);
void pp_profile_location_task_create_enter_at(void *location, pp_region_id region,
                                              pp_task_handle task, uint64_t when);
/* a scheduling point's region entered (a taskwait whose begin the thread
 * holds back until its end) */
void pp_profile_location_enter_at(void *location, pp_region_id region, uint64_t when);

#endif
