/* How a POMP2 construct shows up in the profile: which engine regions it
 * needs and what they are called.
 *
 * We follow the reference implementation's conventions (see the golden
 * profiles) so Cube users recognise them: "!$omp <construct> @<file>:<line>"
 * with the source file's base name and the directive's first line, the full
 * path as the region's file, paradigm "openmp".  The implicit barrier carries
 * the line where the construct ends, which is where it waits. */
#include "pomp2/pp_pomp2_region.h"

#include <stdio.h>
#include <string.h>

typedef struct pp_pomp2_construct {
    const char *main_word, *main_role;
    const char *ws_word, *ws_role;       /* combined parallel constructs */
    const char *inner_word, *inner_role; /* sblock, section, task creation */
    bool barrier;                        /* ends in an implicit barrier (unless nowait) */
} pp_pomp2_construct;

static pp_pomp2_construct pp_pomp2_construct_of(pp_pomp2_region_type t)
{
    switch (t) {
    case PP_POMP2_PARALLEL: return (pp_pomp2_construct){"parallel", "parallel", 0, 0, 0, 0, true};
    case PP_POMP2_FOR: return (pp_pomp2_construct){"for", "loop", 0, 0, 0, 0, true};
    case PP_POMP2_DO: return (pp_pomp2_construct){"do", "loop", 0, 0, 0, 0, true};
    case PP_POMP2_SECTIONS:
        return (pp_pomp2_construct){"sections", "sections", 0, 0, "section", "section", true};
    case PP_POMP2_SINGLE:
        return (pp_pomp2_construct){"single", "single", 0, 0, "single sblock", "single sblock",
                                    true};
    case PP_POMP2_MASTER: return (pp_pomp2_construct){"master", "master", 0, 0, 0, 0, false};
    case PP_POMP2_CRITICAL:
        return (pp_pomp2_construct){"critical", "critical", 0, 0, "critical sblock",
                                    "critical sblock", false};
    case PP_POMP2_ORDERED:
        return (pp_pomp2_construct){"ordered", "ordered", 0, 0, "ordered sblock",
                                    "ordered sblock", false};
    case PP_POMP2_ATOMIC: return (pp_pomp2_construct){"atomic", "atomic", 0, 0, 0, 0, false};
    case PP_POMP2_FLUSH: return (pp_pomp2_construct){"flush", "flush", 0, 0, 0, 0, false};
    case PP_POMP2_BARRIER: return (pp_pomp2_construct){"barrier", "barrier", 0, 0, 0, 0, false};
    case PP_POMP2_TASKWAIT:
        return (pp_pomp2_construct){"taskwait", "taskwait", 0, 0, 0, 0, false};
    case PP_POMP2_WORKSHARE:
        return (pp_pomp2_construct){"workshare", "workshare", 0, 0, 0, 0, true};
    case PP_POMP2_TASK:
        return (pp_pomp2_construct){"task", "task", 0, 0, "create task", "task create", false};
    case PP_POMP2_TASKUNTIED:
        return (pp_pomp2_construct){"untied task", "untied task", 0, 0, "create untied task",
                                    "task create", false};
    case PP_POMP2_PARALLEL_FOR:
        return (pp_pomp2_construct){"parallel", "parallel", "for", "loop", 0, 0, true};
    case PP_POMP2_PARALLEL_DO:
        return (pp_pomp2_construct){"parallel", "parallel", "do", "loop", 0, 0, true};
    case PP_POMP2_PARALLEL_SECTIONS:
        return (pp_pomp2_construct){"parallel", "parallel", "sections", "sections",
                                    "section", "section", true};
    case PP_POMP2_PARALLEL_WORKSHARE:
        return (pp_pomp2_construct){"parallel", "parallel", "workshare", "workshare", 0, 0,
                                    true};
    /* The wrapper's own: a masked block is measured like a master block; the
     * end of a taskgroup and a taskyield are task scheduling points, like a
     * taskwait; a taskloop region holds the creation of its tasks and,
     * without nogroup, the wait for them, during which the thread runs them
     * (their time is its own: work). */
    case PP_POMP2_MASKED: return (pp_pomp2_construct){"masked", "master", 0, 0, 0, 0, false};
    case PP_POMP2_TASKGROUP:
        return (pp_pomp2_construct){"taskgroup", "taskwait", 0, 0, 0, 0, false};
    case PP_POMP2_TASKYIELD:
        return (pp_pomp2_construct){"taskyield", "taskwait", 0, 0, 0, 0, false};
    case PP_POMP2_TASKLOOP:
        return (pp_pomp2_construct){"taskloop", "taskloop", 0, 0, 0, 0, false};
    case PP_POMP2_USER_REGION:
    case PP_POMP2_UNKNOWN: break;
    }
    return (pp_pomp2_construct){0, 0, 0, 0, 0, 0, false};
}

