/* Unit tests for what event sources that know less on the event path need
 * (the OMPT layer): an untied task resumed on another location moves there
 * (pp_profile_migrate.h), regions renamed and merged at the end, and a
 * location closed early (pp_profile_names.h).  Fake clock, exact values. */
#include <check.h>

#include "profile/pp_profile.h"
#include "profile/pp_profile_migrate.h"
#include "profile/pp_profile_names.h"
#include "profile/pp_profile_test.h"
#include "test/unit/profile/engine_check.h"

/* A task begins on location 0 (inside region foo when it is suspended),
 * resumes on location 1 and ends there: one instance, counted where it
 * ended; each location holds the time the task ran there, nothing twice. */
START_TEST(test_task_moves_to_another_location)
{
    pp_region_id create = R("!$omp create untied task @f.c:3", "task create");
    pp_region_id task = R("!$omp untied task @f.c:3", "untied task");
    pp_region_id foo = R("foo", "user");
    pp_profile_test_use_location(0);
    pp_task_handle implicit0 = pp_profile_task_current();
    pp_task_handle h = pp_profile_task_new_handle();
    pp_profile_task_create_enter_at(create, h, 10);
    pp_profile_exit_at(create, 10);
    pp_profile_task_begin_at(task, h, false, 20);
    void *ref = pp_profile_task_ref();
    ck_assert_ptr_nonnull(ref);
    ck_assert_uint_eq(pp_profile_task_ref_region(ref), task);
    pp_profile_enter_at(foo, 25);
    pp_profile_task_switch_to_at(implicit0, 30); /* suspended on location 0 */

    pp_profile_test_use_location(1);
    void *moved = pp_profile_task_resume_ref(ref, 40);
    ck_assert_ptr_nonnull(moved);
    ck_assert_ptr_ne(moved, ref);
    ck_assert_uint_eq(pp_profile_task_ref_region(moved), task);
    ck_assert_ptr_eq(pp_profile_task_resume_ref(moved, 45), moved); /* running: nothing */
    pp_profile_exit_at(foo, 50);
    pp_profile_task_end_at(task, 60);

    pp_unified *u = pp_profile_unify_at(100);
    ck_assert_ptr_nonnull(u);
    ck_assert_uint_eq(u->n_locations, 2);
    pp_unode *mt = pp_unified_child(u->tasks, task);
    ck_assert_ptr_nonnull(mt);
    /* the instance: counted once, on location 1; 10 ticks ran on 0, 20 on 1 */
    ck_assert_uint_eq(mt->visits[0], 0);
    ck_assert_uint_eq(mt->time[0], 10);
    CHECK_NODE(mt, 1, 1, 20, 20, 20);
    pp_unode *mfoo = pp_unified_child(mt, foo);
    ck_assert_uint_eq(mfoo->visits[0], 0);
    ck_assert_uint_eq(mfoo->time[0], 5);
    CHECK_NODE(mfoo, 1, 1, 10, 10, 10);
    /* the stubs: where each fragment ran, in the implicit tasks' trees */
    pp_unode *stub = pp_unified_child(u->root, task);
    CHECK_NODE(stub, 0, 1, 10, 10, 10);
    CHECK_NODE(stub, 1, 1, 20, 20, 20);
    check_no_negative(u);
    pp_unified_free(u);
}
END_TEST

/* A task resumed where it was suspended is a plain switch. */
START_TEST(test_task_resumed_in_place)
{
    pp_region_id task = R("!$omp untied task @f.c:3", "untied task");
    pp_profile_test_use_location(0);
    pp_task_handle implicit0 = pp_profile_task_current();
    pp_profile_task_begin_at(task, pp_profile_task_new_handle(), false, 10);
    void *ref = pp_profile_task_ref();
    pp_profile_task_switch_to_at(implicit0, 20);
    ck_assert_ptr_eq(pp_profile_task_resume_ref(ref, 30), ref);
    pp_profile_task_end_at(task, 45);
    pp_unified *u = pp_profile_unify_at(100);
    CHECK_NODE(pp_unified_child(u->tasks, task), 0, 1, 25, 25, 25);
    pp_unified_free(u);
}
END_TEST

/* Regions renamed at the end; an alias merges into the region it stands for. */
START_TEST(test_rename_and_alias)
{
    pp_region_id a = R("!$omp task @0x1234", "task");
    pp_region_id b = R("!$omp task @0x5678", "task");
    pp_profile_test_use_location(0);
    pp_profile_enter_at(a, 10);
    pp_profile_exit_at(a, 20);
    pp_profile_enter_at(b, 30);
    pp_profile_exit_at(b, 35);
    pp_region_def def = {.name = "!$omp task @f.c:9", .file = "/src/f.c", .begin_line = 9,
                         .end_line = 9, .paradigm = "openmp", .role = "task"};
    ck_assert_int_eq(pp_profile_region_rename(a, &def), 0);
    ck_assert_int_eq(pp_profile_region_rename(b, &def), 0);
    pp_profile_region_alias(b, a);
    ck_assert_uint_eq(pp_profile_region_canonical(b), a);
    ck_assert_uint_eq(pp_profile_region_canonical(a), a);
    pp_region_def got;
    ck_assert_int_eq(pp_profile_region_describe(a, &got), 0);
    ck_assert_str_eq(got.name, "!$omp task @f.c:9");
    ck_assert_int_eq(got.begin_line, 9);
    pp_unified *u = pp_profile_unify_at(100);
    ck_assert_int_eq(count_children(u->root), 1); /* one region (no TASKS without tasks) */
    CHECK_NODE(pp_unified_child(u->root, a), 0, 2, 15, 5, 10);
    ck_assert_ptr_null(pp_unified_child(u->root, b));
    pp_unified_free(u);
}
END_TEST

/* A location closed early keeps what it measured up to then, and the
 * engine's own close at the end adds nothing. */
START_TEST(test_location_closed_early)
{
    pp_region_id par = R("!$omp parallel @f.c:1", "parallel");
    pp_region_id bar = R("!$omp implicit barrier @f.c:4", "implicit barrier");
    pp_profile_test_use_location(0);
    int64_t ctx = pp_profile_fork_at(par, 2, 5);
    pp_profile_test_use_location(1);
    void *loc1 = pp_profile_location_ref();
    ck_assert_ptr_nonnull(loc1);
    pp_profile_parallel_begin_at(par, ctx, 10);
    pp_profile_enter_at(bar, 20);
    pp_profile_location_close_at(loc1, 30); /* the team ended at 30 */
    pp_unified *u = pp_profile_unify_at(100);
    pp_unode *p = pp_unified_child(u->root, par);
    ck_assert_ptr_nonnull(p);
    CHECK_NODE(p, 1, 1, 20, 20, 20);
    CHECK_NODE(pp_unified_child(p, bar), 1, 1, 10, 10, 10);
    pp_unified_free(u);
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("profile_late");
    TCase *tc = tcase_create("late");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_task_moves_to_another_location);
    tcase_add_test(tc, test_task_resumed_in_place);
    tcase_add_test(tc, test_rename_and_alias);
    tcase_add_test(tc, test_location_closed_early);
    suite_add_tcase(s, tc);
    return s;
}
