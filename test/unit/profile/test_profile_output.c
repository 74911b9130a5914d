/* Unit tests for the profile's output: where the file goes (POMPPROF_OUTPUT
 * rules, never overwrite, fallback) and what is in it (the .cubex is read
 * back: anchor.xml definitions, visits and time rows number by number). */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/pp_timer.h"
#include "test/unit/stderr_capture.h"
#include "profile/pp_profile.h"
#include "profile/pp_profile_job.h"
#include "profile/pp_profile_test.h"

static char tmpdir[256];

static void setup(void)
{
    unsetenv("POMPPROF_ENABLE");
    unsetenv("POMPPROF_VERBOSE");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pp_test_output_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    pp_profile_test_reset();
    pp_profile_test_start_at(0);
}

static void teardown(void)
{
    pp_profile_test_reset();
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

static int exists(const char *path)
{
    return access(path, F_OK) == 0;
}

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("x", f);
    fclose(f);
}

START_TEST(test_target_directory_and_never_overwrite)
{
    char setting[PATH_MAX], dir[PATH_MAX], file[PATH_MAX], err[256], want[PATH_MAX + 64];
    snprintf(setting, sizeof setting, "%s/a/b/c", tmpdir);
    ck_assert_int_eq(pp_profile_output_target(setting, "prog", dir, sizeof dir, file, sizeof file,
                                              err, sizeof err), 0);
    ck_assert_str_eq(dir, setting);
    snprintf(want, sizeof want, "%s/profile.cubex", setting);
    ck_assert_str_eq(file, want);
    struct stat st;
    ck_assert_int_eq(stat(setting, &st), 0); /* mkdir -p */
    ck_assert(S_ISDIR(st.st_mode));
    /* a profile there already (a rerun, another process of the job, a
     * program this one ran): named by program and process */
    touch(file);
    ck_assert_int_eq(pp_profile_output_target(setting, "prog", dir, sizeof dir, file, sizeof file,
                                              err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/profile.prog.%ld.cubex", setting, (long)getpid());
    ck_assert_str_eq(file, want);
    touch(file);
    ck_assert_int_eq(pp_profile_output_target(setting, "prog", dir, sizeof dir, file, sizeof file,
                                              err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/profile.prog.%ld.1.cubex", setting, (long)getpid());
    ck_assert_str_eq(file, want);
}
END_TEST

START_TEST(test_target_file_name)
{
    char setting[PATH_MAX], dir[PATH_MAX], file[PATH_MAX], err[256], want[PATH_MAX + 64];
    snprintf(setting, sizeof setting, "%s/new/run.cubex", tmpdir);
    ck_assert_int_eq(pp_profile_output_target(setting, "prog", dir, sizeof dir, file, sizeof file,
                                              err, sizeof err), 0);
    ck_assert_str_eq(file, setting);
    snprintf(want, sizeof want, "%s/new", tmpdir);
    ck_assert_str_eq(dir, want);
    touch(file);
    ck_assert_int_eq(pp_profile_output_target(setting, "prog", dir, sizeof dir, file, sizeof file,
                                              err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/new/run.1.cubex", tmpdir);
    ck_assert_str_eq(file, want);
}
END_TEST

START_TEST(test_target_default_fresh_directory)
{
    char cwd[PATH_MAX], dir[PATH_MAX], file[PATH_MAX], err[256], prefix[64], suffix[32];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    ck_assert_int_eq(chdir(tmpdir), 0);
    int rc = pp_profile_output_target(NULL, "myprog", dir, sizeof dir, file, sizeof file, err,
                                      sizeof err);
    ck_assert_int_eq(chdir(cwd), 0);
    ck_assert_int_eq(rc, 0);
    snprintf(prefix, sizeof prefix, "pompprof-myprog-");
    snprintf(suffix, sizeof suffix, "-%ld", (long)getpid());
    ck_assert_int_eq(strncmp(dir, prefix, strlen(prefix)), 0);
    /* pompprof-myprog-YYYYmmdd-HHMMSS-<pid> */
    ck_assert_uint_eq(strlen(dir), strlen(prefix) + 15 + strlen(suffix));
    ck_assert_str_eq(dir + strlen(dir) - strlen(suffix), suffix);
    ck_assert_str_eq(file + strlen(dir), "/profile.cubex");
    char full[2 * PATH_MAX];
    snprintf(full, sizeof full, "%s/%s", tmpdir, dir);
    ck_assert(exists(full));
}
END_TEST

/* ---- a real profile, read back ----------------------------------------------------- */

typedef struct member {
    char name[101];
    const unsigned char *data;
    size_t size;
} member;

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    buf[n] = 0;
    *size = (size_t)n;
    return buf;
}

/* Find a member of the tar container (CubeLib's header stepping rule). */
static int find_member(const unsigned char *buf, size_t size, const char *name, member *m)
{
    size_t pos = 0;
    while (pos + 512 <= size) {
        const unsigned char *h = buf + pos;
        if (!h[0]) {
            pos += 512;
            continue;
        }
        char sz[13];
        memcpy(sz, h + 124, 12);
        sz[12] = 0;
        size_t n = (size_t)strtoul(sz, NULL, 8);
        if (strncmp((const char *)h, name, 100) == 0) {
            snprintf(m->name, sizeof m->name, "%s", name);
            m->data = h + 512;
            m->size = n;
            return 1;
        }
        pos += 512 + (n ? (n / 512 + 1) * 512 : 0);
    }
    return 0;
}

static const pp_unode *inclusive_order[64];
static int n_inclusive;
/* INCLUSIVE row order (doc/cube4-layout.md): the root, then per node all its
 * children, then recursively each child. */
static void inclusive_visit(const pp_unode *n, int is_root)
{
    if (is_root)
        inclusive_order[n_inclusive++] = n;
    for (const pp_unode *c = n->first_child; c; c = c->next_sibling)
        inclusive_order[n_inclusive++] = c;
    for (const pp_unode *c = n->first_child; c; c = c->next_sibling)
        inclusive_visit(c, 0);
}

static const pp_unode *by_id[64];
static void index_ids(const pp_unode *n)
{
    by_id[n->id] = n;
    for (const pp_unode *c = n->first_child; c; c = c->next_sibling)
        index_ids(c);
}

/* Location 0 forks a team of 2 at 100 and enters its barrier at 200. */
static int64_t master_in_barrier(pp_region_id par, pp_region_id bar, pp_task_handle *serial)
{
    pp_profile_test_use_location(0);
    *serial = pp_profile_task_current();
    int64_t ctx = pp_profile_fork_at(par, 2, 100);
    pp_profile_parallel_begin_at(par, ctx, 100);
    pp_profile_enter_at(bar, 200);
    return ctx;
}

/* The master leaves the barrier at 900 and the team at 1000; the worker (location 1)
 * runs one instance of task region `worker_task` in the barrier, 260 to 460; then
 * everything is unified at 2000. */
static pp_unified *worker_and_unify(pp_region_id par, int64_t ctx, pp_task_handle serial,
                                    pp_region_id bar, pp_region_id worker_task)
{
    pp_profile_exit_at(bar, 900);
    pp_profile_parallel_end_at(par, 1000);
    pp_profile_join_at(par, serial, 1000);
    pp_profile_test_use_location(1);
    pp_profile_parallel_begin_at(par, ctx, 150);
    pp_profile_enter_at(bar, 250);
    pp_profile_task_begin_at(worker_task, pp_profile_task_new_handle(), false, 260);
    pp_profile_task_end_at(worker_task, 460);
    pp_profile_exit_at(bar, 950);
    pp_profile_parallel_end_at(par, 990);
    pp_unified *u = pp_profile_unify_at(2000);
    ck_assert_ptr_nonnull(u);
    return u;
}

static pp_unified *two_thread_task_profile(void)
{
    pp_region_def dp = {"!$omp parallel @f.c:1", "f.c", 1, 9, "openmp", "parallel", NULL, NULL};
    pp_region_def dt = {"!$omp task @f.c:3", "f.c", 3, 4, "openmp", "task", NULL, NULL};
    pp_region_def db = {"!$omp implicit barrier @f.c:9", "f.c", 9, 9, "openmp", "implicit barrier", NULL, NULL};
    pp_region_id par = pp_profile_region_define(&dp), ta = pp_profile_region_define(&dt),
                 bar = pp_profile_region_define(&db);
    pp_task_handle serial;
    int64_t ctx = master_in_barrier(par, bar, &serial);
    pp_profile_task_begin_at(ta, pp_profile_task_new_handle(), false, 300);
    pp_profile_task_end_at(ta, 700);
    return worker_and_unify(par, ctx, serial, bar, ta);
}


START_TEST(test_write_and_read_back)
{
    setenv("OMP_TEST_FACT", "a b", 1);
    pp_unified *u = two_thread_task_profile();
    char setting[PATH_MAX], path[PATH_MAX];
    snprintf(setting, sizeof setting, "%s/out", tmpdir);
    pp_test_capture_begin();
    int rc = pp_profile_output_write(u, setting, path, sizeof path);
    const char *err = pp_test_capture_end();
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(err, ""); /* quiet by default */
    char want[PATH_MAX + 32];
    snprintf(want, sizeof want, "%s/profile.cubex", setting);
    ck_assert_str_eq(path, want);

    size_t size;
    unsigned char *buf = read_file(path, &size);
    ck_assert_uint_ge(size, 512);
    ck_assert_int_eq(memcmp(buf + 257, "ustar", 5), 0);
    member anchor, visits, time;
    ck_assert(find_member(buf, size, "anchor.xml", &anchor));
    char *xml = strndup((const char *)anchor.data, anchor.size);
    const char *expect[] = {
        "<attr key=\"Creator\" value=\"pompprof " PACKAGE_VERSION "\"/>",
        "<attr key=\"CUBE_CT_AGGR\" value=\"SUM\"/>",
        "<attr key=\"pompprof::timer\"",
        "<attr key=\"pompprof::max_active_tasks\" value=\"1\"/>",
        "<uniq_name>visits</uniq_name>", "<uniq_name>time</uniq_name>",
        "<uniq_name>min_time</uniq_name>", "<uniq_name>max_time</uniq_name>",
        "<uniq_name>max_active_tasks</uniq_name>", "<dtype>MINDOUBLE</dtype>",
        "<name>TASKS</name>", "<role>artificial</role>", "<paradigm>measurement</paradigm>",
        "<name>!$omp task @f.c:3</name>", "<name>machine Linux</name>",
        "<name>Master thread</name>", "<name>OMP thread 1</name>", "<name>Process</name>",
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        ck_assert_msg(strstr(xml, expect[i]), "anchor.xml lacks %s", expect[i]);
    /* the run's facts: host, cores online, version, how it ended, settings */
    char host[256] = "", fact[512];
    gethostname(host, sizeof host - 1);
    const char *facts[] = {"pompprof::host\" value=\"%s\"", "pompprof::cores_online\" value=\"%ld\"",
                           "pompprof::version\" value=\"" PACKAGE_VERSION "\"",
                           "pompprof::end\" value=\"normal\"",
                           "pompprof::env::OMP_TEST_FACT\" value=\"a b\""};
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
        if (i == 0)
            snprintf(fact, sizeof fact, facts[i], host);
        else
            snprintf(fact, sizeof fact, facts[i], sysconf(_SC_NPROCESSORS_ONLN));
        ck_assert_msg(strstr(xml, fact), "anchor.xml lacks %s", fact);
    }
    free(xml);

    /* cnodes are numbered in pre-order, so the EXCLUSIVE rows (visits) are
     * in id order; time (INCLUSIVE) follows the level-per-parent order */
    ck_assert_uint_le(u->n_nodes, 64);
    index_ids(u->root);
    ck_assert(find_member(buf, size, "0.data", &visits));
    ck_assert_uint_eq(visits.size, 10 + (size_t)u->n_nodes * u->n_locations * 8);
    for (uint32_t id = 0; id < u->n_nodes; id++)
        for (uint32_t l = 0; l < u->n_locations; l++) {
            uint64_t v;
            memcpy(&v, visits.data + 10 + (id * u->n_locations + l) * 8, 8);
            ck_assert_uint_eq(v, by_id[id]->visits[l]);
        }
    ck_assert(find_member(buf, size, "1.data", &time));
    n_inclusive = 0;
    inclusive_visit(u->root, 1);
    ck_assert_int_eq(n_inclusive, (int)u->n_nodes);
    double tps = pp_timer_ticks_per_second();
    for (int row = 0; row < n_inclusive; row++)
        for (uint32_t l = 0; l < u->n_locations; l++) {
            double v;
            memcpy(&v, time.data + 10 + (row * u->n_locations + l) * 8, 8);
            ck_assert_double_eq_tol(v, inclusive_order[row]->time[l] / tps, 1e-15);
        }
    /* the TASKS row: 400 + 200 ticks of task time, direct child of the root */
    ck_assert_ptr_nonnull(u->tasks);
    ck_assert_ptr_eq(u->tasks->parent, u->root);
    ck_assert_uint_eq(u->tasks->time[0], 400);
    ck_assert_uint_eq(u->tasks->time[1], 200);
    free(buf);

    /* a second write never overwrites: profile.<program>.<pid>.cubex
     * beside it, and not a word on the program's stderr */
    struct stat st0, st1;
    ck_assert_int_eq(stat(want, &st0), 0);
    pp_test_capture_begin();
    rc = pp_profile_output_write(u, setting, path, sizeof path);
    err = pp_test_capture_end();
    ck_assert_int_eq(rc, 0);
    snprintf(want, sizeof want, "%s/profile.%s.%ld.cubex", setting, pp_profile_program_name(),
             (long)getpid());
    ck_assert_str_eq(path, want);
    ck_assert_str_eq(err, "");
    snprintf(want, sizeof want, "%s/profile.cubex", setting);
    ck_assert_int_eq(stat(want, &st1), 0);
    ck_assert_int_eq(st0.st_size, st1.st_size);
    ck_assert_int_eq(st0.st_mtim.tv_nsec, st1.st_mtim.tv_nsec);
    pp_unified_free(u);
}
END_TEST

/* Two task constructs on two threads, nested on the master (a taskwait in
 * an instance of A runs another A and a B): A has 2 instances active at
 * once there, B 1; the master's most is 2, the worker's 1. */
static pp_unified *nested_task_profile(void)
{
    pp_region_def dp = {"!$omp parallel @g.c:1", "g.c", 1, 30, "openmp", "parallel", NULL, NULL};
    pp_region_def da = {"!$omp task @g.c:3", "g.c", 3, 9, "openmp", "task", NULL, NULL};
    pp_region_def dbt = {"!$omp task @g.c:10", "g.c", 10, 12, "openmp", "task", NULL, NULL};
    pp_region_def dw = {"!$omp taskwait @g.c:8", "g.c", 8, 8, "openmp", "taskwait", NULL, NULL};
    pp_region_def dbar = {"!$omp implicit barrier @g.c:30", "g.c", 30, 30, "openmp",
                          "implicit barrier", NULL, NULL};
    pp_region_id par = pp_profile_region_define(&dp), ta = pp_profile_region_define(&da),
                 tb = pp_profile_region_define(&dbt), tw = pp_profile_region_define(&dw),
                 bar = pp_profile_region_define(&dbar);
    pp_task_handle serial;
    int64_t ctx = master_in_barrier(par, bar, &serial);
    pp_task_handle a1 = pp_profile_task_new_handle();
    pp_profile_task_begin_at(ta, a1, false, 300);
    pp_profile_enter_at(tw, 310);
    pp_profile_task_begin_at(ta, pp_profile_task_new_handle(), false, 320); /* A suspended */
    pp_profile_task_end_at(ta, 400);
    pp_profile_task_switch_to_at(a1, 400);
    pp_profile_task_begin_at(tb, pp_profile_task_new_handle(), false, 410);
    pp_profile_task_end_at(tb, 450);
    pp_profile_task_switch_to_at(a1, 450);
    pp_profile_exit_at(tw, 460);
    pp_profile_task_end_at(ta, 500);
    return worker_and_unify(par, ctx, serial, bar, tb);
}

/* The 8-byte cell of an EXCLUSIVE metric (rows in pre-order = id order). */
static uint64_t cell(const member *m, const pp_unified *u, int id, uint32_t loc)
{
    uint64_t v;
    memcpy(&v, m->data + 10 + ((size_t)id * u->n_locations + loc) * 8, 8);
    return v;
}

static double dcell(const member *m, const pp_unified *u, int id, uint32_t loc)
{
    uint64_t v = cell(m, u, id, loc);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/* CubeLib's conventions per metric type (doc/cube4-layout.md, "Metrics"):
 * an unvisited pair keeps the empty minimum, TASKS carries its subtree's
 * min and max, max_active_tasks is a maximum stored on every call path. */
START_TEST(test_metric_conventions)
{
    pp_unified *u = nested_task_profile();
    char setting[PATH_MAX], path[PATH_MAX];
    snprintf(setting, sizeof setting, "%s/conv", tmpdir);
    ck_assert_int_eq(pp_profile_output_write(u, setting, path, sizeof path), 0);
    size_t size;
    unsigned char *buf = read_file(path, &size);
    member anchor, mn, mx, act;
    ck_assert(find_member(buf, size, "anchor.xml", &anchor));
    char *xml = strndup((const char *)anchor.data, anchor.size);
    const char *expect[] = {
        "<metric id=\"2\" type=\"EXCLUSIVE\">\n<disp_name>Minimum Inclusive Time</disp_name>\n"
        "<uniq_name>min_time</uniq_name>\n<dtype>MINDOUBLE</dtype>",
        "<metric id=\"3\" type=\"EXCLUSIVE\">\n<disp_name>Maximum Inclusive Time</disp_name>\n"
        "<uniq_name>max_time</uniq_name>\n<dtype>MAXDOUBLE</dtype>",
        "<metric id=\"4\" type=\"EXCLUSIVE\">\n<disp_name>Max active tasks</disp_name>\n"
        "<uniq_name>max_active_tasks</uniq_name>\n<dtype>MAXDOUBLE</dtype>",
        "<url>@mirror@README.md#metric-visits</url>", "<url>@mirror@README.md#metric-time</url>",
        "<url>@mirror@README.md#metric-min_time</url>",
        "<url>@mirror@README.md#metric-max_time</url>",
        "<url>@mirror@README.md#metric-max_active_tasks</url>",
        "<mirrors>\n<murl>file://" PP_DOCDIR "/</murl>\n</mirrors>",
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        ck_assert_msg(strstr(xml, expect[i]), "anchor.xml lacks %s", expect[i]);
    ck_assert_ptr_null(strstr(xml, "<descr></descr>\n</metric>")); /* every metric described */
    free(xml);
    ck_assert(find_member(buf, size, "2.data", &mn));
    ck_assert(find_member(buf, size, "3.data", &mx));
    ck_assert(find_member(buf, size, "4.data", &act));
    index_ids(u->root);
    double tps = pp_timer_ticks_per_second();
    const pp_unode *tasks = u->tasks, *construct = NULL;
    ck_assert_ptr_nonnull(tasks);
    int unvisited = 0;
    for (uint32_t id = 0; id < u->n_nodes; id++) {
        const pp_unode *n = by_id[id];
        if (n->parent == tasks)
            construct = n;
        for (uint32_t l = 0; l < u->n_locations; l++) {
            if (n == tasks)
                continue;
            if (n->visits[l]) {
                ck_assert_double_eq_tol(dcell(&mn, u, (int)id, l), n->min_time[l] / tps, 1e-15);
            } else if (n->min_time[l] == UINT64_MAX) {
                ck_assert_double_eq(dcell(&mn, u, (int)id, l), DBL_MAX);
                unvisited++;
            }
            uint64_t want = construct ? construct->max_active[l] : u->max_active_tasks[l];
            ck_assert_double_eq(dcell(&act, u, (int)id, l), (double)want);
        }
    }
    ck_assert_int_gt(unvisited, 3); /* the worker never ran A nor the taskwait */
    /* the figures of the event stream above */
    ck_assert_uint_eq(u->max_active_tasks[0], 2);
    ck_assert_uint_eq(u->max_active_tasks[1], 1);
    const pp_unode *a = tasks->first_child, *b = a->next_sibling;
    ck_assert_uint_eq(a->max_active[0], 2);
    ck_assert_uint_eq(a->max_active[1], 0);
    ck_assert_uint_eq(b->max_active[0], 1);
    ck_assert_uint_eq(b->max_active[1], 1);
    ck_assert_double_eq(dcell(&act, u, tasks->id, 0), 2.0);
    ck_assert_double_eq(dcell(&act, u, tasks->id, 1), 1.0);
    ck_assert_double_eq(dcell(&act, u, 0, 1), 1.0); /* the root too */
    /* TASKS: min and max single visit of its subtree.  Master: A instances
     * 80 ticks each (200 minus 120 suspended), the taskwait in A 30, B 40;
     * worker: B 200. */
    ck_assert_uint_eq(tasks->min_time[0], 30);
    ck_assert_uint_eq(tasks->max_time[0], 80);
    ck_assert_uint_eq(tasks->min_time[1], 200);
    ck_assert_uint_eq(tasks->max_time[1], 200);
    for (uint32_t l = 0; l < 2; l++) {
        ck_assert_double_eq_tol(dcell(&mn, u, tasks->id, l), tasks->min_time[l] / tps, 1e-15);
        ck_assert_double_eq_tol(dcell(&mx, u, tasks->id, l), tasks->max_time[l] / tps, 1e-15);
    }
    free(buf);
    pp_unified_free(u);
}
END_TEST

START_TEST(test_unwritable_falls_back)
{
    pp_unified *u = two_thread_task_profile();
    char blocker[PATH_MAX], setting[PATH_MAX + 8], fallback[PATH_MAX], path[PATH_MAX];
    snprintf(blocker, sizeof blocker, "%s/plainfile", tmpdir);
    touch(blocker);
    snprintf(setting, sizeof setting, "%s/sub", blocker); /* cannot be a directory */
    snprintf(fallback, sizeof fallback, "%s/tmp", tmpdir);
    ck_assert_int_eq(mkdir(fallback, 0700), 0);
    setenv("TMPDIR", fallback, 1);
    pp_test_capture_begin();
    int rc = pp_profile_output_write(u, setting, path, sizeof path);
    const char *err = pp_test_capture_end();
    unsetenv("TMPDIR");
    ck_assert_int_eq(rc, 0);
    ck_assert_int_eq(strncmp(path, fallback, strlen(fallback)), 0);
    ck_assert(exists(path));
    ck_assert_ptr_nonnull(strstr(err, "cannot write the profile"));
    ck_assert_ptr_nonnull(strstr(err, path));
    pp_unified_free(u);
}
END_TEST

Suite *profile_output_suite(void)
{
    Suite *s = suite_create("profile_output");
    TCase *tc = tcase_create("output");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_target_directory_and_never_overwrite);
    tcase_add_test(tc, test_target_file_name);
    tcase_add_test(tc, test_target_default_fresh_directory);
    tcase_add_test(tc, test_write_and_read_back);
    tcase_add_test(tc, test_metric_conventions);
    tcase_add_test(tc, test_unwritable_falls_back);
    suite_add_tcase(s, tc);
    return s;
}

Suite *pp_check_suite(void)
{
    return profile_output_suite();
}
