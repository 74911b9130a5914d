/* The OpenMP directives of a source file as the names need them: what a
 * directive line names ("parallel for", "end do"), its whole text with its
 * continuation lines, and the directives of one kind inside a parallel
 * construct, in source order (pp_callsite_source.h).  C and Fortran (free
 * and fixed form).  Read at the end of the run only. */
#include "callsite/pp_callsite_source.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *pp_callsite_skip_blank(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* After the directive's sentinel ("#pragma omp", "!$omp", fixed form's
 * "c$omp" / "*$omp"), or NULL when src is no directive (nor a continuation
 * line of one). */
static const char *pp_callsite_after_sentinel(const char *src)
{
    const char *p = pp_callsite_skip_blank(src);
    if (*p == '#') {
        p = pp_callsite_skip_blank(p + 1);
        if (strncmp(p, "pragma", 6) != 0)
            return NULL;
        p = pp_callsite_skip_blank(p + 6);
        return strncmp(p, "omp", 3) == 0 && !isalnum((unsigned char)p[3]) ? p + 3 : NULL;
    }
    if (p == src && (*p == 'c' || *p == 'C' || *p == '*'))
        p++; /* fixed form: the sentinel in column 1 */
    else if (*p == '!')
        p++;
    else
        return NULL;
    if (p[0] != '$' || tolower((unsigned char)p[1]) != 'o' ||
        tolower((unsigned char)p[2]) != 'm' || tolower((unsigned char)p[3]) != 'p')
        return NULL;
    p += 4;
    return *p == '&' ? NULL : p; /* a continuation line names nothing */
}

/* The next word of p (lower case) into w; the position after it. */
static const char *pp_callsite_word(const char *p, char *w, size_t size)
{
    p = pp_callsite_skip_blank(p);
    size_t n = 0;
    while ((isalnum((unsigned char)*p) || *p == '_') && n + 1 < size)
        w[n++] = (char)tolower((unsigned char)*p++);
    w[n] = '\0';
    return p;
}

static bool pp_callsite_one_of(const char *w, const char *const *words)
{
    for (; *words; words++)
        if (!strcmp(w, *words))
            return true;
    return false;
}

bool pp_callsite_directive_name(const char *src, char *name, size_t size)
{
    static const char *const constructs[] = {
        "parallel", "for", "do", "sections", "section", "single", "workshare", "task",
        "taskloop", "taskwait", "taskgroup", "taskyield", "barrier", "critical", "atomic",
        "flush", "ordered", "master", "masked", "simd", "loop", "teams", "distribute",
        "target", "scope", "cancel", "cancellation", "depobj", "scan", "end", NULL};
    /* the words that may follow another in a combined construct's name */
    static const char *const follow[] = {"for", "do", "sections", "workshare", "loop",
                                         "master", "masked", "simd", "taskloop", NULL};
    static const char *const lead[] = {"parallel", "for", "do", "master", "masked",
                                       "taskloop", NULL};
    name[0] = '\0';
    const char *p = pp_callsite_after_sentinel(src);
    if (!p)
        return false;
    char w[32], prev[32] = "";
    size_t len = 0;
    for (;;) {
        const char *q = pp_callsite_word(p, w, sizeof w);
        if (!w[0])
            break;
        bool take = !prev[0] ? pp_callsite_one_of(w, constructs)
                             : !strcmp(prev, "end") ? pp_callsite_one_of(w, constructs)
                                                    : pp_callsite_one_of(prev, lead) &&
                                                          pp_callsite_one_of(w, follow);
        if (!take)
            break;
        len += (size_t)snprintf(name + len, len < size ? size - len : 0, "%s%s",
                                len ? " " : "", w);
        snprintf(prev, sizeof prev, "%s", w);
        p = q;
    }
    return name[0] != '\0';
}

void pp_callsite_directive_text(const char *file, int line, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = *file && line > 0 ? fopen(file, "r") : NULL;
    if (!f)
        return;
    char src[512];
    size_t len = 0;
    bool fortran = pp_callsite_fortran(file), more = false;
    for (int i = 1, taken = 0; fgets(src, sizeof src, f) && taken < 8; i++) {
        if (i < line)
            continue;
        if (i > line && !more) {
            /* Fortran: a continuation line of the directive begins with its
             * sentinel and '&' */
            const char *p = pp_callsite_skip_blank(src);
            if (!fortran || p[0] != '!' || p[1] != '$' || !strchr(p, '&'))
                break;
        }
        size_t n = strcspn(src, "\r\n");
        src[n] = '\0';
        more = fortran ? (n > 0 && strchr(src, '&') && src[n - 1] == '&')
                       : (n > 0 && src[n - 1] == '\\');
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s ", src);
        taken++;
        if (!more && !fortran)
            break;
    }
    fclose(f);
}

