/* Explicit tasks: creation, scheduling, dependences.
 *
 * task_create names the new task's construct: the engine enters the
 * construct's creation region there.  A deferred task's creation ends at
 * once (OMPT reports no end of it); an undeferred one's (a false if clause,
 * a task inside a final task, every task of a one-thread team in libomp)
 * stays open until the task completes, so the instance runs inside its
 * creation as in OPARI2 mode.  task_schedule says which task stops (it
 * completes, or is suspended: yield, switch) and which one runs next: a task
 * that never ran begins (an instance, with its own tree), one that ran
 * before resumes (the engine restarts its clock).  Every taskloop task
 * arrives here as a task of its own. */
#include "ompt/pp_ompt_internal.h"

#include "lib/pp_message.h"
#include "lib/pp_timer.h"
#include "lib/pp_tsan.h"
#include "profile/pp_profile_migrate.h"

/* A taskwait with depend clauses: libomp creates a pseudo task for it
 * (flag ompt_task_taskwait, undeferred), reports the taskwait's dependences
 * as that task's, runs other tasks while it waits (their task_schedule
 * events name the encountering task, not the pseudo one) and ends the wait
 * with a task_schedule of the pseudo task, status ompt_taskwait_complete.
 * No sync_region event marks it.  The layer measures it as OPARI2 mode
 * does: the dependences (pp_profile_taskwait_depend), then a taskwait
 * region at the construct's address, entered after them and left at
 * taskwait_complete.  The pseudo task's value: bit 0 set, bit 1 "region
 * entered", the construct's index + 1 from bit 2 on (0: none); never a
 * handle (engine handles are at least 1 << 40).  libomp waits for the
 * dependences of an if(0) task the same way, then creates the task
 * (undeferred, without dependences): the construct is then marked for its
 * name (the task's line). */
#define PP_OMPT_TASKWAIT_ENTERED 2ull

static void pp_ompt_task_create_body(ompt_data_t *new_task_data, int flags,
                                     int has_dependences, const void *codeptr_ra)
{
    new_task_data->value = 0;
    if (!(flags & (ompt_task_explicit | ompt_task_taskwait)))
        return; /* initial and target tasks: nothing to measure */
    pp_ompt_thread *t = pp_ompt_event_thread();
    if (!t)
        return;
    pp_ompt_construct *wait = t->wait_done;
    t->wait_done = NULL;
    if (flags & ompt_task_taskwait) {
        pp_ompt_construct *c = pp_ompt_construct_get(codeptr_ra, PP_OMPT_TASKWAIT_DEPEND);
        new_task_data->value = 1 | (c ? (uint64_t)(c->index + 1) << 2 : 0);
        return;
    }
    if (__builtin_expect(wait != NULL, 0) && (flags & ompt_task_undeferred) && !has_dependences)
        __atomic_store_n(&wait->if0_task, true, __ATOMIC_RELAXED); /* for its name */
    pp_ompt_construct *c =
        pp_ompt_construct_get(codeptr_ra,
                              (flags & ompt_task_untied) ? PP_OMPT_UNTIED_TASK : PP_OMPT_TASK);
    if (!c)
        return;
    bool undeferred = (flags & ompt_task_undeferred) != 0;
    uint64_t value = PP_OMPT_EXPLICIT | (undeferred ? PP_OMPT_UNDEFERRED : 0) |
                     ((uint64_t)c->index << PP_OMPT_INDEX_SHIFT) |
                     ((uint64_t)(t->number & 0x7ff) << 28) | (++t->counter & 0xfffffff);
    new_task_data->value = value;
    uint64_t now = pp_timer_now();
    pp_profile_task_create_enter_at(c->inner, pp_ompt_engine_handle(value), now);
    if (undeferred)
        return;
    if (has_dependences) {
        /* its dependences come next (their records must follow the
         * creation, as in OPARI2 mode): the creation ends after them, at
         * this time, or at the thread's next event if none come (libomp says
         * has_dependences for an empty iterator too) */
        t->ws_pending = c;
        t->ws_pending_end = now;
    } else {
        pp_profile_exit_at(c->inner, now);
    }
}

static void pp_ompt_task_create(ompt_data_t *encountering_task_data,
                                const ompt_frame_t *encountering_task_frame,
                                ompt_data_t *new_task_data, int flags, int has_dependences,
                                const void *codeptr_ra)
{
    (void)encountering_task_data, (void)encountering_task_frame;
    pp_ompt_task_create_body(new_task_data, flags, has_dependences, codeptr_ra);
    PP_TSAN_RELEASE(new_task_data); /* the task may begin on another thread (lib/pp_tsan.h) */
}

void pp_ompt_resume(ompt_data_t *task_data, uint64_t now)
{
    uint64_t v = task_data->value;
    if (v & PP_OMPT_MOVING) {
        void *ref = (void *)(uintptr_t)(v & PP_OMPT_REF_MASK);
        void *now_ref = pp_profile_task_resume_ref(ref, now);
        if (now_ref != ref)
            task_data->value = (v & ~PP_OMPT_REF_MASK) | (uint64_t)(uintptr_t)now_ref;
    } else if (!pp_ompt_is_taskwait_depend(v)) {
        pp_profile_task_switch_to_at(pp_ompt_engine_handle(v), now);
    }
}

/* The region of a task's construct (for its end). */
static pp_region_id pp_ompt_task_region(uint64_t value, pp_ompt_construct **c)
{
    if (value & PP_OMPT_MOVING) {
        *c = NULL;
        return pp_profile_task_ref_region((void *)(uintptr_t)(value & PP_OMPT_REF_MASK));
    }
    *c = pp_ompt_task_construct(value);
    return *c ? (*c)->main : PP_REGION_INVALID;
}

