/* Taskloops: GOMP_taskloop and GOMP_taskloop_ull.
 *
 * The encountering thread's taskloop region holds the creation of the
 * tasks and, without nogroup, the wait for them (libgomp's taskgroup around
 * them), as in the rebuild; it is a scheduling point (tasks run there).
 * Each task libgomp makes of a chunk of iterations is an instance of the
 * construct's task region ("!$omp task", named at the taskloop's line); the
 * encountering thread's taskloop is not one.  libgomp writes each chunk's
 * bounds into the first two words of the task's block, which are the head's
 * scratch words here: the trampoline moves them into the payload.  libgomp
 * makes the chunk tasks inside, unseen, so an instance's handle is made when
 * it begins. */
#include "gomp/pp_gomp_task.h"

#define PP_GOMP_FLAG_REDUCTION (1u << 12)

#define PP_GOMP_TASKLOOP(name, type)                                                           \
    void name(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,    \
              long arg_align, unsigned flags, unsigned long num_tasks, int priority,            \
              type start, type end, type step)                                                 \
    {                                                                                          \
        const void *ra = __builtin_return_address(0);                                          \
        pp_callsite *c = pp_gomp_begin(ra, PP_CALLSITE_TASKLOOP, true);                        \
        pp_callsite *task = c ? pp_gomp_site(ra, PP_CALLSITE_TASKLOOP_TASK) : NULL;            \
        if (!task) {                                                                           \
            PP_GOMP_REAL(name)(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,         \
                               priority, start, end, step);                                    \
            return;                                                                            \
        }                                                                                      \
        pp_callsite_body(c, (const void *)fn);                                                 \
        pp_callsite_body(task, (const void *)fn);                                              \
        long align = pp_gomp_block_align(arg_align);                                           \
        size_t hs = pp_gomp_head_size(align);                                                  \
        bool on_stack = pp_gomp_block_on_stack(cpyfn, arg_size);                               \
        unsigned char stack[on_stack ? hs + (size_t)arg_size + (size_t)align : 1];             \
        pp_gomp_task_src src;                                                                  \
        pp_gomp_task_head *head = on_stack ? pp_gomp_aligned(stack, align) : &src.head;        \
        *head = (pp_gomp_task_head){.fn = fn, .region = task->main, .payload = (uint32_t)hs,   \
                                    .flags = PP_GOMP_TASK_BOUNDS};                             \
        /* libgomp reads the reduction data's address from the block's word 2 */              \
        if (flags & PP_GOMP_FLAG_REDUCTION)                                                    \
            head->scratch[2] = ((const uintptr_t *)data)[2];                                   \
        pp_task_handle waits;                                                                  \
        pp_profile_scheduling_enter(c->main, &waits);                                          \
        void (*copy)(void *, void *) =                                                         \
            pp_gomp_block_fill(head, on_stack ? NULL : &src, data, cpyfn, arg_size);           \
        PP_GOMP_REAL(name)(pp_gomp_task_run, on_stack ? (void *)head : (void *)&src, copy,     \
                           (long)hs + arg_size, align, flags, num_tasks, priority, start, end, \
                           step);                                                              \
        pp_profile_exit_resume(c->main, waits);                                                \
    }

PP_GOMP_TASKLOOP(GOMP_taskloop, long)
PP_GOMP_TASKLOOP(GOMP_taskloop_ull, unsigned long long)
