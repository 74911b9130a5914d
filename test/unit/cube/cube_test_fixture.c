/* Cubes built with the writer that several tests share. */
#include <check.h>
#include <stdio.h>

#include "test/unit/cube/cube_test_util.h"

int cube_test_add_system(pp_cube *cube, int threads)
{
    int machine = pp_cube_def_system_node(cube, -1, "machine Linux", "machine");
    int node = pp_cube_def_system_node(cube, machine, "node host01", "node");
    int process = pp_cube_def_process(cube, node, "Process", 0);
    int first = -1;
    for (int t = 0; t < threads; t++) {
        char name[32];
        if (t == 0)
            snprintf(name, sizeof name, "Master thread");
        else
            snprintf(name, sizeof name, "OMP thread %d", t);
        int loc = pp_cube_def_thread(cube, process, name, t);
        ck_assert_int_ge(loc, 0);
        if (t == 0)
            first = loc;
    }
    return first;
}

pp_cube *cube_test_worked_example(void)
{
    pp_cube *cube = pp_cube_create();
    ck_assert_ptr_nonnull(cube);
    ck_assert_int_eq(pp_cube_set_attr(cube, "Creator", "Score-P 8.4"), 0);
    ck_assert_int_eq(pp_cube_set_attr(cube, "CUBE_CT_AGGR", "SUM"), 0);
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "visits", "Visits", "occ", "Number of visits",
                                        PP_CUBE_UINT64, PP_CUBE_EXCLUSIVE), 0);
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "time", "Time", "sec",
                                        "Total CPU allocation time", PP_CUBE_DOUBLE,
                                        PP_CUBE_INCLUSIVE), 1);
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "min_time", "Minimum Inclusive Time", "sec",
                                        "Minimum inclusive CPU allocation time",
                                        PP_CUBE_MINDOUBLE, PP_CUBE_EXCLUSIVE), 2);
    ck_assert_int_eq(pp_cube_def_metric(cube, -1, "max_time", "Maximum Inclusive Time", "sec",
                                        "Maximum inclusive CPU allocation time",
                                        PP_CUBE_MAXDOUBLE, PP_CUBE_EXCLUSIVE), 3);
    ck_assert_int_eq(pp_cube_def_region(cube, "prog", NULL, -1, -1, "measurement", "artificial", NULL), 0);
    ck_assert_int_eq(pp_cube_def_region(cube, "!$omp parallel @prog.c:4", "prog.c", 4, 12, "openmp", "parallel", NULL), 1);
    ck_assert_int_eq(pp_cube_def_region(cube, "!$omp task @prog.c:7", "prog.c", 7, 9, "openmp", "task", NULL), 2);
    ck_assert_int_eq(pp_cube_def_region(cube, "TASKS", "", 0, 0, "openmp", "artificial", NULL), 3);
    ck_assert_int_eq(pp_cube_def_cnode(cube, -1, 0, NULL, NULL), 0);
    ck_assert_int_eq(pp_cube_def_cnode(cube, 0, 1, NULL, NULL), 1);
    ck_assert_int_eq(pp_cube_def_cnode(cube, 1, 2, NULL, NULL), 2);
    ck_assert_int_eq(pp_cube_def_cnode(cube, 0, 3, NULL, NULL), 3);
    ck_assert_int_eq(pp_cube_def_cnode(cube, 3, 2, NULL, NULL), 4);
    ck_assert_int_eq(cube_test_add_system(cube, 2), 0);
    /* table 5.1: time and visits per (cnode, location); set in reverse
     * order on purpose (set calls may come in any order) */
    static const double time[5][2] = {{1.0, 0.8}, {0.8, 0.8}, {0, 0.5}, {0, 0.5}, {0, 0.5}};
    static const uint64_t visits[5][2] = {{1, 0}, {1, 1}, {0, 1}, {0, 0}, {0, 1}};
    for (int c = 4; c >= 0; c--) {
        for (int l = 1; l >= 0; l--) {
            ck_assert_int_eq(pp_cube_set_double(cube, 1, c, l, time[c][l]), 0);
            ck_assert_int_eq(pp_cube_set_uint64(cube, 0, c, l, visits[c][l]), 0);
        }
    }
    return cube;
}

void cube_test_write_load(pp_cube *cube, const char *dir, const char *name, cube_test_file *file)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ck_assert_msg(pp_cube_write(cube, path) == 0, "write failed: %s", pp_cube_error(cube));
    ck_assert_msg(cube_test_load(path, file, err, sizeof err) == 0, "%s: %s", path, err);
}
