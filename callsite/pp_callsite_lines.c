/* The line each construct's name takes (pp_callsite_lines.h).
 *
 * The line table gives the line of the call into the runtime, which is the
 * directive's line in a program built without optimisation.  gcc -O2 moves
 * and merges code: a call may get the line of the enclosing construct, of
 * the loop below its directive or of a statement next to it, and the calls
 * of two consecutive constructs may get the same line.  So, in turn:
 * 1. the directive naming the construct nearest to the line (3 lines above,
 *    40 below; pp_callsite_directive_lines), one per construct: two
 *    constructs of one kind at different lines never take the same
 *    directive where another is at hand (gcc puts the call of the second of
 *    two singles in a row on the last line of the first, one line below the
 *    first's directive and one above its own);
 * 2. worksharing constructs by their place (what an event source reports
 *    with pp_callsite_place): the k-th single (sections, loop that calls
 *    the runtime) met by an implicit task of a parallel construct is the
 *    k-th such directive inside that construct in the source, when the
 *    constructs met were exactly the first m of its kind at fixed places
 *    and the source holds m of them (anything else, say a construct inside
 *    a loop or reached through a call, keeps step 1's line);
 * 3. implicit barriers: the line where their construct ends, as OPARI2
 *    names them; a barrier call the source must tell apart (ANY_BARRIER): an
 *    explicit barrier where a barrier directive is written, else the
 *    implicit barrier of the construct just above.  An implicit barrier at
 *    its own call, with no construct at that address, is told apart the
 *    same way (libomp reports gcc's GOMP_barrier as its own barrier,
 *    whichever directive made it). */
#include "callsite/pp_callsite_lines.h"

#include <stdlib.h>
#include <string.h>

#include "callsite/pp_callsite_source.h"

static const char *const pp_callsite_first_word[PP_CALLSITE_KINDS] = {
    [PP_CALLSITE_PARALLEL] = "parallel",   [PP_CALLSITE_LOOP] = "for",
    [PP_CALLSITE_SECTIONS] = "sections",   [PP_CALLSITE_SINGLE] = "single",
    [PP_CALLSITE_WORKSHARE] = "workshare", [PP_CALLSITE_TASKLOOP] = "taskloop",
    [PP_CALLSITE_MASKED] = "master",       [PP_CALLSITE_BARRIER] = "barrier",
    [PP_CALLSITE_TASKWAIT] = "taskwait",   [PP_CALLSITE_TASKWAIT_DEPEND] = "taskwait",
    [PP_CALLSITE_TASKGROUP] = "taskgroup", [PP_CALLSITE_CRITICAL] = "critical",
    [PP_CALLSITE_ORDERED] = "ordered",     [PP_CALLSITE_TASK] = "task",
    [PP_CALLSITE_UNTIED_TASK] = "task",    [PP_CALLSITE_FLUSH] = "flush",
    [PP_CALLSITE_ATOMIC] = "atomic",       [PP_CALLSITE_TASKLOOP_TASK] = "taskloop",
    [PP_CALLSITE_TASKLOOP_GENERATOR] = "taskloop",
};

const char *pp_callsite_kind_word(pp_callsite_kind kind, const char *file)
{
    if (kind == PP_CALLSITE_LOOP && pp_callsite_fortran(file))
        return "do";
    if (kind == PP_CALLSITE_ANY_BARRIER || kind == PP_CALLSITE_IMPLICIT_BARRIER)
        return "barrier";
    return pp_callsite_first_word[kind];
}

static bool pp_callsite_is_barrier(pp_callsite_kind kind)
{
    return kind == PP_CALLSITE_IMPLICIT_BARRIER || kind == PP_CALLSITE_ANY_BARRIER;
}

/* Step 1 for a construct whose directive is not chosen among candidates
 * (masked: either word; the wait of an if(0) task's dependences: at the
 * task). */
static void pp_callsite_directive_of(const pp_callsite *c, pp_dwarf_where *w)
{
    if (c->kind == PP_CALLSITE_MASKED) { /* either word, whichever is written */
        char src[512];
        pp_callsite_source_line(w->file, w->line, src, sizeof src);
        int masked = pp_callsite_directive_line(w->file, w->line, "masked");
        if (!strstr(src, "masked") && !strstr(src, "master"))
            w->line = masked != w->line ? masked
                                        : pp_callsite_directive_line(w->file, w->line, "master");
    } else {
        w->line = pp_callsite_directive_line(w->file, w->line, "task");
    }
}

