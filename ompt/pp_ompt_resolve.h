/* Code addresses to source positions, at the end of the run only
 * (pp_ompt_resolve.c). */
#ifndef PP_OMPT_RESOLVE_H
#define PP_OMPT_RESOLVE_H

#include <limits.h>
#include <stdint.h>

typedef struct pp_ompt_where {
    char file[PATH_MAX]; /* source file ("" when the binary has no line table) */
    int line;            /* 0: unknown */
    char function[256];  /* "" when no symbol covers the address */
    uint64_t function_offset;
    char module[PATH_MAX]; /* the binary or library holding the address */
    uint64_t module_offset; /* from the module's load address: stable under ASLR */
} pp_ompt_where;

/* Begin and end a batch of lookups (the debug information is read once). */
void pp_ompt_resolve_begin(void);
void pp_ompt_resolve_end(void);
/* Where the call that returns to return_address is.  0 when something was
 * found, -1 when nothing was. */
int pp_ompt_resolve(const void *return_address, pp_ompt_where *out);

#endif
