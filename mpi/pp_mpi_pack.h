/* A profile of some ranks as one byte buffer, to travel between ranks
 * (pp_mpi_pack.c), and the merge of two of them (pp_mpi_merge.c).
 *
 * The buffer holds definitions by identity, never the engine's local ids:
 * regions as their strings and lines, parameter sets as their names and
 * values, metrics by name, locations with
 * their rank, thread and host.  Values are sparse: a node lists only the
 * locations that have any.  Layout (integers in the hosts' byte order; the
 * ranks of a job share it):
 *
 *   header   "PPMPIv1\0", u32 locations, counters, extras, regions, nodes,
 *            tasks region (index, or UINT32_MAX: none), parameter sets
 *   names    counter names, then extra-metric names (strings)
 *   regions  name, file, paradigm, role, description (strings), i32 begin
 *            and end line
 *   locations i32 rank, u32 thread, host, process (strings), u64 max active tasks
 *   psets    the parameter sets, the first one empty: u32 entries, then per
 *            entry (sorted by name, so equal sets have equal bytes) the
 *            name (string), u32 type (0 number, 1 string, 2 "<other>"),
 *            u64 number, string (empty unless type 1)
 *   nodes    in pre-order: u32 parent (UINT32_MAX for the root), u32 region,
 *            u32 parameter set, u32 entries, then per entry u32 location and u64 visits, time,
 *            min time (UINT64_MAX: no visit), max time, max active instances
 *            (a task construct's), the counters, the extra metrics
 *
 * A string is a u32 length and its bytes. */
#ifndef PP_MPI_PACK_H
#define PP_MPI_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "profile/pp_profile_unify.h"

#define PP_MPI_NONE UINT32_MAX

/* A growing buffer; failed is set (and nothing more is written) when memory
 * is short. */
typedef struct pp_mpi_buf {
    unsigned char *data;
    size_t size, cap;
    int failed;
} pp_mpi_buf;

void pp_mpi_buf_put(pp_mpi_buf *b, const void *p, size_t n);
void pp_mpi_buf_u32(pp_mpi_buf *b, uint32_t v);
void pp_mpi_buf_u64(pp_mpi_buf *b, uint64_t v);
void pp_mpi_buf_str(pp_mpi_buf *b, const char *s, size_t n);
void pp_mpi_buf_free(pp_mpi_buf *b);

/* A string inside a buffer (not NUL-terminated). */
typedef struct pp_mpi_str {
    const char *s;
    uint32_t n;
} pp_mpi_str;

/* A packed profile, read: counts, and offsets of every part. */
typedef struct pp_mpi_view {
    const unsigned char *data;
    size_t size;
    uint32_t n_loc, n_ctr, n_extra, n_regions, n_nodes, tasks_region, n_psets;
    pp_mpi_str *ctr_names, *extra_names; /* [n_ctr], [n_extra] */
    size_t *region_at, *region_end;      /* a region's bytes: its identity */
    size_t locations_at, locations_end;  /* the locations, in order */
    size_t *pset_at, *pset_end;          /* a parameter set's bytes: its identity */
    uint32_t *parent, *region, *pset, *entries; /* per node */
    size_t *entries_at;                  /* per node: offset of its first entry */
} pp_mpi_view;

/* The size of one value entry. */
static inline size_t pp_mpi_entry_size(uint32_t n_ctr, uint32_t n_extra)
{
    return 4 + 8 * (5 + (size_t)n_ctr + n_extra);
}

/* This process's unified profile, packed (NULL u: an empty profile of no
 * location).  Returns 0, or -1 when memory is short (b is freed). */
int pp_mpi_pack(const pp_unified *u, pp_mpi_buf *b);

/* Read a packed profile; 0, or -1 when it is malformed or memory is short
 * (v is freed). */
int pp_mpi_view_open(pp_mpi_view *v, const unsigned char *data, size_t size);
void pp_mpi_view_close(pp_mpi_view *v);

/* Read a string / integers at *at, advancing it (no checks: the view was
 * checked when opened). */
pp_mpi_str pp_mpi_get_str(const pp_mpi_view *v, size_t *at);
uint32_t pp_mpi_get_u32(const pp_mpi_view *v, size_t *at);
uint64_t pp_mpi_get_u64(const pp_mpi_view *v, size_t *at);

/* The profile of a's ranks followed by b's (pp_mpi_merge.c): regions,
 * parameter sets and metrics by identity, call paths by their path of
 * (region, parameter set), locations a's then b's.
 * Returns 0, or -1 when memory is short (out is freed). */
int pp_mpi_merge(const pp_mpi_view *a, const pp_mpi_view *b, pp_mpi_buf *out);

/* The packed profile as the engine's unified profile, ready to write:
 * regions defined in the engine (by identity), counters and extra metrics
 * by name.  NULL when memory is short. */
pp_unified *pp_mpi_unpack(const pp_mpi_view *v, uint64_t t_finalize);

#endif
