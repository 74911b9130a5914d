/* Explicit tasks and the scheduling points that wait for them: GOMP_task,
 * taskwait (with and without depend), taskyield, taskgroup.
 *
 * GOMP_task is a task creation, measured as OPARI2 measures one: the
 * construct's "create task" region, entered with the new task's handle made
 * at once (so the trace links the creation, the task's dependences and its
 * begin), left when libgomp returns.  An undeferred task (if(0), a final
 * task's children, or libgomp's own choice when too many tasks wait) runs
 * inside GOMP_task: its instance nests in its creation, as in the rebuild.
 * Every instance runs through pp_gomp_task_run, which begins and ends it
 * around the program's function (pp_gomp_task.h: the block it reads).
 * libgomp runs untied tasks as tied ones: they are measured as such, named
 * "untied task". */
#include "gomp/pp_gomp_task.h"

#include <string.h>

#include "lib/pp_timer.h"
#include "profile/pp_profile_depend.h"

/* GOMP_TASK_FLAG_* of gomp-constants.h, as gcc passes them */
#define PP_GOMP_FLAG_UNTIED (1u << 0)
#define PP_GOMP_FLAG_DEPEND (1u << 3)
#define PP_GOMP_FLAG_DETACH (1u << 13)

bool pp_gomp_cancellation(void)
{
    int (*cancellation)(void) = PP_GOMP_REAL(omp_get_cancellation);
    return cancellation && cancellation();
}

void pp_gomp_task_copy(void *dst, void *from)
{
    pp_gomp_task_src *src = from;
    memcpy(dst, &src->head, sizeof src->head);
    unsigned char *payload = (unsigned char *)dst + src->head.payload;
    if (src->cpyfn)
        src->cpyfn(payload, src->data);
    else if (src->arg_size)
        memcpy(payload, src->data, src->arg_size);
}

/* A held creation's start, recorded before a task runs inside it (an
 * undeferred task, when task is the created one: its begin in the same
 * event; else task 0 and the caller begins its task). */
static __attribute__((noinline)) void pp_gomp_held_flush(pp_gomp_words *w, pp_region_id task_region,
                                                         pp_task_handle task)
{
    pp_task_handle created = w->held.task;
    pp_gomp_hold_retract(&w->held.task);
    *w->held.creator = pp_profile_task_current();
    if (created == task) {
        pp_profile_task_create_run(w->held.region, task, w->held.time, task_region);
        return;
    }
    pp_profile_task_create_enter_at(w->held.region, created, w->held.time);
    if (task)
        pp_profile_task_begin_tied(task_region, task);
}

/* A task begin its trampoline held back, recorded at its time: another
 * event of the thread's comes first. */
void pp_gomp_run_flush_slow(pp_gomp_words *w)
{
    pp_task_handle task = w->run.task;
    pp_gomp_hold_retract(&w->run.task);
    pp_profile_task_begin_at(w->run.region, task, false, w->run.time);
}

/* Whether trampolines hold a task's begin back (pp_gomp_words.run): not
 * while counters are read (they would be read at the end, for the begin
 * too), nor where the clock is no time-stamp counter (the trampoline reads
 * the TSC without a test); set at start. */
bool pp_gomp_run_hold;

void pp_gomp_task_run(void *block)
{
    pp_gomp_task_head *h = block;
    pp_gomp_run_flush(&pp_gomp_mine);
    if (__builtin_expect(pp_gomp_mine.held.task != 0, 0))
        pp_gomp_held_flush(&pp_gomp_mine, PP_REGION_INVALID, 0);
    uintptr_t *payload = (uintptr_t *)((unsigned char *)block + h->payload);
    if (__builtin_expect(h->flags != 0, 0)) {
        if (h->flags & PP_GOMP_TASK_BOUNDS) {
            payload[0] = h->scratch[0];
            payload[1] = h->scratch[1];
        }
        if (h->flags & PP_GOMP_TASK_DETACH)
            payload[0] = h->scratch[0];
    }
    const void *outer = pp_gomp_mine.body;
    pp_gomp_mine.body = (const void *)h->fn;
    pp_gomp_mine.in_task++;
    pp_task_handle task = h->handle;
    if (!task) { /* a taskloop's task: made inside libgomp, unseen */
        task = pp_profile_task_new_handle();
        pp_profile_task_created(task);
    }
    pp_profile_task_begin_tied(h->region, task);
    h->fn(payload);
    pp_profile_task_end(h->region);
    pp_gomp_mine.body = outer;
    pp_gomp_mine.in_task--;
}

