/* Constructs reached through a tail call (pp_callsite_lines.h).
 *
 * gcc -O2 (clang too) turns a function whose last statement is a construct's
 * call into the runtime ("foo() { ...; taskwait }") into a jump: the runtime
 * is entered with foo's caller's return address, and the line table names
 * the caller's line, after its call of foo.  DWARF's call-site entries tell
 * (lib/pp_dwarf.c): the call at that return address calls foo, and foo's
 * tail call of the runtime has a position of its own, which the construct
 * takes.  Where foo has several such tail calls of the construct's entry
 * points, or the call goes through a pointer, the position is lost: the name
 * says so (and names foo when known) instead of taking the caller's line.
 * Where DWARF has no call-site entry for the call (clang writes them for few
 * calls), the call instruction is decoded (lib/pp_dwarf.c); and where the
 * tail call itself cannot be found, foo's lines are searched: one directive
 * of the construct's kind there is the construct.
 * An event source that sees a tail call out of an outlined body of its own
 * (the libgomp interposer's trampolines) reports the body instead of the
 * return address (pp_callsite.tail_body): the tail call inside the body is
 * found the same way. */
#include "callsite/pp_callsite_lines.h"

#include <stdio.h>
#include <string.h>

#include "callsite/pp_callsite_source.h"

static const char *const pp_callsite_runtime[] = {"GOMP_", "__kmpc_", "omp_", NULL};

/* The runtime entry points that begin (or are) each kind of construct. */
static const char *const *pp_callsite_targets(pp_callsite_kind kind)
{
#define PP_TARGETS(...)                                                                            \
    {                                                                                              \
        static const char *const t[] = {__VA_ARGS__, NULL};                                       \
        return t;                                                                                  \
    }
    switch (kind) {
    case PP_CALLSITE_PARALLEL: PP_TARGETS("GOMP_parallel*", "__kmpc_fork_call")
    case PP_CALLSITE_LOOP:
        PP_TARGETS("GOMP_loop_*", "GOMP_parallel_loop_*", "__kmpc_dispatch_init_*",
                   "__kmpc_for_static_init_*")
    case PP_CALLSITE_SECTIONS:
        PP_TARGETS("GOMP_sections*", "GOMP_parallel_sections", "__kmpc_for_static_init_*")
    case PP_CALLSITE_SINGLE: PP_TARGETS("GOMP_single_*", "__kmpc_single")
    case PP_CALLSITE_WORKSHARE: PP_TARGETS("__kmpc_single", "__kmpc_for_static_init_*")
    case PP_CALLSITE_TASKLOOP:
    case PP_CALLSITE_TASKLOOP_TASK:
    case PP_CALLSITE_TASKLOOP_GENERATOR: PP_TARGETS("GOMP_taskloop*", "__kmpc_taskloop*")
    case PP_CALLSITE_MASKED: PP_TARGETS("__kmpc_master", "__kmpc_masked")
    case PP_CALLSITE_BARRIER:
    case PP_CALLSITE_ANY_BARRIER:
    case PP_CALLSITE_IMPLICIT_BARRIER:
        PP_TARGETS("GOMP_barrier*", "__kmpc_barrier", "__kmpc_cancel_barrier")
    case PP_CALLSITE_TASKWAIT: PP_TARGETS("GOMP_taskwait", "__kmpc_omp_taskwait*")
    case PP_CALLSITE_TASKWAIT_DEPEND:
        PP_TARGETS("GOMP_taskwait_depend*", "__kmpc_omp_taskwait_deps*", "__kmpc_omp_wait_deps")
    case PP_CALLSITE_TASKGROUP: PP_TARGETS("GOMP_taskgroup_start", "__kmpc_taskgroup")
    case PP_CALLSITE_REDUCTION: PP_TARGETS("__kmpc_reduce*", "__kmpc_end_reduce*")
    case PP_CALLSITE_CRITICAL: PP_TARGETS("GOMP_critical_*start", "__kmpc_critical*")
    case PP_CALLSITE_ORDERED:
        PP_TARGETS("GOMP_ordered_start", "GOMP_doacross_*wait", "__kmpc_ordered",
                   "__kmpc_doacross_wait")
    case PP_CALLSITE_TASK:
    case PP_CALLSITE_UNTIED_TASK: PP_TARGETS("GOMP_task", "__kmpc_omp_task*")
    case PP_CALLSITE_TASKYIELD: PP_TARGETS("GOMP_taskyield", "__kmpc_omp_taskyield")
    case PP_CALLSITE_FLUSH: PP_TARGETS("__kmpc_flush")
    case PP_CALLSITE_ATOMIC: PP_TARGETS("GOMP_atomic_start")
    case PP_CALLSITE_KINDS: break;
    }
#undef PP_TARGETS
    return NULL;
}

