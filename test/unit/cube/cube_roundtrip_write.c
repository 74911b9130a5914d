/* Round-trip input generator: writes several profile shapes with pp_cube
 * into a directory and, next to each <shape>.cubex, a <shape>.json with what
 * a reader must find in it (definitions and every non-zero stored value).
 * The expectations come from the same inputs given to the writer, never
 * from reading the written file.  Used by test_cube_roundtrip.py (Python
 * reader) and, by hand, with CubeLib's cube_dump.
 *
 * usage: cube_roundtrip_write DIR [SHAPE...]   (default: all shapes) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube-writer/pp_cube.h"

/* ---- recording the expectations ---------------------------------------------- */

typedef struct {
    pp_cube *cube;
    FILE *json;
    int first_value;
    int num_metrics;
    pp_cube_dtype dtype[16];
} shape;

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void die(const shape *s, const char *what)
{
    fprintf(stderr, "cube_roundtrip_write: %s: %s\n", what, pp_cube_error(s->cube));
    exit(1);
}

static const char *const dtype_names[] = {"UINT64", "INT64", "DOUBLE", "MINDOUBLE", "MAXDOUBLE"};
static const char *const kind_names[] = {"EXCLUSIVE", "INCLUSIVE", "SIMPLE"};

static int metric(shape *s, int parent, const char *uniq, const char *disp, pp_cube_dtype dtype,
                  pp_cube_kind kind)
{
    int id = pp_cube_def_metric(s->cube, parent, uniq, disp, "sec", "descr", dtype, kind);
    if (id < 0)
        die(s, "metric");
    s->dtype[id] = dtype;
    s->num_metrics = id + 1;
    fprintf(s->json, "%s{\"id\": %d, \"parent\": %d, \"uniq_name\": ", id ? ",\n  " : "\"metrics\": [\n  ",
            id, parent);
    json_string(s->json, uniq);
    fprintf(s->json, ", \"dtype\": \"%s\", \"type\": \"%s\"}", dtype_names[dtype], kind_names[kind]);
    return id;
}

/* `expect` is the string a reader must get back (the writer turns control
 * characters into spaces and invalid UTF-8 into '?'); NULL: same as given. */
static int region(shape *s, const char *name, const char *expect, const char *file, int begin,
                  int end, const char *role)
{
    int id = pp_cube_def_region(s->cube, name, file, begin, end, "user", role, NULL);
    if (id < 0)
        die(s, "region");
    fprintf(s->json, "%s{\"id\": %d, \"name\": ", id ? ",\n  " : "],\n\"regions\": [\n  ", id);
    json_string(s->json, expect ? expect : name);
    fprintf(s->json, ", \"mod\": ");
    json_string(s->json, file ? file : "");
    fprintf(s->json, ", \"begin\": %d, \"end\": %d, \"role\": ", begin > 0 ? begin : -1,
            end > 0 ? end : -1);
    json_string(s->json, role);
    fputc('}', s->json);
    return id;
}

static int cnode(shape *s, int parent, int reg, const char *key, const char *value)
{
    int id = pp_cube_def_cnode(s->cube, parent, reg, key, value);
    if (id < 0)
        die(s, "cnode");
    fprintf(s->json, "%s[%d, %d, %d", id ? ",\n  " : "],\n\"cnodes\": [\n  ", id, parent, reg);
    if (key) {
        fputs(", ", s->json);
        json_string(s->json, key);
        fputs(", ", s->json);
        json_string(s->json, value);
    }
    fputc(']', s->json);
    return id;
}

static int sysnode(shape *s, int parent, const char *name)
{
    int id = pp_cube_def_system_node(s->cube, parent, name, parent < 0 ? "machine" : "node");
    if (id < 0)
        die(s, "system node");
    return id;
}

static int process(shape *s, int node, const char *name, int rank)
{
    int id = pp_cube_def_process(s->cube, node, name, rank);
    if (id < 0)
        die(s, "process");
    return id;
}

