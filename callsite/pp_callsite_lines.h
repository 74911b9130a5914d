/* What the names at the end know of each construct's position
 * (pp_callsite_names.c), and how each gets the line of its directive
 * (pp_callsite_lines.c).  Internal to callsite/. */
#ifndef PP_CALLSITE_LINES_H
#define PP_CALLSITE_LINES_H

#include <stdbool.h>
#include <stdint.h>

#include "callsite/pp_callsite.h"
#include "lib/pp_dwarf.h"

typedef struct pp_callsite_pos {
    pp_dwarf_where w; /* the call's position; w.line becomes the name's line */
    bool found;       /* w is known (at least the module) */
    bool implicit;    /* an ANY_BARRIER that is a construct's implicit barrier */
    bool explicit_barrier; /* an IMPLICIT_BARRIER that is a barrier directive's */
    bool tail_lost;   /* reached through a tail call DWARF cannot follow */
    char tail_callee[256]; /* tail_lost: the function that made it ("": unknown) */
    int line;         /* the directive's line, 0 while unknown */
} pp_callsite_pos;

/* The word of the directive of a kind ("taskwait"; "do" for a Fortran
 * loop), NULL for kinds without one of their own. */
const char *pp_callsite_kind_word(pp_callsite_kind kind, const char *file);

/* A construct reached through a tail call takes the tail call's position,
 * or is marked tail_lost (pp_callsite_tail.c). */
void pp_callsite_tail(pp_dwarf *dwarf, const pp_callsite *c, pp_callsite_pos *pos);

/* Every construct's line, as OPARI2 names it: the directive's line where the
 * line table points beside it, a construct's place among its kind where the
 * line table cannot tell consecutive ones apart, an implicit barrier's line
 * where its construct ends.  pos[i] is construct i's. */
void pp_callsite_lines(pp_callsite_pos *pos, uint32_t n);

#endif
