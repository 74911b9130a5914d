/* ompt_empty_tool.c: the baseline of OMPT mode's cost ('make bench-ompt').
 *
 * An OMPT tool that asks libomp for every callback libpompprof_ompt.so asks
 * for (ompt/pp_ompt_*_register), each with an empty body: what libomp does
 * for a tool that listens (the callbacks' arguments, its task data) without
 * anything the tool does.  OMPT mode's cost per task is what
 * libpompprof_ompt.so adds over this tool.  Bench only, never installed. */
#include <omp-tools.h>
#include <stddef.h>

static void pp_bench_nothing(void) {}

static int pp_bench_initialize(ompt_function_lookup_t lookup, int device, ompt_data_t *data)
{
    (void)device, (void)data;
    static const ompt_callbacks_t wanted[] = {
        ompt_callback_thread_begin,   ompt_callback_parallel_begin, ompt_callback_parallel_end,
        ompt_callback_implicit_task,  ompt_callback_work,           ompt_callback_masked,
        ompt_callback_sync_region,    ompt_callback_flush,          ompt_callback_task_create,
        ompt_callback_task_schedule,  ompt_callback_dependences,    ompt_callback_cancel,
        ompt_callback_mutex_acquire,  ompt_callback_mutex_acquired, ompt_callback_mutex_released,
        ompt_callback_nest_lock,      ompt_callback_lock_init,      ompt_callback_lock_destroy,
    };
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    for (size_t i = 0; set && i < sizeof wanted / sizeof wanted[0]; i++)
        set(wanted[i], (ompt_callback_t)pp_bench_nothing);
    return 1;
}

static void pp_bench_finalize(ompt_data_t *data)
{
    (void)data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
    (void)version, (void)runtime;
    static ompt_start_tool_result_t result = {pp_bench_initialize, pp_bench_finalize, {0}};
    return &result;
}
