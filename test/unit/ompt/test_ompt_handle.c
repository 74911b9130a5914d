/* Unit tests for the OMPT layer's task handles (ompt/pp_ompt_handle.h):
 * every field packed at its limits comes back unchanged, no field leaks
 * into the flags or into another field, the limits degrade (a thread beyond
 * them gets no handles) instead of wrapping, and the values of the three
 * kinds (explicit tasks, moving tasks, a taskwait depend's pseudo task) and
 * the engine handles never pass for one another. */
#include <check.h>
#include <stdint.h>

#include "ompt/pp_ompt_handle.h"

static const uint64_t pp_test_states[] = {PP_OMPT_CREATED, PP_OMPT_BEGUN, PP_OMPT_ENDED,
                                          PP_OMPT_MOVING};

/* The one state value is in, of the four. */
static int pp_test_states_of(uint64_t value, uint64_t *which)
{
    int n = 0;
    for (unsigned i = 0; i < 4; i++)
        if (pp_ompt_value_is(value, pp_test_states[i])) {
            *which = pp_test_states[i];
            n++;
        }
    return n;
}

START_TEST(fields_at_their_limits)
{
    const uint32_t indexes[] = {0, 1, 1u << 19, PP_OMPT_MAX_CONSTRUCTS - 1};
    const uint32_t threads[] = {0, 1, 2047, 2048, PP_OMPT_MAX_THREADS - 1};
    const uint32_t counters[] = {0, 1, (uint32_t)PP_OMPT_COUNTER_MASK};
    for (unsigned i = 0; i < sizeof indexes / sizeof *indexes; i++)
        for (unsigned t = 0; t < sizeof threads / sizeof *threads; t++)
            for (unsigned c = 0; c < sizeof counters / sizeof *counters; c++)
                for (int undeferred = 0; undeferred < 2; undeferred++) {
                    uint64_t base = pp_ompt_value_base(threads[t]);
                    ck_assert_uint_ne(base, 0);
                    uint64_t v = pp_ompt_value_new(base, indexes[i], counters[c], undeferred);
                    uint64_t state = 99;
                    /* a new task, whatever its construct (the old layout made
                     * an index of 2^20 or more look moving) */
                    ck_assert_int_eq(pp_test_states_of(v, &state), 1);
                    ck_assert_uint_eq(state, PP_OMPT_CREATED);
                    ck_assert_uint_eq(pp_ompt_value_index(v), indexes[i]);
                    ck_assert_uint_eq(pp_ompt_value_thread(v), threads[t]);
                    ck_assert_uint_eq(v & PP_OMPT_COUNTER_MASK, counters[c]);
                    ck_assert_int_eq((v & PP_OMPT_UNDEFERRED) != 0, undeferred);
                    ck_assert(!pp_ompt_is_taskwait_depend(v));
                    /* every state keeps the fields */
                    for (unsigned s = 0; s < 3; s++) {
                        uint64_t w = pp_ompt_value_set_state(v, pp_test_states[s]);
                        ck_assert_int_eq(pp_test_states_of(w, &state), 1);
                        ck_assert_uint_eq(state, pp_test_states[s]);
                        ck_assert_uint_eq(pp_ompt_value_index(w), indexes[i]);
                        ck_assert_uint_eq(pp_ompt_value_thread(w), threads[t]);
                        ck_assert_uint_eq(pp_ompt_engine_handle(w), pp_ompt_engine_handle(v));
                        ck_assert_int_eq((w & PP_OMPT_UNDEFERRED) != 0, undeferred);
                    }
                }
}
END_TEST

START_TEST(threads_beyond_the_limit_get_no_handles)
{
    ck_assert_uint_ne(pp_ompt_value_base(PP_OMPT_MAX_THREADS - 1), 0);
    ck_assert_uint_eq(pp_ompt_value_base(PP_OMPT_MAX_THREADS), 0);
    ck_assert_uint_eq(pp_ompt_value_base(UINT32_MAX), 0);
    /* never a thread number cut to its low bits (the old layout kept 11) */
    ck_assert_uint_ne(pp_ompt_value_base(2048), pp_ompt_value_base(0));
}
END_TEST

