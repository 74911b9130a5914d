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
 * arrives here as a task of its own (pp_ompt_taskloop.c says which).
 *
 * The recursive task programs' events take a fast path (fib without cut-off
 * costs what doc/ompt.md, "Cost", says): a task created with nothing
 * waiting for the thread's next event, no dependences, tied, of a construct
 * in the thread's cache; its begin; its end and the resumption of the task
 * it returns to.  Anything else takes the general path, which is the same
 * code as before the fast paths existed. */
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
static __attribute__((noinline)) void
pp_ompt_task_create_general(ompt_data_t *encountering_task_data, ompt_data_t *new_task_data,
                            int flags, int has_dependences, const void *codeptr_ra)
{
    new_task_data->value = 0;
    if (!(flags & (ompt_task_explicit | ompt_task_taskwait)))
        return; /* initial and target tasks: nothing to measure */
    pp_ompt_thread *t = pp_ompt_measured();
    if (!t)
        return;
    /* a taskloop task whose begin waited: a generator, if this is a
     * creation of its (they name the taskloop's encountering task) */
    if (t->begin_task && (flags & ompt_task_explicit))
        pp_ompt_taskloop_begin(t, encountering_task_data != t->begin_task,
                               encountering_task_data);
    pp_callsite *wait = t->wait_done;
    t->wait_done = NULL;
    pp_ompt_settle(t);
    if (flags & ompt_task_taskwait) {
        pp_callsite *c = pp_ompt_construct_find(t, codeptr_ra, PP_CALLSITE_TASKWAIT_DEPEND);
        new_task_data->value = pp_ompt_value_taskwait(c != NULL, c ? c->index : 0);
        return;
    }
    if (__builtin_expect(wait != NULL, 0) && (flags & ompt_task_undeferred) && !has_dependences)
        __atomic_store_n(&wait->if0_task, true, __ATOMIC_RELAXED); /* for its name */
    pp_callsite *c = pp_ompt_taskloop_source(t, encountering_task_data);
    if (!c)
        c = pp_ompt_construct_find(t, codeptr_ra,
                                   (flags & ompt_task_untied) ? PP_CALLSITE_UNTIED_TASK
                                                              : PP_CALLSITE_TASK);
    if (!c || !t->value_base)
        return; /* no construct (out of memory, too many), or a thread beyond the limit */
    bool undeferred = (flags & ompt_task_undeferred) != 0;
    uint64_t value = pp_ompt_value_new(t->value_base, c->index, ++t->counter, undeferred);
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
        pp_ompt_pending_update(t);
    } else {
        pp_profile_exit_at(c->inner, now);
    }
}

/* An undeferred task's creation (construct c) held back while the
 * creation and begin of the task that creates it wait (pending RUN: that
 * task creates before anything else): those go to the engine, the new
 * creation waits in their place. */
static inline __attribute__((always_inline)) void
pp_ompt_task_create_after_run(pp_ompt_thread *t, ompt_data_t *new_task_data, pp_callsite *c)
{
    pp_callsite *held_c = t->create_c;
    uint64_t created = t->create_time, held_value = t->run_value;
    pp_ompt_hold_retract(t);
    t->create_task = new_task_data;
    PP_OMPT_HOLD_STORE(t->create_c, c);
    PP_OMPT_HOLD_STORE(t->create_time, pp_ompt_fast_now());
    t->run_held = false;
    pp_ompt_pending_set(t, PP_OMPT_PENDING_CREATE);
    pp_profile_task_create_run_at(held_c->inner, pp_ompt_engine_handle_explicit(held_value),
                                  created, held_c->main, t->run_time);
}

