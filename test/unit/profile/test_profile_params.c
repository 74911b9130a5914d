/* Unit tests for parameters (pp_profile_split.c, pp_profile_params.c):
 * synthetic event streams with a fake clock, checked node by node with
 * exact visits and times: a region split by a value, a task root split and
 * then suspended and resumed, nested tasks with a depth parameter, several
 * parameters in a row, the cap and its "<other>" node, teams forked inside a
 * split node, and the parameters in the written .cubex. */
#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test/unit/stderr_capture.h"
#include "profile/pp_profile.h"
#include "profile/pp_profile_test.h"
#include "test/unit/cube/cube_test_util.h"
#include "test/unit/profile/engine_check.h"

static pp_param_key K(const char *name)
{
    pp_param_key k = pp_profile_param_define(name, strlen(name));
    ck_assert_uint_ne(k, PP_PARAM_INVALID);
    return k;
}

/* The child of parent for region whose parameters read `params` ("" = none). */
static pp_unode *child(const pp_unode *parent, pp_region_id region, const char *params)
{
    char buf[256];
    for (pp_unode *c = parent->first_child; c; c = c->next_sibling)
        if (c->region == region &&
            strcmp(pp_profile_test_pset_text(c->pset, buf, sizeof buf), params) == 0)
            return c;
    ck_abort_msg("no child of region %u with parameters '%s'", region, params);
    return NULL;
}

/* No child of parent for region with parameters `params`. */
static void no_child(const pp_unode *parent, pp_region_id region, const char *params)
{
    char buf[256];
    for (pp_unode *c = parent->first_child; c; c = c->next_sibling)
        ck_assert_msg(c->region != region ||
                          strcmp(pp_profile_test_pset_text(c->pset, buf, sizeof buf), params) != 0,
                      "unexpected child of region %u with parameters '%s'", region, params);
}

/* A region split by a value: the visit moves to the sibling from the
 * thread's last event before the call on (the call reads no clock), the
 * time before stays (no visit); a later visit without the call is the plain
 * node's; sums over the siblings are the unsplit figures. */
