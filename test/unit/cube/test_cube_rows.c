/* pp_cube: row order per metric kind, values landing in the right
 * (cnode, location) cell, and tree/thread shapes (1 and many threads,
 * 10,000-deep and 100,000-wide trees). */
#include <check.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cube-writer/pp_cube.h"
#include "test/unit/cube/cube_test_util.h"

static char dir[4096];

static void setup(void)
{
    cube_test_mkdtemp(dir, sizeof dir);
    ck_assert_msg(dir[0], "mkdtemp failed");
}

static void teardown(void)
{
    cube_test_rmdir(dir);
}

/* One metric of each kind; every cell holds 1000 * cnode + location + 1. */
static pp_cube *kinds_cube(const int *parents, int num_cnodes, int threads)
{
    pp_cube *cube = pp_cube_create();
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "excl", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE), 0);
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "incl", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_INCLUSIVE), 1);
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "simple", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_SIMPLE), 2);
    int r = pp_cube_def_region(cube, "f", NULL, 0, 0, NULL, NULL, NULL);
    int wrong_ids = 0;
    for (int c = 0; c < num_cnodes; c++)
        wrong_ids += pp_cube_def_cnode(cube, parents[c], r, NULL, NULL) != c;
    ck_assert_int_eq(wrong_ids, 0);
    cube_test_add_system(cube, threads);
    /* one assertion for the lot: Check's per-assertion bookkeeping would
     * dominate the run time of the 100,000-node shapes */
    int failures = 0;
    for (int m = 0; m < 3; m++)
        for (int c = 0; c < num_cnodes; c++)
            for (int l = 0; l < threads; l++)
                failures += pp_cube_set_uint64(cube, m, c, l, 1000u * (unsigned)c + (unsigned)l + 1) != 0;
    ck_assert_int_eq(failures, 0);
    return cube;
}

/* The cnode stored in row `row` of metric m, read from the data bytes. */
static int row_cnode(const cube_test_file *f, int m, int row, int threads)
{
    char name[32];
    snprintf(name, sizeof name, "%d.data", m);
    const cube_test_member *data = cube_test_tar_find(&f->tar, name);
    uint64_t v;
    memcpy(&v, f->tar.bytes + data->offset + 10 + (size_t)row * (size_t)threads * 8, 8);
    return (int)((v - 1) / 1000);
}

static void expect_rows(const int *parents, int n, const int *excl, const int *incl)
{
    pp_cube *cube = kinds_cube(parents, n, 2);
    cube_test_file f;
    cube_test_write_load(cube, dir, "rows.cubex", &f);
    for (int row = 0; row < n; row++) {
        ck_assert_int_eq(row_cnode(&f, 0, row, 2), excl[row]);
        ck_assert_int_eq(row_cnode(&f, 1, row, 2), incl[row]);
        /* SIMPLE: CubeLib 4.8 reads it like INCLUSIVE (not by id as cubew) */
        ck_assert_int_eq(row_cnode(&f, 2, row, 2), incl[row]);
    }
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
    char path[4200];
    snprintf(path, sizeof path, "%s/rows.cubex", dir);
    unlink(path);
}

START_TEST(inclusive_vs_exclusive_order)
{
    /* 0 -> {1 -> {2}, 3 -> {4}}  (row orders: doc/cube4-layout.md) */
    static const int parents[] = {-1, 0, 1, 0, 3};
    static const int excl[] = {0, 1, 2, 3, 4};
    static const int incl[] = {0, 1, 3, 2, 4};
    expect_rows(parents, 5, excl, incl);
}
END_TEST

START_TEST(preorder_is_not_id_order)
{
    /* 0 -> {1 -> {3}, 2}: ids are creation order, rows are tree order */
    static const int parents[] = {-1, 0, 0, 1};
    static const int excl[] = {0, 1, 3, 2};
    static const int incl[] = {0, 1, 2, 3};
    expect_rows(parents, 4, excl, incl);
}
END_TEST

