/* The regions' names, given at the end (the layer's end hook, called at
 * finalize before anything is written).
 *
 * Each construct's code address becomes a position once
 * (lib/pp_dwarf.c), and its regions are named as OPARI2 names them:
 * "!$omp task @fib.c:9" with the file's full path and the line.  Where only
 * the construct's own source line can tell (a masked or a master block, the
 * name of a critical section, "for" or "do"), that line is read.  Without a
 * line table a region is named by function and offset ("!$omp task
 * @fib+0x2d"), or without a symbol by binary and offset ("@fib+0x1a2d"):
 * offsets from where the binary was loaded, so the names do not change from
 * run to run.  Constructs that end up with the same name and kind (one
 * construct inlined at two call sites) become one region: the later ones
 * are aliases of the first. */
#include "ompt/pp_ompt_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pp_dwarf.h"
#include "ompt/pp_ompt_source.h"
#include "profile/pp_profile_names.h"

static const char *pp_ompt_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

typedef struct pp_ompt_words {
    const char *main, *inner;
} pp_ompt_words;

static pp_ompt_words pp_ompt_words_of(pp_ompt_kind kind, const pp_dwarf_where *w,
                                      const char *src)
{
    switch (kind) {
    case PP_OMPT_PARALLEL: return (pp_ompt_words){"parallel", NULL};
    case PP_OMPT_LOOP: return (pp_ompt_words){pp_ompt_fortran(w->file) ? "do" : "for", NULL};
    case PP_OMPT_SECTIONS: return (pp_ompt_words){"sections", NULL};
    case PP_OMPT_SINGLE: return (pp_ompt_words){"single", "single sblock"};
    case PP_OMPT_WORKSHARE: return (pp_ompt_words){"workshare", NULL};
    case PP_OMPT_TASKLOOP: return (pp_ompt_words){"taskloop", NULL};
    case PP_OMPT_MASKED:
        return (pp_ompt_words){strstr(src, "masked") ? "masked" : "master", NULL};
    case PP_OMPT_BARRIER: return (pp_ompt_words){"barrier", NULL};
    case PP_OMPT_IMPLICIT_BARRIER: return (pp_ompt_words){"implicit barrier", NULL};
    case PP_OMPT_TASKWAIT:
    case PP_OMPT_TASKWAIT_DEPEND: return (pp_ompt_words){"taskwait", NULL};
    case PP_OMPT_TASKGROUP: return (pp_ompt_words){"taskgroup", NULL};
    case PP_OMPT_REDUCTION: return (pp_ompt_words){"reduction", NULL};
    case PP_OMPT_CRITICAL: return (pp_ompt_words){"critical", "critical sblock"};
    case PP_OMPT_ORDERED: return (pp_ompt_words){"ordered", "ordered sblock"};
    case PP_OMPT_TASK: return (pp_ompt_words){"task", "create task"};
    case PP_OMPT_UNTIED_TASK: return (pp_ompt_words){"untied task", "create untied task"};
    case PP_OMPT_TASKYIELD: return (pp_ompt_words){"taskyield", NULL};
    case PP_OMPT_FLUSH: return (pp_ompt_words){"flush", NULL};
    case PP_OMPT_TASKLOOP_TASK: return (pp_ompt_words){"taskloop task", "create taskloop task"};
    case PP_OMPT_TASKLOOP_GENERATOR: return (pp_ompt_words){"taskloop generator", NULL};
    case PP_OMPT_KINDS: break;
    }
    return (pp_ompt_words){"unknown region", NULL};
}

/* ---- one region per name ---------------------------------------------------------- */

typedef struct pp_ompt_named {
    char *name;
    pp_region_id region;
} pp_ompt_named;

static pp_ompt_named *pp_ompt_seen;
static int *pp_ompt_line_of; /* constructs' directive lines, while naming */
static uint32_t pp_ompt_seen_slots;

static uint32_t pp_ompt_name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The region first given this name (and role), or region itself if first. */
static pp_region_id pp_ompt_first_named(const char *name, const char *role, pp_region_id region)
{
    if (!pp_ompt_seen)
        return region;
    char key[PATH_MAX + 700];
    snprintf(key, sizeof key, "%s\n%s", name, role);
    uint32_t mask = pp_ompt_seen_slots - 1, h = pp_ompt_name_hash(key) & mask;
    for (; pp_ompt_seen[h].name; h = (h + 1) & mask)
        if (!strcmp(pp_ompt_seen[h].name, key))
            return pp_ompt_seen[h].region;
    pp_ompt_seen[h] = (pp_ompt_named){strdup(key), region};
    return region;
}

