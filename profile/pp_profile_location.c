/* Locations (one per thread that sends events) and the task handles they
 * hand out.  The global list of locations is touched only when a location is
 * created (under a mutex) and at the end. */
#include "profile/pp_profile_internal.h"

#include <stdlib.h>

#include "lib/pp_counters.h"
#include "lib/pp_message.h"

pp_location *pp_profile_location_create(void)
{
    pp_location *loc = calloc(1, sizeof *loc);
    if (!loc) {
        /* without a location nothing can be recorded on this thread: stop
         * measuring altogether rather than crash */
        pp_message_warn("out of memory for a thread's profile; measurement stops");
        pp_profile_g.finished = 1;
        pp_profile_update_measuring();
        return NULL;
    }
    loc->counter_set = -1;
    pthread_mutex_lock(&pp_profile_g.lock);
    loc->index = pp_profile_g.n_locations++;
    pthread_mutex_unlock(&pp_profile_g.lock);
    loc->handle_last = (uint64_t)(loc->index + 1) << 40;

    loc->root = pp_profile_node_new(loc, NULL, pp_profile_g.program_region, PP_NODE_PROGRAM, 1);
    loc->tasks = pp_profile_node_new(loc, NULL, pp_profile_g.tasks_region, PP_NODE_TASKS, 1);
    if (!loc->root || !loc->tasks) {
        pp_message_warn("out of memory for a thread's profile; measurement stops");
        pp_profile_g.finished = 1;
        pp_profile_update_measuring();
        return NULL;
    }
    loc->tasks->depth = 1;
    loc->initial.handle = pp_profile_handle_of(loc);
    loc->initial.pos = loc->root;
    loc->initial.floor = loc->root;
    loc->current = loc->implicit = &loc->initial;
    loc->n_ctr = pp_profile_g.n_ctr;
    if (loc->n_ctr) {
        loc->counter_set = pp_counters_thread_start();
        if (loc->counter_set < 0)
            loc->n_ctr = 0; /* warned by pp_counters; this thread records time only */
    }

    loc->trace = pp_trace_thread_start(loc->index, loc->initial.handle);
    loc->plain = !loc->trace && !loc->n_ctr;

    if (pp_profile_location_publish(loc) != 0) {
        /* measurement ended while it was made: it records nothing (its
         * index stays a thread without values in the profile) */
        pp_profile_arena_release(loc);
        free(loc);
        return NULL;
    }
    return loc;
}

pp_task_handle pp_profile_task_new_handle(void)
{
    pp_location *loc = pp_profile_tls_;
    if (PP_LIKELY(loc != NULL) || (pp_profile_measuring() && (loc = pp_profile_location_create())))
        return pp_profile_handle_of(loc);
    /* not measuring and no location: still unique (0xffffff never is a
     * location index); rare, so an atomic is fine here */
    static uint64_t pp_profile_off_handles;
    return (0xffffffull << 40) | __atomic_add_fetch(&pp_profile_off_handles, 1, __ATOMIC_RELAXED);
}
