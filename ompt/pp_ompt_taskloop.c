/* Taskloops: their region, their tasks, and libomp's generator tasks.
 *
 * libomp 14 reports a taskloop (its work event and the creation of its
 * tasks) at an address inside itself (__kmpc_taskloop), the same for every
 * taskloop of a program; the taskgroup a taskloop has (unless nogroup)
 * begins right before it, at the program's own address of the taskloop.
 * So a taskgroup's region waits for the thread's next event: when that is a
 * taskloop's begin, the two are one region, the taskloop's (creating its
 * tasks and waiting for them, as OPARI2 mode measures it), named after the
 * taskloop's address if it lies in the program, else after the taskgroup's;
 * the taskgroup's end ends it.  Otherwise the taskgroup's region begins
 * where it began.
 *
 * The taskloop's tasks are instances of a construct of their own (kind
 * PP_OMPT_TASKLOOP_TASK, at the same address: "!$omp taskloop task").  With
 * more tasks than ten per thread, libomp splits the loop recursively: it
 * creates a generator task that creates the second half of the tasks when
 * it runs (and a generator for half of those, and so on).  OMPT reports a
 * generator as one more task of the taskloop, and the creations of its
 * tasks as the taskloop's encountering task's.  So every taskloop task
 * begins at the thread's next event: a generator's next event is the
 * creation of a task that names another encountering task than itself; a
 * chunk's is anything else.  A generator is an instance of a construct of
 * its own ("!$omp taskloop generator", in the same creation region as the
 * tasks), so the taskloop task construct has exactly one instance per
 * chunk.
 *
 * Where tasks come from is kept per thread (pp_ompt_source): a taskloop
 * creating its tasks, or a generator running, with the encountering task
 * their creations name. */
#include "ompt/pp_ompt_internal.h"

#include "lib/pp_timer.h"

/* ---- where taskloop tasks come from ------------------------------------------------ */

static void pp_ompt_source_push(pp_ompt_thread *t, ompt_data_t *enc, ompt_data_t *generator,
                                pp_ompt_construct *tasks)
{
    if (t->n_sources < PP_OMPT_NEST)
        t->sources[t->n_sources] = (pp_ompt_source){enc, generator, tasks};
    t->n_sources++;
    pp_ompt_pending_update(t);
}

/* Pop the innermost source of generator (NULL: the taskloop's own). */
static void pp_ompt_source_pop(pp_ompt_thread *t, ompt_data_t *generator)
{
    if (t->n_sources > PP_OMPT_NEST) {
        t->n_sources--;
    } else {
        for (uint32_t i = t->n_sources; i-- > 0;)
            if (t->sources[i].generator == generator) {
                t->n_sources = i;
                break;
            }
    }
    pp_ompt_pending_update(t);
}

pp_ompt_construct *pp_ompt_taskloop_source(pp_ompt_thread *t, ompt_data_t *enc)
{
    uint32_t n = t->n_sources;
    if (n == 0 || n > PP_OMPT_NEST || t->sources[n - 1].encountering != enc)
        return NULL;
    return t->sources[n - 1].tasks;
}

/* ---- the tasks' begins ------------------------------------------------------------- */

void pp_ompt_taskloop_defer(pp_ompt_thread *t, ompt_data_t *task, uint64_t now)
{
    t->begin_task = task;
    t->begin_time = now;
    pp_ompt_pending_update(t);
}

void pp_ompt_taskloop_begin(pp_ompt_thread *t, bool generator, ompt_data_t *enc)
{
    ompt_data_t *task = t->begin_task;
    t->begin_task = NULL;
    uint64_t v = task->value;
    pp_ompt_construct *c = pp_ompt_task_construct(v), *as = c;
    if (generator) {
        pp_ompt_construct *g = pp_ompt_construct_find(t, c->codeptr, PP_OMPT_TASKLOOP_GENERATOR);
        if (g) {
            /* its creation region is the taskloop tasks' (entered when it
             * was created) */
            __atomic_store_n(&g->created_as, c, __ATOMIC_RELAXED);
            v = pp_ompt_value_set_index(v, g->index);
            as = g;
            pp_ompt_source_push(t, enc, task, c);
        }
    }
    task->value = v = pp_ompt_value_set_state(v, PP_OMPT_BEGUN);
    pp_profile_task_begin_at(as->main, pp_ompt_engine_handle(v), false, t->begin_time);
    pp_ompt_pending_update(t);
}

void pp_ompt_taskloop_generator_end(pp_ompt_thread *t, ompt_data_t *generator)
{
    pp_ompt_source_pop(t, generator);
}

/* ---- the taskloop's region ---------------------------------------------------------- */

void pp_ompt_taskgroup_defer(pp_ompt_thread *t, const void *codeptr, uint64_t now)
{
    t->group_codeptr = codeptr;
    t->group_time = now;
    t->group_pending = true;
    pp_ompt_pending_update(t);
}

void pp_ompt_taskgroup_settle(pp_ompt_thread *t)
{
    /* no taskloop's: the taskgroup's region, from its begin */
    t->group_pending = false;
    pp_ompt_construct *c = pp_ompt_construct_find(t, t->group_codeptr, PP_OMPT_TASKGROUP);
    pp_ompt_open_push(t, c, 0);
    if (c)
        pp_profile_enter_at(c->main, t->group_time);
}

void pp_ompt_taskloop_work(pp_ompt_thread *t, ompt_scope_endpoint_t endpoint, ompt_data_t *enc,
                           const void *codeptr, uint64_t now)
{
    if (endpoint == ompt_scope_begin) {
        bool grouped = t->group_pending; /* its taskgroup began right before it */
        t->group_pending = false;
        pp_ompt_settle(t);
        /* libomp 14's taskloop address lies in libomp: the taskgroup's is
         * the program's, else the call site on the stack */
        const void *at = codeptr;
        if (pp_ompt_in_runtime(codeptr)) {
            const void *site = grouped ? t->group_codeptr : pp_ompt_taskloop_callsite();
            if (site)
                at = site;
        }
        pp_ompt_construct *c = pp_ompt_construct_find(t, at, PP_OMPT_TASKLOOP);
        pp_ompt_open_push(t, c, grouped ? PP_OMPT_OPEN_GROUPED : 0);
        if (c)
            pp_profile_enter_at(c->main, grouped ? t->group_time : now);
        pp_ompt_source_push(t, enc, NULL, pp_ompt_construct_find(t, at, PP_OMPT_TASKLOOP_TASK));
        return;
    }
    pp_ompt_settle(t);
    pp_ompt_source_pop(t, NULL); /* it creates no more tasks */
    uintptr_t tags = 0;
    pp_ompt_construct *c = pp_ompt_open_top(t, &tags);
    if (c && c->kind == PP_OMPT_TASKLOOP && (tags & PP_OMPT_OPEN_GROUPED))
        return; /* it ends with its taskgroup */
    if ((c = pp_ompt_open_pop(t, PP_OMPT_TASKLOOP, NULL)) != NULL)
        pp_profile_exit_at(c->main, now);
}