static bool pp_callsite_chooses(const pp_callsite *c)
{
    return !pp_callsite_is_barrier(c->kind) && c->kind != PP_CALLSITE_MASKED &&
           !(c->kind == PP_CALLSITE_TASKWAIT_DEPEND &&
             __atomic_load_n(&c->if0_task, __ATOMIC_RELAXED));
}

/* Step 1's candidates for construct i: the directives naming it nearest
 * above and below its line.  A construct with one candidate (or its
 * directive on its own line) is firm; one with two takes the nearer (above
 * on a tie), or the farther when the nearer is another construct's firm
 * choice. */
typedef struct pp_callsite_choice {
    const char *word; /* NULL: not chosen so */
    int raw, above, below, line;
    bool firm;
} pp_callsite_choice;

/* Whether another construct than i, of i's word and file but at another
 * line, chose `line` firmly. */
static bool pp_callsite_claimed(const pp_callsite_pos *pos, const pp_callsite_choice *ch,
                                uint32_t n, uint32_t i, int line)
{
    for (uint32_t j = 0; j < n; j++)
        if (j != i && ch[j].word && ch[j].firm && ch[j].line == line && ch[j].raw != ch[i].raw &&
            !strcmp(ch[j].word, ch[i].word) && !strcmp(pos[j].w.file, pos[i].w.file))
            return true;
    return false;
}

/* Step 1 for every construct. */
static void pp_callsite_choose(pp_callsite_pos *pos, uint32_t n)
{
    pp_callsite_choice *ch = calloc(n, sizeof *ch);
    for (uint32_t i = 0; i < n; i++) {
        const pp_callsite *c = pp_callsite_at(i);
        pp_dwarf_where *w = &pos[i].w;
        if (!pos[i].found || w->line <= 0 || pp_callsite_is_barrier(c->kind))
            continue;
        if (!pp_callsite_chooses(c)) {
            pp_callsite_directive_of(c, w);
            pos[i].line = w->line;
            continue;
        }
        const char *word = pp_callsite_kind_word(c->kind, w->file);
        if (!word || !ch) /* (out of memory: each the nearest) */
            continue;
        pp_callsite_choice *x = &ch[i];
        x->word = word;
        x->raw = w->line;
        pp_callsite_directive_lines(w->file, w->line, word, &x->above, &x->below);
        x->firm = !x->above || !x->below || x->above == x->below;
        if (x->above && (!x->below || x->raw - x->above <= x->below - x->raw))
            x->line = x->above;
        else
            x->line = x->below ? x->below : x->raw;
    }
    for (uint32_t i = 0; ch && i < n; i++) {
        pp_callsite_choice *x = &ch[i];
        if (!x->word || x->firm || !pp_callsite_claimed(pos, ch, n, i, x->line))
            continue;
        int other = x->line == x->above ? x->below : x->above;
        if (!pp_callsite_claimed(pos, ch, n, i, other))
            x->line = other;
    }
    for (uint32_t i = 0; ch && i < n; i++)
        if (ch[i].word)
            pos[i].line = pos[i].w.line = ch[i].line;
    free(ch);
}

/* Step 2 for the constructs of one kind met by implicit tasks of parallel
 * construct p. */
static void pp_callsite_by_place(pp_callsite_pos *pos, uint32_t n, uint32_t p,
                                 pp_callsite_kind kind)
{
    enum { MAX = 256 };
    const char *file = pos[p].w.file;
    const char *word = kind == PP_CALLSITE_LOOP ? (pp_callsite_fortran(file) ? "do" : "for")
                                                : pp_callsite_first_word[kind];
    uint32_t m = 0;
    bool seen[MAX + 1] = {false};
    for (uint32_t i = 0; i < n; i++) {
        const pp_callsite *c = pp_callsite_at(i);
        uint64_t place = __atomic_load_n(&c->place, __ATOMIC_RELAXED);
        if (c->kind != kind || place == PP_CALLSITE_PLACES || place >> 32 != p + 1)
            continue;
        uint32_t k = (uint32_t)place;
        if (!pos[i].found || strcmp(pos[i].w.file, file) != 0 || k == 0 || k > MAX)
            return; /* met at a place the source of p cannot hold */
        seen[k] = true;
        m = k > m ? k : m;
    }
    for (uint32_t k = 1; k <= m; k++)
        if (!seen[k])
            return;
    int end = pp_callsite_end_line(file, pos[p].line), lines[MAX];
    if (m == 0 || end <= pos[p].line ||
        pp_callsite_directives_in(file, pos[p].line, end, word, lines, MAX) != (int)m)
        return;
    for (uint32_t i = 0; i < n; i++) {
        const pp_callsite *c = pp_callsite_at(i);
        uint64_t place = __atomic_load_n(&c->place, __ATOMIC_RELAXED);
        if (c->kind == kind && place != PP_CALLSITE_PLACES && place >> 32 == p + 1)
            pos[i].line = pos[i].w.line = lines[(uint32_t)place - 1];
    }
}

