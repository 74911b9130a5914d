/* A small OMPT tool for the cross-check of test_trace_ompt.py: loaded by
 * LLVM's OpenMP runtime (OMP_TOOL_LIBRARIES) under a gcc-built program, it
 * records the runtime's own view of the dependences.  At the end it writes to
 * the file named by OMPT_DEPS_OUT:
 *   task N                        a task with dependences, numbered from 0 in
 *                                 the order of its dependences callback (taskwait
 *                                 depend pseudo tasks: "wait N" instead)
 *   dep N ADDRESS TYPE            its dependences, in the callback's order
 *                                 (TYPE: ompt_dependence_type_t)
 *   edge A B                      ompt_callback_task_dependence: B waits for A
 * (One creating thread in the programs it is used with: numbers follow
 * creation order.) */
#include <omp-tools.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 65536

static char *lines[MAX_LINES];
static int n_lines, n_tasks, n_waits;
static ompt_get_task_info_t get_task_info;

static void put(const char *fmt, long a, long b, long c)
{
    char buf[128];
    snprintf(buf, sizeof buf, fmt, a, b, c);
    if (n_lines < MAX_LINES)
        lines[n_lines++] = strdup(buf);
}

static void on_task_create(ompt_data_t *encountering, const ompt_frame_t *frame,
                           ompt_data_t *new_task, int flags, int has_dependences,
                           const void *codeptr)
{
    (void)encountering, (void)frame, (void)codeptr, (void)has_dependences;
    /* the number is given when the dependences arrive; a taskwait depend is
     * told apart by its flag */
    new_task->value = (flags & ompt_task_taskwait) ? (uint64_t)-2 : (uint64_t)-1;
}

static void on_dependences(ompt_data_t *task, const ompt_dependence_t *deps, int n)
{
    long id;
    if (task->value == (uint64_t)-2) {
        id = n_waits++;
        put("wait %ld", id, 0, 0);
        task->value = (uint64_t)(1000000 + id);
    } else {
        id = n_tasks++;
        put("task %ld", id, 0, 0);
        task->value = (uint64_t)id;
    }
    for (int i = 0; i < n; i++)
        put("dep %ld %ld %ld", id, (long)(intptr_t)deps[i].variable.ptr,
            (long)deps[i].dependence_type);
}

static void on_task_dependence(ompt_data_t *src, ompt_data_t *sink)
{
    put("edge %ld %ld 0", (long)src->value, (long)sink->value, 0);
}

static int tool_init(ompt_function_lookup_t lookup, int device, ompt_data_t *data)
{
    (void)device, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
    set(ompt_callback_task_create, (ompt_callback_t)on_task_create);
    set(ompt_callback_dependences, (ompt_callback_t)on_dependences);
    set(ompt_callback_task_dependence, (ompt_callback_t)on_task_dependence);
    return 1;
}

static void tool_fini(ompt_data_t *data)
{
    (void)data;
    const char *path = getenv("OMPT_DEPS_OUT");
    FILE *f = path ? fopen(path, "w") : NULL;
    for (int i = 0; f && i < n_lines; i++)
        fprintf(f, "%s\n", lines[i]);
    if (f)
        fclose(f);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime);
ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
    (void)version, (void)runtime;
    static ompt_start_tool_result_t result = {tool_init, tool_fini, {0}};
    return &result;
}