START_TEST(the_counter_wraps_alone)
{
    uint64_t base = pp_ompt_value_base(PP_OMPT_MAX_THREADS - 1);
    uint64_t v = pp_ompt_value_new(base, PP_OMPT_MAX_CONSTRUCTS - 1,
                                   (uint32_t)PP_OMPT_COUNTER_MASK + 1, false);
    ck_assert_uint_eq(v & PP_OMPT_COUNTER_MASK, 0);
    ck_assert_uint_eq(pp_ompt_value_thread(v), PP_OMPT_MAX_THREADS - 1);
    ck_assert_uint_eq(pp_ompt_value_index(v), PP_OMPT_MAX_CONSTRUCTS - 1);
    ck_assert(pp_ompt_value_is(v, PP_OMPT_CREATED));
    ck_assert_uint_eq(v & PP_OMPT_UNDEFERRED, 0);
}
END_TEST

START_TEST(engine_handles)
{
    const uint32_t threads[] = {0, 5, PP_OMPT_MAX_THREADS - 1};
    for (unsigned t = 0; t < 3; t++) {
        uint64_t base = pp_ompt_value_base(threads[t]);
        uint64_t a = pp_ompt_engine_handle(pp_ompt_value_new(base, 7, 1, false));
        uint64_t b = pp_ompt_engine_handle(pp_ompt_value_new(base, 7, 2, true));
        uint64_t c = pp_ompt_engine_handle(
            pp_ompt_value_new(base, 9, (uint32_t)PP_OMPT_COUNTER_MASK, false));
        ck_assert_uint_ne(a, b);
        ck_assert_uint_ne(b, c);
        /* the creating location's index + 1 where the engine keeps it */
        ck_assert_uint_eq(a >> PP_OMPT_ENGINE_LOCATION_SHIFT, threads[t] + 1);
        ck_assert_uint_eq(c >> PP_OMPT_ENGINE_LOCATION_SHIFT, threads[t] + 1);
        /* never a handle the engine makes itself ((index + 1) << 40 plus a
         * count of implicit tasks below 2^31), never an explicit value */
        ck_assert_uint_ne(a & PP_OMPT_ENGINE_EXPLICIT, 0);
        ck_assert_uint_eq(a & PP_OMPT_EXPLICIT, 0);
        ck_assert_uint_eq(pp_ompt_engine_handle(a), a);
        ck_assert(!pp_ompt_is_taskwait_depend(a | 1));
    }
    /* two threads' tasks with the same counter: different handles */
    uint64_t x = pp_ompt_engine_handle(pp_ompt_value_new(pp_ompt_value_base(0), 3, 4, false));
    uint64_t y = pp_ompt_engine_handle(pp_ompt_value_new(pp_ompt_value_base(2048), 3, 4, false));
    ck_assert_uint_ne(x, y);
}
END_TEST

START_TEST(moving_tasks)
{
    const uintptr_t refs[] = {0x1000, (uintptr_t)0x7ffffffff000ull,
                              (uintptr_t)PP_OMPT_REF_MASK & ~(uintptr_t)7};
    for (unsigned i = 0; i < 3; i++) {
        uint64_t v = pp_ompt_value_moving((const void *)refs[i]);
        uint64_t state = 99;
        ck_assert_int_eq(pp_test_states_of(v, &state), 1);
        ck_assert_uint_eq(state, PP_OMPT_MOVING);
        ck_assert_ptr_eq(pp_ompt_value_ref(v), (void *)refs[i]);
        ck_assert(!pp_ompt_is_taskwait_depend(v));
    }
    ck_assert_uint_eq(pp_ompt_value_moving(NULL), 0);
    if (sizeof(void *) == 8) /* a reference that does not fit is refused */
        ck_assert_uint_eq(pp_ompt_value_moving((const void *)(uintptr_t)(PP_OMPT_REF_MASK + 1)),
                          0);
}
END_TEST

