/* A task's argument block as the interposer hands it to libgomp: a head in
 * front of the program's own block (the payload), which the task's
 * trampoline reads (pp_gomp_task.c, pp_gomp_taskloop.c).
 *
 * libgomp copies the block for a deferred task (memcpy of arg_size bytes,
 * or the compiler's copy function cpyfn) and calls the task's function with
 * the copy; an undeferred task's function gets the block itself.  So the
 * head travels with every task instance, and nothing is allocated for it:
 * the block the interposer passes lives on its stack while GOMP_task runs.
 *
 * The head comes first, not after the payload: the trampoline gets only the
 * block's address, and the payload's size differs from task to task.  What
 * libgomp writes into a block's first words lands in the head's scratch
 * words, and the trampoline moves it into the payload before the program's
 * function runs: a taskloop task's bounds (words 0 and 1), a detachable
 * task's event handle (word 0).  A taskloop with a reduction has libgomp
 * read the block's word 2 (a pointer to the reduction data) before any task
 * runs: the head's word 2 holds a copy of it.
 *
 * Two ways to build the block:
 * - on the stack, the payload copied behind the head: when the compiler gave
 *   no copy function, so libgomp copies the block with memcpy as before;
 * - through the interposer's copy function, which writes the head and calls
 *   the program's copy function (the source block is opaque: its size is
 *   unknown) or copies the payload: when the compiler gave one, or the
 *   payload is large (a copy on the stack could overflow it) and
 *   cancellation is off (with it on, libgomp discards a task created in a
 *   cancelled region only if it has no copy function). */
#ifndef PP_GOMP_TASK_H
#define PP_GOMP_TASK_H

#include "gomp/pp_gomp_internal.h"

enum {
    PP_GOMP_TASK_BOUNDS = 1, /* a taskloop task: its bounds are in the scratch words */
    PP_GOMP_TASK_DETACH = 2, /* a detachable task: its event handle is in scratch[0] */
};

typedef struct pp_gomp_task_head {
    uintptr_t scratch[3];
    void (*fn)(void *);
    pp_task_handle handle; /* 0: made when the instance begins (taskloop tasks) */
    pp_region_id region;   /* the task construct's */
    uint32_t payload;      /* the payload's offset from the head */
    uint32_t flags;
} pp_gomp_task_head;

/* The block of a plain task (the common case: no copy function, no detach,
 * a small payload aligned to at most a word), built by a shorter way: a
 * head of three words, which libgomp never writes into, so there is no
 * scratch to move and the payload is at a fixed place behind it; its own
 * trampoline (pp_gomp_task_run_plain). */
typedef struct pp_gomp_plain_head {
    void (*fn)(void *);
    pp_task_handle handle;
    pp_region_id region; /* the task construct's */
} pp_gomp_plain_head;

/* The payloads a plain block takes (on the stack, in a buffer of fixed
 * size: no frame of variable size). */
#define PP_GOMP_PLAIN_PAYLOAD 256
#define PP_GOMP_PLAIN_ALIGN ((long)sizeof(uintptr_t))

/* The source of the copy function's way: the head to copy and the program's
 * block (head first: libgomp's write of a detachable task's event goes to
 * the source block's first word). */
typedef struct pp_gomp_task_src {
    pp_gomp_task_head head;
    void *data;
    void (*cpyfn)(void *, void *);
    size_t arg_size;
} pp_gomp_task_src;

/* Payloads larger than this take the copy function's way (unless
 * cancellation is on). */
#define PP_GOMP_STACK_PAYLOAD 1024

/* The alignment of the block and the head's size in front of a payload of
 * alignment arg_align (a power of two; the head stays a multiple of it). */
static inline long pp_gomp_block_align(long arg_align)
{
    return arg_align > (long)sizeof(uintptr_t) ? arg_align : (long)sizeof(uintptr_t);
}
static inline size_t pp_gomp_head_size(long align)
{
    return (sizeof(pp_gomp_task_head) + (size_t)align - 1) & ~((size_t)align - 1);
}

/* Whether cancellation is on (libgomp asked, off the event path: for
 * large payloads only). */
bool pp_gomp_cancellation(void);

/* Whether a block of arg_size bytes goes on the stack. */
static inline bool pp_gomp_block_on_stack(void (*cpyfn)(void *, void *), long arg_size)
{
    return !cpyfn && (arg_size <= PP_GOMP_STACK_PAYLOAD || pp_gomp_cancellation());
}

static inline pp_gomp_task_head *pp_gomp_aligned(unsigned char *stack, long align)
{
    return (pp_gomp_task_head *)(((uintptr_t)stack + (uintptr_t)align - 1) &
                                 ~((uintptr_t)align - 1));
}

/* The trampoline of every task instance, and the copy function's way. */
void pp_gomp_task_run(void *block);
void pp_gomp_task_run_plain(void *block);
void pp_gomp_task_copy(void *dst, void *src);

/* The block behind head, its head filled in but the payload: on the stack
 * (src NULL) the payload copied behind the head, for libgomp's memcpy (the
 * copy function returned: NULL); else src made the source of
 * pp_gomp_task_copy, returned. */
/* n bytes from `from` to `to`, word by word: task blocks are small, a call
 * of memcpy costs more. */
static inline void pp_gomp_copy_words(unsigned char *to, const unsigned char *from, size_t n)
{
    size_t i = 0;
    for (; i + sizeof(uintptr_t) <= n; i += sizeof(uintptr_t)) {
        uintptr_t w;
        __builtin_memcpy(&w, from + i, sizeof w);
        __builtin_memcpy(to + i, &w, sizeof w);
    }
    for (; i < n; i++)
        to[i] = from[i];
}

static inline void (*pp_gomp_block_fill(pp_gomp_task_head *head, pp_gomp_task_src *src,
                                        void *data, void (*cpyfn)(void *, void *),
                                        long arg_size))(void *, void *)
{
    if (!src) {
        pp_gomp_copy_words((unsigned char *)head + head->payload, data,
                           arg_size > 0 ? (size_t)arg_size : 0);
        return NULL;
    }
    src->data = data;
    src->cpyfn = cpyfn;
    src->arg_size = arg_size > 0 ? (size_t)arg_size : 0;
    return pp_gomp_task_copy;
}

#endif
