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
