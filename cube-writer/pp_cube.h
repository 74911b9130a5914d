/* pp_cube: a small, generic CUBE4 (.cubex) writer.
 *
 * Knows nothing about POMP2, OpenMP or tasks: the caller defines metrics,
 * regions, call-tree nodes (cnodes) and a system tree, sets values per
 * (metric, cnode, location) and writes the file.  doc/cube4-layout.md
 * describes the result: uncompressed, dense ids, cubew-style tar padding.
 *
 * Ids returned by the define functions are dense and start at 0.  Every
 * function that can fail returns a negative value (or NULL) and leaves a
 * one-line reason in pp_cube_error(); nothing here ever exits or aborts. */
#ifndef PP_CUBE_H
#define PP_CUBE_H

#include <stddef.h>
#include <stdint.h>

typedef struct pp_cube pp_cube;

typedef enum {
    PP_CUBE_UINT64,
    PP_CUBE_INT64,
    PP_CUBE_DOUBLE,
    PP_CUBE_MINDOUBLE, /* aggregated by minimum; only with PP_CUBE_EXCLUSIVE */
    PP_CUBE_MAXDOUBLE  /* aggregated by maximum; only with PP_CUBE_EXCLUSIVE */
} pp_cube_dtype;

typedef enum {
    PP_CUBE_EXCLUSIVE, /* stored value = the cnode alone */
    PP_CUBE_INCLUSIVE, /* stored value = cnode plus its subtree */
    PP_CUBE_SIMPLE     /* written as type SIMPLE, but CubeLib 4.8 reads it exactly
                        * like INCLUSIVE (rows in the inclusive order, which this
                        * writer therefore uses); prefer INCLUSIVE */
} pp_cube_kind;

pp_cube *pp_cube_create(void);
void pp_cube_destroy(pp_cube *cube);

/* The last error as one line (never NULL; "" when there was none). */
const char *pp_cube_error(const pp_cube *cube);

/* A top-level <attr key value/> (written after the three standard ones). */
int pp_cube_set_attr(pp_cube *cube, const char *key, const char *value);

/* Metrics: parent -1 for a root metric.  Returns the metric id. */
int pp_cube_def_metric(pp_cube *cube, int parent, const char *uniq_name, const char *disp_name,
                       const char *unit, const char *descr, pp_cube_dtype dtype, pp_cube_kind kind);
/* The metric's documentation link (the GUI's "Documentation" entry); a URL
 * starting with "@mirror@" is resolved against each mirror in turn. */
int pp_cube_set_metric_url(pp_cube *cube, int metric, const char *url);
/* A base URL for "@mirror@" links (<doc><mirrors>), in order of preference. */
int pp_cube_add_mirror(pp_cube *cube, const char *url);

/* Regions: file may be NULL or ""; lines <= 0 are written as -1. */
int pp_cube_def_region(pp_cube *cube, const char *name, const char *file, int begin_line,
                       int end_line, const char *paradigm, const char *role, const char *descr);

/* A region's link name (<mangled_name>; without one the name is written):
 * a compiler-instrumented C++ function's mangled name.  0, or -1 when the
 * region is unknown or memory is short. */
int pp_cube_region_set_mangled(pp_cube *cube, int region, const char *mangled);

/* Call-tree nodes: parent -1 for a root; children keep definition order.
 * param_key/param_value: an optional string parameter (both NULL for none). */
int pp_cube_def_cnode(pp_cube *cube, int parent, int region, const char *param_key,
                      const char *param_value);

/* A parameter of a cnode (<parameter partype parkey parvalue/>), written in
 * the order added.  Two sibling cnodes of one region are told apart by
 * their parameters: that is how CubeLib and the Cube GUI show parameter
 * profiles ("region (n=1024, mode=fast)").  A numeric value is the text of a
 * finite number (CubeLib reads it with atof; an integer written in full
 * stays exact up to 2^53); CubeLib lists numeric parameters before string
 * ones, so add them first to keep that order. */
typedef enum { PP_CUBE_PARAM_NUMERIC, PP_CUBE_PARAM_STRING } pp_cube_param_type;
int pp_cube_add_cnode_parameter(pp_cube *cube, int cnode, pp_cube_param_type type,
                                const char *key, const char *value);

/* System tree: machine/node levels (parent -1 for the root), one process
 * below a system node, threads below a process.  def_thread returns the
 * location id = data column. */
int pp_cube_def_system_node(pp_cube *cube, int parent, const char *name, const char *class_name);
int pp_cube_def_process(pp_cube *cube, int system_node, const char *name, int rank);
int pp_cube_def_thread(pp_cube *cube, int process, const char *name, int rank);

/* Values.  An unset value is CubeLib's empty value for a minimum, DBL_MAX,
 * in a MINDOUBLE metric (a pair that was never visited then cannot win the
 * minimum), and 0 in every other one.  For MAXDOUBLE, CubeLib's own empty
 * value would be -DBL_MAX, but cube_sanity reads that as a negative value;
 * for the non-negative quantities of a profile 0 is neutral for the maximum.
 * May be called in any order once the metric, cnode and location exist.
 * The setter must match the metric's dtype (set_uint64: UINT64, set_int64:
 * INT64, set_double: DOUBLE/MINDOUBLE/MAXDOUBLE); a mismatch fails, since it
 * is almost always a mixed-up metric id. */
int pp_cube_set_uint64(pp_cube *cube, int metric, int cnode, int location, uint64_t value);
int pp_cube_set_int64(pp_cube *cube, int metric, int cnode, int location, int64_t value);
int pp_cube_set_double(pp_cube *cube, int metric, int cnode, int location, double value);

/* Accumulate into a value (sum).  Only for UINT64, INT64 and DOUBLE
 * metrics: a sum makes no sense for MIN/MAXDOUBLE. */
int pp_cube_add_uint64(pp_cube *cube, int metric, int cnode, int location, uint64_t value);
int pp_cube_add_int64(pp_cube *cube, int metric, int cnode, int location, int64_t value);
int pp_cube_add_double(pp_cube *cube, int metric, int cnode, int location, double value);

/* How many cnodes / locations (threads) are defined so far. */
int pp_cube_num_cnodes(const pp_cube *cube);
int pp_cube_num_locations(const pp_cube *cube);

/* Write the .cubex file atomically: a temporary name in the same directory,
 * then a rename that never replaces an existing file (fails with a clear
 * error if path exists).  Returns 0 on success. */
int pp_cube_write(pp_cube *cube, const char *path);

#endif