static void pp_ompt_task_create(ompt_data_t *encountering_task_data,
                                const ompt_frame_t *encountering_task_frame,
                                ompt_data_t *new_task_data, int flags, int has_dependences,
                                const void *codeptr_ra)
{
    (void)encountering_task_frame;
    pp_ompt_thread *t = pp_ompt_tls;
    pp_callsite *c;
    if (__builtin_expect(t != NULL && (t->pending & ~PP_OMPT_PENDING_RUN) == 0 &&
                             !has_dependences &&
                             (flags & (ompt_task_explicit | ompt_task_taskwait |
                                       ompt_task_untied)) == ompt_task_explicit &&
                             (c = pp_ompt_construct_cached(t, codeptr_ra, PP_CALLSITE_TASK)) !=
                                 NULL,
                         1)) {
        if (flags & ompt_task_undeferred) {
            /* it runs inside its creation, and its begin comes next: held
             * back until then, one engine call does both (its value is
             * made then, or when something else settles the creation) */
            if (t->pending) { /* (its creator's creation and begin wait) */
                pp_ompt_task_create_after_run(t, new_task_data, c);
                return;
            }
            t->create_task = new_task_data;
            PP_OMPT_HOLD_STORE(t->create_c, c);
            PP_OMPT_HOLD_STORE(t->create_time, pp_ompt_fast_now());
            pp_ompt_pending_set(t, PP_OMPT_PENDING_CREATE);
            return;
        }
        if (t->pending) {
            pp_ompt_task_create_general(encountering_task_data, new_task_data, flags,
                                        has_dependences, codeptr_ra);
            return;
        }
        uint64_t value = pp_ompt_value_new(t->value_base, c->index, ++t->counter, false);
        new_task_data->value = value;
        /* a deferred task's creation has no end OMPT would report */
        pp_profile_task_create_point(c->inner, pp_ompt_engine_handle_explicit(value));
        return;
    }
    pp_ompt_task_create_general(encountering_task_data, new_task_data, flags, has_dependences,
                                codeptr_ra);
}

void pp_ompt_resume(ompt_data_t *task_data, uint64_t now)
{
    uint64_t v = task_data->value;
    if (pp_ompt_value_is(v, PP_OMPT_MOVING)) {
        void *ref = pp_ompt_value_ref(v);
        void *now_ref = pp_profile_task_resume_ref(ref, now);
        uint64_t moved = now_ref != ref ? pp_ompt_value_moving(now_ref) : 0;
        if (moved) /* (a reference that does not fit: resumed by the old one) */
            task_data->value = moved;
    } else if (!pp_ompt_is_taskwait_depend(v)) {
        pp_profile_task_switch_to_at(pp_ompt_engine_handle(v), now);
    }
}

/* The region of a task's construct (for its end). */
static pp_region_id pp_ompt_task_region(uint64_t value, pp_callsite **c)
{
    if (pp_ompt_value_is(value, PP_OMPT_MOVING)) {
        *c = NULL;
        return pp_profile_task_ref_region(pp_ompt_value_ref(value));
    }
    *c = pp_ompt_task_construct(value);
    return *c ? (*c)->main : PP_REGION_INVALID;
}

/* Task begin at now: an instance of its construct (a taskloop task's waits
 * for the thread's next event). */
static void pp_ompt_task_begin(pp_ompt_thread *t, ompt_data_t *task_data, uint64_t now)
{
    uint64_t v = task_data->value;
    pp_callsite *c = pp_ompt_task_construct(v);
    if (c->kind == PP_CALLSITE_TASKLOOP_TASK) {
        pp_ompt_taskloop_defer(t, task_data, now);
        return;
    }
    task_data->value = v = pp_ompt_value_set_state(v, PP_OMPT_BEGUN);
    /* untied: not measured as tied (the engine would warn so): an untied
     * task that resumes elsewhere moves with it */
    pp_profile_task_begin_at(c->main, pp_ompt_engine_handle(v), false, now);
    bool untied = c->kind == PP_CALLSITE_UNTIED_TASK;
    uint64_t moving =
        untied && !(v & PP_OMPT_UNDEFERRED) ? pp_ompt_value_moving(pp_profile_task_ref()) : 0;
    if (moving) /* libomp may resume it elsewhere: follow the engine's task */
        task_data->value = moving;
}