static int thread(shape *s, int proc, const char *name, const char *expect, int rank)
{
    int id = pp_cube_def_thread(s->cube, proc, name, rank);
    if (id < 0)
        die(s, "thread");
    fprintf(s->json, "%s{\"id\": %d, \"name\": ", id ? ",\n  " : "],\n\"locations\": [\n  ", id);
    json_string(s->json, expect ? expect : name);
    fprintf(s->json, ", \"rank\": %d}", rank);
    return id;
}

/* Stores a value with the setter of the metric's dtype and records it. */
static void value(shape *s, int m, int c, int l, double v)
{
    int rc;
    fprintf(s->json, "%s[%d, %d, %d, ", s->first_value ? "],\n\"values\": [\n  " : ",\n  ", m, c, l);
    s->first_value = 0;
    switch (s->dtype[m]) {
    case PP_CUBE_UINT64:
        rc = pp_cube_set_uint64(s->cube, m, c, l, (uint64_t)v);
        fprintf(s->json, "%llu]", (unsigned long long)(uint64_t)v);
        break;
    case PP_CUBE_INT64:
        rc = pp_cube_set_int64(s->cube, m, c, l, (int64_t)v);
        fprintf(s->json, "%lld]", (long long)(int64_t)v);
        break;
    default:
        rc = pp_cube_set_double(s->cube, m, c, l, v);
        fprintf(s->json, "%.17g]", v);
        break;
    }
    if (rc != 0)
        die(s, "value");
}

static void shape_begin(shape *s, const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.json", dir, name);
    memset(s, 0, sizeof *s);
    s->cube = pp_cube_create();
    s->json = fopen(path, "w");
    if (!s->cube || !s->json) {
        fprintf(stderr, "cube_roundtrip_write: cannot create %s\n", path);
        exit(1);
    }
    s->first_value = 1;
    fputs("{", s->json);
}

static void shape_end(shape *s, const char *dir, const char *name)
{
    char path[4096];
    fputs(s->first_value ? "],\n\"values\": []}\n" : "]}\n", s->json);
    fclose(s->json);
    snprintf(path, sizeof path, "%s/%s.cubex", dir, name);
    if (pp_cube_write(s->cube, path) != 0)
        die(s, "write");
    pp_cube_destroy(s->cube);
}

/* machine -> node -> processes with the given thread counts */
static void system_tree(shape *s, int processes, const int *threads)
{
    int machine = sysnode(s, -1, "machine Linux");
    int node = sysnode(s, machine, "node host01");
    for (int p = 0; p < processes; p++) {
        char pname[32];
        snprintf(pname, sizeof pname, "Process %d", p);
        int proc = process(s, p % 2 ? machine : node, pname, p);
        for (int t = 0; t < threads[p]; t++) {
            char tname[32];
            snprintf(tname, sizeof tname, t ? "OMP thread %d" : "Master thread", t);
            thread(s, proc, tname, NULL, t);
        }
    }
}

/* ---- shapes -------------------------------------------------------------------- */

