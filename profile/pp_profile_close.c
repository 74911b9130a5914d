/* Closing what is still open when measurement ends: the regions of every
 * team and of the serial part, and the explicit task instances still active
 * (finished where they stand, suspended ones at the time they were
 * suspended).  Afterwards the instance trees are flushed, so a location's
 * main tree, worker trees and merged task trees hold every measured value. */
#include "profile/pp_profile_internal.h"
#include "profile/pp_profile_names.h"

void pp_profile_close_location(pp_location *loc, uint64_t now)
{
    /* innermost first: a team nested in an explicit task has its nodes in
     * that task's tree, which is merged (and recycled) below */
    for (pp_task *it = loc->implicit; it && it != &loc->initial; it = it->parent_implicit) {
        for (pp_node *n = it->pos; n; n = n->parent) {
            pp_profile_close_node(loc, it, n, now);
            if (n == it->floor)
                break;
        }
        it->pos = it->floor;
        it->floor = NULL;
    }
    /* every team is closed: a second close (an event source closed this
     * location earlier, pp_profile_names.h) finds none */
    loc->current = loc->implicit = &loc->initial;
    while (loc->active_top)
        pp_profile_task_finish(loc, loc->active_top, now);
    PP_ASSERT(loc->active_top == NULL && loc->current == &loc->initial);
    /* finished instances may leave their values in their kept trees */
    pp_profile_instance_flush(loc);
    /* the serial part: the master's program root is open since init */
    pp_task *in = &loc->initial;
    /* the serial part's open regions: one path up to the program root */
    PP_ASSERT(pp_profile_task_path_ok(in, loc->root));
    for (pp_node *n = in->pos; n; n = n->parent) {
        if (n == loc->root) {
            if (n->flags & PP_NODE_OPEN) {
                pp_profile_close_node(loc, in, n, now);
                n->flags &= (uint16_t)~PP_NODE_OPEN;
            }
            break;
        }
        pp_profile_close_node(loc, in, n, now);
    }
    in->pos = loc->root;
}

void *pp_profile_location_ref(void)
{
    pp_location *loc = pp_profile_tls_;
    return loc ? loc : pp_profile_measuring() ? pp_profile_location_create() : NULL;
}

void pp_profile_location_close_at(void *ref, uint64_t when)
{
    if (ref)
        pp_profile_close_location(ref, when);
}