START_TEST(taskwait_depend_values)
{
    const uint32_t indexes[] = {0, 1, PP_OMPT_MAX_CONSTRUCTS - 1};
    for (unsigned i = 0; i < 3; i++) {
        for (int entered = 0; entered < 2; entered++) {
            uint64_t v = pp_ompt_value_taskwait(true, indexes[i]) |
                         (entered ? PP_OMPT_TASKWAIT_ENTERED : 0);
            uint32_t index = 99;
            ck_assert(pp_ompt_is_taskwait_depend(v));
            ck_assert(pp_ompt_taskwait_index(v, &index));
            ck_assert_uint_eq(index, indexes[i]);
            ck_assert_uint_lt(v, 1ull << PP_OMPT_ENGINE_LOCATION_SHIFT);
            ck_assert_uint_eq(v & PP_OMPT_EXPLICIT, 0);
        }
    }
    uint32_t index = 99;
    uint64_t none = pp_ompt_value_taskwait(false, 0);
    ck_assert(pp_ompt_is_taskwait_depend(none));
    ck_assert(!pp_ompt_taskwait_index(none, &index));
    ck_assert(!pp_ompt_taskwait_index(none | PP_OMPT_TASKWAIT_ENTERED, &index));
}
END_TEST

/* Which values a switch resumes, and a construct index replaced in place
 * (a taskloop task found to be a generator when it runs). */
START_TEST(resumable_values_and_new_index)
{
    uint64_t base = pp_ompt_value_base(PP_OMPT_MAX_THREADS - 1);
    uint64_t v = pp_ompt_value_new(base, PP_OMPT_MAX_CONSTRUCTS - 1,
                                   (uint32_t)PP_OMPT_COUNTER_MASK, true);
    ck_assert(!pp_ompt_value_resumable(v)); /* created, not begun */
    ck_assert(pp_ompt_value_resumable(pp_ompt_value_set_state(v, PP_OMPT_BEGUN)));
    ck_assert(!pp_ompt_value_resumable(pp_ompt_value_set_state(v, PP_OMPT_ENDED)));
    ck_assert(!pp_ompt_value_resumable(pp_ompt_value_moving((const void *)0x1000)));
    ck_assert(!pp_ompt_value_resumable(pp_ompt_value_taskwait(true, 5)));
    ck_assert(!pp_ompt_value_resumable(0));
    /* an implicit task's value: an engine handle, at least 2^40 */
    ck_assert(pp_ompt_value_resumable(1ull << PP_OMPT_ENGINE_LOCATION_SHIFT | 7));
    ck_assert(pp_ompt_value_resumable(pp_ompt_engine_handle(v)));
    uint64_t w = pp_ompt_value_set_index(pp_ompt_value_set_state(v, PP_OMPT_BEGUN), 0);
    ck_assert_uint_eq(pp_ompt_value_index(w), 0);
    ck_assert(pp_ompt_value_is(w, PP_OMPT_BEGUN));
    ck_assert_uint_eq(pp_ompt_engine_handle(w), pp_ompt_engine_handle(v));
    ck_assert_uint_ne(w & PP_OMPT_UNDEFERRED, 0);
    ck_assert_uint_eq(pp_ompt_value_index(pp_ompt_value_set_index(w, 12345)), 12345);
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("ompt_handle");
    TCase *tc = tcase_create("handle");
    tcase_add_test(tc, fields_at_their_limits);
    tcase_add_test(tc, threads_beyond_the_limit_get_no_handles);
    tcase_add_test(tc, the_counter_wraps_alone);
    tcase_add_test(tc, engine_handles);
    tcase_add_test(tc, moving_tasks);
    tcase_add_test(tc, taskwait_depend_values);
    tcase_add_test(tc, resumable_values_and_new_index);
    suite_add_tcase(s, tc);
    return s;
}
