/* What a construct's source line says, where the line table cannot tell:
 * the directive's own line, the line where a construct ends, a critical
 * section's name (pp_ompt_source.h).  Read at the end of the run only. */
#include "ompt/pp_ompt_source.h"

#include <stdio.h>
#include <string.h>

bool pp_ompt_fortran(const char *file)
{
    const char *dot = strrchr(file, '.');
    if (!dot)
        return false;
    dot++;
    return (dot[0] == 'f' || dot[0] == 'F') &&
           (!dot[1] || !strcmp(dot + 1, "90") || !strcmp(dot + 1, "95") ||
            !strcmp(dot + 1, "03") || !strcmp(dot + 1, "08") || !strcmp(dot + 1, "or") ||
            !strcmp(dot + 1, "pp"));
}

/* Line `line` of file into buf ("" when it cannot be read). */
void pp_ompt_source_line(const char *file, int line, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = *file && line > 0 ? fopen(file, "r") : NULL;
    if (!f)
        return;
    for (int i = 1; fgets(buf, (int)size, f); i++)
        if (i == line)
            break;
        else
            buf[0] = '\0';
    fclose(f);
}

/* The name of a critical section written on src ("" if none). */
void pp_ompt_critical_name(const char *src, char *name, size_t size)
{
    name[0] = '\0';
    const char *p = strstr(src, "critical");
    if (!p)
        return;
    p += strlen("critical");
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '(')
        return;
    p++;
    while (*p == ' ')
        p++;
    size_t n = 0;
    while (p[n] && p[n] != ')' && p[n] != ' ' && n + 1 < size)
        n++;
    memcpy(name, p, n);
    name[n] = '\0';
}

/* The line where the construct starting on line `line` of file ends, as
 * OPARI2 names implicit barriers (0: unknown).  C: after the directive (and
 * its continuation lines), the statement that follows: a block ends at its
 * closing brace, a statement at its semicolon outside parentheses (a loop's
 * head included).  Comments and literals are skipped. */
int pp_ompt_end_line(const char *file, int line)
{
    FILE *f = *file && line > 0 && !pp_ompt_fortran(file) ? fopen(file, "r") : NULL;
    if (!f)
        return 0;
    int ln = 1, c, prev = 0, paren = 0, brace = 0, end = 0;
    while (ln < line && (c = getc(f)) != EOF)
        ln += c == '\n';
    /* the directive itself, with backslash continuations */
    while ((c = getc(f)) != EOF) {
        if (c == '\n') {
            ln++;
            if (prev != '\\')
                break;
        }
        if (c != ' ' && c != '\t' && c != '\r')
            prev = c;
    }
    bool seen = false;
    prev = 0;
    while (!end && (c = getc(f)) != EOF) {
        if (c == '\n') {
            ln++;
        } else if (c == '/' && prev == '/') { /* line comment */
            while ((c = getc(f)) != EOF && c != '\n') {}
            ln++;
            c = 0;
        } else if (c == '*' && prev == '/') { /* block comment */
            int p = 0;
            while ((c = getc(f)) != EOF && !(p == '*' && c == '/')) {
                ln += c == '\n';
                p = c;
            }
            c = 0;
        } else if (c == '"' || c == '\'') {
            int q = c, p = 0;
            while ((c = getc(f)) != EOF && !(c == q && p != '\\')) {
                p = (p == '\\') ? 0 : c;
                ln += c == '\n';
            }
            c = 0;
        } else if (c == '#' && !seen) { /* another directive first (combined nesting) */
            while ((c = getc(f)) != EOF && c != '\n') {}
            ln++;
            c = 0;
        } else if (c == '(') {
            paren++;
        } else if (c == ')') {
            paren--;
        } else if (c == '{') {
            brace++;
        } else if (c == '}') {
            if (--brace <= 0 && paren <= 0)
                end = ln;
        } else if (c == ';' && paren <= 0 && brace <= 0) {
            end = ln;
        }
        if (c && c != ' ' && c != '\t' && c != '\n' && c != '/')
            seen = true;
        prev = c;
    }
    fclose(f);
    return end;
}

/* Whether src is an OpenMP directive that names word as a whole token. */
static bool pp_ompt_directive_has(const char *src, const char *word)
{
    const char *omp = strstr(src, "omp");
    if (!omp || !(strstr(src, "#") || strstr(src, "!$")))
        return false;
    size_t n = strlen(word);
    for (const char *p = omp + 3; (p = strstr(p, word)) != NULL; p += n) {
        bool before = p[-1] == ' ' || p[-1] == '\t' || p[-1] == '(';
        bool after = !p[n] || p[n] == ' ' || p[n] == '\t' || p[n] == '(' || p[n] == '\n' ||
                     p[n] == '\r' || p[n] == '\\';
        if (before && after)
            return true;
    }
    return false;
}

/* The candidates for the line of the directive of a construct (word: its
 * first word) when the line table points next to it: gcc puts a call into
 * the runtime on the enclosing construct's line, on the loop below the
 * directive, or on the end of the construct before.  The line itself if it
 * holds the directive (then *above = *below = line); else the nearest
 * directive naming word within 3 lines above (*above) and within 40 lines
 * below (*below), 0 where there is none. */
void pp_ompt_directive_lines(const char *file, int line, const char *word, int *above_line,
                             int *below_line)
{
    *above_line = *below_line = 0;
    FILE *f = *file && line > 0 ? fopen(file, "r") : NULL;
    if (!f)
        return;
    enum { ABOVE = 3, BELOW = 40 };
    char text[ABOVE + BELOW + 1][512];
    int first = line > ABOVE ? line - ABOVE : 1, n = 0;
    char buf[512];
    for (int i = 1; n <= ABOVE + BELOW && fgets(buf, sizeof buf, f); i++)
        if (i >= first)
            memcpy(text[n++], buf, sizeof buf);
    fclose(f);
    int at = line - first; /* index of line in text */
    if (at >= n)
        return;
    if (pp_ompt_directive_has(text[at], word)) {
        *above_line = *below_line = line;
        return;
    }
    for (int k = at - 1; k >= 0 && !*above_line; k--)
        if (pp_ompt_directive_has(text[k], word))
            *above_line = first + k;
    for (int k = at + 1; k < n && !*below_line; k++)
        if (pp_ompt_directive_has(text[k], word))
            *below_line = first + k;
}

/* The nearest of the candidates, the one above on a tie (an optimised line
 * table may give the call the line of a statement next to its directive:
 * gcc -O2 puts a taskwait depend's call on the task two lines above, below
 * a taskwait three lines above it); else the line itself. */
int pp_ompt_directive_line(const char *file, int line, const char *word)
{
    int above, below;
    pp_ompt_directive_lines(file, line, word, &above, &below);
    if (above && (!below || line - above <= below - line))
        return above;
    return below ? below : line;
}
