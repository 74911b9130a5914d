/* Unit tests for the profile engine: the paper's scenarios replayed as
 * synthetic event streams through the _at functions with a fake clock, and
 * the exact resulting unified trees (visits, inclusive time, min, max per
 * location) checked node by node. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pp_timer.h"
#include "profile/pp_profile.h"
#include "profile/pp_profile_test.h"
#include "test/unit/profile/engine_check.h"

/* Fig. 1 style nesting: main -> foo -> bar (twice). */
START_TEST(test_nested_enter_exit)
{
    pp_region_id foo = R("foo", "function"), bar = R("bar", "function");
    pp_profile_enter_at(foo, 10);
    pp_profile_enter_at(bar, 20);
    pp_profile_exit_at(bar, 50);
    pp_profile_enter_at(bar, 60);
    pp_profile_exit_at(bar, 70);
    pp_profile_exit_at(foo, 100);
    pp_unified *u = pp_profile_unify_at(200);
    ck_assert_ptr_nonnull(u);
    ck_assert_uint_eq(u->n_locations, 1);
    ck_assert_ptr_null(u->tasks); /* no task ran: no TASKS node */
    CHECK_NODE(u->root, 0, 1, 200, 200, 200);
    pp_unode *f = pp_unified_child(u->root, foo);
    CHECK_NODE(f, 0, 1, 90, 90, 90);
    pp_unode *b = pp_unified_child(f, bar);
    CHECK_NODE(b, 0, 2, 40, 10, 30);
    ck_assert_int_eq(pp_unified_exclusive(u, u->root, 0), 110);
    ck_assert_int_eq(pp_unified_exclusive(u, f, 0), 50);
    ck_assert_int_eq(pp_unified_exclusive(u, b, 0), 40);
    ck_assert_uint_eq(u->n_nodes, 3);
    ck_assert_int_eq(u->root->id, 0);
    ck_assert_int_eq(f->id, 1);
    ck_assert_int_eq(b->id, 2);
    pp_unified_free(u);
}
END_TEST

/* Task A enters foo and suspends at a taskwait inside it; task B (same
 * construct) runs there, also suspends inside foo while task C runs; then B
 * and A resume and complete.  Suspended time counts for neither. */
