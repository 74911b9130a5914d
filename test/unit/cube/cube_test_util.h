/* Test-side readers for .cubex files, written independently of the writer:
 *  - a tar reader that walks members exactly like CubeLib (next header at
 *    pos + 512 + (size/512 + 1) * 512) and checks every header field, the
 *    checksum, the zero padding and the two closing zero blocks;
 *  - a small XML parser plus a validator of the rules CubeLib's parser
 *    enforces (doc/cube4-layout.md, "anchor.xml");
 *  - the row enumeration of doc/cube4-layout.md, recursive
 *    (the writer's is iterative), to read values back by (cnode, location).
 * Every check failure becomes a message in err; tests assert on it. */
#ifndef CUBE_TEST_UTIL_H
#define CUBE_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* ---- tar ------------------------------------------------------------------ */
typedef struct {
    char name[101];
    size_t header_offset;
    size_t offset; /* of the data */
    size_t size;
} cube_test_member;

typedef struct {
    unsigned char *bytes;
    size_t len;
    cube_test_member *members;
    int num_members;
} cube_test_tar;

/* Reads and checks the container; 0 or -1 with err filled. */
int cube_test_tar_load(const char *path, cube_test_tar *tar, char *err, size_t errlen);
void cube_test_tar_free(cube_test_tar *tar);
const cube_test_member *cube_test_tar_find(const cube_test_tar *tar, const char *name);

/* ---- XML ------------------------------------------------------------------- */
#define CUBE_TEST_XML_MAX_ATTRS 8
typedef struct cube_test_xml {
    char *tag;
    int num_attrs;
    char *attr_name[CUBE_TEST_XML_MAX_ATTRS];
    char *attr_value[CUBE_TEST_XML_MAX_ATTRS]; /* unescaped */
    char *text;                                /* unescaped character data */
    size_t text_len;
    int self_closed;
    struct cube_test_xml *parent;
    struct cube_test_xml **children;
    int num_children, cap_children;
} cube_test_xml;

/* Parses a document (declaration checked separately); NULL + err on error:
 * comments/DOCTYPE, single quotes, unknown entities, raw '>' in text, ... */
cube_test_xml *cube_test_xml_parse(const char *text, size_t len, char *err, size_t errlen);
void cube_test_xml_free(cube_test_xml *node);
const char *cube_test_xml_attr(const cube_test_xml *node, const char *name);
/* First child with that tag, or NULL. */
cube_test_xml *cube_test_xml_child(const cube_test_xml *node, const char *tag);

/* ---- anchor.xml validator + extracted structure ----------------------------- */
enum { CUBE_TEST_EXCL = 0, CUBE_TEST_INCL = 1, CUBE_TEST_SIMPLE = 2 };

typedef struct {
    cube_test_xml *root;
    int num_metrics;
    int *metric_kind;      /* CUBE_TEST_* by metric id */
    char **metric_dtype;   /* by metric id (points into the DOM) */
    char **metric_uniq;
    int num_regions;
    cube_test_xml **region; /* by region id */
    int num_cnodes;
    cube_test_xml **cnode; /* by cnode id */
    int *cnode_parent;     /* -1 for roots */
    int *cnode_callee;
    int *position[3];      /* cnode id -> row position, per kind */
    int num_locations;
    cube_test_xml **location; /* by location Id */
} cube_test_anchor;

int cube_test_anchor_check(const char *xml, size_t len, cube_test_anchor *anchor, char *err,
                           size_t errlen);
void cube_test_anchor_free(cube_test_anchor *anchor);

/* ---- a whole file ------------------------------------------------------------ */
typedef struct {
    cube_test_tar tar;
    cube_test_anchor anchor;
} cube_test_file;

/* Loads path, checks tar + anchor.xml + every metric's data/index member. */
int cube_test_load(const char *path, cube_test_file *file, char *err, size_t errlen);
void cube_test_file_free(cube_test_file *file);
/* The stored 8-byte cell of (metric, cnode, location) as a bit pattern. */
uint64_t cube_test_raw(const cube_test_file *file, int metric, int cnode, int location);
double cube_test_double(const cube_test_file *file, int metric, int cnode, int location);

/* A fresh directory below $TMPDIR or /tmp, and its recursive removal. */
void cube_test_mkdtemp(char *dir, size_t len);
void cube_test_rmdir(const char *dir);
/* Number of directory entries (besides . and ..). */
int cube_test_count_entries(const char *dir);

/* ---- fixtures built with the writer (cube_test_fixture.c) ------------------ */
#include "cube-writer/pp_cube.h"
/* machine -> node -> "Process" with threads "Master thread", "OMP thread i";
 * returns the first location id. */
int cube_test_add_system(pp_cube *cube, int threads);
/* A worked example: 2 threads, 5 cnodes (program -> parallel -> task stub,
 * TASKS -> task), visits/time/min_time/max_time with fixed values whose
 * bytes were checked against CubeLib. */
pp_cube *cube_test_worked_example(void);
/* Writes cube to <dir>/<name>, asserting success, and loads it back,
 * asserting that every structural check passes. */
void cube_test_write_load(pp_cube *cube, const char *dir, const char *name, cube_test_file *file);

#endif
