/* pp_cube: every failure returns -1 with a one-line reason, never leaves a
 * temporary file behind and never touches an existing file. */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

static void assert_error_contains(const pp_cube *cube, const char *part)
{
    const char *error = pp_cube_error(cube);
    ck_assert_msg(strstr(error, part) != NULL, "error '%s' lacks '%s'", error, part);
    ck_assert_msg(strchr(error, '\n') == NULL, "error '%s' is not one line", error);
}

START_TEST(error_is_empty_initially)
{
    pp_cube *cube = pp_cube_create();
    ck_assert_str_eq(pp_cube_error(cube), "");
    ck_assert_ptr_nonnull(pp_cube_error(NULL));
    ck_assert_int_eq(pp_cube_write(NULL, "/tmp/x.cubex"), -1);
    pp_cube_destroy(cube);
    pp_cube_destroy(NULL);
}
END_TEST

/* Tests run as root, so permission bits would not stop the write: a path
 * below a regular file is unwritable for everyone. */
START_TEST(unwritable_directory)
{
    char file[4200], path[4300];
    snprintf(file, sizeof file, "%s/plain-file", dir);
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/profile.cubex", file);
    pp_cube *cube = cube_test_worked_example();
    ck_assert_int_eq(pp_cube_write(cube, path), -1);
    assert_error_contains(cube, path);
    assert_error_contains(cube, strerror(ENOTDIR));
    ck_assert_int_eq(strncmp(pp_cube_error(cube), "cannot write ", 13), 0);
    ck_assert_int_eq(cube_test_count_entries(dir), 1); /* only plain-file */
    pp_cube_destroy(cube);
}
END_TEST

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    char *bytes = malloc(*len + 1);
    ck_assert_uint_eq(fread(bytes, 1, *len, f), *len);
    fclose(f);
    return bytes;
}

START_TEST(existing_target_untouched)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/profile.cubex", dir);
    FILE *f = fopen(path, "w");
    fputs("precious user data\n", f);
    fclose(f);
    pp_cube *cube = cube_test_worked_example();
    ck_assert_int_eq(pp_cube_write(cube, path), -1);
    assert_error_contains(cube, path);
    assert_error_contains(cube, strerror(EEXIST));
    size_t len;
    char *bytes = slurp(path, &len);
    ck_assert_uint_eq(len, 19);
    ck_assert_mem_eq(bytes, "precious user data\n", 19);
    free(bytes);
    ck_assert_int_eq(cube_test_count_entries(dir), 1);
    pp_cube_destroy(cube);
}
END_TEST

/* A cube written once and written again to the same name: the second write
 * fails and the first file stays byte-identical (also a symlink counts). */
START_TEST(second_write_refused)
{
    char path[4200], link_path[4200];
    snprintf(path, sizeof path, "%s/profile.cubex", dir);
    pp_cube *cube = cube_test_worked_example();
    ck_assert_int_eq(pp_cube_write(cube, path), 0);
    size_t len1, len2;
    char *first = slurp(path, &len1);
    pp_cube_set_double(cube, 1, 0, 0, 99.0);
    ck_assert_int_eq(pp_cube_write(cube, path), -1);
    assert_error_contains(cube, strerror(EEXIST));
    char *again = slurp(path, &len2);
    ck_assert_uint_eq(len1, len2);
    ck_assert_mem_eq(first, again, len1);
    snprintf(link_path, sizeof link_path, "%s/dangling.cubex", dir);
    ck_assert_int_eq(symlink("/nonexistent/target", link_path), 0);
    ck_assert_int_eq(pp_cube_write(cube, link_path), -1);
    ck_assert_int_eq(cube_test_count_entries(dir), 2);
    free(first);
    free(again);
    pp_cube_destroy(cube);
}
END_TEST

/* A short write half-way through (here: the file-size limit, which makes
 * write() fail with EFBIG like a full disk fails with ENOSPC) must give a
 * clean error and remove the temporary file.  Runs in a child so the
 * limit does not leak into other tests. */
