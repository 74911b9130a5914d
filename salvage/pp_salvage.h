/* pompprof-salvage: the raw trace files a run left when it never reached
 * its end (a crash, SIGKILL) made into an OTF2 archive, with the trace
 * layer's own conversion (doc/trace.md, "Salvaging an interrupted trace"). */
#ifndef PP_SALVAGE_H
#define PP_SALVAGE_H

#include <stdint.h>

#include "trace/pp_trace.h"

/* The definitions file DIR/<name>.raw/defs (trace/pp_trace_save.c) read
 * back.  Strings are owned by the struct. */
typedef struct pp_salvage_defs {
    char *program;
    long pid;
    int have_clock;
    uint64_t t0;
    double wall_t0, ticks_per_second;
    pp_trace_region *regions;      /* by id; name NULL: never saved */
    uint32_t n_regions, cap_regions;
    char **metrics;
    uint32_t n_metrics;
    char **fact_keys, **fact_values;
    uint32_t n_facts;
} pp_salvage_defs;

/* Read path into d: 0, or -1 with why (the file is missing or unreadable). */
int pp_salvage_defs_read(const char *path, pp_salvage_defs *d, char *why, size_t why_size);
/* Set fact key to value (replacing an earlier one); -1 out of memory. */
int pp_salvage_defs_fact(pp_salvage_defs *d, const char *key, const char *value);
/* Make room for region ids below n (unsaved ones are named by number). */
int pp_salvage_defs_regions(pp_salvage_defs *d, uint32_t n);
void pp_salvage_defs_free(pp_salvage_defs *d);

#endif
