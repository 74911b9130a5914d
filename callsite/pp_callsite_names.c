/* The regions' names, given at the end (an end hook of the engine, called
 * at finalize before anything is written).
 *
 * Each construct's code address becomes a position once
 * (lib/pp_dwarf.c), the line its name takes is decided for all of them
 * (pp_callsite_lines.c), and its regions are named as OPARI2 names them:
 * "!$omp task @fib.c:9" with the file's full path and the line.  Where only
 * the construct's own source line can tell (a masked or a master block, the
 * name of a critical section, "for" or "do"), that line is read.  Without a
 * line table a region is named by function and offset ("!$omp task
 * @fib+0x2d"), or without a symbol by binary and offset ("@fib+0x1a2d"):
 * offsets from where the binary was loaded, so the names do not change from
 * run to run.  Constructs that end up with the same name and kind (one
 * construct inlined at two call sites) become one region: the later ones
 * are aliases of the first. */
#include "callsite/pp_callsite.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callsite/pp_callsite_lines.h"
#include "callsite/pp_callsite_source.h"
#include "lib/pp_dwarf.h"
#include "profile/pp_profile_names.h"

static const char *pp_callsite_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

typedef struct pp_callsite_words {
    const char *main, *inner;
} pp_callsite_words;

static pp_callsite_words pp_callsite_words_of(pp_callsite_kind kind, const pp_dwarf_where *w,
                                              const char *src, bool implicit, bool explicit_b)
{
    switch (kind) {
    case PP_CALLSITE_PARALLEL: return (pp_callsite_words){"parallel", NULL};
    case PP_CALLSITE_LOOP:
        return (pp_callsite_words){pp_callsite_fortran(w->file) ? "do" : "for", NULL};
    case PP_CALLSITE_SECTIONS: return (pp_callsite_words){"sections", "section"};
    case PP_CALLSITE_SINGLE: return (pp_callsite_words){"single", "single sblock"};
    case PP_CALLSITE_WORKSHARE: return (pp_callsite_words){"workshare", NULL};
    case PP_CALLSITE_TASKLOOP: return (pp_callsite_words){"taskloop", NULL};
    case PP_CALLSITE_MASKED:
        return (pp_callsite_words){strstr(src, "masked") ? "masked" : "master", NULL};
    case PP_CALLSITE_BARRIER: return (pp_callsite_words){"barrier", NULL};
    case PP_CALLSITE_IMPLICIT_BARRIER:
        return (pp_callsite_words){explicit_b ? "barrier" : "implicit barrier", NULL};
    case PP_CALLSITE_ANY_BARRIER:
        return (pp_callsite_words){implicit ? "implicit barrier" : "barrier", NULL};
    case PP_CALLSITE_TASKWAIT:
    case PP_CALLSITE_TASKWAIT_DEPEND: return (pp_callsite_words){"taskwait", NULL};
    case PP_CALLSITE_TASKGROUP: return (pp_callsite_words){"taskgroup", NULL};
    case PP_CALLSITE_REDUCTION: return (pp_callsite_words){"reduction", NULL};
    case PP_CALLSITE_CRITICAL: return (pp_callsite_words){"critical", "critical sblock"};
    case PP_CALLSITE_ORDERED: return (pp_callsite_words){"ordered", "ordered sblock"};
    case PP_CALLSITE_TASK: return (pp_callsite_words){"task", "create task"};
    case PP_CALLSITE_UNTIED_TASK: return (pp_callsite_words){"untied task", "create untied task"};
    case PP_CALLSITE_TASKYIELD: return (pp_callsite_words){"taskyield", NULL};
    case PP_CALLSITE_FLUSH: return (pp_callsite_words){"flush", NULL};
    case PP_CALLSITE_ATOMIC: return (pp_callsite_words){"atomic", NULL};
    case PP_CALLSITE_TASKLOOP_TASK:
        return (pp_callsite_words){"taskloop task", "create taskloop task"};
    case PP_CALLSITE_TASKLOOP_GENERATOR: return (pp_callsite_words){"taskloop generator", NULL};
    case PP_CALLSITE_KINDS: break;
    }
    return (pp_callsite_words){"unknown region", NULL};
}

/* ---- one region per name ---------------------------------------------------------- */

typedef struct pp_callsite_named {
    char *name;
    pp_region_id region;
} pp_callsite_named;

static pp_callsite_named *pp_callsite_seen;
static uint32_t pp_callsite_seen_slots;

static uint32_t pp_callsite_name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The region first given this name (and role), or region itself if first. */
static pp_region_id pp_callsite_first_named(const char *name, const char *role, pp_region_id region)
{
    if (!pp_callsite_seen)
        return region;
    char key[PATH_MAX + 1000];
    snprintf(key, sizeof key, "%s\n%s", name, role);
    uint32_t mask = pp_callsite_seen_slots - 1, h = pp_callsite_name_hash(key) & mask;
    for (; pp_callsite_seen[h].name; h = (h + 1) & mask)
        if (!strcmp(pp_callsite_seen[h].name, key))
            return pp_callsite_seen[h].region;
    pp_callsite_seen[h] = (pp_callsite_named){strdup(key), region};
    return region;
}

