/* Writing the unified profile as CUBE4 (pp_profile_output.c), and where the
 * file goes. */
#ifndef PP_PROFILE_OUTPUT_H
#define PP_PROFILE_OUTPUT_H

#include <stddef.h>

#include "cube-writer/pp_cube.h"
#include "profile/pp_profile_unify.h"

/* Where the profile goes (POMPPROF_OUTPUT rules): setting NULL = a fresh
 * directory pompprof-<program>-<YYYYmmdd-HHMMSS>-<pid> in the current
 * directory; "*.cubex" = that file; anything else = a directory (created)
 * holding profile.cubex.  Fills dir (created) and file (the name to write,
 * never an existing file: profile.1.cubex, ... beside it).  Returns 0, or -1
 * with a reason in err. */
int pp_profile_output_target(const char *setting, const char *program, char *dir, size_t dir_size,
                             char *file, size_t file_size, char *err, size_t err_size);
/* Write u as CUBE4 following the setting (with fallback to $TMPDIR or /tmp);
 * the final path goes to path_out when given.  Returns 0 on success. */
int pp_profile_output_write(const pp_unified *u, const char *setting, char *path_out,
                            size_t path_size);

/* The default setting's directory name, pompprof-<program>-<YYYYmmdd-HHMMSS>-
 * <pid> (the time measurement started). */
void pp_profile_output_default_name(const char *program, char *buf, size_t size);
/* The system tree of u's locations (pp_profile_system.c); location ids are
 * u's columns.  Returns 0, or -1 with the reason in pp_cube_error(cube). */
int pp_profile_system_define(pp_cube *cube, const pp_unified *u);

#endif