START_TEST(short_write_cleans_up)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {20000, 20000};
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(10);
        pp_cube *cube = pp_cube_create();
        pp_cube_def_metric(cube, -1, "v", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
        int r = pp_cube_def_region(cube, "main", NULL, 0, 0, NULL, NULL, NULL);
        for (int c = 0; c < 5000; c++)
            pp_cube_def_cnode(cube, c ? 0 : -1, r, NULL, NULL);
        cube_test_add_system(cube, 4); /* 5000 x 4 x 8 bytes > the limit */
        char path[4200];
        snprintf(path, sizeof path, "%s/big.cubex", dir);
        if (pp_cube_write(cube, path) != -1)
            _exit(11);
        const char *e = pp_cube_error(cube);
        if (!strstr(e, path) || !strstr(e, strerror(EFBIG)))
            _exit(12);
        _exit(cube_test_count_entries(dir) == 0 ? 0 : 13);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
}
END_TEST

START_TEST(incomplete_definitions_refused)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/x.cubex", dir);
    pp_cube *cube = pp_cube_create();
    ck_assert_int_eq(pp_cube_write(cube, path), -1);
    assert_error_contains(cube, "no metric");
    pp_cube_def_metric(cube, -1, "v", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE);
    ck_assert_int_eq(pp_cube_write(cube, path), -1);
    assert_error_contains(cube, "no region");
    int r = pp_cube_def_region(cube, "main", NULL, 0, 0, NULL, NULL, NULL);
    /* the empty call tree: a CUBE file needs at least one cnode */
    ck_assert_int_eq(pp_cube_write(cube, path), -1);
    assert_error_contains(cube, "no call-tree node");
    pp_cube_def_cnode(cube, -1, r, NULL, NULL);
    ck_assert_int_eq(pp_cube_write(cube, path), -1);
    assert_error_contains(cube, "no system-tree node");
    int m = pp_cube_def_system_node(cube, -1, "m", "machine");
    ck_assert_int_eq(pp_cube_write(cube, path), -1);
    assert_error_contains(cube, "no thread");
    int p0 = pp_cube_def_process(cube, m, "p0", 0);
    pp_cube_def_thread(cube, p0, "t", 0);
    pp_cube_def_process(cube, m, "lonely", 1);
    ck_assert_int_eq(pp_cube_write(cube, path), -1);
    assert_error_contains(cube, "('lonely') has no thread");
    ck_assert_int_eq(cube_test_count_entries(dir), 0);
    pp_cube_destroy(cube);
}
END_TEST