START_TEST(test_two_tasks_suspended_in_foo)
{
    pp_region_id ta = R("!$omp task @f.c:10", "task"), tc = R("!$omp task @f.c:20", "task");
    pp_region_id create = R("!$omp create task @f.c:10", "task create");
    pp_region_id foo = R("foo", "function"), tw = R("!$omp taskwait @f.c:12", "taskwait");
    pp_task_handle implicit = pp_profile_task_current();
    ck_assert_uint_ne(implicit, 0);
    pp_task_handle ha = pp_profile_task_new_handle(), hb = pp_profile_task_new_handle(),
                   hc = pp_profile_task_new_handle();

    pp_profile_enter_at(create, 10);
    pp_profile_task_begin_at(ta, ha, false, 12);
    ck_assert_uint_eq(pp_profile_task_current(), ha);
    pp_profile_enter_at(foo, 20);
    pp_profile_enter_at(tw, 30);
    pp_profile_task_begin_at(ta, hb, false, 35); /* A suspended in its taskwait */
    pp_profile_enter_at(foo, 40);
    pp_profile_enter_at(tw, 45);
    pp_profile_task_begin_at(tc, hc, false, 50); /* B suspended in its taskwait */
    pp_profile_task_end_at(tc, 60);
    pp_profile_task_switch_to_at(hb, 60);
    pp_profile_exit_at(tw, 62);
    pp_profile_exit_at(foo, 70);
    pp_profile_task_end_at(ta, 75);
    ck_assert_uint_eq(pp_profile_task_current(), implicit);
    pp_profile_task_switch_to_at(ha, 80);
    pp_profile_exit_at(tw, 82);
    pp_profile_exit_at(foo, 90);
    pp_profile_task_end_at(ta, 95);
    pp_profile_task_switch_to_at(implicit, 100);
    pp_profile_exit_at(create, 100);

    pp_unified *u = pp_profile_unify_at(200);
    ck_assert_ptr_nonnull(u);
    /* main tree: root -> create -> stubs */
    CHECK_NODE(u->root, 0, 1, 200, 200, 200);
    pp_unode *cr = pp_unified_child(u->root, create);
    CHECK_NODE(cr, 0, 1, 90, 90, 90);
    ck_assert_int_eq(count_children(cr), 2);
    /* fragments of TA: A 12-35, B 35-50, B 60-75, A 80-95 */
    CHECK_NODE(pp_unified_child(cr, ta), 0, 4, 68, 15, 23);
    CHECK_NODE(pp_unified_child(cr, tc), 0, 1, 10, 10, 10);
    ck_assert_int_eq(pp_unified_exclusive(u, cr, 0), 12);
    /* TASKS subtree: A = 83 - 45 suspended = 38, B = 40 - 10 = 30 */
    ck_assert_ptr_nonnull(u->tasks);
    ck_assert_ptr_eq(u->tasks->parent, u->root);
    ck_assert_ptr_null(u->tasks->next_sibling); /* last child of the root */
    CHECK_NODE(u->tasks, 0, 0, 78, 0, 0);
    pp_unode *mta = pp_unified_child(u->tasks, ta);
    CHECK_NODE(mta, 0, 2, 68, 30, 38);
    pp_unode *mfoo = pp_unified_child(mta, foo);
    CHECK_NODE(mfoo, 0, 2, 45, 20, 25);
    CHECK_NODE(pp_unified_child(mfoo, tw), 0, 2, 14, 7, 7);
    ck_assert_int_eq(count_children(pp_unified_child(mfoo, tw)), 0); /* no stubs in task trees */
    CHECK_NODE(pp_unified_child(u->tasks, tc), 0, 1, 10, 10, 10);
    /* the root's exclusive time excludes TASKS */
    ck_assert_int_eq(pp_unified_exclusive(u, u->root, 0), 110);
    ck_assert_uint_eq(u->max_active_tasks[0], 3);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* Two threads: the master executes a task at its creation point, the worker
 * executes another instance of the same construct in the barrier. */
START_TEST(test_task_in_barrier_vs_creation)
{
    pp_region_id par = R("!$omp parallel @f.c:1", "parallel");
    pp_region_id ta = R("!$omp task @f.c:10", "task");
    pp_region_id create = R("!$omp create task @f.c:10", "task create");
    pp_region_id bar = R("!$omp implicit barrier @f.c:30", "implicit barrier");

    pp_profile_test_use_location(0);
    pp_task_handle serial = pp_profile_task_current();
    int64_t ctx = pp_profile_fork_at(par, 2, 0);
    pp_profile_parallel_begin_at(par, ctx, 1);
    pp_task_handle h1 = pp_profile_task_new_handle(), h2 = pp_profile_task_new_handle();
    pp_task_handle old = pp_profile_task_current();
    ck_assert_uint_ne(old, serial); /* the team's implicit task has its own handle */
    pp_profile_enter_at(create, 10);
    pp_profile_task_begin_at(ta, h1, false, 11);
    pp_profile_task_end_at(ta, 20);
    pp_profile_task_switch_to_at(old, 21);
    pp_profile_exit_at(create, 21);
    pp_profile_enter_at(create, 30);
    pp_profile_task_switch_to_at(old, 31);
    pp_profile_exit_at(create, 31);
    pp_profile_enter_at(bar, 40);
    pp_profile_task_switch_to_at(old, 60);
    pp_profile_exit_at(bar, 60);
    pp_profile_parallel_end_at(par, 61);
    pp_profile_join_at(par, serial, 62);
    ck_assert_uint_eq(pp_profile_task_current(), serial);

    pp_profile_test_use_location(1);
    pp_profile_parallel_begin_at(par, ctx, 2);
    pp_task_handle wold = pp_profile_task_current();
    pp_profile_enter_at(bar, 5);
    pp_profile_task_begin_at(ta, h2, false, 35);
    pp_profile_task_end_at(ta, 55);
    pp_profile_task_switch_to_at(wold, 60);
    pp_profile_exit_at(bar, 60);
    pp_profile_parallel_end_at(par, 61);

    pp_unified *u = pp_profile_unify_at(100);
    ck_assert_uint_eq(u->n_locations, 2);
    CHECK_NODE(u->root, 0, 1, 100, 100, 100);
    CHECK_NODE(u->root, 1, 0, 59, 0, 0); /* copied fork path: visits 0, time of the worker tree */
    pp_unode *p = pp_unified_child(u->root, par);
    CHECK_NODE(p, 0, 1, 60, 60, 60);
    CHECK_NODE(p, 1, 1, 59, 59, 59);
    pp_unode *cr = pp_unified_child(p, create);
    CHECK_NODE(cr, 0, 2, 12, 1, 11);
    CHECK_NODE(cr, 1, 0, 0, 0, 0);
    CHECK_NODE(pp_unified_child(cr, ta), 0, 1, 9, 9, 9); /* stub at creation */
    pp_unode *b = pp_unified_child(p, bar);
    CHECK_NODE(b, 0, 1, 20, 20, 20);
    CHECK_NODE(b, 1, 1, 55, 55, 55);
    pp_unode *stub = pp_unified_child(b, ta);
    CHECK_NODE(stub, 1, 1, 20, 20, 20); /* stub in the barrier */
    CHECK_NODE(stub, 0, 0, 0, 0, 0);
    pp_unode *mta = pp_unified_child(u->tasks, ta);
    CHECK_NODE(mta, 0, 1, 9, 9, 9);
    CHECK_NODE(mta, 1, 1, 20, 20, 20);
    CHECK_NODE(u->tasks, 1, 0, 20, 0, 0);
    ck_assert_int_eq(pp_unified_exclusive(u, u->root, 1), 0);
    ck_assert_uint_eq(u->max_active_tasks[0], 1);
    ck_assert_uint_eq(u->max_active_tasks[1], 1);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* Task A suspends at a taskwait while a second instance of the same
 * construct runs and completes: the merged tree holds both. */
START_TEST(test_second_instance_during_taskwait)
{
    pp_region_id ta = R("!$omp task @f.c:10", "task");
    pp_region_id bar = R("!$omp barrier @f.c:30", "barrier");
    pp_region_id tw = R("!$omp taskwait @f.c:12", "taskwait");
    pp_task_handle ha = pp_profile_task_new_handle(), hb = pp_profile_task_new_handle();
    pp_task_handle implicit = pp_profile_task_current();
    pp_profile_enter_at(bar, 5);
    pp_profile_task_begin_at(ta, ha, false, 10);
    pp_profile_enter_at(tw, 20);
    pp_task_handle old = pp_profile_task_current();
    ck_assert_uint_eq(old, ha);
    pp_profile_task_begin_at(ta, hb, false, 25);
    pp_profile_task_end_at(ta, 40);
    pp_profile_task_switch_to_at(old, 45);
    pp_profile_exit_at(tw, 50);
    pp_profile_task_end_at(ta, 60);
    pp_profile_task_switch_to_at(implicit, 70);
    pp_profile_exit_at(bar, 70);

    pp_unified *u = pp_profile_unify_at(100);
    pp_unode *b = pp_unified_child(u->root, bar);
    CHECK_NODE(b, 0, 1, 65, 65, 65);
    CHECK_NODE(pp_unified_child(b, ta), 0, 3, 45, 15, 15);
    pp_unode *m = pp_unified_child(u->tasks, ta);
    CHECK_NODE(m, 0, 2, 45, 15, 30);
    CHECK_NODE(pp_unified_child(m, tw), 0, 1, 10, 10, 10);
    ck_assert_uint_eq(u->max_active_tasks[0], 2);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* Instance trees are reused per construct: a later instance that visits
 * fewer regions, or new ones in another order, must give exactly what
 * separate trees would (values, and merged children in first-merge order). */
START_TEST(test_reused_instance_trees)
{
    pp_region_id ta = R("!$omp task @f.c:10", "task");
    pp_region_id a = R("a", "function"), b = R("b", "function"), c = R("c", "function");
    pp_profile_task_begin_at(ta, pp_profile_task_new_handle(), false, 0);
    pp_profile_enter_at(a, 1);
    pp_profile_exit_at(a, 4); /* a: 3 */
    pp_profile_task_end_at(ta, 5);
    pp_profile_task_begin_at(ta, pp_profile_task_new_handle(), false, 10); /* visits nothing */
    pp_profile_task_end_at(ta, 12);
    pp_profile_task_begin_at(ta, pp_profile_task_new_handle(), false, 20);
    pp_profile_enter_at(c, 21);
    pp_profile_exit_at(c, 22); /* c: 1, new */
    pp_profile_enter_at(b, 23);
    pp_profile_enter_at(a, 24);
    pp_profile_exit_at(a, 31); /* b->a: 7, new */
    pp_profile_exit_at(b, 33); /* b: 10, new */
    pp_profile_enter_at(a, 34);
    pp_profile_exit_at(a, 35); /* a: 1 */
    pp_profile_task_end_at(ta, 40);

    pp_unified *u = pp_profile_unify_at(100);
    pp_unode *m = pp_unified_child(u->tasks, ta);
    CHECK_NODE(m, 0, 3, 27, 2, 20);
    ck_assert_int_eq(count_children(m), 3);
    CHECK_NODE(m->first_child, 0, 2, 4, 1, 3);
    ck_assert_uint_eq(m->first_child->region, a);
    ck_assert_uint_eq(m->first_child->next_sibling->region, c);
    ck_assert_uint_eq(m->first_child->next_sibling->next_sibling->region, b);
    CHECK_NODE(pp_unified_child(m, c), 0, 1, 1, 1, 1);
    pp_unode *mb = pp_unified_child(m, b);
    CHECK_NODE(mb, 0, 1, 10, 10, 10);
    CHECK_NODE(pp_unified_child(mb, a), 0, 1, 7, 7, 7);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* Instances that add no node to their kept tree leave their values there
 * until a later instance grows the tree or the profile is unified: every
 * value must still arrive exactly once, min/max over all instances, and the
 * merged children keep the order of their first visit. */
START_TEST(test_deferred_instance_values)
{
    pp_region_id ta = R("!$omp task @f.c:20", "task");
    pp_region_id a = R("a", "function"), b = R("b", "function");
    pp_task_handle h[8];
    for (int i = 0; i < 8; i++)
        h[i] = pp_profile_task_new_handle();
    pp_profile_task_begin_at(ta, h[0], false, 0);
    pp_profile_enter_at(a, 1);
    pp_profile_exit_at(a, 3); /* a: 2 */
    pp_profile_task_end_at(ta, 10);
    pp_profile_task_begin_at(ta, h[1], false, 20);
    pp_profile_enter_at(a, 21);
    pp_profile_exit_at(a, 22); /* a: 1 */
    pp_profile_task_end_at(ta, 25);
    pp_profile_task_begin_at(ta, h[2], false, 30);
    pp_profile_enter_at(a, 31);
    pp_profile_exit_at(a, 34); /* a: 3 */
    pp_profile_task_end_at(ta, 40);
    pp_profile_task_begin_at(ta, h[3], false, 50); /* grows the tree: b */
    pp_profile_enter_at(b, 51);
    pp_profile_exit_at(b, 57); /* b: 6 */
    pp_profile_task_end_at(ta, 60);
    pp_profile_task_begin_at(ta, h[4], false, 70); /* visits nothing */
    pp_profile_task_end_at(ta, 72);
    pp_profile_task_begin_at(ta, h[5], false, 80);
    pp_profile_enter_at(a, 81);
    pp_profile_exit_at(a, 89); /* a: 8 */
    pp_profile_task_end_at(ta, 90);
    /* two trees at once: h6 suspended in a while h7 runs (a fresh tree) */
    pp_profile_task_begin_at(ta, h[6], false, 100);
    pp_profile_enter_at(a, 101);
    pp_profile_task_begin_at(ta, h[7], false, 102);
    pp_profile_task_end_at(ta, 105); /* h7: 3 */
    pp_profile_task_switch_to_at(h[6], 106);
    pp_profile_exit_at(a, 108);      /* a: 7 - 4 suspended = 3 */
    pp_profile_task_end_at(ta, 120); /* h6: 20 - 4 = 16 */

    pp_unified *u = pp_profile_unify_at(200);
    pp_unode *m = pp_unified_child(u->tasks, ta);
    CHECK_NODE(m, 0, 8, 10 + 5 + 10 + 10 + 2 + 10 + 3 + 16, 2, 16);
    ck_assert_int_eq(count_children(m), 2);
    ck_assert_uint_eq(m->first_child->region, a);
    ck_assert_uint_eq(m->first_child->next_sibling->region, b);
    CHECK_NODE(pp_unified_child(m, a), 0, 5, 2 + 1 + 3 + 8 + 3, 1, 8);
    CHECK_NODE(pp_unified_child(m, b), 0, 1, 6, 6, 6);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* switch_exit ends a scheduling point with one clock read: the switch back
 * and the exit share the timestamp, so the resumed task's taskwait lasts
 * exactly its unsuspended part (its clock skips the suspended interval up
 * to the very instant of the exit). */
START_TEST(test_switch_exit_one_timestamp)
{
    pp_region_id ta = R("!$omp task @f.c:10", "task"), tb = R("!$omp task @f.c:11", "task");
    pp_region_id tw = R("!$omp taskwait @f.c:12", "taskwait");
    pp_task_handle ha = pp_profile_task_new_handle();
    pp_profile_task_begin_at(ta, ha, false, 10);
    pp_profile_enter_at(tw, 20);
    pp_profile_task_begin_at(tb, pp_profile_task_new_handle(), false, 30); /* suspends ha */
    pp_profile_task_end_at(tb, 40);
    pp_profile_switch_exit(ha, tw); /* real clock */
    ck_assert_uint_eq(pp_profile_task_current(), ha);
    pp_unified *u = pp_profile_unify_at(~0ull >> 2);
    pp_unode *m = pp_unified_child(u->tasks, ta);
    CHECK_NODE(pp_unified_child(m, tw), 0, 1, 10, 10, 10);
    CHECK_NODE(pp_unified_child(u->tasks, tb), 0, 1, 10, 10, 10);
    pp_unified_free(u);
}
END_TEST

/* A task suspended in a taskwait resumes under another scheduling point:
 * its later fragment's stub is under the barrier. */
START_TEST(test_resume_under_other_scheduling_point)
{
    pp_region_id ta = R("!$omp task @f.c:10", "task");
    pp_region_id create = R("!$omp create task @f.c:10", "task create");
    pp_region_id bar = R("!$omp barrier @f.c:30", "barrier");
    pp_region_id tw = R("!$omp taskwait @f.c:12", "taskwait");
    pp_task_handle implicit = pp_profile_task_current();
    pp_task_handle ha = pp_profile_task_new_handle();
    pp_profile_enter_at(create, 10);
    pp_profile_task_begin_at(ta, ha, true, 11);
    pp_profile_enter_at(tw, 20);
    pp_profile_task_switch_to_at(implicit, 25);
    pp_profile_exit_at(create, 26);
    pp_profile_enter_at(bar, 30);
    pp_profile_task_switch_to_at(ha, 40);
    pp_profile_exit_at(tw, 45);
    pp_profile_task_end_at(ta, 50);
    pp_profile_task_switch_to_at(implicit, 60);
    pp_profile_exit_at(bar, 60);

    pp_unified *u = pp_profile_unify_at(100);
    pp_unode *cr = pp_unified_child(u->root, create);
    CHECK_NODE(pp_unified_child(cr, ta), 0, 1, 14, 14, 14);
    pp_unode *b = pp_unified_child(u->root, bar);
    CHECK_NODE(b, 0, 1, 30, 30, 30);
    CHECK_NODE(pp_unified_child(b, ta), 0, 1, 10, 10, 10);
    pp_unode *m = pp_unified_child(u->tasks, ta);
    CHECK_NODE(m, 0, 1, 24, 24, 24);
    CHECK_NODE(pp_unified_child(m, tw), 0, 1, 10, 10, 10);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* Nested parallel regions: a worker of the inner team hangs below
 * root -> outer parallel -> foo -> inner parallel. */
START_TEST(test_nested_parallel)
{
    pp_region_id p1 = R("!$omp parallel @f.c:1", "parallel");
    pp_region_id p2 = R("!$omp parallel @f.c:5", "parallel");
    pp_region_id foo = R("foo", "function"), bar = R("bar", "function");

    pp_profile_test_use_location(0);
    pp_task_handle serial = pp_profile_task_current();
    int64_t c1 = pp_profile_fork_at(p1, 2, 0);
    pp_profile_parallel_begin_at(p1, c1, 1);
    pp_task_handle i1 = pp_profile_task_current();
    pp_profile_enter_at(foo, 2);
    int64_t c2 = pp_profile_fork_at(p2, 2, 3);
    ck_assert_int_ne(c1, c2);
    pp_profile_parallel_begin_at(p2, c2, 4);

    pp_profile_test_use_location(1);
    pp_profile_parallel_begin_at(p1, c1, 1);
    pp_profile_enter_at(foo, 2);
    pp_profile_exit_at(foo, 50);
    pp_profile_parallel_end_at(p1, 60);

    pp_profile_test_use_location(2);
    pp_profile_parallel_begin_at(p2, c2, 10);
    pp_profile_enter_at(bar, 11);
    pp_profile_exit_at(bar, 21);
    pp_profile_parallel_end_at(p2, 30);

    pp_profile_test_use_location(0);
    pp_profile_parallel_end_at(p2, 40);
    pp_profile_join_at(p2, i1, 41);
    pp_profile_exit_at(foo, 45);
    pp_profile_parallel_end_at(p1, 60);
    pp_profile_join_at(p1, serial, 61);

    pp_unified *u = pp_profile_unify_at(100);
    ck_assert_uint_eq(u->n_locations, 3);
    pp_unode *n1 = pp_unified_child(u->root, p1);
    pp_unode *nf = pp_unified_child(n1, foo);
    pp_unode *n2 = pp_unified_child(nf, p2);
    pp_unode *nb = pp_unified_child(n2, bar);
    ck_assert_int_eq(count_children(u->root), 1);
    CHECK_NODE(u->root, 2, 0, 20, 0, 0);
    CHECK_NODE(n1, 2, 0, 20, 0, 0);
    CHECK_NODE(nf, 2, 0, 20, 0, 0);
    CHECK_NODE(n2, 2, 1, 20, 20, 20);
    CHECK_NODE(nb, 2, 1, 10, 10, 10);
    CHECK_NODE(n2, 0, 1, 36, 36, 36);
    CHECK_NODE(nf, 0, 1, 43, 43, 43);
    CHECK_NODE(nf, 1, 1, 48, 48, 48);
    CHECK_NODE(n1, 1, 1, 59, 59, 59);
    CHECK_NODE(u->root, 1, 0, 59, 0, 0);
    CHECK_NODE(nb, 0, 0, 0, 0, 0);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* A fork inside an explicit task: the worker's tree lands below
 * TASKS -> task -> foo -> parallel even though the task's nodes were
 * recycled (and reused by a later instance) before unification. */
START_TEST(test_fork_inside_task)
{
    pp_region_id par = R("!$omp parallel @f.c:3", "parallel");
    pp_region_id ta = R("!$omp task @f.c:10", "task"), tb = R("!$omp task @f.c:20", "task");
    pp_region_id foo = R("foo", "function"), bar = R("bar", "function"), baz = R("baz", "function");
    pp_task_handle ha = pp_profile_task_new_handle();

    pp_profile_test_use_location(0);
    pp_profile_task_begin_at(ta, ha, false, 10);
    pp_profile_enter_at(foo, 11);
    int64_t ctx = pp_profile_fork_at(par, 2, 12);
    pp_profile_parallel_begin_at(par, ctx, 13);
    pp_profile_parallel_end_at(par, 30);
    pp_profile_join_at(par, ha, 31);
    ck_assert_uint_eq(pp_profile_task_current(), ha);
    pp_profile_exit_at(foo, 32);
    pp_profile_task_end_at(ta, 40);
    /* recycled nodes get reused by another construct's instance */
    for (int i = 0; i < 3; i++) {
        pp_profile_task_begin_at(tb, pp_profile_task_new_handle(), false, 41 + 4 * i);
        pp_profile_enter_at(baz, 42 + 4 * i);
        pp_profile_enter_at(foo, 42 + 4 * i);
        pp_profile_exit_at(foo, 43 + 4 * i);
        pp_profile_exit_at(baz, 43 + 4 * i);
        pp_profile_task_end_at(tb, 44 + 4 * i);
    }

    pp_profile_test_use_location(1);
    pp_profile_parallel_begin_at(par, ctx, 14);
    pp_profile_enter_at(bar, 15);
    pp_profile_exit_at(bar, 25);
    pp_profile_parallel_end_at(par, 26);

    pp_unified *u = pp_profile_unify_at(100);
    pp_unode *m = pp_unified_child(u->tasks, ta);
    pp_unode *mf = pp_unified_child(m, foo);
    pp_unode *mp = pp_unified_child(mf, par);
    CHECK_NODE(m, 0, 1, 30, 30, 30);
    CHECK_NODE(mf, 0, 1, 21, 21, 21);
    CHECK_NODE(mp, 0, 1, 17, 17, 17);
    CHECK_NODE(mp, 1, 1, 12, 12, 12);
    CHECK_NODE(pp_unified_child(mp, bar), 1, 1, 10, 10, 10);
    CHECK_NODE(mf, 1, 0, 12, 0, 0);
    CHECK_NODE(m, 1, 0, 12, 0, 0);
    CHECK_NODE(u->tasks, 1, 0, 12, 0, 0);
    CHECK_NODE(u->root, 1, 0, 0, 0, 0); /* TASKS never counts into the root */
    ck_assert_ptr_null(pp_unified_child(u->root, par));
    pp_unode *mb = pp_unified_child(u->tasks, tb);
    CHECK_NODE(mb, 0, 3, 9, 3, 3);
    CHECK_NODE(pp_unified_child(pp_unified_child(mb, baz), foo), 0, 3, 3, 1, 1);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* Regions open at the end are closed at the finalize timestamp, also inside
 * suspended tasks (whose clock stopped when they were suspended). */
START_TEST(test_close_open_regions_at_end)
{
    pp_region_id par = R("!$omp parallel @f.c:1", "parallel");
    pp_region_id ta = R("!$omp task @f.c:10", "task"), foo = R("foo", "function");
    pp_region_id tw = R("!$omp taskwait @f.c:12", "taskwait");
    int64_t ctx = pp_profile_fork_at(par, 1, 0);
    pp_profile_parallel_begin_at(par, ctx, 10);
    pp_profile_enter_at(foo, 20);
    pp_profile_task_begin_at(ta, pp_profile_task_new_handle(), false, 30);
    pp_profile_enter_at(tw, 35);
    pp_profile_task_begin_at(ta, pp_profile_task_new_handle(), false, 40); /* first one suspended */
    pp_unified *u = pp_profile_unify_at(100);
    pp_unode *p = pp_unified_child(u->root, par);
    CHECK_NODE(p, 0, 1, 90, 90, 90);
    pp_unode *f = pp_unified_child(p, foo);
    CHECK_NODE(f, 0, 1, 80, 80, 80);
    CHECK_NODE(pp_unified_child(f, ta), 0, 2, 70, 10, 60);
    pp_unode *m = pp_unified_child(u->tasks, ta);
    CHECK_NODE(m, 0, 2, 70, 10, 60);
    CHECK_NODE(pp_unified_child(m, tw), 0, 1, 5, 5, 5);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* ---- randomized stream: never a negative exclusive time ------------------- */

typedef struct model_task {
    pp_task_handle h;
    pp_region_id region;
    int depth; /* open regions */
    pp_region_id stack[8];
} model_task;

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

START_TEST(test_random_streams_no_negative)
{
    pp_region_id regs[4] = {R("a", "function"), R("b", "function"), R("c", "function"),
                            R("!$omp taskwait @f.c:1", "taskwait")};
    pp_region_id tasks[2] = {R("!$omp task @f.c:1", "task"), R("!$omp task @f.c:2", "task")};
    pp_region_id par = R("!$omp parallel @f.c:9", "parallel");
    rng_state = 12345 + (uint64_t)_i;
    uint64_t now = 1;
    int64_t ctx = pp_profile_fork_at(par, 3, now);
    for (uint32_t loc = 0; loc < 3; loc++) {
        pp_profile_test_use_location(loc);
        pp_profile_parallel_begin_at(par, ctx, now);
        model_task implicit = {.h = pp_profile_task_current()};
        model_task active[16];
        int n_active = 0;
        model_task *cur = &implicit;
        for (int step = 0; step < 20000; step++) {
            now += rnd(5);
            uint32_t op = rnd(10);
            if (op < 3 && cur->depth < 8) {
                pp_region_id r = regs[rnd(4)];
                pp_profile_enter_at(r, now);
                cur->stack[cur->depth++] = r;
            } else if (op < 6 && cur->depth > 0) {
                pp_profile_exit_at(cur->stack[--cur->depth], now);
            } else if (op < 8 && n_active < 16) {
                model_task *t = &active[n_active++];
                *t = (model_task){.h = pp_profile_task_new_handle(), .region = tasks[rnd(2)]};
                pp_profile_task_begin_at(t->region, t->h, false, now);
                cur = t;
            } else if (op == 8 && cur != &implicit && cur->depth == 0) {
                pp_profile_task_end_at(cur->region, now);
                *cur = active[--n_active];
                cur = &implicit;
            } else if (op == 9) {
                int k = (int)rnd((uint32_t)n_active + 1);
                model_task *t = k == n_active ? &implicit : &active[k];
                pp_profile_task_switch_to_at(t->h, now);
                cur = t;
            }
            ck_assert_uint_eq(pp_profile_task_current(), cur->h);
        }
    }
    pp_unified *u = pp_profile_unify_at(now + 1);
    ck_assert_ptr_nonnull(u);
    check_no_negative(u);
    ck_assert_ptr_nonnull(u->tasks);
    pp_unified_free(u);
}
END_TEST

/* ---- memory, handles, limits --------------------------------------------------- */

static void run_instances(pp_region_id ta, pp_region_id tw, pp_region_id foo, long n)
{
    static uint64_t now = 1;
    for (long i = 0; i < n; i++) {
        pp_task_handle outer = pp_profile_task_new_handle();
        pp_profile_task_begin_at(ta, outer, false, now++);
        pp_profile_enter_at(foo, now++);
        pp_profile_enter_at(tw, now++);
        pp_profile_task_begin_at(ta, pp_profile_task_new_handle(), false, now++);
        pp_profile_enter_at(foo, now++);
        pp_profile_exit_at(foo, now++);
        pp_profile_task_end_at(ta, now++);
        pp_profile_task_switch_to_at(outer, now++);
        pp_profile_exit_at(tw, now++);
        pp_profile_exit_at(foo, now++);
        pp_profile_task_end_at(ta, now++);
    }
}

START_TEST(test_memory_bounded)
{
    pp_region_id ta = R("!$omp task @f.c:1", "task"), tw = R("!$omp taskwait @f.c:2", "taskwait");
    pp_region_id foo = R("foo", "function");
    run_instances(ta, tw, foo, 500); /* 1000 instances */
    size_t after_1k = pp_profile_test_arena_bytes(0);
    run_instances(ta, tw, foo, 499500); /* 1,000,000 instances in total */
    ck_assert_uint_eq(pp_profile_test_arena_bytes(0), after_1k);
    pp_unified *u = pp_profile_unify_at(1ull << 40);
    ck_assert_uint_eq(pp_unified_child(u->tasks, ta)->visits[0], 1000000);
    ck_assert_uint_eq(u->max_active_tasks[0], 2);
    pp_unified_free(u);
}
END_TEST

#define HANDLE_THREADS 4
#define HANDLES_PER_THREAD 100000
static pp_task_handle handles[HANDLE_THREADS * HANDLES_PER_THREAD];

static void *handle_thread(void *arg)
{
    pp_task_handle *out = arg;
    for (int i = 0; i < HANDLES_PER_THREAD; i++)
        out[i] = pp_profile_task_new_handle();
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

START_TEST(test_handles_unique_across_threads)
{
    pthread_t th[HANDLE_THREADS];
    for (int t = 0; t < HANDLE_THREADS; t++)
        ck_assert_int_eq(pthread_create(&th[t], NULL, handle_thread, handles + t * HANDLES_PER_THREAD), 0);
    for (int t = 0; t < HANDLE_THREADS; t++)
        pthread_join(th[t], NULL);
    size_t n = HANDLE_THREADS * HANDLES_PER_THREAD;
    qsort(handles, n, sizeof handles[0], cmp_u64);
    ck_assert_uint_ne(handles[0], 0);
    for (size_t i = 1; i < n; i++)
        ck_assert_msg(handles[i] != handles[i - 1], "duplicate handle %#llx",
                      (unsigned long long)handles[i]);
    /* each real thread got its own location */
    pp_unified *u = pp_profile_unify_at(10);
    ck_assert_uint_eq(u->n_locations, 1 + HANDLE_THREADS);
    pp_unified_free(u);
}
END_TEST

START_TEST(test_max_depth_folds)
{
    pp_region_id a = R("a", "function"), b = R("b", "function"), c = R("c", "function");
    pp_profile_test_set_limits(2, 0);
    pp_profile_enter_at(a, 10);
    pp_profile_enter_at(b, 20);
    pp_profile_enter_at(c, 30); /* depth 3: folded into b */
    pp_profile_enter_at(a, 35); /* deeper still: folded */
    pp_profile_exit_at(a, 36);
    pp_profile_exit_at(c, 40);
    pp_profile_exit_at(b, 50);
    pp_profile_exit_at(a, 60);
    ck_assert_uint_eq(pp_profile_test_lost(0), 1); /* counted where the folding starts */
    pp_unified *u = pp_profile_unify_at(100);
    pp_unode *na = pp_unified_child(u->root, a), *nb = pp_unified_child(na, b);
    CHECK_NODE(na, 0, 1, 50, 50, 50);
    CHECK_NODE(nb, 0, 1, 30, 30, 30);
    ck_assert_ptr_null(nb->first_child);
    pp_unified_free(u);
}
END_TEST

START_TEST(test_memory_limit_folds)
{
    pp_region_id top = R("top", "function");
    pp_region_id many[3000];
    char name[32];
    for (int i = 0; i < 3000; i++) {
        snprintf(name, sizeof name, "r%d", i);
        many[i] = R(name, "function");
    }
    pp_profile_test_set_limits(0, pp_profile_test_arena_bytes(0) + 1);
    pp_profile_enter_at(top, 1);
    for (int i = 0; i < 3000; i++) {
        pp_profile_enter_at(many[i], 2 + 2 * (uint64_t)i);
        pp_profile_exit_at(many[i], 3 + 2 * (uint64_t)i);
    }
    pp_profile_exit_at(top, 10001);
    ck_assert_uint_gt(pp_profile_test_lost(1), 0);
    pp_unified *u = pp_profile_unify_at(20000);
    pp_unode *t = pp_unified_child(u->root, top);
    CHECK_NODE(t, 0, 1, 10000, 10000, 10000);
    ck_assert_int_lt(count_children(t), 3000);
    ck_assert_int_gt(count_children(t), 10);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

START_TEST(test_disabled_records_nothing)
{
    pp_region_id a = R("a", "function");
    pp_profile_set_enabled(false);
    pp_profile_enter_at(a, 10);
    pp_profile_exit_at(a, 20);
    pp_profile_set_enabled(true);
    pp_profile_enter_at(a, 30);
    pp_profile_exit_at(a, 35);
    pp_unified *u = pp_profile_unify_at(100);
    CHECK_NODE(pp_unified_child(u->root, a), 0, 1, 5, 5, 5);
    pp_unified_free(u);
}
END_TEST

START_TEST(test_enable_0_no_profile)
{
    pp_profile_test_reset();
    setenv("POMPPROF_ENABLE", "0", 1);
    pp_profile_test_start_at(0);
    pp_region_id a = R("a", "function");
    pp_profile_enter_at(a, 10);
    pp_profile_exit_at(a, 20);
    ck_assert_ptr_null(pp_profile_unify_at(100));
    ck_assert_uint_ne(pp_profile_task_new_handle(), 0);
}
END_TEST

/* The adapter's calls for fib without cut-off, tasks deferred to the
 * taskwait (libgomp on one thread), through the public events with the real
 * clock: the one-call creation and scheduling-point starts, and the fast
 * paths of a location that neither traces nor counts.  The counts of the
 * model recursion below are what the tree must hold. */
typedef struct fib_regions {
    pp_region_id task[2], create[2], taskwait;
} fib_regions;

typedef struct fib_counts {
    uint64_t instances[2], inner[2], fragments[2];
} fib_counts;

/* A fresh engine on the real clock, and the regions of fib. */
static fib_regions fib_start(void)
{
    pp_profile_test_reset();
    pp_timer_init(PP_TIMER_AUTO);
    pp_profile_test_start_at(pp_timer_now());
    return (fib_regions){{R("!$omp task @f.c:3", "task"), R("!$omp task @f.c:5", "task")},
                         {R("!$omp create task @f.c:3", "task create"),
                          R("!$omp create task @f.c:5", "task create")},
                         R("!$omp taskwait @f.c:7", "taskwait")};
}

/* kind: the construct of the task running this call (-1: the implicit
 * task), me: its handle. */
static void fib_events(const fib_regions *r, int n, int kind, pp_task_handle me, fib_counts *k)
{
    if (n < 2)
        return;
    pp_task_handle h[2], cur;
    for (int i = 0; i < 2; i++) {
        pp_profile_task_create_begin(r->create[i], &h[i], &cur);
        ck_assert_uint_eq(cur, me);
        ck_assert_uint_ne(h[i], 0);
        ck_assert_uint_ne(h[i], me);
        pp_profile_switch_exit(cur, r->create[i]);
    }
    ck_assert_uint_ne(h[0], h[1]);
    pp_profile_scheduling_enter(r->taskwait, &cur);
    ck_assert_uint_eq(cur, me);
    for (int i = 0; i < 2; i++) {
        pp_profile_task_begin(r->task[i], h[i], false);
        ck_assert_uint_eq(pp_profile_task_current(), h[i]);
        k->instances[i]++;
        k->fragments[i]++;
        fib_events(r, n - 1 - i, i, h[i], k);
        pp_profile_task_end(r->task[i]);
    }
    pp_profile_switch_exit(cur, r->taskwait);
    ck_assert_uint_eq(pp_profile_task_current(), me);
    if (kind >= 0) {
        k->inner[kind]++;     /* creations and taskwait inside its tree */
        k->fragments[kind]++; /* resumed after its taskwait */
    }
}

START_TEST(test_fast_path_fib)
{
    fib_regions r = fib_start();
    fib_counts k = {{0, 0}, {0, 0}, {0, 0}};
    fib_events(&r, 12, -1, pp_profile_task_current(), &k);
    ck_assert_uint_eq(k.instances[0] + k.instances[1], 2 * 233 - 2); /* 2 F(13) - 2 */
    pp_unified *u = pp_profile_unify_at(pp_timer_now());
    ck_assert_ptr_nonnull(u);
    check_no_negative(u);
    /* the implicit task's tree: its creations, its taskwait and the stubs
     * below it, one visit per fragment */
    for (int i = 0; i < 2; i++)
        ck_assert_uint_eq(pp_unified_child(u->root, r.create[i])->visits[0], 1);
    pp_unode *tw = pp_unified_child(u->root, r.taskwait);
    ck_assert_uint_eq(tw->visits[0], 1);
    ck_assert_int_eq(count_children(tw), 2);
    for (int i = 0; i < 2; i++)
        ck_assert_uint_eq(pp_unified_child(tw, r.task[i])->visits[0], k.fragments[i]);
    /* the merged task trees: instances, and below them what the instances
     * with children did */
    ck_assert_ptr_nonnull(u->tasks);
    ck_assert_int_eq(count_children(u->tasks), 2);
    for (int i = 0; i < 2; i++) {
        pp_unode *m = pp_unified_child(u->tasks, r.task[i]);
        ck_assert_uint_eq(m->visits[0], k.instances[i]);
        ck_assert_int_eq(count_children(m), 3);
        ck_assert_uint_eq(pp_unified_child(m, r.create[0])->visits[0], k.inner[i]);
        ck_assert_uint_eq(pp_unified_child(m, r.create[1])->visits[0], k.inner[i]);
        ck_assert_uint_eq(pp_unified_child(m, r.taskwait)->visits[0], k.inner[i]);
        ck_assert_int_eq(count_children(pp_unified_child(m, r.taskwait)), 0);
    }
    pp_unified_free(u);
}
END_TEST

/* The events of an event source that reports a task's creation, begin and
 * end as separate events and holds the first half back (the OMPT layer):
 * fib without cut-off, every task undeferred (libomp on one thread: it runs
 * inside its creation), then every task deferred and run at the taskwait
 * (its creation of no duration, or held back as the libgomp interposer
 * does).  FIB_HELD holds the begin back too, as the OMPT layer does now: a
 * leaf task is one event (task_create_run_end), the others' creation and
 * begin one at the begin's time (task_create_run_at); and deferred, as the
 * libgomp interposer does: a leaf task is one event (task_run), another
 * task's begin goes with its first creation (task_begin_create_visit).
 * Each combined event must give the tree its separate events give. */
typedef enum { FIB_SEPARATE, FIB_COMBINED, FIB_HELD } fib_form;

static void fib_undeferred(const fib_regions *r, int n, pp_task_handle me, fib_form form)
{
    if (n < 2)
        return;
    for (int i = 0; i < 2; i++) {
        pp_task_handle h = pp_profile_task_new_handle();
        if (form == FIB_HELD) {
            uint64_t created = pp_timer_now(), begun = pp_timer_now();
            if (n - 1 - i < 2) { /* a leaf: nothing happens inside it */
                pp_profile_task_create_run_end(r->create[i], h, created, begun, r->task[i], me);
                continue;
            }
            pp_profile_task_create_run_at(r->create[i], h, created, r->task[i], begun);
        } else if (form == FIB_COMBINED) {
            pp_profile_task_create_run(r->create[i], h, pp_timer_now(), r->task[i]);
        } else {
            pp_profile_task_create_enter(r->create[i], h);
            pp_profile_task_begin(r->task[i], h, false);
        }
        fib_undeferred(r, n - 1 - i, h, form);
        if (form != FIB_SEPARATE) {
            pp_profile_task_end_resume(r->task[i], me, r->create[i]);
        } else {
            pp_profile_task_end(r->task[i]);
            pp_profile_switch_exit(me, r->create[i]);
        }
    }
    if (form != FIB_SEPARATE) {
        pp_profile_scheduling_visit(r->taskwait, pp_timer_now(), me);
    } else {
        pp_profile_scheduling_enter(r->taskwait, NULL);
        pp_profile_switch_exit(me, r->taskwait);
    }
}

/* held: FIB_HELD's task region whose begin at `begun` the first creation
 * records (PP_REGION_INVALID: none held). */
static void fib_deferred(const fib_regions *r, int n, pp_task_handle me, fib_form form,
                         pp_region_id held, uint64_t begun)
{
    if (n < 2)
        return;
    pp_task_handle h[2];
    for (int i = 0; i < 2; i++) {
        h[i] = pp_profile_task_new_handle();
        if (form == FIB_HELD && i == 0 && held != PP_REGION_INVALID) {
            pp_profile_task_begin_create_visit(held, me, begun, r->create[i], h[i],
                                               pp_timer_now());
        } else if (form != FIB_SEPARATE && i == 0) {
            pp_profile_task_create_point(r->create[i], h[i]);
        } else if (form != FIB_SEPARATE) { /* a held creation (the libgomp interposer) */
            pp_profile_task_create_visit(r->create[i], h[i], pp_timer_now());
        } else {
            pp_profile_task_create_enter(r->create[i], h[i]);
            pp_profile_exit(r->create[i]);
        }
    }
    pp_profile_scheduling_enter(r->taskwait, NULL);
    for (int i = 0; i < 2; i++) {
        if (form == FIB_HELD) {
            uint64_t at = pp_timer_now();
            if (n - 1 - i < 2) { /* a leaf: nothing happens inside it */
                pp_profile_task_run(r->task[i], h[i], at);
                pp_profile_task_switch_to(me);
                continue;
            }
            fib_deferred(r, n - 1 - i, h[i], form, r->task[i], at);
            pp_profile_task_end_resume(r->task[i], me, PP_REGION_INVALID);
            continue;
        }
        pp_profile_task_begin(r->task[i], h[i], false);
        fib_deferred(r, n - 1 - i, h[i], form, PP_REGION_INVALID, 0);
        if (form != FIB_SEPARATE) {
            pp_profile_task_end_resume(r->task[i], me, PP_REGION_INVALID);
        } else {
            pp_profile_task_end(r->task[i]);
            pp_profile_task_switch_to(me);
        }
    }
    pp_profile_switch_exit(me, r->taskwait);
}

/* The unified tree of one form of one stream: region and visits of every
 * node in pre-order, into out (n nodes). */
static int fib_tree(fib_form form, int deferred, pp_region_id *regions, uint64_t *visits, int max,
                    uint64_t *instances)
{
    fib_regions r = fib_start();
    if (deferred)
        fib_deferred(&r, 10, pp_profile_task_current(), form, PP_REGION_INVALID, 0);
    else
        fib_undeferred(&r, 10, pp_profile_task_current(), form);
    pp_unified *u = pp_profile_unify_at(pp_timer_now());
    ck_assert_ptr_nonnull(u);
    check_no_negative(u);
    *instances = 0;
    for (const pp_unode *m = u->tasks->first_child; m; m = m->next_sibling)
        *instances += m->visits[0];
    int n = 0;
    for (const pp_unode *m = u->root; m && n < max; m = pp_unified_next(m), n++) {
        regions[n] = m->region;
        visits[n] = m->visits[0];
    }
    pp_unified_free(u);
    return n;
}

START_TEST(test_combined_events_equal_separate)
{
    for (int deferred = 0; deferred < 2; deferred++) {
        for (fib_form form = FIB_COMBINED; form <= FIB_HELD; form++) {
            enum { MAX = 64 };
            pp_region_id ra[MAX], rb[MAX];
            uint64_t va[MAX], vb[MAX];
            uint64_t ia, ib;
            int na = fib_tree(FIB_SEPARATE, deferred, ra, va, MAX, &ia);
            int nb = fib_tree(form, deferred, rb, vb, MAX, &ib);
            ck_assert_int_gt(na, 8);
            ck_assert_int_eq(na, nb);
            for (int i = 0; i < na; i++) {
                ck_assert_uint_eq(ra[i], rb[i]);
                ck_assert_uint_eq(va[i], vb[i]);
            }
            ck_assert_uint_eq(ia, 2 * 89 - 2); /* fib(10): 2 F(11) - 2 tasks */
            ck_assert_uint_eq(ib, ia);
        }
    }
}
END_TEST

/* task_create_run_end inside an explicit task: the creation region counts
 * the creating task's time only (from the creation to the begin: the
 * creating task is suspended while the new one runs), as the separate
 * events with the same timestamps give; the leaf's instance and its stub
 * one visit each.  Its first instance (no spare tree yet) takes the
 * general form, the second the fast path: both the same. */
START_TEST(test_create_run_end_times)
{
    for (int held = 0; held < 2; held++) {
        fib_regions r = fib_start();
        pp_task_handle implicit = pp_profile_task_current(), hp = pp_profile_task_new_handle();
        pp_profile_task_create_enter(r.create[0], hp);
        pp_profile_task_begin(r.task[0], hp, false);
        for (int i = 0; i < 2; i++) {
            /* timestamps between the events before and the event's own */
            uint64_t created = pp_timer_now() + 10, begun = created + 1000;
            while (pp_timer_now() < begun + 1000)
                ;
            pp_task_handle h = pp_profile_task_new_handle();
            if (held) {
                pp_profile_task_create_run_end(r.create[1], h, created, begun, r.task[1], hp);
            } else {
                pp_profile_task_create_enter_at(r.create[1], h, created);
                pp_profile_task_begin_at(r.task[1], h, false, begun);
                uint64_t now = pp_timer_now();
                pp_profile_task_end_at(r.task[1], now);
                pp_profile_switch_exit_at(hp, r.create[1], now);
            }
        }
        pp_profile_task_end(r.task[0]);
        pp_profile_switch_exit(implicit, r.create[0]);
        pp_unified *u = pp_profile_unify_at(pp_timer_now());
        ck_assert_ptr_nonnull(u);
        check_no_negative(u);
        pp_unode *outer = pp_unified_child(u->tasks, r.task[0]);
        ck_assert_uint_eq(outer->visits[0], 1);
        CHECK_NODE(pp_unified_child(outer, r.create[1]), 0, 2, 2000, 1000, 1000);
        ck_assert_uint_eq(pp_unified_child(u->tasks, r.task[1])->visits[0], 2);
        /* the stubs, where the implicit task was: in the outer creation */
        pp_unode *in = pp_unified_child(u->root, r.create[0]);
        ck_assert_uint_eq(pp_unified_child(in, r.task[1])->visits[0], 2);
        ck_assert_uint_eq(pp_unified_child(in, r.task[0])->visits[0], 3); /* 3 pieces */
        pp_unified_free(u);
    }
}
END_TEST

/* The libgomp interposer's held begins with known timestamps: a task whose
 * begin goes with its first creation (task_begin_create_visit) runs two
 * leaves at its taskwait, each one event (task_run), twice (the first
 * instances take the general forms, the later ones the fast paths).  The
 * separate events with the same timestamps give the same values: the
 * parent's instance and stub count its time up to the first leaf's begin
 * and from its resumption on (it is suspended between), each leaf's stub
 * and instance one visit of the same length. */
START_TEST(test_task_run_times)
{
    for (int held = 0; held < 2; held++) {
        fib_regions r = fib_start();
        pp_task_handle implicit = pp_profile_task_current();
        uint64_t expect = 0, min = UINT64_MAX, max = 0;
        pp_profile_scheduling_enter(r.taskwait, NULL);
        for (int p = 0; p < 2; p++) {
            pp_task_handle hp = pp_profile_task_new_handle(), h[2];
            uint64_t b0 = pp_timer_now() + 10;
            while (pp_timer_now() < b0)
                ;
            for (int i = 0; i < 2; i++) {
                h[i] = pp_profile_task_new_handle();
                if (held && i == 0) {
                    pp_profile_task_begin_create_visit(r.task[0], hp, b0, r.create[1], h[i], b0);
                } else {
                    if (i == 0)
                        pp_profile_task_begin_at(r.task[0], hp, false, b0);
                    pp_profile_task_create_visit(r.create[1], h[i], pp_timer_now());
                }
            }
            uint64_t entered = pp_timer_now(), first = entered + 500;
            pp_profile_enter_at(r.taskwait, entered);
            for (int i = 0; i < 2; i++) {
                uint64_t begun = i == 0 ? first : pp_timer_now() + 10;
                while (pp_timer_now() < begun + 1000)
                    ;
                if (held) {
                    pp_profile_task_run(r.task[1], h[i], begun);
                } else {
                    pp_profile_task_begin_at(r.task[1], h[i], false, begun);
                    pp_profile_task_end_at(r.task[1], pp_timer_now());
                }
            }
            uint64_t resumed = pp_timer_now() + 10, end = resumed + 300;
            while (pp_timer_now() < end)
                ;
            pp_profile_switch_exit_at(hp, r.taskwait, resumed);
            pp_profile_task_end_at(r.task[0], end);
            uint64_t piece[2] = {first - b0, end - resumed};
            for (int k = 0; k < 2; k++) {
                expect += piece[k];
                min = piece[k] < min ? piece[k] : min;
                max = piece[k] > max ? piece[k] : max;
            }
            pp_profile_task_switch_to(implicit);
        }
        pp_profile_switch_exit(implicit, r.taskwait);
        pp_unified *u = pp_profile_unify_at(pp_timer_now());
        ck_assert_ptr_nonnull(u);
        check_no_negative(u);
        pp_unode *tw = pp_unified_child(u->root, r.taskwait);
        CHECK_NODE(pp_unified_child(tw, r.task[0]), 0, 4, expect, min, max);
        pp_unode *parent = pp_unified_child(u->tasks, r.task[0]);
        ck_assert_uint_eq(parent->visits[0], 2);
        ck_assert_uint_eq(parent->time[0], expect);
        ck_assert_uint_eq(pp_unified_child(parent, r.create[1])->visits[0], 4);
        pp_unode *leaf = pp_unified_child(u->tasks, r.task[1]), *stub =
                                                                  pp_unified_child(tw, r.task[1]);
        CHECK_NODE(stub, 0, 4, leaf->time[0], leaf->min_time[0], leaf->max_time[0]);
        ck_assert_uint_eq(leaf->visits[0], 4);
        ck_assert_uint_ge(leaf->min_time[0], 1000);
        pp_unified_free(u);
    }
}
END_TEST

Suite *profile_engine_suite(void)
{
    Suite *s = suite_create("profile_engine");
    TCase *tc = tcase_create("scenarios");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_nested_enter_exit);
    tcase_add_test(tc, test_two_tasks_suspended_in_foo);
    tcase_add_test(tc, test_task_in_barrier_vs_creation);
    tcase_add_test(tc, test_second_instance_during_taskwait);
    tcase_add_test(tc, test_resume_under_other_scheduling_point);
    tcase_add_test(tc, test_reused_instance_trees);
    tcase_add_test(tc, test_deferred_instance_values);
    tcase_add_test(tc, test_switch_exit_one_timestamp);
    tcase_add_test(tc, test_nested_parallel);
    tcase_add_test(tc, test_fork_inside_task);
    tcase_add_test(tc, test_close_open_regions_at_end);
    tcase_add_loop_test(tc, test_random_streams_no_negative, 0, 4);
    tcase_add_test(tc, test_memory_bounded);
    tcase_add_test(tc, test_handles_unique_across_threads);
    tcase_add_test(tc, test_max_depth_folds);
    tcase_add_test(tc, test_memory_limit_folds);
    tcase_add_test(tc, test_disabled_records_nothing);
    tcase_add_test(tc, test_fast_path_fib);
    tcase_add_test(tc, test_combined_events_equal_separate);
    tcase_add_test(tc, test_create_run_end_times);
    tcase_add_test(tc, test_task_run_times);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    /* no fixture: the configuration is read once per process, so this test
     * must be the first to read it in its (forked) process */
    TCase *off = tcase_create("disabled");
    tcase_add_test(off, test_enable_0_no_profile);
    suite_add_tcase(s, off);
    return s;
}

Suite *pp_check_suite(void)
{
    return profile_engine_suite();
}