/* The construct's directive inside the function at fn: the one directive
 * of its kind within the function's lines (false: none or several). */
static bool pp_callsite_in_function(pp_dwarf *dwarf, uintptr_t fn, const pp_callsite *c,
                                    pp_callsite_pos *pos)
{
    pp_dwarf_func f;
    if (!fn || pp_dwarf_lookup(dwarf, fn, &f) != 0 || f.line <= 0 || f.end_line < f.line ||
        !f.file[0])
        return false;
    const char *word = pp_callsite_kind_word(c->kind, f.file);
    int line = 0;
    if (!word || pp_callsite_directives_named(f.file, f.line, f.end_line, word, &line, 1) != 1)
        return false;
    snprintf(pos->w.file, sizeof pos->w.file, "%s", f.file);
    pos->w.line = line;
    return true;
}

void pp_callsite_tail(pp_dwarf *dwarf, const pp_callsite *c, pp_callsite_pos *pos)
{
    const char *const *targets = pp_callsite_targets(c->kind);
    if (!targets || !pos->found || c->kind == PP_CALLSITE_IMPLICIT_BARRIER)
        return; /* an implicit barrier is named after its construct's address */
    uintptr_t at = (uintptr_t)c->codeptr, tail = 0;
    pp_dwarf_call r;
    char callee[256] = "";
    if (__atomic_load_n(&c->tail_body, __ATOMIC_RELAXED)) {
        r = pp_dwarf_tail_of(dwarf, at, pp_callsite_runtime, targets, &tail);
        snprintf(callee, sizeof callee, "%s", pos->w.function);
        if (r == PP_DWARF_CALL_UNKNOWN || r == PP_DWARF_CALL_UNSEEN)
            r = PP_DWARF_CALL_LOST; /* the body's tail call, whatever DWARF says */
    } else {
        r = pp_dwarf_call_through(dwarf, at, pp_callsite_runtime, targets, &tail, callee,
                                  sizeof callee);
        if (r == PP_DWARF_CALL_UNKNOWN || r == PP_DWARF_CALL_UNSEEN) {
            /* no call-site entry, or none in the callee: the instruction */
            uintptr_t fn = 0;
            char decoded[256];
            pp_dwarf_call d = pp_dwarf_call_decoded(dwarf, at, pp_callsite_runtime, &fn,
                                                    decoded, sizeof decoded);
            if (d == PP_DWARF_CALL_LOST && pp_callsite_in_function(dwarf, fn, c, pos))
                return;
            if (r == PP_DWARF_CALL_UNKNOWN) {
                r = d;
                snprintf(callee, sizeof callee, "%s", decoded);
            } else {
                r = PP_DWARF_CALL_LOST;
            }
        }
    }
    if (r == PP_DWARF_CALL_TAIL) {
        pp_dwarf_where w;
        if (pp_dwarf_position(dwarf, tail - 1, &w) == 0) {
            w.module_offset++;
            if (w.function[0])
                w.function_offset++;
            pos->w = w;
        }
    } else if (r == PP_DWARF_CALL_LOST) {
        if (c->tail_body && pp_callsite_in_function(dwarf, at, c, pos))
            return;
        pos->tail_lost = true;
        snprintf(pos->tail_callee, sizeof pos->tail_callee, "%s", callee);
    }
}