static __attribute__((noinline)) void
pp_ompt_task_schedule_general(ompt_data_t *prior_task_data, ompt_task_status_t prior_status,
                              ompt_data_t *next_task_data)
{
    pp_ompt_thread *t = pp_ompt_measured();
    if (!t || prior_status == ompt_task_early_fulfill)
        return; /* the event of a detached task was fulfilled: nothing runs or stops */
    pp_ompt_settle(t);
    uint64_t now = pp_timer_now();
    uint64_t prior = prior_task_data ? prior_task_data->value : 0;
    if (pp_ompt_is_taskwait_depend(prior)) {
        /* a taskwait depend's wait ends (ompt_taskwait_complete) */
        uint32_t index;
        pp_callsite *c =
            pp_ompt_taskwait_index(prior, &index) ? pp_callsite_at(index) : NULL;
        if (c && (prior & PP_OMPT_TASKWAIT_ENTERED))
            pp_profile_exit_at(c->main, now);
        t->wait_done = c;
        pp_ompt_pending_update(t);
        prior_task_data->value = 0;
        return;
    }
    pp_region_id ended_creation = PP_REGION_INVALID;
    bool ends = prior_status == ompt_task_complete || prior_status == ompt_task_cancel ||
                prior_status == ompt_task_detach || prior_status == ompt_task_late_fulfill;
    if ((prior & PP_OMPT_EXPLICIT) && ends) {
        /* a detached task's instance ends with its body; the fulfilment
         * that completes it later changes nothing that was measured */
        uint64_t state = pp_ompt_value_state(prior);
        if (state == PP_OMPT_BEGUN || state == PP_OMPT_MOVING) {
            pp_callsite *c;
            pp_region_id region = pp_ompt_task_region(prior, &c);
            if (region != PP_REGION_INVALID) {
                pp_profile_task_end_at(region, now);
                if (c && (prior & PP_OMPT_UNDEFERRED)) /* its creation ends with it */
                    ended_creation = c->created_as ? c->created_as->inner : c->inner;
                if (c && c->kind == PP_CALLSITE_TASKLOOP_GENERATOR)
                    pp_ompt_taskloop_generator_end(t, prior_task_data);
            }
            prior_task_data->value = pp_ompt_value_set_state(prior, PP_OMPT_ENDED);
        }
    }
    uint64_t next = next_task_data ? next_task_data->value : 0;
    if (pp_ompt_value_is(next, PP_OMPT_CREATED))
        pp_ompt_task_begin(t, next_task_data, now);
    else if (next && !pp_ompt_value_is(next, PP_OMPT_ENDED))
        pp_ompt_resume(next_task_data, now);
    if (ended_creation != PP_REGION_INVALID)
        pp_profile_exit_at(ended_creation, now);
}

static void pp_ompt_task_schedule(ompt_data_t *prior_task_data, ompt_task_status_t prior_status,
                                  ompt_data_t *next_task_data)
{
    pp_ompt_thread *t = pp_ompt_tls;
    if (__builtin_expect(t != NULL && t->pending == PP_OMPT_PENDING_CREATE &&
                             next_task_data == t->create_task &&
                             prior_status == ompt_task_switch,
                         1)) {
        /* the begin of the undeferred task whose creation was held back:
         * held back too, until the task's end (a task in which nothing
         * else happens is one engine call) or another event */
        pp_callsite *c = t->create_c;
        uint64_t value = pp_ompt_value_set_state(
            pp_ompt_value_new(t->value_base, c->index, ++t->counter, true), PP_OMPT_BEGUN);
        next_task_data->value = value;
        PP_OMPT_HOLD_STORE(t->run_value, value);
        PP_OMPT_HOLD_STORE(t->run_time, pp_ompt_fast_now());
        t->run_held = true;
        pp_ompt_pending_set(t, PP_OMPT_PENDING_RUN);
        return;
    }
    if (__builtin_expect(t != NULL && t->pending == PP_OMPT_PENDING_RUN &&
                             prior_task_data == t->create_task &&
                             prior_status == ompt_task_complete && next_task_data != NULL,
                         1)) {
        uint64_t next = next_task_data->value;
        if (__builtin_expect(pp_ompt_value_resumable(next), 1)) {
            /* the end of that task, which did nothing the layer saw */
            pp_callsite *c = t->create_c;
            uint64_t prior = prior_task_data->value;
            prior_task_data->value = pp_ompt_value_set_state(prior, PP_OMPT_ENDED);
            pp_ompt_hold_retract(t);
            t->create_task = NULL;
            t->run_held = false;
            pp_profile_task_create_run_end(c->inner, pp_ompt_engine_handle_explicit(prior),
                                           t->create_time, t->run_time, c->main,
                                           pp_ompt_engine_handle(next));
            return;
        }
    }
    if (__builtin_expect(t != NULL && !t->pending && next_task_data != NULL, 1)) {
        uint64_t next = next_task_data->value;
        pp_callsite *c;
        if (prior_status == ompt_task_switch && pp_ompt_value_is(next, PP_OMPT_CREATED)) {
            /* a tied task's first run */
            if (__builtin_expect((c = pp_ompt_task_construct(next))->kind == PP_CALLSITE_TASK, 1)) {
                next = pp_ompt_value_set_state(next, PP_OMPT_BEGUN);
                next_task_data->value = next;
                pp_profile_task_begin(c->main, pp_ompt_engine_handle_explicit(next), false);
                return;
            }
        } else if (prior_status == ompt_task_complete && prior_task_data != NULL) {
            /* a task's end, and the task that goes on (an undeferred task's
             * creation ends with it) */
            uint64_t prior = prior_task_data->value;
            /* (any begun task: a generator's end takes the general path, as
             * everything does while one runs on the thread) */
            if (pp_ompt_value_is(prior, PP_OMPT_BEGUN) && pp_ompt_value_resumable(next)) {
                c = pp_ompt_task_construct(prior);
                prior_task_data->value = pp_ompt_value_set_state(prior, PP_OMPT_ENDED);
                pp_profile_task_end_resume(c->main, pp_ompt_engine_handle(next),
                                           prior & PP_OMPT_UNDEFERRED ? c->inner
                                                                      : PP_REGION_INVALID);
                return;
            }
        }
    }
    pp_ompt_task_schedule_general(prior_task_data, prior_status, next_task_data);
}