/* Format note section 5, with distinct values everywhere. */
static void shape_example(const char *dir)
{
    shape s;
    shape_begin(&s, dir, "example");
    metric(&s, -1, "visits", "Visits", PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    metric(&s, -1, "time", "Time", PP_CUBE_DOUBLE, PP_CUBE_INCLUSIVE);
    metric(&s, -1, "min_time", "Minimum Inclusive Time", PP_CUBE_MINDOUBLE, PP_CUBE_EXCLUSIVE);
    metric(&s, -1, "max_time", "Maximum Inclusive Time", PP_CUBE_MAXDOUBLE, PP_CUBE_EXCLUSIVE);
    int prog = region(&s, "prog", NULL, NULL, 0, 0, "artificial");
    int par = region(&s, "!$omp parallel @prog.c:4", NULL, "prog.c", 4, 12, "parallel");
    int task = region(&s, "!$omp task @prog.c:7", NULL, "prog.c", 7, 9, "task");
    int tasks = region(&s, "TASKS", NULL, NULL, 0, 0, "artificial");
    int c0 = cnode(&s, -1, prog, NULL, NULL);
    int c1 = cnode(&s, c0, par, NULL, NULL);
    cnode(&s, c1, task, NULL, NULL);
    int c3 = cnode(&s, c0, tasks, NULL, NULL);
    cnode(&s, c3, task, NULL, NULL);
    system_tree(&s, 1, (const int[]){2});
    for (int c = 4; c >= 0; c--)
        for (int l = 0; l < 2; l++) {
            value(&s, 0, c, l, 1 + c * 2 + l);
            value(&s, 1, c, l, 10.0 - c - 0.25 * l);
            value(&s, 2, c, l, 0.001 * (c + 1) + l);
            value(&s, 3, c, l, 0.5 * (c + 1) + l);
        }
    shape_end(&s, dir, "example");
}

static void shape_escape(const char *dir)
{
    static const char nasty[] = "a&b<c>d\"e'f\ng\th \xc3\xbc\xe2\x82\xac\xf0\x9d\x84\x9e x\xffy";
    static const char expect[] = "a&b<c>d\"e'f g\th \xc3\xbc\xe2\x82\xac\xf0\x9d\x84\x9e x?y";
    shape s;
    shape_begin(&s, dir, "escape");
    metric(&s, -1, "visits", nasty, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    int r = region(&s, nasty, expect, "src/R&D <v2>/'it's'.c", 3, 4, "function");
    int c0 = cnode(&s, -1, r, NULL, NULL);
    cnode(&s, c0, r, "size & <kind>", "\"big\" & 'small'");
    int machine = sysnode(&s, -1, nasty);
    int proc = process(&s, machine, nasty, 0);
    thread(&s, proc, nasty, expect, 0);
    value(&s, 0, 1, 0, 42);
    shape_end(&s, dir, "escape");
}

/* A comb 10,000 levels deep (spine child + leaf child per level). */
static void shape_deep(const char *dir)
{
    shape s;
    shape_begin(&s, dir, "deep");
    metric(&s, -1, "visits", NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    metric(&s, -1, "time", NULL, PP_CUBE_DOUBLE, PP_CUBE_INCLUSIVE);
    int r = region(&s, "recurse", NULL, "deep.c", 1, 2, "function");
    int spine = -1;
    for (int k = 0; k < 10000; k++) {
        int node = cnode(&s, spine, r, NULL, NULL);
        if (k > 0)
            cnode(&s, spine, r, NULL, NULL);
        spine = node;
    }
    system_tree(&s, 1, (const int[]){2});
    for (int c = 0; c < 19999; c += 7) {
        value(&s, 0, c, c % 2, c + 1);
        value(&s, 1, c, 1, 0.5 * c);
    }
    shape_end(&s, dir, "deep");
}

static void shape_wide(const char *dir)
{
    shape s;
    shape_begin(&s, dir, "wide");
    metric(&s, -1, "visits", NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    metric(&s, -1, "time", NULL, PP_CUBE_DOUBLE, PP_CUBE_INCLUSIVE);
    int r = region(&s, "main", NULL, "wide.c", 1, 100, "function");
    int f = region(&s, "leaf", NULL, "wide.c", 5, 6, "function");
    int root = cnode(&s, -1, r, NULL, NULL);
    for (int k = 0; k < 20000; k++)
        cnode(&s, root, f, NULL, NULL);
    for (int k = 0; k < 20000; k += 500)
        cnode(&s, 1 + k, r, NULL, NULL);
    system_tree(&s, 1, (const int[]){3});
    for (int c = 0; c < 20040; c += 3) {
        value(&s, 0, c, c % 3, c + 2);
        value(&s, 1, c, (c + 1) % 3, c * 0.125);
    }
    shape_end(&s, dir, "wide");
}

/* Several roots and processes, child metrics, every dtype. */
static void shape_mixed(const char *dir)
{
    shape s;
    shape_begin(&s, dir, "mixed");
    int v = metric(&s, -1, "visits", NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    int t = metric(&s, -1, "time", NULL, PP_CUBE_DOUBLE, PP_CUBE_INCLUSIVE);
    metric(&s, t, "time::part", NULL, PP_CUBE_DOUBLE, PP_CUBE_INCLUSIVE);
    metric(&s, -1, "delta", NULL, PP_CUBE_INT64, PP_CUBE_EXCLUSIVE);
    metric(&s, -1, "min_time", NULL, PP_CUBE_MINDOUBLE, PP_CUBE_EXCLUSIVE);
    metric(&s, v, "visits::max", NULL, PP_CUBE_MAXDOUBLE, PP_CUBE_EXCLUSIVE);
    int r[4];
    for (int i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%d", i);
        r[i] = region(&s, name, NULL, "mixed.c", 10 * i + 1, 10 * i + 5, "function");
    }
    /* root A: 0 -> {1 -> {2 -> {3}}, 4 -> {5, 6}};  root B: 7 -> {8};  root C: 9 */
    int a = cnode(&s, -1, r[0], NULL, NULL);
    int a1 = cnode(&s, a, r[1], "n", "16");
    int a2 = cnode(&s, a1, r[2], NULL, NULL);
    cnode(&s, a2, r[3], NULL, NULL);
    int a4 = cnode(&s, a, r[1], "n", "32");
    cnode(&s, a4, r[2], NULL, NULL);
    cnode(&s, a4, r[3], NULL, NULL);
    int b = cnode(&s, -1, r[3], NULL, NULL);
    cnode(&s, b, r[0], NULL, NULL);
    cnode(&s, -1, r[2], NULL, NULL);
    system_tree(&s, 3, (const int[]){1, 4, 2});
    for (int m = 0; m < s.num_metrics; m++)
        for (int c = 0; c < 10; c++)
            for (int l = 0; l < 7; l++) {
                if ((m + c + l) % 3 == 0)
                    continue; /* some cells stay unset (zero) */
                double x = (m == 3 ? -1.0 : 1.0) * (100 * m + 10 * c + l + 1);
                value(&s, m, c, l, s.dtype[m] >= PP_CUBE_DOUBLE ? x / 8 : x);
            }
    shape_end(&s, dir, "mixed");
}

/* SIMPLE metrics on a tree whose id, pre-order and inclusive orders all
 * differ: CubeLib 4.8 reads SIMPLE rows in the inclusive order. */
static void shape_simple(const char *dir)
{
    shape s;
    shape_begin(&s, dir, "simple");
    metric(&s, -1, "count", NULL, PP_CUBE_UINT64, PP_CUBE_SIMPLE);
    metric(&s, -1, "delta", NULL, PP_CUBE_INT64, PP_CUBE_SIMPLE);
    metric(&s, -1, "level", NULL, PP_CUBE_DOUBLE, PP_CUBE_SIMPLE);
    int r = region(&s, "main", NULL, "simple.c", 1, 9, "function");
    /* 0 -> {1 -> {2 -> {3}}, 4 -> {5, 6}} */
    static const int parents[] = {-1, 0, 1, 2, 0, 4, 4};
    for (int c = 0; c < 7; c++)
        cnode(&s, parents[c], r, NULL, NULL);
    system_tree(&s, 1, (const int[]){2});
    for (int c = 0; c < 7; c++)
        for (int l = 0; l < 2; l++) {
            value(&s, 0, c, l, 10 * c + l + 1);
            value(&s, 1, c, l, -(10.0 * c + l + 1));
            value(&s, 2, c, l, 0.5 * c + l);
        }
    shape_end(&s, dir, "simple");
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*make)(const char *dir); } shapes[] = {
        {"example", shape_example}, {"escape", shape_escape}, {"deep", shape_deep},
        {"wide", shape_wide},       {"mixed", shape_mixed},     {"simple", shape_simple}};
    if (argc < 2) {
        fprintf(stderr, "usage: cube_roundtrip_write DIR [SHAPE...]\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        int wanted = argc == 2;
        for (int a = 2; a < argc; a++)
            wanted |= strcmp(argv[a], shapes[i].name) == 0;
        if (wanted)
            shapes[i].make(argv[1]);
    }
    return 0;
}
