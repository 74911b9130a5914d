/* What the source says about a construct (pp_callsite_source.c), for the names
 * given at the end of the run. */
#ifndef PP_CALLSITE_SOURCE_H
#define PP_CALLSITE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether file is Fortran (by its extension). */
bool pp_callsite_fortran(const char *file);
/* Line `line` of file into buf ("" when it cannot be read). */
void pp_callsite_source_line(const char *file, int line, char *buf, size_t size);
/* The name of a critical section written on src ("" if none). */
void pp_callsite_critical_name(const char *src, char *name, size_t size);
/* The line where the construct whose directive is on `line` ends (0:
 * unknown): C, the end of the statement or block after the directive;
 * Fortran, its end directive. */
int pp_callsite_end_line(const char *file, int line);
int pp_callsite_fortran_end_line(const char *file, int line);
/* The lines of the directives naming word nearest to `line` within 3 lines
 * above and within 40 below (0: none; both `line` when it holds one). */
void pp_callsite_directive_lines(const char *file, int line, const char *word, int *above,
                                 int *below);
/* The line of the directive naming word nearest to `line` (3 lines above,
 * 40 below, above on a tie), else `line`. */
int pp_callsite_directive_line(const char *file, int line, const char *word);
/* Whether line `line` of file is a directive naming word. */
bool pp_callsite_directive_at(const char *file, int line, const char *word);
/* The nearest line at most `within` lines above `line` (or `line` itself)
 * holding a directive that names one of words (NULL-terminated); 0: none. */
int pp_callsite_directive_above(const char *file, int line, const char *const *words,
                                int within);


/* ---- pp_callsite_directives.c ---- */

/* The construct an OpenMP directive line names, its leading words ("single",
 * "parallel for", "end do"); false when src is no directive. */
bool pp_callsite_directive_name(const char *src, char *name, size_t size);
/* The directive on `line` with its continuation lines, joined. */
void pp_callsite_directive_text(const char *file, int line, char *buf, size_t size);
/* The lines of the directives of kind ("single", "sections", "for" or "do":
 * loops that call the runtime) after line `from` up to line `to`, but those
 * inside nested parallel regions: how many (lines gets the first max), -1
 * when the file cannot be read. */
int pp_callsite_directives_in(const char *file, int from, int to, const char *kind,
                              int *lines, int max);

/* The lines of the directives whose construct name holds word ("taskwait"),
 * lines from..to: how many (lines gets the first max), -1 when the file
 * cannot be read. */
int pp_callsite_directives_named(const char *file, int from, int to, const char *word,
                                 int *lines, int max);

#endif