/* Step 3: a barrier call the source must tell apart: a barrier directive
 * at its line; else the implicit barrier of a worksharing construct whose
 * directive is at most 3 lines above; else the barrier directive nearest to
 * it; else, with no such directive near, the implicit barrier of the
 * construct at its line (named where that ends). */
static void pp_callsite_any_barrier(pp_callsite_pos *pos)
{
    static const char *const owners[] = {"for",  "do",   "sections", "single",
                                         "loop", "scope", "workshare", NULL};
    pp_dwarf_where *w = &pos->w;
    if (!pp_callsite_directive_at(w->file, w->line, "barrier")) {
        int above = pp_callsite_directive_above(w->file, w->line, owners, 3), near;
        if (above > 0) {
            int end = pp_callsite_end_line(w->file, above);
            w->line = end > 0 ? end : above;
            pos->implicit = true;
        } else if (pp_callsite_directive_at(w->file,
                                            near = pp_callsite_directive_line(w->file, w->line,
                                                                              "barrier"),
                                            "barrier")) {
            w->line = near;
        } else {
            int end = pp_callsite_end_line(w->file, w->line);
            if (end > 0)
                w->line = end;
            pos->implicit = true;
        }
    }
    pos->line = w->line;
}

/* Step 3: an implicit barrier takes the line where the construct at its
 * address ends (a worksharing construct rather than the parallel region).
 * A barrier an event source took for a single's (the libgomp interposer:
 * the barrier call that follows a single) is a barrier directive's when
 * the single is written with nowait: named after that directive. */
static void pp_callsite_implicit_barrier(pp_callsite_pos *pos, uint32_t n, uint32_t i)
{
    const pp_callsite *c = pp_callsite_at(i);
    pp_dwarf_where *w = &pos[i].w;
    int line = 0;
    pp_callsite_kind of = PP_CALLSITE_PARALLEL;
    for (uint32_t j = 0; j < n; j++) {
        const pp_callsite *d = pp_callsite_at(j);
        if (pos[j].line > 0 && d->codeptr == c->codeptr && !pp_callsite_is_barrier(d->kind) &&
            (line = pos[j].line) > 0 && (of = d->kind) != PP_CALLSITE_PARALLEL)
            break;
    }
    if (line == 0) { /* at its own call: as a barrier call the source tells apart */
        pp_callsite_any_barrier(&pos[i]);
        pos[i].explicit_barrier = !pos[i].implicit;
        pos[i].implicit = false;
        return;
    }
    if (line > 0)
        w->line = line;
    int end = pp_callsite_end_line(w->file, w->line);
    if (of == PP_CALLSITE_SINGLE && line > 0) {
        char text[2048];
        pp_callsite_directive_text(w->file, line, text, sizeof text);
        int at = end > 0 ? pp_callsite_directive_line(w->file, end + 1, "barrier") : 0;
        if (strstr(text, "nowait") && at > end) {
            pos[i].explicit_barrier = true;
            end = at;
        }
    }
    if (end > 0)
        w->line = end; /* OPARI2 names it where it waits */
    pos[i].line = w->line;
}

void pp_callsite_lines(pp_callsite_pos *pos, uint32_t n)
{
    pp_callsite_choose(pos, n);
    static const pp_callsite_kind by_place[] = {PP_CALLSITE_SINGLE, PP_CALLSITE_SECTIONS,
                                                PP_CALLSITE_LOOP};
    for (uint32_t p = 0; p < n; p++)
        if (pp_callsite_at(p)->kind == PP_CALLSITE_PARALLEL && pos[p].line > 0)
            for (unsigned k = 0; k < sizeof by_place / sizeof by_place[0]; k++)
                pp_callsite_by_place(pos, n, p, by_place[k]);
    for (uint32_t i = 0; i < n; i++) {
        const pp_callsite *c = pp_callsite_at(i);
        if (!pos[i].found || pos[i].w.line <= 0)
            continue;
        if (c->kind == PP_CALLSITE_ANY_BARRIER)
            pp_callsite_any_barrier(&pos[i]);
        else if (c->kind == PP_CALLSITE_IMPLICIT_BARRIER)
            pp_callsite_implicit_barrier(pos, n, i);
    }
}