static void pp_ompt_task_schedule_body(ompt_data_t *prior_task_data,
                                       ompt_task_status_t prior_status,
                                       ompt_data_t *next_task_data)
{
    pp_ompt_thread *t = pp_ompt_self();
    if (!t || prior_status == ompt_task_early_fulfill)
        return; /* the event of a detached task was fulfilled: nothing runs or stops */
    pp_ompt_ws_flush(t);
    uint64_t now = pp_timer_now();
    uint64_t prior = prior_task_data ? prior_task_data->value : 0;
    if (pp_ompt_is_taskwait_depend(prior)) {
        /* a taskwait depend's wait ends (ompt_taskwait_complete) */
        pp_ompt_construct *c = pp_ompt_construct_at((uint32_t)(prior >> 2) - 1);
        if (c && (prior & PP_OMPT_TASKWAIT_ENTERED))
            pp_profile_exit_at(c->main, now);
        t->wait_done = c;
        prior_task_data->value = 0;
        return;
    }
    pp_ompt_construct *ended_undeferred = NULL;
    bool ends = prior_status == ompt_task_complete || prior_status == ompt_task_cancel ||
                prior_status == ompt_task_detach || prior_status == ompt_task_late_fulfill;
    if ((prior & PP_OMPT_EXPLICIT) && ends) {
        /* a detached task's instance ends with its body; the fulfilment
         * that completes it later changes nothing that was measured */
        if ((prior & PP_OMPT_BEGUN) && !(prior & PP_OMPT_ENDED)) {
            pp_ompt_construct *c;
            pp_region_id region = pp_ompt_task_region(prior, &c);
            if (region != PP_REGION_INVALID) {
                pp_profile_task_end_at(region, now);
                if (c && (prior & PP_OMPT_UNDEFERRED))
                    ended_undeferred = c;
            }
            prior_task_data->value = prior | PP_OMPT_ENDED;
        }
    }
    uint64_t next = next_task_data ? next_task_data->value : 0;
    if ((next & PP_OMPT_EXPLICIT) && !(next & PP_OMPT_BEGUN)) {
        pp_ompt_construct *c = pp_ompt_task_construct(next);
        next |= PP_OMPT_BEGUN;
        if (c) {
            bool untied = c->kind == PP_OMPT_UNTIED_TASK;
            /* untied: not measured as tied (the engine would warn so): an
             * untied task that resumes elsewhere moves with it */
            pp_profile_task_begin_at(c->main, pp_ompt_engine_handle(next), false, now);
            void *ref = untied && !(next & PP_OMPT_UNDEFERRED) ? pp_profile_task_ref() : NULL;
            if (ref) /* libomp may resume it elsewhere: follow the engine's task */
                next = PP_OMPT_EXPLICIT | PP_OMPT_BEGUN | PP_OMPT_MOVING |
                       (uint64_t)(uintptr_t)ref;
        }
        next_task_data->value = next;
    } else if (next && !(next & PP_OMPT_ENDED)) {
        pp_ompt_resume(next_task_data, now);
    }
    if (ended_undeferred)
        pp_profile_exit_at(ended_undeferred->inner, now); /* its creation ends with it */
}

/* A task begins or resumes here after its creation, or its suspension, on
 * another thread: the hand-over of its data (and of a moving task's engine
 * state) marked for ThreadSanitizer (lib/pp_tsan.h). */
static void pp_ompt_task_schedule(ompt_data_t *prior_task_data, ompt_task_status_t prior_status,
                                  ompt_data_t *next_task_data)
{
    if (next_task_data)
        PP_TSAN_ACQUIRE(next_task_data);
    pp_ompt_task_schedule_body(prior_task_data, prior_status, next_task_data);
    if (prior_task_data)
        PP_TSAN_RELEASE(prior_task_data);
}

static void pp_ompt_dependences(ompt_data_t *task_data, const ompt_dependence_t *deps,
                                int ndeps)
{
    if (task_data && ndeps > 0)
        pp_ompt_depend(task_data->value, deps, ndeps);
    uint64_t v = task_data ? task_data->value : 0;
    pp_ompt_construct *c =
        pp_ompt_is_taskwait_depend(v) && v >> 2 ? pp_ompt_construct_at((uint32_t)(v >> 2) - 1) : NULL;
    if (c) { /* the taskwait's region, entered after its dependences */
        pp_profile_enter(c->main);
        task_data->value = v | PP_OMPT_TASKWAIT_ENTERED;
    }
    pp_ompt_thread *t = pp_ompt_self();
    if (t)
        pp_ompt_ws_flush(t); /* the creation of the task, left open for these */
}

static void pp_ompt_cancel(ompt_data_t *task_data, int flags, const void *codeptr_ra)
{
    /* Nothing is measured at the request itself (OPARI2 mode has no cancel
     * region either): a cancelled task ends through task_schedule
     * (ompt_task_cancel), cancelled worksharing and parallel regions through
     * their usual ends. */
    (void)task_data, (void)flags, (void)codeptr_ra;
}

void pp_ompt_task_register(ompt_set_callback_t set, const char **missing, int *n_missing)
{
#define PP_WANT(name, fn) \
    pp_ompt_want(set, ompt_callback_##name, (ompt_callback_t)(fn), #name, missing, n_missing)
    PP_WANT(task_create, pp_ompt_task_create);
    PP_WANT(task_schedule, pp_ompt_task_schedule);
    PP_WANT(dependences, pp_ompt_dependences);
    PP_WANT(cancel, pp_ompt_cancel);
#undef PP_WANT
}