static void pp_ompt_name_region(pp_region_id region, const char *word, const char *role,
                                const char *critical, const pp_dwarf_where *w, bool found)
{
    char name[PATH_MAX + 600];
    char at[PATH_MAX + 64];
    if (found && w->line > 0)
        snprintf(at, sizeof at, "%s:%d", pp_ompt_basename(w->file), w->line);
    else if (found && w->function[0])
        snprintf(at, sizeof at, "%s+%#llx", w->function, (unsigned long long)w->function_offset);
    else if (found && w->module[0])
        snprintf(at, sizeof at, "%s+%#llx", pp_ompt_basename(w->module),
                 (unsigned long long)w->module_offset);
    else
        snprintf(at, sizeof at, "unknown");
    if (critical && critical[0])
        snprintf(name, sizeof name, "!$omp %s (%s) @%s", word, critical, at);
    else
        snprintf(name, sizeof name, "!$omp %s @%s", word, at);
    pp_region_def def = {
        .name = name,
        .file = found && w->line > 0 ? w->file : (found && w->module[0] ? w->module : NULL),
        .begin_line = found && w->line > 0 ? w->line : -1,
        .end_line = found && w->line > 0 ? w->line : -1, /* OMPT knows no end */
        .paradigm = "openmp",
        .role = role,
    };
    pp_profile_region_rename(region, &def);
    pp_region_id first = pp_ompt_first_named(name, role, region);
    if (first != region)
        pp_profile_region_alias(region, first);
}

/* ---- one directive per construct --------------------------------------------------
 * A construct whose line table entry lies beside its directive takes the
 * nearest directive naming it (pp_ompt_directive_line).  Two constructs of
 * one kind whose entries differ are two constructs of the source (one
 * construct inlined at two call sites has one entry), so they never take
 * the same directive where another is at hand: gcc puts the call of the
 * second of two singles in a row on the last line of the first, one line
 * below the first's directive and one above its own.  A construct with one
 * candidate (or its directive on its own line) is firm; one with two takes
 * the farther when the nearer is another construct's firm choice. */
typedef struct pp_ompt_choice {
    char *file; /* NULL: not chosen here (unresolved, or another rule) */
    const char *word;
    int raw, above, below, line;
    bool firm;
} pp_ompt_choice;
static pp_ompt_choice *pp_ompt_choices;

/* The first word of a construct's directive (NULL: none to look for). */
static const char *pp_ompt_first_word(const pp_ompt_construct *c, const char *file)
{
    static const char *const first_word[PP_OMPT_KINDS] = {
        [PP_OMPT_PARALLEL] = "parallel", [PP_OMPT_LOOP] = "for",
        [PP_OMPT_SECTIONS] = "sections", [PP_OMPT_SINGLE] = "single",
        [PP_OMPT_WORKSHARE] = "workshare", [PP_OMPT_TASKLOOP] = "taskloop",
        [PP_OMPT_MASKED] = "master", [PP_OMPT_BARRIER] = "barrier",
        [PP_OMPT_TASKWAIT] = "taskwait", [PP_OMPT_TASKWAIT_DEPEND] = "taskwait",
        [PP_OMPT_TASKGROUP] = "taskgroup",
        [PP_OMPT_CRITICAL] = "critical", [PP_OMPT_ORDERED] = "ordered",
        [PP_OMPT_TASK] = "task", [PP_OMPT_UNTIED_TASK] = "task",
        [PP_OMPT_FLUSH] = "flush", [PP_OMPT_TASKLOOP_TASK] = "taskloop",
        [PP_OMPT_TASKLOOP_GENERATOR] = "taskloop",
    };
    if (c->kind == PP_OMPT_LOOP && pp_ompt_fortran(file))
        return "do";
    return first_word[c->kind];
}

/* Whether the directive's line of construct c is chosen among candidates
 * (the masked and the if(0) task rules choose otherwise). */
static bool pp_ompt_chooses(const pp_ompt_construct *c)
{
    return c->kind != PP_OMPT_IMPLICIT_BARRIER && c->kind != PP_OMPT_MASKED &&
           !(c->kind == PP_OMPT_TASKWAIT_DEPEND && __atomic_load_n(&c->if0_task, __ATOMIC_RELAXED));
}