START_TEST(test_region_split)
{
    pp_region_id foo = R("foo", "function"), bar = R("bar", "function");
    pp_param_key n = K("n");
    pp_profile_enter_at(foo, 10);
    pp_profile_enter_at(bar, 11);
    pp_profile_exit_at(bar, 13);      /* bar below plain foo: 2 */
    pp_profile_parameter_int64(n, 1); /* at 13: plain foo keeps 3 */
    pp_profile_enter_at(bar, 16);
    pp_profile_exit_at(bar, 20);      /* bar below foo(n=1): 4 */
    pp_profile_exit_at(foo, 30);      /* foo(n=1): 17 */
    pp_profile_enter_at(foo, 40);
    pp_profile_parameter_int64(n, 2); /* at 40: the whole visit */
    pp_profile_parameter_int64(n, 2); /* the same value again: nothing */
    pp_profile_exit_at(foo, 50);      /* foo(n=2): 10 */
    pp_profile_enter_at(foo, 60);
    pp_profile_exit_at(foo, 70);      /* plain: 10 */
    pp_profile_enter_at(foo, 80);
    pp_profile_parameter_int64(n, 1);
    pp_profile_exit_at(foo, 90);      /* foo(n=1): 10 */

    pp_unified *u = pp_profile_unify_at(100);
    ck_assert_int_eq(count_children(u->root), 3);
    pp_unode *plain = child(u->root, foo, ""), *n1 = child(u->root, foo, "n=1"),
             *n2 = child(u->root, foo, "n=2");
    ck_assert_ptr_eq(u->root->first_child, plain); /* first-visit order */
    ck_assert_ptr_eq(plain->next_sibling, n1);
    ck_assert_ptr_eq(n1->next_sibling, n2);
    CHECK_NODE(plain, 0, 1, 3 + 0 + 10 + 0, 10, 10);
    CHECK_NODE(n1, 0, 2, 27, 10, 17);
    CHECK_NODE(n2, 0, 1, 10, 10, 10);
    CHECK_NODE(child(plain, bar, ""), 0, 1, 2, 2, 2);
    CHECK_NODE(child(n1, bar, ""), 0, 1, 4, 4, 4);
    ck_assert_int_eq(count_children(n2), 0);
    /* the unsplit region: 4 visits, 50 ticks */
    ck_assert_uint_eq(plain->visits[0] + n1->visits[0] + n2->visits[0], 4);
    ck_assert_uint_eq(plain->time[0] + n1->time[0] + n2->time[0], 50);
    ck_assert_int_eq(pp_unified_exclusive(u, u->root, 0), 50);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* Task roots split by their depth, with suspensions before and after the
 * call: A enters and leaves a region, takes depth 0, waits in a taskwait
 * where B runs; B waits in a taskwait where C (another construct) runs,
 * resumes and only then takes depth 1.  Suspended time counts for no node,
 * each instance lands in its (construct, depth) tree, what ran before a call
 * stays in the plain tree, the stubs hold the fragments in real time, and
 * TASKS equals them. */
START_TEST(test_task_split_suspend_resume)
{
    pp_region_id ta = R("!$omp task @f.c:10", "task"), tc = R("!$omp task @f.c:30", "task");
    pp_region_id cr = R("!$omp create task @f.c:10", "task create");
    pp_region_id tw = R("!$omp taskwait @f.c:12", "taskwait"), prep = R("prep", "function");
    pp_param_key depth = K("depth");
    pp_task_handle implicit = pp_profile_task_current();
    pp_task_handle ha = pp_profile_task_new_handle(), hb = pp_profile_task_new_handle();
    pp_profile_enter_at(cr, 5);
    pp_profile_task_begin_at(ta, ha, false, 10);
    pp_profile_enter_at(prep, 11);
    pp_profile_exit_at(prep, 12);
    pp_profile_parameter_int64(depth, 0); /* at 12 */
    pp_profile_enter_at(tw, 20);
    pp_profile_task_begin_at(ta, hb, false, 25); /* A suspended in its taskwait */
    pp_profile_enter_at(tw, 27);
    pp_profile_task_begin_at(tc, pp_profile_task_new_handle(), false, 30); /* B suspended */
    pp_profile_task_end_at(tc, 33);
    pp_profile_task_switch_to_at(hb, 35);
    pp_profile_exit_at(tw, 37);
    pp_profile_parameter_int64(depth, 1); /* at 37, B's clock 32 */
    pp_profile_task_end_at(ta, 40);
    pp_profile_task_switch_to_at(ha, 45);
    pp_profile_exit_at(tw, 50);
    pp_profile_task_end_at(ta, 60);
    pp_profile_task_switch_to_at(implicit, 60);
    pp_profile_exit_at(cr, 60);

    pp_unified *u = pp_profile_unify_at(100);
    ck_assert_ptr_nonnull(u->tasks);
    ck_assert_int_eq(count_children(u->tasks), 4);
    pp_unode *plain = child(u->tasks, ta, ""), *d0 = child(u->tasks, ta, "depth=0"),
             *d1 = child(u->tasks, ta, "depth=1");
    CHECK_NODE(plain, 0, 0, 2 + 7, 0, 0);  /* A 10-12; B 25-37 minus 30-35 */
    CHECK_NODE(child(plain, prep, ""), 0, 1, 1, 1, 1);
    CHECK_NODE(child(plain, tw, ""), 0, 1, 5, 5, 5);
    CHECK_NODE(d0, 0, 1, 28, 28, 28);      /* 12-60 minus 25-45 */
    CHECK_NODE(child(d0, tw, ""), 0, 1, 10, 10, 10);
    CHECK_NODE(d1, 0, 1, 3, 3, 3);
    ck_assert_int_eq(count_children(d1), 0);
    CHECK_NODE(child(u->tasks, tc, ""), 0, 1, 3, 3, 3);
    pp_unode *c = child(u->root, cr, "");
    CHECK_NODE(child(c, ta, ""), 0, 4, 40, 5, 15);
    CHECK_NODE(child(c, tc, ""), 0, 1, 3, 3, 3);
    CHECK_NODE(u->tasks, 0, 0, 43, 0, 0);
    ck_assert_uint_eq(u->max_active_tasks[0], 3);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* ---- a binary task tree, every task executed where it is created ---------- */

typedef struct tree_regions {
    pp_region_id ta, cr, tw;
    pp_param_key depth;
    uint64_t clk;
} tree_regions;

/* The body of a task at depth d (begun at r->clk): 1 tick, the parameter,
 * 10 ticks of work, two children each created in 1 + 1 ticks, 1 tick of
 * taskwait.  The parameter moves the whole instance (no event since the
 * begin): 16 ticks (inner) or 12 (leaf). */
static void tree_task(tree_regions *r, pp_task_handle self, int d, int max_depth)
{
    r->clk += 1;
    pp_profile_parameter_int64(r->depth, d);
    r->clk += 10;
    if (d < max_depth) {
        for (int k = 0; k < 2; k++) {
            pp_profile_enter_at(r->cr, r->clk);
            r->clk += 1;
            pp_task_handle h = pp_profile_task_new_handle();
            pp_profile_task_begin_at(r->ta, h, false, r->clk);
            tree_task(r, h, d + 1, max_depth);
            pp_profile_task_end_at(r->ta, r->clk);
            pp_profile_task_switch_to_at(self, r->clk);
            pp_profile_exit_at(r->cr, r->clk);
            r->clk += 1;
        }
    }
    pp_profile_enter_at(r->tw, r->clk);
    r->clk += 1;
    pp_profile_exit_at(r->tw, r->clk);
}

static void tree_run(tree_regions *r, int max_depth)
{
    pp_task_handle implicit = pp_profile_task_current();
    pp_profile_enter_at(r->cr, r->clk);
    pp_task_handle h = pp_profile_task_new_handle();
    pp_profile_task_begin_at(r->ta, h, false, r->clk);
    tree_task(r, h, 0, max_depth);
    pp_profile_task_end_at(r->ta, r->clk);
    pp_profile_task_switch_to_at(implicit, r->clk);
    pp_profile_exit_at(r->cr, r->clk);
    r->clk += 5;
}

/* Nested tasks with a depth parameter: 2^d instances at depth d, exact
 * times, the same instance trees reused run after run (memory stays put). */
START_TEST(test_nested_task_tree)
{
    tree_regions r = {R("!$omp task @f.c:10", "task"), R("!$omp create task @f.c:10", "task create"),
                      R("!$omp taskwait @f.c:14", "taskwait"), K("depth"), 1};
    enum { D = 3, RUNS = 20 };
    size_t arena = 0;
    for (int run = 0; run < RUNS; run++) {
        tree_run(&r, D);
        if (run == 1)
            arena = pp_profile_test_arena_bytes(0);
    }
    ck_assert_uint_eq(pp_profile_test_arena_bytes(0), arena);

    pp_unified *u = pp_profile_unify_at(r.clk);
    /* no plain tree: every instance took its depth before any other event */
    ck_assert_int_eq(count_children(u->tasks), D + 1);
    no_child(u->tasks, r.ta, "");
    uint64_t instances = 0, task_time = 0;
    for (int d = 0; d <= D; d++) {
        char p[32];
        snprintf(p, sizeof p, "depth=%d", d);
        pp_unode *m = child(u->tasks, r.ta, p);
        uint64_t each = d < D ? 16 : 12;
        CHECK_NODE(m, 0, (uint64_t)RUNS << d, ((uint64_t)RUNS << d) * each, each, each);
        CHECK_NODE(child(m, r.tw, ""), 0, (uint64_t)RUNS << d, (uint64_t)RUNS << d, 1, 1);
        if (d < D)
            CHECK_NODE(child(m, r.cr, ""), 0, (uint64_t)RUNS << (d + 1),
                       (uint64_t)RUNS << (d + 1), 1, 1);
        else
            ck_assert_int_eq(count_children(m), 1);
        instances += m->visits[0];
        task_time += m->time[0];
    }
    /* the sum over depths is the unsplit count, 2^(D+1) - 1 per run */
    ck_assert_uint_eq(instances, RUNS * ((2 << D) - 1));
    ck_assert_uint_eq(task_time, u->tasks->time[0]);
    pp_unode *stubs = child(child(u->root, r.cr, ""), r.ta, "");
    ck_assert_uint_eq(stubs->time[0], u->tasks->time[0]);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* Several parameters in a row combine (in parameter order, whatever the
 * order of the calls); giving one again replaces its value; what ran
 * before a call stays with the node it left. */
START_TEST(test_combinations)
{
    pp_region_id foo = R("foo", "function"), bar = R("bar", "function");
    pp_param_key a = K("a"), b = K("b");
    pp_profile_enter_at(foo, 0);
    pp_profile_parameter_int64(a, 1);
    pp_profile_parameter_string(b, "x", 1);
    pp_profile_exit_at(foo, 10);
    pp_profile_enter_at(foo, 20);
    pp_profile_enter_at(bar, 21);
    pp_profile_exit_at(bar, 23);
    pp_profile_parameter_string(b, "xy", 1); /* 1 byte: "x" */
    pp_profile_parameter_int64(a, 1);
    pp_profile_exit_at(foo, 30);
    pp_profile_enter_at(foo, 40);
    pp_profile_parameter_int64(a, 1);
    pp_profile_enter_at(bar, 41);
    pp_profile_exit_at(bar, 44);
    pp_profile_parameter_int64(a, 3);
    pp_profile_exit_at(foo, 50);

    pp_unified *u = pp_profile_unify_at(100);
    ck_assert_int_eq(count_children(u->root), 4);
    pp_unode *plain = child(u->root, foo, ""), *a1 = child(u->root, foo, "a=1");
    CHECK_NODE(plain, 0, 0, 3, 0, 0);
    CHECK_NODE(child(plain, bar, ""), 0, 1, 2, 2, 2);
    CHECK_NODE(a1, 0, 0, 4, 0, 0);
    CHECK_NODE(child(a1, bar, ""), 0, 1, 3, 3, 3);
    no_child(u->root, foo, "b=x"); /* passed through, nothing measured: not written */
    CHECK_NODE(child(u->root, foo, "a=1, b=x"), 0, 2, 10 + 7, 7, 10);
    CHECK_NODE(child(u->root, foo, "a=3"), 0, 1, 6, 6, 6);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST


static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* The cap: 3 values per parameter and call path.  Later values share one
 * "<other>" node (one warning line); another call path has its own values;
 * a task construct's roots fold the same way; distinct strings too. */
START_TEST(test_fold_at_cap)
{
    pp_region_id foo = R("foo", "function"), bar = R("bar", "function");
    pp_region_id ta = R("!$omp task @f.c:10", "task");
    pp_param_key n = K("n"), s = K("s"), depth = K("depth");
    pp_profile_test_set_max_parameter_values(3);
    uint64_t t = 0;
    pp_test_capture_begin();
    for (int i = 0; i < 10; i++) {
        pp_profile_enter_at(foo, t);
        pp_profile_parameter_int64(n, i);
        pp_profile_exit_at(foo, t + 3);
        t += 10;
    }
    for (int i = 0; i < 10; i++) { /* a second pass: the same nodes */
        pp_profile_enter_at(foo, t);
        pp_profile_parameter_int64(n, i);
        pp_profile_exit_at(foo, t + 1);
        t += 10;
    }
    pp_profile_enter_at(bar, t);
    for (int i = 7; i < 12; i++) { /* another call path: values of its own */
        pp_profile_enter_at(foo, t);
        pp_profile_parameter_int64(n, i);
        pp_profile_exit_at(foo, t + 1);
        t += 10;
    }
    for (int i = 0; i < 6; i++) {
        char text[16];
        int len = snprintf(text, sizeof text, "v%d", i);
        pp_profile_enter_at(foo, t);
        pp_profile_parameter_string(s, text, (size_t)len);
        pp_profile_exit_at(foo, t + 1);
        t += 10;
    }
    pp_profile_exit_at(bar, t);
    for (int i = 0; i < 10; i++) {
        pp_profile_task_begin_at(ta, pp_profile_task_new_handle(), false, t);
        pp_profile_parameter_int64(depth, i);
        pp_profile_task_end_at(ta, t + 4);
        t += 10;
    }
    const char *err = pp_test_capture_end();
    ck_assert_int_eq(count_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "pompprof: parameter 'n' took more than 3 values"));
    ck_assert_ptr_nonnull(strstr(err, "POMPPROF_MAX_PARAMETER_VALUES"));

    pp_unified *u = pp_profile_unify_at(t);
    /* foo: 3 values, other; bar; the tasks' stub; TASKS (plain foo held nothing) */
    ck_assert_int_eq(count_children(u->root), 3 + 1 + 1 + 1 + 1);
    CHECK_NODE(child(u->root, ta, ""), 0, 10, 40, 4, 4);
    no_child(u->root, foo, "");
    for (int i = 0; i < 3; i++) {
        char p[16];
        snprintf(p, sizeof p, "n=%d", i);
        CHECK_NODE(child(u->root, foo, p), 0, 2, 4, 1, 3);
    }
    CHECK_NODE(child(u->root, foo, "n=<other>"), 0, 14, 7 * 3 + 7, 1, 3);
    pp_unode *b = child(u->root, bar, "");
    ck_assert_int_eq(count_children(b), 3 + 1 + 3 + 1);
    for (int i = 7; i < 10; i++) {
        char p[16];
        snprintf(p, sizeof p, "n=%d", i);
        CHECK_NODE(child(b, foo, p), 0, 1, 1, 1, 1);
    }
    CHECK_NODE(child(b, foo, "n=<other>"), 0, 2, 2, 1, 1);
    CHECK_NODE(child(b, foo, "s=v2"), 0, 1, 1, 1, 1);
    CHECK_NODE(child(b, foo, "s=<other>"), 0, 3, 3, 1, 1);
    ck_assert_int_eq(count_children(u->tasks), 3 + 1);
    CHECK_NODE(child(u->tasks, ta, "depth=2"), 0, 1, 4, 4, 4);
    CHECK_NODE(child(u->tasks, ta, "depth=<other>"), 0, 7, 28, 4, 4);
    pp_unified_free(u);
}
END_TEST

/* A team forked inside a split node hangs below that node on the worker
 * too; a parameter in the parallel region's own body splits the team's
 * region; a parameter outside of any region is ignored with one line. */
START_TEST(test_teams_and_split_nodes)
{
    pp_region_id foo = R("foo", "function"), par = R("!$omp parallel @f.c:1", "parallel");
    pp_region_id bar = R("bar", "function");
    pp_param_key n = K("n"), m = K("m");
    pp_test_capture_begin();
    pp_profile_parameter_int64(n, 9); /* no region: ignored */
    const char *err = pp_test_capture_end();
    ck_assert_int_eq(count_lines(err), 1);
    ck_assert_ptr_nonnull(strstr(err, "outside of any region"));

    pp_profile_test_use_location(0);
    pp_task_handle serial = pp_profile_task_current();
    pp_profile_enter_at(foo, 10);
    pp_profile_enter_at(bar, 11);
    pp_profile_exit_at(bar, 12);
    pp_profile_parameter_int64(n, 5); /* at 12 */
    int64_t ctx = pp_profile_fork_at(par, 2, 20);
    pp_profile_parallel_begin_at(par, ctx, 20);
    pp_profile_enter_at(bar, 21);
    pp_profile_exit_at(bar, 22);
    pp_profile_parameter_int64(m, 1); /* at 22 */
    pp_profile_parallel_end_at(par, 40);
    pp_profile_join_at(par, serial, 40);
    pp_profile_test_use_location(1);
    pp_profile_parallel_begin_at(par, ctx, 21);
    pp_profile_parameter_int64(m, 2); /* at 21 */
    pp_profile_parallel_end_at(par, 39);
    pp_profile_test_use_location(0);
    pp_profile_exit_at(foo, 50);

    pp_unified *u = pp_profile_unify_at(60);
    ck_assert_int_eq(count_children(u->root), 2);
    CHECK_NODE(child(u->root, foo, ""), 0, 0, 2, 0, 0);
    pp_unode *f5 = child(u->root, foo, "n=5");
    CHECK_NODE(f5, 0, 1, 38, 38, 38);
    CHECK_NODE(f5, 1, 0, 18, 0, 0); /* the worker's copied ancestor */
    ck_assert_int_eq(count_children(f5), 3);
    CHECK_NODE(child(f5, par, ""), 0, 0, 2, 0, 0);
    CHECK_NODE(child(child(f5, par, ""), bar, ""), 0, 1, 1, 1, 1);
    CHECK_NODE(child(f5, par, ""), 1, 0, 0, 0, 0);
    CHECK_NODE(child(f5, par, "m=1"), 0, 1, 18, 18, 18);
    CHECK_NODE(child(f5, par, "m=2"), 1, 1, 18, 18, 18);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* The parameters in the file: <parameter> elements as CubeLib reads them
 * (numeric ones first, integers in full, strings escaped, the fold as the
 * string "<other>"), checked by the test-side reader of the CUBE tests. */
START_TEST(test_parameters_in_cubex)
{
    pp_region_id foo = R("foo", "function");
    pp_param_key big = K("big"), mode = K("mode"), neg = K("neg");
    pp_profile_test_set_max_parameter_values(1);
    pp_profile_enter_at(foo, 0);
    pp_profile_parameter_string(mode, "a<b&\"c\"", 7);
    pp_profile_parameter_int64(big, 4611686018427387904LL);
    pp_profile_parameter_int64(neg, -17);
    pp_profile_exit_at(foo, 10);
    pp_test_capture_begin();
    pp_profile_enter_at(foo, 20);
    pp_profile_parameter_string(mode, "z", 1); /* beyond the cap of 1 */
    pp_profile_exit_at(foo, 30);
    pp_test_capture_end();
    pp_unified *u = pp_profile_unify_at(100);

    char dir[PATH_MAX], setting[PATH_MAX + 16], path[PATH_MAX], err[256];
    cube_test_mkdtemp(dir, sizeof dir);
    snprintf(setting, sizeof setting, "%s/p.cubex", dir);
    ck_assert_int_eq(pp_profile_output_write(u, setting, path, sizeof path), 0);
    cube_test_file f;
    ck_assert_msg(cube_test_load(path, &f, err, sizeof err) == 0, "%s", err);
    /* cnodes: program, foo(mode, big, neg), foo(mode=<other>); the nodes the
     * calls passed through held nothing */
    ck_assert_int_eq(f.anchor.num_cnodes, 3);
    const char *want[3][3][3] = {
        {{NULL}},
        {{"numeric", "big", "4611686018427387904"},
         {"numeric", "neg", "-17"},
         {"string", "mode", "a<b&\"c\""}},
        {{"string", "mode", "<other>"}},
    };
    for (int c = 0; c < 3; c++) {
        const cube_test_xml *x = f.anchor.cnode[c];
        int k = 0;
        for (int i = 0; i < x->num_children; i++) {
            const cube_test_xml *p = x->children[i];
            if (strcmp(p->tag, "parameter") != 0)
                continue;
            ck_assert_int_lt(k, 3);
            ck_assert_ptr_nonnull(want[c][k][0]);
            ck_assert_str_eq(cube_test_xml_attr(p, "partype"), want[c][k][0]);
            ck_assert_str_eq(cube_test_xml_attr(p, "parkey"), want[c][k][1]);
            ck_assert_str_eq(cube_test_xml_attr(p, "parvalue"), want[c][k][2]);
            k++;
        }
        ck_assert_msg(k == 3 || want[c][k][0] == NULL, "cnode %d: %d parameters", c, k);
        if (c >= 1)
            ck_assert_int_eq(f.anchor.cnode_parent[c], 0);
    }
    /* the escaped text as written */
    const cube_test_member *a = cube_test_tar_find(&f.tar, "anchor.xml");
    char *xml = strndup((const char *)f.tar.bytes + a->offset, a->size);
    ck_assert_ptr_nonnull(strstr(xml, "<parameter partype=\"string\" parkey=\"mode\" "
                                      "parvalue=\"a&lt;b&amp;&quot;c&quot;\" />"));
    free(xml);
    cube_test_file_free(&f);
    cube_test_rmdir(dir);
    pp_unified_free(u);
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("profile_params");
    TCase *tc = tcase_create("params");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_region_split);
    tcase_add_test(tc, test_task_split_suspend_resume);
    tcase_add_test(tc, test_nested_task_tree);
    tcase_add_test(tc, test_combinations);
    tcase_add_test(tc, test_fold_at_cap);
    tcase_add_test(tc, test_teams_and_split_nodes);
    tcase_add_test(tc, test_parameters_in_cubex);
    suite_add_tcase(s, tc);
    return s;
}
