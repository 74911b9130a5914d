/* pp_filter: filter files in Score-P's syntax (doc/functions.md, "Filters"),
 * which decide which instrumented functions are measured.
 *
 *   SCOREP_FILE_NAMES_BEGIN   EXCLUDE pattern...  INCLUDE pattern...  SCOREP_FILE_NAMES_END
 *   SCOREP_REGION_NAMES_BEGIN EXCLUDE [MANGLED] pattern...  INCLUDE [MANGLED] pattern...
 *   SCOREP_REGION_NAMES_END
 *
 * Patterns are shell wildcards (* ? [...]); '#' starts a comment.  Within
 * each block the last rule that matches decides (nothing matching: included);
 * a function is excluded when its file or its name is.  MANGLED rules match
 * the link name (the name itself where there is none).  Loaded once, outside
 * the event path. */
#ifndef PP_FILTER_H
#define PP_FILTER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct pp_filter pp_filter;

/* Read a filter file; NULL with a message in err (file, line, what is wrong). */
pp_filter *pp_filter_load(const char *path, char *err, size_t err_size);
/* Parse filter text (the same rules; name is used in messages). */
pp_filter *pp_filter_parse(const char *text, const char *name, char *err, size_t err_size);
/* Is the function excluded?  file and mangled may be NULL or empty (unknown):
 * file rules then do not apply, MANGLED rules match the name. */
bool pp_filter_excludes(const pp_filter *f, const char *name, const char *mangled,
                        const char *file);
void pp_filter_free(pp_filter *f);

#endif