/* Whether another construct than i, of i's word and file but of another
 * line table entry, chose `line` firmly. */
static bool pp_ompt_claimed(uint32_t i, uint32_t n, int line)
{
    const pp_ompt_choice *me = &pp_ompt_choices[i];
    for (uint32_t j = 0; j < n; j++) {
        const pp_ompt_choice *o = &pp_ompt_choices[j];
        if (j != i && o->file && o->firm && o->line == line && o->raw != me->raw &&
            !strcmp(o->word, me->word) && !strcmp(o->file, me->file))
            return true;
    }
    return false;
}

/* The candidates of every construct that chooses (w: scratch), then the
 * choices. */
static void pp_ompt_choose(pp_dwarf *dwarf, uint32_t n, pp_dwarf_where *w)
{
    for (uint32_t i = 0; i < n; i++) {
        pp_ompt_construct *c = pp_ompt_construct_at(i);
        uintptr_t ra = (uintptr_t)c->codeptr;
        if (!pp_ompt_chooses(c) || !ra || pp_dwarf_position(dwarf, ra - 1, w) != 0 ||
            w->line <= 0)
            continue;
        pp_ompt_choice *ch = &pp_ompt_choices[i];
        ch->word = pp_ompt_first_word(c, w->file);
        if (!ch->word || !(ch->file = strdup(w->file)))
            continue;
        ch->raw = w->line;
        pp_ompt_directive_lines(w->file, w->line, ch->word, &ch->above, &ch->below);
        ch->firm = !ch->above || !ch->below || ch->above == ch->below;
        if (ch->above && (!ch->below || ch->raw - ch->above <= ch->below - ch->raw))
            ch->line = ch->above;
        else
            ch->line = ch->below ? ch->below : ch->raw;
    }
    for (uint32_t i = 0; i < n; i++) {
        pp_ompt_choice *ch = &pp_ompt_choices[i];
        if (!ch->file || ch->firm || !pp_ompt_claimed(i, n, ch->line))
            continue;
        int other = ch->line == ch->above ? ch->below : ch->above;
        if (!pp_ompt_claimed(i, n, other))
            ch->line = other;
    }
}

/* The directive's line of construct i (its line table entry may point
 * beside it); an implicit barrier takes the line where the construct at its
 * address ends, as OPARI2 names it.  Barriers come after all others. */
static bool pp_ompt_fix_line(uint32_t i, uint32_t n, pp_dwarf_where *w)
{
    pp_ompt_construct *c = pp_ompt_construct_at(i);
    if (w->line <= 0)
        return false;
    if (c->kind != PP_OMPT_IMPLICIT_BARRIER) {
        const char *word = pp_ompt_first_word(c, w->file);
        if (pp_ompt_choices[i].file) {
            w->line = pp_ompt_choices[i].line;
        } else if (c->kind == PP_OMPT_MASKED) { /* either word, whichever is written */
            char src[512];
            pp_ompt_source_line(w->file, w->line, src, sizeof src);
            int masked = pp_ompt_directive_line(w->file, w->line, "masked");
            if (!strstr(src, "masked") && !strstr(src, "master"))
                w->line = masked != w->line ? masked
                                            : pp_ompt_directive_line(w->file, w->line, word);
        } else if (c->kind == PP_OMPT_TASKWAIT_DEPEND &&
                   __atomic_load_n(&c->if0_task, __ATOMIC_RELAXED)) {
            /* the wait for an if(0) task's dependences: at the task */
            w->line = pp_ompt_directive_line(w->file, w->line, "task");
        } else if (word) {
            w->line = pp_ompt_directive_line(w->file, w->line, word);
        }
        pp_ompt_line_of[i] = w->line;
        return false;
    }
    /* libomp reports gcc's GOMP_barrier as the runtime's own barrier, whether
     * the program's barrier directive or a construct's implicit barrier made
     * it: a call on the line of a barrier directive is that directive's */
    int above, below;
    pp_ompt_directive_lines(w->file, w->line, "barrier", &above, &below);
    if (above == w->line && below == w->line)
        return true;
    /* the directive line of the construct at the same address (a
     * worksharing construct rather than the parallel region) */
    for (uint32_t j = 0; j < n; j++)
        if (pp_ompt_line_of[j] > 0 && pp_ompt_construct_at(j)->codeptr == c->codeptr &&
            (pp_ompt_line_of[i] = pp_ompt_line_of[j]) > 0 &&
            pp_ompt_construct_at(j)->kind != PP_OMPT_PARALLEL)
            break;
    if (pp_ompt_line_of[i] > 0)
        w->line = pp_ompt_line_of[i];
    int end = pp_ompt_end_line(w->file, w->line);
    if (end > 0)
        w->line = end; /* OPARI2 names it where it waits */
    return false;
}