static const char *pp_pomp2_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* "!$omp <word>[ (<critical name>)] @<base>:<line>" */
static pp_region_id pp_pomp2_define_openmp(const char *word, const char *role,
                                           const pp_pomp2_region_info *info, bool at_end)
{
    /* a task with depend clauses (and its creation): the trace analysis must
     * know that its readiness is not in the events (doc/trace.md) */
    bool depend = (info->clauses & PP_POMP2_HAS_DEPEND) &&
                  (info->type == PP_POMP2_TASK || info->type == PP_POMP2_TASKUNTIED);
    char name[512];
    int line = at_end ? info->end_line1 : info->start_line1;
    const char *file = at_end ? info->end_file : info->start_file;
    if (info->name && info->type == PP_POMP2_CRITICAL)
        snprintf(name, sizeof name, "!$omp %s (%s) @%s:%d", word, info->name,
                 pp_pomp2_basename(file), line);
    else
        snprintf(name, sizeof name, "!$omp %s @%s:%d", word, pp_pomp2_basename(file), line);
    pp_region_def def = {
        .name = name,
        .file = file,
        .begin_line = at_end ? info->end_line1 : info->start_line1,
        .end_line = info->end_line2,
        .paradigm = "openmp",
        .role = role,
        .description = depend ? "depend" : NULL,
    };
    return pp_profile_region_define(&def);
}

static pp_region_id pp_pomp2_define_unknown(void)
{
    pp_region_def def = {
        .name = "!$omp unknown region",
        .file = NULL,
        .begin_line = -1,
        .end_line = -1,
        .paradigm = "openmp",
        .role = "unknown",
    };
    return pp_profile_region_define(&def);
}

void pp_pomp2_region_define(pp_pomp2_region *e, const pp_pomp2_region_info *info)
{
    pp_region_id unknown = PP_REGION_INVALID;
    if (!info) {
        unknown = pp_pomp2_define_unknown();
        e->main = e->worksharing = e->inner = e->barrier = unknown;
        e->type = PP_POMP2_UNKNOWN;
        e->untied = false;
        return;
    }
    e->type = info->type;
    e->untied = info->type == PP_POMP2_TASKUNTIED || (info->clauses & PP_POMP2_HAS_UNTIED);

    if (info->type == PP_POMP2_USER_REGION) {
        pp_region_def def = {
            .name = info->name,
            .file = info->start_file,
            .begin_line = info->start_line1,
            .end_line = info->end_line2,
            .paradigm = "user",
            .role = "user",
        };
        e->main = pp_profile_region_define(&def);
        e->worksharing = e->inner = e->barrier = e->main;
        return;
    }

    pp_pomp2_construct c =
        pp_pomp2_construct_of(e->untied && info->type == PP_POMP2_TASK ? PP_POMP2_TASKUNTIED
                                                                       : info->type);
    e->main = pp_pomp2_define_openmp(c.main_word, c.main_role, info, false);
    e->worksharing =
        c.ws_word ? pp_pomp2_define_openmp(c.ws_word, c.ws_role, info, false) : e->main;
    e->inner =
        c.inner_word ? pp_pomp2_define_openmp(c.inner_word, c.inner_role, info, false) : e->main;
    /* OPARI2 emits no implicit barrier for nowait, nor for single copyprivate
     * (the copy happens at the construct's own barrier). */
    bool barrier = c.barrier && !(info->clauses & PP_POMP2_HAS_NOWAIT) &&
                   !(info->type == PP_POMP2_SINGLE && (info->clauses & PP_POMP2_HAS_COPYPRIVATE));
    e->barrier = barrier ? pp_pomp2_define_openmp("implicit barrier", "implicit barrier", info, true)
                         : e->main;
}
