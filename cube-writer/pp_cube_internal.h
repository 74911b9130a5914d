/* pp_cube internals shared by the writer's source files (not installed).
 *
 * Every definition is kept in a dense array indexed by its id; the three
 * trees (metrics, cnodes, system nodes) keep their shape in a pp_cube_forest
 * of parent/child/sibling links, so children keep definition order and the
 * trees can be walked without recursion (call trees can be 10,000+ deep). */
#ifndef PP_CUBE_INTERNAL_H
#define PP_CUBE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "cube-writer/pp_cube.h"

/* ---- forest: ordered trees as index links (pp_cube_tree.c) -------------- */
typedef struct {
    int *parent;       /* -1 for a root */
    int *first_child;  /* -1 for a leaf */
    int *last_child;
    int *next_sibling; /* roots are chained as siblings too */
    int count;
    int cap;
    int first_root;
    int last_root;
} pp_cube_forest;

void pp_cube_forest_init(pp_cube_forest *forest);
void pp_cube_forest_free(pp_cube_forest *forest);
/* Appends a node as the last child of parent (-1: last root); returns its
 * index (== forest->count before the call) or -1 when out of memory. */
int pp_cube_forest_add(pp_cube_forest *forest, int parent);

/* Walks the forest in document order (depth-first, children in order),
 * calling enter before a node's children and leave after them.  A callback
 * returning non-zero stops the walk and is returned. */
typedef int (*pp_cube_forest_visit)(void *ctx, int node);
int pp_cube_forest_walk(const pp_cube_forest *forest, pp_cube_forest_visit enter,
                        pp_cube_forest_visit leave, void *ctx);

/* ---- definitions --------------------------------------------------------- */
typedef struct {
    char *key;
    char *value;
} pp_cube_attr;

typedef struct {
    char *uniq_name;
    char *disp_name;
    char *unit;
    char *descr;
    char *url;      /* documentation link, "" for none */
    pp_cube_dtype dtype;
    pp_cube_kind kind;
    uint64_t empty; /* bit pattern of an unset cell (pp_cube_metric_empty) */
    /* Dense values[cnode * cols + location], 8 bytes each (bit pattern of the
     * uint64/int64/double); NULL until the first value is set.  rows/cols are
     * the allocated extents, which may lag behind the defined counts: cells
     * outside them read as `empty`. */
    uint64_t *values;
    size_t rows;
    size_t cols;
} pp_cube_metric;

typedef struct {
    char *name;
    char *file;
    int begin_line;
    int end_line;
    char *paradigm;
    char *role;
    char *descr;
    char *mangled; /* NULL: the name */
} pp_cube_region;

typedef struct {
    pp_cube_param_type type;
    char *key;
    char *value; /* as written: a number's text for PP_CUBE_PARAM_NUMERIC */
} pp_cube_param;

typedef struct {
    int region;
    pp_cube_param *params; /* in the order they were added */
    int num_params;
} pp_cube_cnode;

typedef struct {
    char *name;
    char *class_name;
    int first_process; /* processes below this node, in definition order */
    int last_process;
} pp_cube_sysnode;

typedef struct {
    int system_node;
    char *name;
    int rank;
    int next_process; /* sibling below the same system node */
    int first_thread;
    int last_thread;
    int num_threads;
} pp_cube_process;

typedef struct {
    int process;
    char *name;
    int rank;
    int next_thread; /* sibling in the same process */
    int index_in_process;
} pp_cube_thread;

struct pp_cube {
    char error[512];
    unsigned writes; /* makes temporary names unique within the process */

    pp_cube_attr *attrs;
    int num_attrs, cap_attrs;

    char **mirrors; /* <doc><mirrors>: bases of "@mirror@" URLs */
    int num_mirrors, cap_mirrors;

    pp_cube_metric *metrics;
    int num_metrics, cap_metrics;
    pp_cube_forest metric_tree;

    pp_cube_region *regions;
    int num_regions, cap_regions;

    pp_cube_cnode *cnodes;
    int num_cnodes, cap_cnodes;
    pp_cube_forest cnode_tree;

    pp_cube_sysnode *sysnodes;
    int num_sysnodes, cap_sysnodes;
    pp_cube_forest sys_tree;

    pp_cube_process *processes;
    int num_processes, cap_processes;