START_TEST(several_roots)
{
    /* A=0 -> {1 -> {2}, 3};  B=4 -> {5}: counting continues across roots */
    static const int parents[] = {-1, 0, 1, 0, -1, 4};
    static const int excl[] = {0, 1, 2, 3, 4, 5};
    static const int incl[] = {0, 1, 3, 2, 4, 5};
    expect_rows(parents, 6, excl, incl);
}
END_TEST

static void check_all_cells(const cube_test_file *f, int num_cnodes, int threads)
{
    ck_assert_int_eq(f->anchor.num_cnodes, num_cnodes);
    ck_assert_int_eq(f->anchor.num_locations, threads);
    long wrong = 0;
    for (int m = 0; m < 3; m++)
        for (int c = 0; c < num_cnodes; c++)
            for (int l = 0; l < threads; l++)
                if (cube_test_raw(f, m, c, l) != 1000u * (unsigned)c + (unsigned)l + 1 && !wrong++)
                    fprintf(stderr, "first wrong cell: metric %d cnode %d location %d\n", m, c, l);
    ck_assert_int_eq(wrong, 0);
}

START_TEST(one_and_many_threads)
{
    static const int parents[] = {-1, 0, 1, 0, 3, 3, -1};
    const int counts[] = {1, 2, 64};
    for (int k = 0; k < 3; k++) {
        pp_cube *cube = kinds_cube(parents, 7, counts[k]);
        char name[32];
        snprintf(name, sizeof name, "t%d.cubex", counts[k]);
        cube_test_file f;
        cube_test_write_load(cube, dir, name, &f);
        check_all_cells(&f, 7, counts[k]);
        ck_assert_str_eq(f.anchor.location[counts[k] - 1]->children[0]->text,
                         counts[k] == 1 ? "Master thread" : (counts[k] == 2 ? "OMP thread 1" : "OMP thread 63"));
        cube_test_file_free(&f);
        pp_cube_destroy(cube);
    }
}
END_TEST

/* A comb 10,000 levels deep: level k has a spine child and a leaf child, so
 * the inclusive and exclusive orders differ at every level. */
START_TEST(deep_tree)
{
    enum { LEVELS = 10000 };
    int *parents = malloc(2 * LEVELS * sizeof *parents);
    int n = 0, spine = -1;
    for (int k = 0; k < LEVELS; k++) {
        int node = n;
        parents[n++] = spine;
        if (k > 0)
            parents[n++] = spine; /* leaf sibling of the spine node */
        spine = node;
    }
    pp_cube *cube = kinds_cube(parents, n, 2);
    cube_test_file f;
    cube_test_write_load(cube, dir, "deep.cubex", &f);
    check_all_cells(&f, n, 2);
    ck_assert_int_eq(f.anchor.cnode_parent[n - 1], f.anchor.cnode_parent[n - 2]);
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
    free(parents);
}
END_TEST

/* 100,000 children under one root, every 1000th with a grandchild. */
START_TEST(wide_tree)
{
    enum { WIDE = 100000 };
    int *parents = malloc((WIDE + WIDE / 1000 + 1) * sizeof *parents);
    int n = 0;
    parents[n++] = -1;
    for (int k = 0; k < WIDE; k++)
        parents[n++] = 0;
    for (int k = 0; k < WIDE; k += 1000)
        parents[n++] = 1 + k;
    pp_cube *cube = kinds_cube(parents, n, 1);
    cube_test_file f;
    cube_test_write_load(cube, dir, "wide.cubex", &f);
    check_all_cells(&f, n, 1);
    /* inclusive: root, all 100,000 children, then the grandchildren */
    ck_assert_int_eq(row_cnode(&f, 1, WIDE + 1, 1), WIDE + 1);
    /* exclusive: the first grandchild follows its parent, cnode 1 */
    ck_assert_int_eq(row_cnode(&f, 0, 2, 1), WIDE + 1);
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
    free(parents);
}
END_TEST

/* Values set before more cnodes/threads are defined survive the growth of
 * the value matrix; cells never set read as the metric's empty value (0, and
 * DBL_MAX in a minimum metric), also where the matrix grew. */