/* Whether the loop directive text makes gcc call the runtime for the
 * loop's begin and end: a schedule other than static, ordered, or a clause
 * that needs the runtime's loop start (task reductions, inscan, conditional
 * lastprivate).  A statically scheduled loop (no schedule clause, static,
 * auto) is computed inline: the runtime sees only its barrier. */
static bool pp_callsite_loop_calls_runtime(const char *text)
{
    char t[2048];
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof t; p++)
        if (*p != ' ' && *p != '\t')
            t[n++] = (char)tolower((unsigned char)*p);
    t[n] = '\0';
    const char *s = strstr(t, "schedule(");
    if (s) {
        s += strlen("schedule(");
        if (!strncmp(s, "monotonic:", 10) || !strncmp(s, "nonmonotonic:", 13))
            s = strchr(s, ':') + 1;
        if (strncmp(s, "static", 6) != 0 && strncmp(s, "auto", 4) != 0)
            return true;
    }
    return strstr(t, "ordered") || strstr(t, "reduction(task") || strstr(t, "inscan") ||
           strstr(t, "conditional:");
}

int pp_callsite_directives_in(const char *file, int from, int to, const char *kind,
                              int *lines, int max)
{
    FILE *f = *file && from > 0 ? fopen(file, "r") : NULL;
    if (!f)
        return -1;
    char src[512], name[64];
    int n = 0, skip_to = 0;
    bool loop = !strcmp(kind, "for") || !strcmp(kind, "do");
    for (int i = 1; i <= to && fgets(src, sizeof src, f); i++) {
        if (i <= from || i <= skip_to || !pp_callsite_directive_name(src, name, sizeof name))
            continue;
        if (!strncmp(name, "parallel", 8)) { /* a nested region: its own constructs */
            int end = pp_callsite_end_line(file, i);
            skip_to = end > i ? end : i;
            continue;
        }
        bool same = loop ? (!strcmp(name, "for") || !strcmp(name, "do") ||
                            !strcmp(name, "for simd") || !strcmp(name, "do simd"))
                         : !strcmp(name, kind);
        if (!same)
            continue;
        if (loop) {
            char text[2048];
            pp_callsite_directive_text(file, i, text, sizeof text);
            if (!pp_callsite_loop_calls_runtime(text))
                continue;
        }
        if (n < max)
            lines[n] = i;
        n++;
    }
    fclose(f);
    return n;
}

int pp_callsite_fortran_end_line(const char *file, int line)
{
    char src[512], name[64], first[32];
    pp_callsite_source_line(file, line, src, sizeof src);
    if (!pp_callsite_directive_name(src, name, sizeof name))
        return 0;
    snprintf(first, sizeof first, "%.*s", (int)strcspn(name, " "), name);
    FILE *f = fopen(file, "r");
    if (!f)
        return 0;
    int depth = 0, end = 0;
    for (int i = 1; !end && fgets(src, sizeof src, f); i++) {
        if (i <= line || !pp_callsite_directive_name(src, name, sizeof name))
            continue;
        if (!strncmp(name, first, strlen(first)) &&
            (name[strlen(first)] == '\0' || name[strlen(first)] == ' '))
            depth++;
        else if (!strncmp(name, "end ", 4) && !strncmp(name + 4, first, strlen(first)) &&
                 (name[4 + strlen(first)] == '\0' || name[4 + strlen(first)] == ' ') &&
                 depth-- == 0)
            end = i;
    }
    fclose(f);
    return end;
}

int pp_callsite_directives_named(const char *file, int from, int to, const char *word,
                                 int *lines, int max)
{
    FILE *f = *file && from > 0 ? fopen(file, "r") : NULL;
    if (!f)
        return -1;
    char src[512], name[64];
    int n = 0;
    size_t len = strlen(word);
    for (int i = 1; i <= to && fgets(src, sizeof src, f); i++) {
        if (i < from || !pp_callsite_directive_name(src, name, sizeof name) ||
            !strncmp(name, "end", 3))
            continue;
        for (const char *p = name; (p = strstr(p, word)) != NULL; p += len)
            if ((p == name || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' ')) {
                if (n < max)
                    lines[n] = i;
                n++;
                break;
            }
    }
    fclose(f);
    return n;
}