/* Rename construct c's regions from its position w (found: resolved). */
static void pp_ompt_name_construct(const pp_ompt_construct *c, const pp_dwarf_where *w, bool found,
                                   bool explicit_barrier)
{
    char src[1024] = "", critical[256] = "";
    if (found && (c->kind == PP_OMPT_MASKED || c->kind == PP_OMPT_CRITICAL))
        pp_ompt_source_line(w->file, w->line, src, sizeof src);
    if (c->kind == PP_OMPT_CRITICAL)
        pp_ompt_critical_name(src, critical, sizeof critical);
    pp_ompt_words words =
        pp_ompt_words_of(explicit_barrier ? PP_OMPT_BARRIER : c->kind, w, src);
    pp_region_def def;
    char role[64];
    if (pp_profile_region_describe(c->main, &def) == 0) {
        snprintf(role, sizeof role, "%s", explicit_barrier ? "barrier" : def.role);
        pp_ompt_name_region(c->main, words.main, role, critical, w, found);
    }
    if (c->inner != c->main && pp_profile_region_describe(c->inner, &def) == 0) {
        snprintf(role, sizeof role, "%s", def.role);
        pp_ompt_name_region(c->inner, words.inner, role, critical, w, found);
    }
}

static void pp_ompt_names_free(pp_dwarf_where *w, uint32_t n)
{
    free(w);
    free(pp_ompt_line_of);
    pp_ompt_line_of = NULL;
    for (uint32_t i = 0; pp_ompt_choices && i < n; i++)
        free(pp_ompt_choices[i].file);
    free(pp_ompt_choices);
    pp_ompt_choices = NULL;
    for (uint32_t i = 0; pp_ompt_seen && i < pp_ompt_seen_slots; i++)
        free(pp_ompt_seen[i].name);
    free(pp_ompt_seen);
    pp_ompt_seen = NULL;
}

void pp_ompt_names_finalize(void)
{
    pp_ompt_close_ended_teams();
    uint32_t n = pp_ompt_construct_count();
    if (!n)
        return;
    pp_ompt_seen_slots = 64;
    while (pp_ompt_seen_slots < 4 * n)
        pp_ompt_seen_slots *= 2;
    pp_ompt_seen = calloc(pp_ompt_seen_slots, sizeof *pp_ompt_seen);
    pp_dwarf_where *w = malloc(sizeof *w);
    pp_ompt_line_of = calloc(n, sizeof *pp_ompt_line_of);
    pp_ompt_choices = calloc(n, sizeof *pp_ompt_choices);
    if (!w || !pp_ompt_line_of || !pp_ompt_choices) {
        pp_ompt_names_free(w, n);
        return;
    }
    pp_dwarf *dwarf = pp_dwarf_open_self();
    pp_ompt_choose(dwarf, n, w);
    for (uint32_t pass = 0; pass < 2; pass++) { /* barriers last */
        for (uint32_t i = 0; i < n; i++) {
            pp_ompt_construct *c = pp_ompt_construct_at(i);
            if ((c->kind == PP_OMPT_IMPLICIT_BARRIER) != (pass == 1))
                continue;
            /* the call into the runtime is one byte before the return
             * address OMPT reports (which may be on the next line); the
             * offsets name the return address itself */
            uintptr_t ra = (uintptr_t)c->codeptr;
            bool found = ra && pp_dwarf_position(dwarf, ra - 1, w) == 0;
            if (found) {
                w->module_offset++;
                if (w->function[0])
                    w->function_offset++;
            }
            bool explicit_barrier = found && pp_ompt_fix_line(i, n, w);
            pp_ompt_name_construct(c, w, found, explicit_barrier);
        }
    }
    pp_dwarf_close(dwarf);
    pp_ompt_names_free(w, n);
}
