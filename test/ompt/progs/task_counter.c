/* OMPT test: the smallest tool that counts the explicit tasks the runtime
 * creates, per construct address, printed at the end (one line per address:
 * "tasks <count>").  Loaded with OMP_TOOL_LIBRARIES instead of pompprof's. */
#include <omp-tools.h>
#include <stdio.h>
#include <stdint.h>

#define SLOTS 64
static struct {
    const void *at;
    unsigned long n;
} counts[SLOTS];

static void on_task_create(ompt_data_t *parent, const ompt_frame_t *frame, ompt_data_t *task,
                           int flags, int has_dependences, const void *codeptr)
{
    (void)parent, (void)frame, (void)task, (void)has_dependences;
    if (!(flags & ompt_task_explicit))
        return;
    for (int i = 0; i < SLOTS; i++) {
        const void *seen = __atomic_load_n(&counts[i].at, __ATOMIC_ACQUIRE);
        if (!seen) {
            const void *none = NULL;
            if (!__atomic_compare_exchange_n(&counts[i].at, &none, codeptr, 0, __ATOMIC_ACQ_REL,
                                             __ATOMIC_ACQUIRE))
                seen = none;
            else
                seen = codeptr;
        }
        if (seen == codeptr) {
            __atomic_add_fetch(&counts[i].n, 1, __ATOMIC_RELAXED);
            return;
        }
    }
}

static int init(ompt_function_lookup_t lookup, int device, ompt_data_t *data)
{
    (void)device, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    set(ompt_callback_task_create, (ompt_callback_t)on_task_create);
    return 1;
}

static void fini(ompt_data_t *data)
{
    (void)data;
    for (int i = 0; i < SLOTS && counts[i].at; i++)
        fprintf(stderr, "tasks %lu\n", counts[i].n);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
    (void)version, (void)runtime;
    static ompt_start_tool_result_t r = {init, fini, {0}};
    return &r;
}
