/* Each thread's OMPT state: made at the thread's first event, reached
 * through an initial-exec thread-local pointer, and linked into one list so
 * the end can visit every thread (pp_ompt_internal.h). */
#include "ompt/pp_ompt_internal.h"

#include <stdlib.h>

#include "lib/pp_message.h"
#include "profile/pp_profile_names.h"

__thread pp_ompt_thread *pp_ompt_tls __attribute__((tls_model("initial-exec")));
static pp_ompt_thread *pp_ompt_thread_list;

pp_ompt_thread *pp_ompt_threads(void)
{
    return __atomic_load_n(&pp_ompt_thread_list, __ATOMIC_ACQUIRE);
}

pp_ompt_thread *pp_ompt_thread_create(void)
{
    /* A thread whose first event comes while measurement is off (a worker
     * that starts while another thread ends the run) gets its state at its
     * first event while measurement is on, if any: its handles would carry
     * no location. */
    void *location = pp_profile_location_ref();
    if (!location)
        return NULL;
    pp_ompt_thread *t = calloc(1, sizeof *t);
    if (!t) {
        PP_WARN_ONCE("out of memory for a thread's OMPT state; that thread is not measured");
        return NULL;
    }
    /* an engine handle carries the location index + 1 in its top bits */
    t->number = (uint32_t)((pp_profile_task_new_handle() >> PP_OMPT_ENGINE_LOCATION_SHIFT) - 1);
    t->value_base = pp_ompt_value_base(t->number);
    pp_ompt_pending_update(t);
    if (!t->value_base)
        PP_WARN_ONCE("more than %u threads: the tasks that thread %u and later ones create are "
                     "not measured (their time stays with the enclosing region)",
                     PP_OMPT_MAX_THREADS, t->number);
    t->location = location;
    t->next = __atomic_load_n(&pp_ompt_thread_list, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&pp_ompt_thread_list, &t->next, t, 1, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED)) {
    }
    pp_ompt_tls = t;
    return t;
}

/* What thread t holds back (pending's held events), read as the thread
 * published it (pp_ompt_internal.h): recorded on its location in the order
 * the thread would have recorded it, or nothing when the thread changed it
 * meanwhile. */
static void pp_ompt_held_take(pp_ompt_thread *t)
{
    uint32_t pending = __atomic_load_n(&t->pending, __ATOMIC_ACQUIRE);
    if (!(pending & PP_OMPT_PENDING_HELD) || !t->value_base)
        return;
    pp_callsite *created_c = __atomic_load_n(&t->create_c, __ATOMIC_RELAXED);
    uint64_t created = __atomic_load_n(&t->create_time, __ATOMIC_RELAXED);
    uint64_t run_value = __atomic_load_n(&t->run_value, __ATOMIC_RELAXED);
    uint64_t run_time = __atomic_load_n(&t->run_time, __ATOMIC_RELAXED);
    pp_callsite *wait_c = __atomic_load_n(&t->wait_c, __ATOMIC_RELAXED);
    uint64_t wait_time = __atomic_load_n(&t->wait_time, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&t->pending, __ATOMIC_RELAXED) != pending ||
        __atomic_load_n(&t->create_time, __ATOMIC_RELAXED) != created ||
        __atomic_load_n(&t->wait_time, __ATOMIC_RELAXED) != wait_time)
        return;
    if (pending & (PP_OMPT_PENDING_RUN | PP_OMPT_PENDING_CREATE)) {
        /* a creation whose begin did not come yet gets a value of its own:
         * the thread's later events record nothing */
        uint64_t value = (pending & PP_OMPT_PENDING_RUN)
                             ? run_value
                             : pp_ompt_value_new(t->value_base, created_c->index,
                                                 (uint32_t)PP_OMPT_COUNTER_MASK, true);
        pp_task_handle task = pp_ompt_engine_handle_explicit(value);
        pp_profile_location_task_create_enter_at(t->location, created_c->inner, task, created);
        if (pending & PP_OMPT_PENDING_RUN)
            pp_profile_location_task_begin_at(t->location, created_c->main, task, run_time);
    }
    if (pending & PP_OMPT_PENDING_WAIT)
        pp_profile_location_enter_at(t->location, wait_c->main, wait_time);
}

void pp_ompt_held_at_end(void)
{
    for (pp_ompt_thread *t = pp_ompt_threads(); t; t = t->next)
        pp_ompt_held_take(t);
}
