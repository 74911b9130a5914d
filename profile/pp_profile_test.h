/* pp_profile: the unified tree, output, and hooks for the unit tests.
 *
 * Used by finalize and by test/unit/profile; not part of the adapter's API.
 * Times in the unified tree are timer ticks (the writer converts them to
 * seconds), so tests with a fake clock can assert exact values. */
#ifndef PP_PROFILE_TEST_H
#define PP_PROFILE_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "profile/pp_profile.h"

typedef struct pp_unode pp_unode;
struct pp_unode {
    pp_region_id region;
    int id; /* cnode id: pre-order position, set by pp_profile_unify_at */
    pp_unode *parent, *first_child, *next_sibling, *last_child;
    /* one entry per location */
    uint64_t *visits;
    uint64_t *time;     /* inclusive ticks */
    uint64_t *min_time; /* ticks; UINT64_MAX = no visit */
    uint64_t *max_time;
    uint64_t *counters; /* [counter * n_locations + location], inclusive */
};

typedef struct pp_unified {
    pp_unode *root;  /* the program region */
    pp_unode *tasks; /* the TASKS child of root, NULL when no task ran */
    uint32_t n_locations;
    uint32_t n_nodes;
    uint32_t n_counters;
    const char *counter_names[8];
    uint64_t *max_active_tasks; /* per location */
    uint64_t t_finalize;        /* ticks */
} pp_unified;

/* Close every region still open at `now` (ticks) on every location, finish
 * active task instances, and unify all locations' trees into one.  NULL when
 * nothing was measured.  Used by finalize; tests call it to inspect. */
pp_unified *pp_profile_unify_at(uint64_t now);
void pp_unified_free(pp_unified *u);
/* The child of parent for region (NULL if none). */
pp_unode *pp_unified_child(const pp_unode *parent, pp_region_id region);
/* Inclusive minus the children's inclusive (TASKS below the root excluded). */
int64_t pp_unified_exclusive(const pp_unified *u, const pp_unode *n, uint32_t location);

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

/* Print the one-line reports of folded regions (MAX_DEPTH, MEMORY). */
void pp_profile_report_losses(void);

/* ---- tests only ---- */
/* Forget everything (all locations, regions, paths); the caller's location too. */
void pp_profile_test_reset(void);
/* init with a fake timestamp: no timer calibration, no atexit handler. */
void pp_profile_test_start_at(uint64_t now);
/* Let the calling thread act as location `index` (created as needed, in order). */
void pp_profile_test_use_location(uint32_t index);
void pp_profile_test_set_limits(unsigned max_depth, size_t memory_limit);
size_t pp_profile_test_arena_bytes(uint32_t index);
uint64_t pp_profile_test_lost(int memory);
pp_region_id pp_profile_program_region(void);
pp_region_id pp_profile_tasks_region(void);

#endif