    pp_cube_thread *threads;
    int num_threads, cap_threads;
};

/* pp_cube.c */
void pp_cube_set_error(pp_cube *cube, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The dtype as anchor.xml spells it. */
const char *pp_cube_dtype_name(pp_cube_dtype dtype);
/* The bit pattern of an unset value of a dtype (see pp_cube.h). */
uint64_t pp_cube_metric_empty(pp_cube_dtype dtype);
/* Grows *array (of elem_size elements, capacity *cap) to hold need elements. */
int pp_cube_grow(void **array, int *cap, int need, size_t elem_size);

/* ---- growable text buffer (pp_cube_strbuf.c) ----------------------------- */
typedef struct {
    char *data;
    size_t len;
    size_t cap;
    int failed; /* an allocation failed: content is incomplete */
} pp_cube_strbuf;

void pp_cube_strbuf_init(pp_cube_strbuf *sb);
void pp_cube_strbuf_free(pp_cube_strbuf *sb);
void pp_cube_strbuf_append(pp_cube_strbuf *sb, const char *text, size_t len);
void pp_cube_strbuf_puts(pp_cube_strbuf *sb, const char *text);
void pp_cube_strbuf_putc(pp_cube_strbuf *sb, char c);
void pp_cube_strbuf_put_int(pp_cube_strbuf *sb, long long value);

/* ---- anchor.xml (pp_cube_xml.c) ------------------------------------------ */
/* Appends text as XML character data / attribute value: the five special
 * characters become entities, control characters (newlines too) become a
 * space, valid UTF-8 passes unchanged, invalid bytes become '?'. */
void pp_cube_xml_escape(pp_cube_strbuf *sb, const char *text);
/* Builds the complete anchor.xml; 0 or -1 (error set) */
int pp_cube_xml_build(pp_cube *cube, pp_cube_strbuf *out);

/* ---- row enumeration (pp_cube_rows.c) ------------------------------------ */
/* Fills order[position] = cnode id for a metric of the given kind (the
 * row orders of doc/cube4-layout.md).  order must hold forest->count entries. */
void pp_cube_rows_order(const pp_cube_forest *cnodes, pp_cube_kind kind, int *order);

/* ---- buffered file output (pp_cube_sink.c) ------------------------------- */
typedef struct {
    int fd;
    char *buf;
    size_t len;
    size_t cap;
    int err;          /* errno of the first failure, 0 while all is well */
    uint64_t written; /* bytes handed to the sink so far */
} pp_cube_sink;

int pp_cube_sink_open(pp_cube_sink *sink, int fd, size_t buffer_size);
void pp_cube_sink_write(pp_cube_sink *sink, const void *data, size_t len);
void pp_cube_sink_zeros(pp_cube_sink *sink, size_t len);
/* Flushes and frees the buffer (does not close fd); returns sink->err. */
int pp_cube_sink_close(pp_cube_sink *sink);

/* ---- tar framing (pp_cube_tar.c) ----------------------------------------- */
#define PP_CUBE_TAR_BLOCK 512
/* Largest member size the 11 octal digits of the size field can hold. */
#define PP_CUBE_TAR_MAX_SIZE 077777777777ULL

/* Fills a ustar header block as cubew does (doc/cube4-layout.md, "Container"). */
void pp_cube_tar_header(unsigned char header[PP_CUBE_TAR_BLOCK], const char *name,
                        uint64_t size, time_t mtime);
/* cubew/CubeLib padding: (size/512 + 1) * 512 - size for size > 0, else 0. */
uint64_t pp_cube_tar_padding(uint64_t size);
void pp_cube_tar_member_begin(pp_cube_sink *sink, const char *name, uint64_t size);
void pp_cube_tar_member_end(pp_cube_sink *sink, uint64_t size);
void pp_cube_tar_finish(pp_cube_sink *sink);

/* ---- metric members (pp_cube_data.c) ------------------------------------- */
#define PP_CUBE_VALUE_SIZE 8
uint64_t pp_cube_data_size(const pp_cube *cube);
/* Writes <metric>.data (rows in the given order) and <metric>.index. */
void pp_cube_data_write_members(const pp_cube *cube, int metric, const int *order,
                                pp_cube_sink *sink);

#endif
