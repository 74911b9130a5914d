/* pp_pomp2_region_string: parse OPARI2's region ("ctc") strings.
 *
 * OPARI2 describes every instrumented construct with a string such as
 *   78*regionType=task*sscl=/path/fib.c:4:4*escl=/path/fib.c:5:5*hasShared=1**
 * i.e. the total length of the string, then key=value fields, each closed by
 * '*', and a final '*'.  This module turns one string into a descriptor; it
 * knows nothing about the profile.  Keys it does not know are ignored (newer
 * OPARI2 versions add clauses); a string that breaks the format is rejected
 * with a message that says what is wrong, so the caller can warn and measure
 * the region as "unknown". */
#ifndef PP_POMP2_REGION_STRING_H
#define PP_POMP2_REGION_STRING_H

#include <stdbool.h>
#include <stddef.h>

typedef enum pp_pomp2_region_type {
    PP_POMP2_UNKNOWN = 0,
    PP_POMP2_ATOMIC,
    PP_POMP2_BARRIER,
    PP_POMP2_CRITICAL,
    PP_POMP2_DO,
    PP_POMP2_FLUSH,
    PP_POMP2_FOR,
    PP_POMP2_MASTER,
    PP_POMP2_ORDERED,
    PP_POMP2_PARALLEL,
    PP_POMP2_PARALLEL_DO,
    PP_POMP2_PARALLEL_FOR,
    PP_POMP2_PARALLEL_SECTIONS,
    PP_POMP2_PARALLEL_WORKSHARE,
    PP_POMP2_SECTIONS,
    PP_POMP2_SINGLE,
    PP_POMP2_TASK,
    PP_POMP2_TASKUNTIED,
    PP_POMP2_TASKWAIT,
    PP_POMP2_WORKSHARE,
    PP_POMP2_USER_REGION,
    /* constructs OPARI2 2.0.7 does not know, which the pompprof wrapper
     * instruments itself (doc/wrapper.md) */
    PP_POMP2_MASKED,
    PP_POMP2_TASKGROUP,
    PP_POMP2_TASKLOOP,
    PP_POMP2_TASKYIELD
} pp_pomp2_region_type;

/* Clauses OPARI2 reports as hasX=1 (bit set) or hasX=0 / absent (bit clear);
 * one bit per clause, so the lines are alike in shape only. */
enum {
    PP_POMP2_HAS_IF = 1u << 0,
    PP_POMP2_HAS_NUM_THREADS = 1u << 1,
    PP_POMP2_HAS_REDUCTION = 1u << 2,
    PP_POMP2_HAS_SCHEDULE = 1u << 3,
    PP_POMP2_HAS_COLLAPSE = 1u << 4,
    PP_POMP2_HAS_ORDERED = 1u << 5,
    PP_POMP2_HAS_UNTIED = 1u << 6,
    PP_POMP2_HAS_SHARED = 1u << 7,
    PP_POMP2_HAS_NOWAIT = 1u << 8,
    PP_POMP2_HAS_COPYPRIVATE = 1u << 9,
    PP_POMP2_HAS_FIRSTPRIVATE = 1u << 10,
    PP_POMP2_HAS_LASTPRIVATE = 1u << 11,
    PP_POMP2_HAS_PRIVATE = 1u << 12,
    PP_POMP2_HAS_DEFAULT = 1u << 13,
    /* not from OPARI2: the pompprof wrapper marks tasks with depend clauses
     * (C/C++: scripts/pompprof_tools/wrapper/directive.py's facts; Fortran:
     * scripts/pompprof_tools/wrapper/fortran_depend_marks.py) */
    PP_POMP2_HAS_DEPEND = 1u << 14
};

typedef struct pp_pomp2_region_info {
    pp_pomp2_region_type type;
    char *start_file; /* sscl: where the directive starts */
    int start_line1, start_line2;
    char *end_file; /* escl: where the construct ends */
    int end_line1, end_line2;
    char *name;     /* criticalName or userRegionName, NULL if none */
    char *schedule; /* value of hasSchedule ("dynamic", "static", ...), NULL if none */
    unsigned clauses; /* PP_POMP2_HAS_* bits */
    int num_sections; /* numSections, 0 if absent */
} pp_pomp2_region_info;

/* Parse ctc into *info (owned by the caller, release with
 * pp_pomp2_region_info_free).  Returns true on success.  On failure *info is
 * left empty (type PP_POMP2_UNKNOWN, all pointers NULL) and *error points to a
 * static text naming the problem. */
bool pp_pomp2_region_string_parse(const char *ctc, pp_pomp2_region_info *info,
                                  const char **error);

void pp_pomp2_region_info_free(pp_pomp2_region_info *info);

/* OPARI2's spelling of a region type ("parallelfor"), "unknown" for UNKNOWN. */
const char *pp_pomp2_region_type_name(pp_pomp2_region_type type);

#endif