static void pp_callsite_name_region(pp_region_id region, const char *word, const char *role,
                                    const char *critical, const pp_callsite_pos *pos)
{
    char name[PATH_MAX + 900];
    char at[PATH_MAX + 400];
    const pp_dwarf_where *w = &pos->w;
    bool found = pos->found, lost = pos->tail_lost;
    if (lost && pos->tail_callee[0])
        snprintf(at, sizeof at, "%s (position lost to a tail call)", pos->tail_callee);
    else if (found && w->line > 0)
        snprintf(at, sizeof at, "%s:%d", pp_callsite_basename(w->file), w->line);
    else if (found && w->function[0])
        snprintf(at, sizeof at, "%s+%#llx", w->function, (unsigned long long)w->function_offset);
    else if (found && w->module[0])
        snprintf(at, sizeof at, "%s+%#llx", pp_callsite_basename(w->module),
                 (unsigned long long)w->module_offset);
    else
        snprintf(at, sizeof at, "unknown");
    if (lost && !pos->tail_callee[0])
        snprintf(at + strlen(at), sizeof at - strlen(at), " (position lost to a tail call)");
    if (critical && critical[0])
        snprintf(name, sizeof name, "!$omp %s (%s) @%s", word, critical, at);
    else
        snprintf(name, sizeof name, "!$omp %s @%s", word, at);
    pp_region_def def = {
        .name = name,
        .file = found && w->line > 0 ? w->file : (found && w->module[0] ? w->module : NULL),
        .begin_line = found && w->line > 0 && !lost ? w->line : -1,
        .end_line = found && w->line > 0 && !lost ? w->line : -1, /* a call site knows no end */
        .paradigm = "openmp",
        .role = role,
    };
    pp_profile_region_rename(region, &def);
    pp_region_id first = pp_callsite_first_named(name, role, region);
    if (first != region)
        pp_profile_region_alias(region, first);
}

/* Rename construct c's regions from its position w (found: resolved). */
static void pp_callsite_name_construct(const pp_callsite *c, const pp_callsite_pos *pos)
{
    const pp_dwarf_where *w = &pos->w;
    bool found = pos->found, implicit = pos->implicit;
    char src[1024] = "", critical[256] = "";
    if (found && (c->kind == PP_CALLSITE_MASKED || c->kind == PP_CALLSITE_CRITICAL))
        pp_callsite_source_line(w->file, w->line, src, sizeof src);
    if (c->kind == PP_CALLSITE_CRITICAL)
        pp_callsite_critical_name(src, critical, sizeof critical);
    pp_callsite_words words = pp_callsite_words_of(c->kind, w, src, implicit,
                                                   pos->explicit_barrier);
    pp_region_def def;
    char role[64];
    if (pp_profile_region_describe(c->main, &def) == 0) {
        snprintf(role, sizeof role, "%s",
                 implicit ? "implicit barrier" : pos->explicit_barrier ? "barrier" : def.role);
        pp_callsite_name_region(c->main, words.main, role, critical, pos);
    }
    if (c->inner != c->main && pp_profile_region_describe(c->inner, &def) == 0) {
        snprintf(role, sizeof role, "%s", def.role);
        pp_callsite_name_region(c->inner, words.inner, role, critical, pos);
    }
}

static void pp_callsite_names_free(pp_callsite_pos *pos)
{
    free(pos);
    for (uint32_t i = 0; pp_callsite_seen && i < pp_callsite_seen_slots; i++)
        free(pp_callsite_seen[i].name);
    free(pp_callsite_seen);
    pp_callsite_seen = NULL;
}

void pp_callsite_names_finalize(void)
{
    uint32_t n = pp_callsite_count();
    if (!n)
        return;
    pp_callsite_seen_slots = 64;
    while (pp_callsite_seen_slots < 4 * n)
        pp_callsite_seen_slots *= 2;
    pp_callsite_seen = calloc(pp_callsite_seen_slots, sizeof *pp_callsite_seen);
    pp_callsite_pos *pos = calloc(n, sizeof *pos);
    if (!pos) {
        pp_callsite_names_free(pos);
        return;
    }
    pp_dwarf *dwarf = pp_dwarf_open_self();
    char at[sizeof pos[0].w.file]; /* an outlined body's file */
    for (uint32_t i = 0; i < n; i++) {
        /* the call into the runtime is one byte before the return address
         * an event source reports (maybe on the next line); the offsets
         * name the return address itself */
        const pp_callsite *c = pp_callsite_at(i);
        uintptr_t ra = (uintptr_t)c->codeptr;
        pp_dwarf_where *w = &pos[i].w;
        pos[i].found = ra && pp_dwarf_position(dwarf, ra - 1, w) == 0;
        if (pos[i].found) {
            w->module_offset++;
            if (w->function[0])
                w->function_offset++;
        }
        pp_callsite_tail(dwarf, c, &pos[i]);
        /* an outlined body's first line is the directive's */
        const void *body = __atomic_load_n(&c->body, __ATOMIC_RELAXED);
        int line = 0;
        if (pos[i].found && body &&
            pp_dwarf_entry_line(dwarf, (uintptr_t)body, at, sizeof at, &line) == 0) {
            snprintf(w->file, sizeof w->file, "%s", at);
            w->line = line;
        }
    }
    pp_dwarf_close(dwarf);
    pp_callsite_lines(pos, n);
    for (uint32_t i = 0; i < n; i++)
        pp_callsite_name_construct(pp_callsite_at(i), &pos[i]);
    pp_callsite_names_free(pos);
}
