/* Untied tasks that move between threads.
 *
 * An event source that sees an untied task suspended on one thread and
 * resumed on another (the OMPT layer does; POMP2 calls cannot tell) keeps a
 * reference to the task's engine state instead of its handle:
 * - task_ref: the calling thread's running explicit task (NULL: none), taken
 *   right after its begin;
 * - task_ref_region: the task construct of a reference (for the task's end);
 * - task_resume_ref: the task of ref goes on on this thread: as a switch if
 *   it was suspended here; if it was suspended on another thread it moves
 *   here: its open regions end there without a visit (the time so far stays
 *   in that thread's tree, as a parameter split leaves it) and open again
 *   here, where its visits and the instance count when they end, so nothing
 *   is counted twice or lost.  Returns the reference of the task from now
 *   on.  A moved task leaves a shell on its old thread (its tree, finished
 *   without counting at the end): memory grows with the moves. */
#ifndef PP_PROFILE_MIGRATE_H
#define PP_PROFILE_MIGRATE_H

#include "profile/pp_profile.h"

void *pp_profile_task_ref(void);
pp_region_id pp_profile_task_ref_region(const void *ref);
void *pp_profile_task_resume_ref(void *ref, uint64_t now);

#endif
