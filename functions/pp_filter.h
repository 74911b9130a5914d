/* pp_filter: filter files in Score-P's syntax (doc/functions.md, "Filters"),
 * which decide which functions are instrumented (the GCC plugin, at build
 * time) and measured (the library, at run time).
 *
 *   SCOREP_FILE_NAMES_BEGIN   EXCLUDE pattern...  INCLUDE pattern...  SCOREP_FILE_NAMES_END
 *   SCOREP_REGION_NAMES_BEGIN EXCLUDE [MANGLED] pattern...  INCLUDE [MANGLED] pattern...
 *   SCOREP_REGION_NAMES_END
 *
 * Patterns are shell wildcards (fnmatch(3); a backslash quotes the next
 * character, also a blank or '#'); '#' starts a comment.  Within each block
 * the last rule that matches decides (nothing matching: included); a
 * function is excluded when its file or its name is.  MANGLED switches the
 * rest of its rule to the link name (the name itself where there is none),
 * DEMANGLED back.  A file that could be misread (an unknown keyword, a rule
 * without patterns, a block not closed...) is refused with file and line;
 * scripts/pompprof_tools/filterfile.py reads the same files alike. */
#ifndef PP_FILTER_H
#define PP_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pp_filter pp_filter;

/* One pattern of a rule, as read. */
typedef struct pp_filter_rule {
    bool file;     /* a file rule, else a region rule */
    bool exclude;  /* EXCLUDE, else INCLUDE */
    bool mangled;  /* MANGLED: against the link name */
    int line;      /* the pattern's line in the file */
    char *pattern;
} pp_filter_rule;

/* Read a filter file; NULL with a message in err ("file:line: what"). */
pp_filter *pp_filter_load(const char *path, char *err, size_t err_size);
/* Parse filter text (the same rules; name is used in messages). */
pp_filter *pp_filter_parse(const char *text, const char *name, char *err, size_t err_size);
/* Is the function excluded?  file and mangled may be NULL or empty (unknown):
 * file rules then do not apply, MANGLED rules match the name. */
bool pp_filter_excludes(const pp_filter *f, const char *name, const char *mangled,
                        const char *file);
/* Is this a function pompprof never measures, whatever a filter says: code
 * of system headers and of the C++ standard library (/usr/include, GCC's
 * and LLVM's directories), pompprof's own (its prelude "<pompprof>",
 * pompprof.h) and OPARI2's region initialisation (POMP2_Init_reg_...)?
 * The plugin and the wrapper leave them uninstrumented; clang cannot, so
 * the library leaves them out at run time.  file may be NULL or empty. */
bool pp_filter_never(const char *name, const char *file);
/* The patterns in the order of the file (NULL past the end). */
size_t pp_filter_count(const pp_filter *f);
const pp_filter_rule *pp_filter_rule_at(const pp_filter *f, size_t i);
void pp_filter_free(pp_filter *f);

#ifdef __cplusplus
}
#endif

#endif
