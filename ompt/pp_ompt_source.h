/* What the source says about a construct (pp_ompt_source.c), for the names
 * given at the end of the run. */
#ifndef PP_OMPT_SOURCE_H
#define PP_OMPT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether file is Fortran (by its extension). */
bool pp_ompt_fortran(const char *file);
/* Line `line` of file into buf ("" when it cannot be read). */
void pp_ompt_source_line(const char *file, int line, char *buf, size_t size);
/* The name of a critical section written on src ("" if none). */
void pp_ompt_critical_name(const char *src, char *name, size_t size);
/* The line where the C construct whose directive is on `line` ends (0:
 * unknown, or Fortran). */
int pp_ompt_end_line(const char *file, int line);
/* The lines of the directives naming word nearest to `line` within 3 lines
 * above and within 40 below (0: none; both `line` when it holds one). */
void pp_ompt_directive_lines(const char *file, int line, const char *word, int *above,
                             int *below);
/* The line of the directive naming word nearest to `line` (3 lines above,
 * 40 below, above on a tie), else `line`. */
int pp_ompt_directive_line(const char *file, int line, const char *word);

#endif