START_TEST(interleaved_definitions)
{
    pp_cube *cube = pp_cube_create();
    int m = pp_cube_def_metric(cube, -1, "time", NULL, "sec", NULL, PP_CUBE_DOUBLE, PP_CUBE_INCLUSIVE);
    int mn = pp_cube_def_metric(cube, -1, "min_time", NULL, "sec", NULL, PP_CUBE_MINDOUBLE,
                                PP_CUBE_EXCLUSIVE);
    int r = pp_cube_def_region(cube, "main", NULL, 0, 0, NULL, NULL, NULL);
    int root = pp_cube_def_cnode(cube, -1, r, NULL, NULL);
    int machine = pp_cube_def_system_node(cube, -1, "m", "machine");
    int p = pp_cube_def_process(cube, machine, "Process", 0);
    int t0 = pp_cube_def_thread(cube, p, "t0", 0);
    ck_assert_int_eq(pp_cube_set_double(cube, m, root, t0, 1.5), 0);
    ck_assert_int_eq(pp_cube_set_double(cube, mn, root, t0, 0.5), 0);
    int last = root;
    for (int k = 0; k < 40; k++) { /* grow rows and columns repeatedly */
        last = pp_cube_def_cnode(cube, k % 2 ? root : last, r, NULL, NULL);
        int t = pp_cube_def_thread(cube, p, "t", k + 1);
        ck_assert_int_eq(pp_cube_set_double(cube, m, last, t, k + 0.5), 0);
        if (k == 20)
            ck_assert_int_eq(pp_cube_set_double(cube, mn, last, t, 2.5), 0);
    }
    int untouched = pp_cube_def_cnode(cube, root, r, NULL, NULL);
    ck_assert_int_eq(pp_cube_num_cnodes(cube), 42);
    ck_assert_int_eq(pp_cube_num_locations(cube), 41);
    cube_test_file f;
    cube_test_write_load(cube, dir, "grow.cubex", &f);
    ck_assert_double_eq(cube_test_double(&f, m, root, t0), 1.5);
    for (int k = 0; k < 40; k++)
        ck_assert_double_eq(cube_test_double(&f, m, k + 1, k + 1), k + 0.5);
    ck_assert_double_eq(cube_test_double(&f, m, 1, 2), 0.0);
    for (int l = 0; l < 41; l++)
        ck_assert_double_eq(cube_test_double(&f, m, untouched, l), 0.0);
    ck_assert_double_eq(cube_test_double(&f, mn, root, t0), 0.5);
    ck_assert_double_eq(cube_test_double(&f, mn, 21, 21), 2.5);
    for (int c = 0; c < 42; c++)
        for (int l = 0; l < 41; l++)
            if (!(c == root && l == t0) && !(c == 21 && l == 21))
                ck_assert_double_eq(cube_test_double(&f, mn, c, l), DBL_MAX);
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

/* A metric without any set value still gets full (zero) members. */
START_TEST(metric_without_values)
{
    pp_cube *cube = cube_test_worked_example();
    int extra = pp_cube_def_metric(cube, -1, "empty", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_INCLUSIVE);
    cube_test_file f;
    cube_test_write_load(cube, dir, "empty.cubex", &f);
    for (int c = 0; c < 5; c++)
        for (int l = 0; l < 2; l++)
            ck_assert_uint_eq(cube_test_raw(&f, extra, c, l), 0);
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("cube_rows");
    TCase *tc = tcase_create("rows");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, inclusive_vs_exclusive_order);
    tcase_add_test(tc, preorder_is_not_id_order);
    tcase_add_test(tc, several_roots);
    tcase_add_test(tc, one_and_many_threads);
    tcase_add_test(tc, deep_tree);
    tcase_add_test(tc, wide_tree);
    tcase_add_test(tc, interleaved_definitions);
    tcase_add_test(tc, metric_without_values);
    suite_add_tcase(s, tc);
    return s;
}