/* A plain block's trampoline: the general one without the scratch words
 * and the taskloop's late handle.  The task's begin is held back while its
 * function runs: a task in which the thread records nothing else (a leaf
 * of a recursion) is one engine event at its end. */
void pp_gomp_task_run_plain(void *block)
{
    pp_gomp_plain_head *h = block;
    pp_gomp_words *w = &pp_gomp_mine;
    const void *outer = w->body;
    w->body = (const void *)h->fn;
    w->in_task++;
    if (__builtin_expect((w->held.task | w->run.task) != 0, 0)) {
        pp_gomp_run_flush(w);
        if (w->held.task != 0)
            pp_gomp_held_flush(w, h->region, h->handle);
        else
            pp_profile_task_begin_tied(h->region, h->handle);
    } else {
        __atomic_store_n(&w->run.region, h->region, __ATOMIC_RELAXED);
        /* the TSC, where it is the clock (pp_gomp_run_hold) */
        __atomic_store_n(&w->run.time, pp_timer_tsc(), __ATOMIC_RELAXED);
        pp_gomp_hold_publish(&w->run.task, h->handle);
    }
    h->fn(h + 1);
    if (__builtin_expect(w->run.task == h->handle, 1)) {
        pp_gomp_hold_retract(&w->run.task);
        pp_profile_task_run(h->region, h->handle, w->run.time);
    } else {
        pp_profile_task_end(h->region);
    }
    w->body = outer;
    w->in_task--;
}

/* Any task: a copy function, a detach clause, a large or overaligned
 * payload (the block through pp_gomp_block_fill), a thread not measured. */
static __attribute__((noinline)) void
pp_gomp_task_general(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                     long arg_size, long arg_align, bool if_clause, unsigned flags, void **depend,
                     int priority, void *detach, const void *ra)
{
    pp_callsite *c = pp_gomp_begin(ra,
                                   (flags & PP_GOMP_FLAG_UNTIED) ? PP_CALLSITE_UNTIED_TASK
                                                                 : PP_CALLSITE_TASK,
                                   true);
    if (!c) {
        PP_GOMP_REAL(GOMP_task)(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
                                priority, detach);
        return;
    }
    pp_callsite_body(c, (const void *)fn);
    long align = pp_gomp_block_align(arg_align);
    size_t hs = pp_gomp_head_size(align);
    bool on_stack = pp_gomp_block_on_stack(cpyfn, arg_size);
    unsigned char stack[on_stack ? hs + (size_t)arg_size + (size_t)align : 1];
    pp_gomp_task_src src;
    pp_gomp_task_head *head = on_stack ? pp_gomp_aligned(stack, align) : &src.head;
    head->fn = fn;
    head->region = c->main;
    head->payload = (uint32_t)hs;
    head->flags = (flags & PP_GOMP_FLAG_DETACH) ? PP_GOMP_TASK_DETACH : 0;
    pp_task_handle current;
    pp_profile_task_create_begin(c->inner, &head->handle, &current);
    if (flags & PP_GOMP_FLAG_DEPEND)
        pp_gomp_depend(head->handle, depend);
    void (*copy)(void *, void *) = pp_gomp_block_fill(head, on_stack ? NULL : &src, data, cpyfn,
                                                      arg_size);
    PP_GOMP_REAL(GOMP_task)(pp_gomp_task_run, on_stack ? (void *)head : (void *)&src, copy,
                            (long)hs + arg_size, align, if_clause, flags, depend, priority,
                            detach);
    pp_profile_exit_resume(c->inner, current);
}