static void pp_ompt_dependences(ompt_data_t *task_data, const ompt_dependence_t *deps,
                                int ndeps)
{
    if (task_data && ndeps > 0)
        pp_ompt_depend(task_data->value, deps, ndeps);
    uint64_t v = task_data ? task_data->value : 0;
    uint32_t index;
    pp_callsite *c = pp_ompt_is_taskwait_depend(v) && pp_ompt_taskwait_index(v, &index)
                               ? pp_callsite_at(index)
                               : NULL;
    if (c) { /* the taskwait's region, entered after its dependences */
        pp_profile_enter(c->main);
        task_data->value = v | PP_OMPT_TASKWAIT_ENTERED;
    }
    pp_ompt_thread *t = pp_ompt_measured();
    if (t)
        pp_ompt_settle(t); /* the creation of the task, left open for these */
}

static void pp_ompt_cancel(ompt_data_t *task_data, int flags, const void *codeptr_ra)
{
    /* Nothing is measured at the request itself (OPARI2 mode has no cancel
     * region either): a cancelled task ends through task_schedule
     * (ompt_task_cancel), cancelled worksharing and parallel regions through
     * their usual ends. */
    (void)task_data, (void)flags, (void)codeptr_ra;
}

#if PP_TSAN
/* A task's data word is written where it is created and read where it
 * begins, or resumes after a suspension, possibly on another thread, through
 * the runtime's synchronisation: the hand-over marked for ThreadSanitizer
 * (lib/pp_tsan.h).  Other builds register the callbacks themselves. */
static void pp_ompt_task_create_marked(ompt_data_t *encountering_task_data,
                                       const ompt_frame_t *encountering_task_frame,
                                       ompt_data_t *new_task_data, int flags,
                                       int has_dependences, const void *codeptr_ra)
{
    pp_ompt_task_create(encountering_task_data, encountering_task_frame, new_task_data, flags,
                        has_dependences, codeptr_ra);
    PP_TSAN_RELEASE(new_task_data);
}

static void pp_ompt_task_schedule_marked(ompt_data_t *prior_task_data,
                                         ompt_task_status_t prior_status,
                                         ompt_data_t *next_task_data)
{
    if (next_task_data)
        PP_TSAN_ACQUIRE(next_task_data);
    pp_ompt_task_schedule(prior_task_data, prior_status, next_task_data);
    if (prior_task_data)
        PP_TSAN_RELEASE(prior_task_data);
}

/* A dependent task's dependences come after its creation and before the
 * runtime queues it: the same hand-over, released once more after them. */
static void pp_ompt_dependences_marked(ompt_data_t *task_data, const ompt_dependence_t *deps,
                                       int ndeps)
{
    pp_ompt_dependences(task_data, deps, ndeps);
    if (task_data)
        PP_TSAN_RELEASE(task_data);
}
#define PP_OMPT_TASK_CREATE pp_ompt_task_create_marked
#define PP_OMPT_TASK_SCHEDULE pp_ompt_task_schedule_marked
#define PP_OMPT_DEPENDENCES pp_ompt_dependences_marked
#else
#define PP_OMPT_TASK_CREATE pp_ompt_task_create
#define PP_OMPT_TASK_SCHEDULE pp_ompt_task_schedule
#define PP_OMPT_DEPENDENCES pp_ompt_dependences
#endif

void pp_ompt_task_register(ompt_set_callback_t set, const char **missing, int *n_missing)
{
#define PP_WANT(name, fn) \
    pp_ompt_want(set, ompt_callback_##name, (ompt_callback_t)(fn), #name, missing, n_missing)
    PP_WANT(task_create, PP_OMPT_TASK_CREATE);
    PP_WANT(task_schedule, PP_OMPT_TASK_SCHEDULE);
    PP_WANT(dependences, PP_OMPT_DEPENDENCES);
    PP_WANT(cancel, pp_ompt_cancel);
#undef PP_WANT
}