START_TEST(bad_definitions_refused)
{
    pp_cube *cube = pp_cube_create();
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "min", NULL, NULL, NULL, PP_CUBE_MINDOUBLE, PP_CUBE_INCLUSIVE), -1);
    assert_error_contains(cube, "must be EXCLUSIVE (not INCLUSIVE)");
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "max", NULL, NULL, NULL, PP_CUBE_MAXDOUBLE, PP_CUBE_INCLUSIVE), -1);
    /* CubeLib 4.8 builds SIMPLE metrics as inclusive ones and drops these */
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "min", NULL, NULL, NULL, PP_CUBE_MINDOUBLE, PP_CUBE_SIMPLE), -1);
    assert_error_contains(cube, "must be EXCLUSIVE");
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "max", NULL, NULL, NULL, PP_CUBE_MAXDOUBLE, PP_CUBE_SIMPLE), -1);
    ck_assert_int_eq(pp_cube_def_metric(cube, 0, "child", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE), -1);
    assert_error_contains(cube, "parent metric 0");
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE), -1);
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "v", NULL, NULL, NULL, (pp_cube_dtype)17, PP_CUBE_EXCLUSIVE), -1);
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "v", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE), 0);
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "v", NULL, NULL, NULL, PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE), -1);
    assert_error_contains(cube, "already defined");
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "mn", NULL, NULL, NULL, PP_CUBE_MINDOUBLE, PP_CUBE_EXCLUSIVE), 1);
    ck_assert_int_eq(pp_cube_set_attr(cube, "Cube Version", "5"), -1);
    assert_error_contains(cube, "Cube Version");
    ck_assert_int_eq(pp_cube_set_attr(cube, "k", NULL), -1);

    ck_assert_int_eq(pp_cube_def_cnode(cube, -1, 0, NULL, NULL), -1);
    assert_error_contains(cube, "region 0");
    int r = pp_cube_def_region(cube, "main", NULL, 0, 0, NULL, NULL, NULL);
    ck_assert_int_eq(pp_cube_def_region(cube, NULL, NULL, 0, 0, NULL, NULL, NULL), -1);
    ck_assert_int_eq(pp_cube_def_cnode(cube, 3, r, NULL, NULL), -1);
    assert_error_contains(cube, "parent cnode 3");
    ck_assert_int_eq(pp_cube_def_cnode(cube, -1, r, "key", NULL), -1);
    ck_assert_int_eq(pp_cube_def_cnode(cube, -1, r, NULL, NULL), 0);

    ck_assert_int_eq(pp_cube_def_process(cube, 0, "p", 0), -1);
    ck_assert_int_eq(pp_cube_def_system_node(cube, 2, "n", "node"), -1);
    int m = pp_cube_def_system_node(cube, -1, "m", "machine");
    ck_assert_int_eq(pp_cube_def_process(cube, m, "p", -1), -1);
    int p = pp_cube_def_process(cube, m, "p", 0);
    ck_assert_int_eq(pp_cube_def_thread(cube, p + 1, "t", 0), -1);
    ck_assert_int_eq(pp_cube_def_thread(cube, p, "t", -2), -1);
    int t = pp_cube_def_thread(cube, p, "t", 0);

    /* values: ids in range, setter matching the dtype */
    ck_assert_int_eq(pp_cube_set_uint64(cube, 0, 0, t + 1, 1), -1);
    assert_error_contains(cube, "location 1");
    ck_assert_int_eq(pp_cube_set_uint64(cube, 0, 1, t, 1), -1);
    ck_assert_int_eq(pp_cube_set_uint64(cube, 2, 0, t, 1), -1);
    ck_assert_int_eq(pp_cube_set_double(cube, 0, 0, t, 1.0), -1);
    assert_error_contains(cube, "UINT64");
    ck_assert_int_eq(pp_cube_set_int64(cube, 0, 0, t, 1), -1);
    ck_assert_int_eq(pp_cube_set_uint64(cube, 1, 0, t, 1), -1);
    ck_assert_int_eq(pp_cube_add_double(cube, 1, 0, t, 1.0), -1); /* no sum of a minimum */
    ck_assert_int_eq(pp_cube_set_double(cube, 1, 0, t, 1.0), 0);
    ck_assert_int_eq(pp_cube_set_uint64(cube, 0, 0, t, 1), 0);

    /* after all those refusals the cube is still intact and writable */
    char path[4200];
    snprintf(path, sizeof path, "%s/ok.cubex", dir);
    cube_test_file f;
    cube_test_write_load(cube, dir, "ok.cubex", &f);
    ck_assert_int_eq(f.anchor.num_metrics, 2);
    ck_assert_int_eq(f.anchor.num_cnodes, 1);
    ck_assert_uint_eq(cube_test_raw(&f, 0, 0, 0), 1);
    cube_test_file_free(&f);
    pp_cube_destroy(cube);
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("cube_errors");
    TCase *tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, error_is_empty_initially);
    tcase_add_test(tc, unwritable_directory);
    tcase_add_test(tc, existing_target_untouched);
    tcase_add_test(tc, second_write_refused);
    tcase_add_test(tc, short_write_cleans_up);
    tcase_add_test(tc, incomplete_definitions_refused);
    tcase_add_test(tc, bad_definitions_refused);
    suite_add_tcase(s, tc);
    return s;
}