/* The plain tasks take the short way: the thread's state in one load, its
 * call site from the thread's table, a fixed block on the stack (no frame
 * of variable size), the three-word head and the payload behind it.  A
 * task begin the running task's trampoline holds (pp_gomp_words.run) stays
 * held while libgomp runs, as the creation's start does (a trampoline that
 * runs inside records both first): a queued task's creation is then one
 * engine event with that begin. */
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
               void *detach)
{
    const void *ra = __builtin_return_address(0);
    pp_gomp_thread *t = pp_gomp_mine.thread;
    if (__builtin_expect(t == NULL || t->off || cpyfn || (flags & PP_GOMP_FLAG_DETACH) ||
                             (unsigned long)arg_size > PP_GOMP_PLAIN_PAYLOAD ||
                             arg_align > PP_GOMP_PLAIN_ALIGN,
                         0)) {
        pp_gomp_task_general(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
                             priority, detach, ra);
        return;
    }
    pp_gomp_settle(t, true);
    pp_callsite *c = pp_gomp_site_of(t, ra,
                                     (flags & PP_GOMP_FLAG_UNTIED) ? PP_CALLSITE_UNTIED_TASK
                                                                   : PP_CALLSITE_TASK);
    if (__builtin_expect(c == NULL, 0)) { /* out of memory */
        PP_GOMP_REAL(GOMP_task)(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend,
                                priority, detach);
        return;
    }
    pp_callsite_body(c, (const void *)fn);
    struct {
        pp_gomp_plain_head head;
        unsigned char payload[PP_GOMP_PLAIN_PAYLOAD];
    } block;
    block.head.fn = fn;
    block.head.region = c->main;
    pp_task_handle current, task;
    pp_region_id create = c->inner;
    pp_gomp_words *w = &pp_gomp_mine;
    if (__builtin_expect(!(flags & PP_GOMP_FLAG_DEPEND), 1)) {
        /* the start held back (libgomp may run other tasks for the
         * dependences: not held then) */
        task = pp_profile_task_new_handle();
        __atomic_store_n(&w->held.region, create, __ATOMIC_RELAXED);
        w->held.creator = &current;
        __atomic_store_n(&w->held.time, pp_timer_now(), __ATOMIC_RELAXED);
        pp_gomp_hold_publish(&w->held.task, task);
    } else {
        pp_gomp_run_flush(w);
        pp_profile_task_create_begin(create, &task, &current);
        pp_gomp_depend(task, depend);
    }
    block.head.handle = task;
    pp_gomp_copy_words(block.payload, data, (size_t)arg_size);
    PP_GOMP_REAL(GOMP_task)(pp_gomp_task_run_plain, &block, NULL,
                            (long)sizeof block.head + arg_size, PP_GOMP_PLAIN_ALIGN, if_clause,
                            flags, depend, priority, detach);
    if (__builtin_expect(w->held.task == task, 1)) { /* queued, or not made (cancelled) */
        pp_gomp_hold_retract(&w->held.task);
        if ((int64_t)w->run.task <= 0) {
            pp_profile_task_create_visit(create, task, w->held.time);
            return;
        }
        /* the first event of a task whose begin its trampoline holds */
        pp_task_handle running = w->run.task;
        pp_gomp_hold_retract(&w->run.task);
        pp_profile_task_begin_create_visit(w->run.region, running, w->run.time, create, task,
                                           w->held.time);
        return;
    }
    pp_profile_exit_resume(create, current);
}

void GOMP_taskwait(void)
{
    PP_GOMP_SCHEDULING_POINT(PP_CALLSITE_TASKWAIT, true, PP_GOMP_REAL(GOMP_taskwait)());
}

void GOMP_taskyield(void)
{
    PP_GOMP_SCHEDULING_POINT(PP_CALLSITE_TASKYIELD, true, PP_GOMP_REAL(GOMP_taskyield)());
}

/* a taskwait with depend clauses: its dependences, then its wait */
void GOMP_taskwait_depend(void **depend)
{
    pp_callsite *c =
        pp_gomp_begin(__builtin_return_address(0), PP_CALLSITE_TASKWAIT_DEPEND, true);
    if (!c) {
        PP_GOMP_REAL(GOMP_taskwait_depend)(depend);
        return;
    }
    pp_gomp_taskwait_depend_items(depend);
    pp_task_handle waits;
    pp_profile_scheduling_enter(c->main, &waits);
    PP_GOMP_REAL(GOMP_taskwait_depend)(depend);
    pp_profile_exit_resume(c->main, waits);
}

/* A taskgroup is measured at its end, where it waits (as in the rebuild),
 * named after its begin (the directive's position). */
void GOMP_taskgroup_start(void)
{
    pp_callsite *c = pp_gomp_begin(__builtin_return_address(0), PP_CALLSITE_TASKGROUP, true);
    if (c)
        pp_gomp_open_push(pp_gomp_mine.thread, c);
    PP_GOMP_REAL(GOMP_taskgroup_start)();
}

void GOMP_taskgroup_end(void)
{
    pp_gomp_thread *t = pp_gomp_self();
    pp_callsite *c = t ? pp_gomp_open_pop(t, PP_CALLSITE_TASKGROUP) : NULL;
    if (!c) {
        PP_GOMP_REAL(GOMP_taskgroup_end)();
        return;
    }
    pp_gomp_settle(t, true);
    pp_task_handle waits;
    pp_profile_scheduling_enter(c->main, &waits);
    PP_GOMP_REAL(GOMP_taskgroup_end)();
    pp_profile_exit_resume(c->main, waits);
}
