/* Unit tests for lib/: POMPPROF_* parsing, message format, timer sanity. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/pp_config.h"
#include "lib/pp_message.h"
#include "lib/pp_nearest.h"
#include "lib/pp_timer.h"

static const char *pp_test_vars[] = {"POMPPROF_ENABLE", "POMPPROF_OUTPUT", "POMPPROF_TIMER",
                                     "POMPPROF_METRICS", "POMPPROF_MAX_DEPTH", "POMPPROF_MEMORY",
                                     "POMPPROF_VERBOSE", "POMPPROF_TRACE",
                                     "POMPPROF_TRACE_BUFFER"};

static void pp_test_clear_env(void)
{
    for (size_t i = 0; i < sizeof pp_test_vars / sizeof pp_test_vars[0]; i++)
        unsetenv(pp_test_vars[i]);
}

/* Run fn with stderr redirected to a file; return what was written. */
static char pp_test_captured[8192];
static const char *pp_test_capture_stderr(int (*fn)(pp_config *), pp_config *cfg, int *ret)
{
    char path[] = "/tmp/pp_test_stderr_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    int saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    *ret = fn(cfg);
    dup2(saved, STDERR_FILENO);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, pp_test_captured, sizeof pp_test_captured - 1);
    pp_test_captured[n < 0 ? 0 : n] = '\0';
    close(fd);
    unlink(path);
    return pp_test_captured;
}

static int pp_test_count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

START_TEST(defaults_without_environment)
{
    pp_test_clear_env();
    pp_config cfg;
    int bad;
    const char *err = pp_test_capture_stderr(pp_config_from_env, &cfg, &bad);
    ck_assert_int_eq(bad, 0);
    ck_assert_str_eq(err, "");
    ck_assert(cfg.enable);
    ck_assert_ptr_null(cfg.output);
    ck_assert_int_eq(cfg.timer, PP_TIMER_AUTO);
    ck_assert_int_eq(cfg.n_metrics, 0);
    ck_assert_uint_eq(cfg.max_depth, 0);
    ck_assert_uint_eq(cfg.memory_limit, 0);
    ck_assert_int_eq(cfg.verbose, 0);
    ck_assert(!cfg.trace);
    ck_assert_uint_eq(cfg.trace_buffer, PP_CONFIG_TRACE_BUFFER_DEFAULT);
}
END_TEST

START_TEST(valid_values_are_taken)
{
    pp_test_clear_env();
    setenv("POMPPROF_ENABLE", "off", 1);
    setenv("POMPPROF_OUTPUT", "/tmp/somewhere/p.cubex", 1);
    setenv("POMPPROF_TIMER", "clock", 1);
    setenv("POMPPROF_METRICS", "PAPI_TOT_INS,PAPI_L2_DCM", 1);
    setenv("POMPPROF_MAX_DEPTH", "12", 1);
    setenv("POMPPROF_MEMORY", "512M", 1);
    setenv("POMPPROF_VERBOSE", "2", 1);
    setenv("POMPPROF_TRACE", "yes", 1);
    setenv("POMPPROF_TRACE_BUFFER", "64k", 1);
    pp_config cfg;
    ck_assert_int_eq(pp_config_from_env(&cfg), 0);
    ck_assert(cfg.trace);
    ck_assert_uint_eq(cfg.trace_buffer, 64u << 10);
    ck_assert(!cfg.enable);
    ck_assert_str_eq(cfg.output, "/tmp/somewhere/p.cubex");
    ck_assert_int_eq(cfg.timer, PP_TIMER_CLOCK);
    ck_assert_int_eq(cfg.n_metrics, 2);
    ck_assert_str_eq(cfg.metrics[0], "PAPI_TOT_INS");
    ck_assert_str_eq(cfg.metrics[1], "PAPI_L2_DCM");
    ck_assert_uint_eq(cfg.max_depth, 12);
    ck_assert_uint_eq(cfg.memory_limit, 512u << 20);
    ck_assert_int_eq(cfg.verbose, 2);
}
END_TEST

/* Any name PAPI accepts: native and component events with dashes, colons,
 * dots, '=' and '+'; blanks around names are dropped; more names than can
 * be counted at once are taken (pp_counters leaves out the rest). */
START_TEST(metric_names_as_papi_spells_them)
{
    pp_test_clear_env();
    setenv("POMPPROF_METRICS",
           "perf::PAGE-FAULTS, perf::TASK-CLOCK ,rapl:::PACKAGE_ENERGY:PACKAGE0,"
           "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS,ix86arch::INSTRUCTION_RETIRED:u=1:k=0,"
           "cpu.event+x,PAPI_TOT_INS",
           1);
    pp_config cfg;
    ck_assert_int_eq(pp_config_from_env(&cfg), 0);
    ck_assert_int_eq(cfg.n_metrics, 7);
    ck_assert_str_eq(cfg.metrics[0], "perf::PAGE-FAULTS");
    ck_assert_str_eq(cfg.metrics[1], "perf::TASK-CLOCK");
    ck_assert_str_eq(cfg.metrics[2], "rapl:::PACKAGE_ENERGY:PACKAGE0");
    ck_assert_str_eq(cfg.metrics[3], "perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS");
    ck_assert_str_eq(cfg.metrics[4], "ix86arch::INSTRUCTION_RETIRED:u=1:k=0");
    ck_assert_str_eq(cfg.metrics[5], "cpu.event+x");
    ck_assert_str_eq(cfg.metrics[6], "PAPI_TOT_INS");

    char many[PP_CONFIG_METRICS_MAX * 8] = "";
    for (int i = 0; i < PP_CONFIG_METRICS_MAX; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "%sE%d", i ? "," : "", i);
    setenv("POMPPROF_METRICS", many, 1);
    ck_assert_int_eq(pp_config_from_env(&cfg), 0);
    ck_assert_int_eq(cfg.n_metrics, PP_CONFIG_METRICS_MAX);
    ck_assert_str_eq(cfg.metrics[PP_CONFIG_METRICS_MAX - 1], "E63");

    /* one name more than that, or a name beyond PAPI's length: refused, with the
     * one limit the README states (16 counted) */
    strcat(many, ",E64");
    setenv("POMPPROF_METRICS", many, 1);
    int bad;
    const char *err = pp_test_capture_stderr(pp_config_from_env, &cfg, &bad);
    ck_assert_int_eq(bad, 1);
    ck_assert_int_eq(pp_test_count_lines(err), 1);
    ck_assert_int_eq(cfg.n_metrics, 0);
    ck_assert_msg(strstr(err, "at most 16 events") && !strstr(err, "up to"),
                  "%s", err);
    char longname[PP_COUNTERS_NAME_LEN + 1];
    memset(longname, 'A', PP_COUNTERS_NAME_LEN);
    longname[PP_COUNTERS_NAME_LEN] = '\0';
    setenv("POMPPROF_METRICS", longname, 1);
    err = pp_test_capture_stderr(pp_config_from_env, &cfg, &bad);
    ck_assert_int_eq(bad, 1);
    ck_assert_int_eq(cfg.n_metrics, 0);
    longname[PP_COUNTERS_NAME_LEN - 1] = '\0'; /* the longest name taken */
    setenv("POMPPROF_METRICS", longname, 1);
    ck_assert_int_eq(pp_config_from_env(&cfg), 0);
    ck_assert_int_eq(cfg.n_metrics, 1);
}
END_TEST

/* Each invalid value: one line naming the variable, default kept. */
static const struct {
    const char *var, *value;
} pp_test_invalid[] = {
    {"POMPPROF_ENABLE", "maybe"},   {"POMPPROF_OUTPUT", ""},
    {"POMPPROF_TIMER", "sundial"},  {"POMPPROF_METRICS", "PAPI_TOT_INS,,X"},
    {"POMPPROF_METRICS", "A B"},    {"POMPPROF_METRICS", " , X"},
    {"POMPPROF_METRICS", "X,"},     {"POMPPROF_METRICS", "perf::PAGE\tFAULTS"},
    {"POMPPROF_MAX_DEPTH", "-3"},
    {"POMPPROF_MAX_DEPTH", "0"},    {"POMPPROF_MAX_DEPTH", "12abc"},
    {"POMPPROF_MEMORY", "lots"},    {"POMPPROF_MEMORY", "10T"},
    {"POMPPROF_MEMORY", "99999999999999999999G"},
    {"POMPPROF_VERBOSE", "9"},      {"POMPPROF_VERBOSE", "loud"},
    {"POMPPROF_TRACE", "sometimes"}, {"POMPPROF_TRACE_BUFFER", "big"},
    {"POMPPROF_TRACE_BUFFER", "1k"}, {"POMPPROF_TRACE_BUFFER", "0"},
    {"POMPPROF_TRACE_BUFFER", "2048G"},
};

START_TEST(invalid_value_warns_once_and_keeps_default)
{
    pp_test_clear_env();
    setenv(pp_test_invalid[_i].var, pp_test_invalid[_i].value, 1);
    pp_config cfg;
    int bad;
    const char *err = pp_test_capture_stderr(pp_config_from_env, &cfg, &bad);
    ck_assert_int_eq(bad, 1);
    ck_assert_int_eq(pp_test_count_lines(err), 1);
    ck_assert_msg(strncmp(err, "pompprof: ", 10) == 0, "no prefix: %s", err);
    ck_assert_msg(strstr(err, pp_test_invalid[_i].var) != NULL, "variable not named: %s", err);
    ck_assert_msg(strstr(err, "accepted") != NULL, "accepted values not named: %s", err);
    ck_assert(cfg.enable);
    ck_assert_ptr_null(cfg.output);
    ck_assert_int_eq(cfg.timer, PP_TIMER_AUTO);
    ck_assert_int_eq(cfg.n_metrics, 0);
    ck_assert_uint_eq(cfg.max_depth, 0);
    ck_assert_uint_eq(cfg.memory_limit, 0);
    ck_assert_int_eq(cfg.verbose, 0);
    ck_assert(!cfg.trace);
    ck_assert_uint_eq(cfg.trace_buffer, PP_CONFIG_TRACE_BUFFER_DEFAULT);
}
END_TEST

/* Issue 23: a rejected number says the range it must lie in, not only
 * "a whole number". */
START_TEST(rejected_numbers_state_their_range)
{
    static const struct {
        const char *var, *value, *range;
    } cases[] = {
        {"POMPPROF_VERBOSE", "3", "from 0 to 2"},
        {"POMPPROF_VERBOSE", "-1", "from 0 to 2"},
        {"POMPPROF_MAX_DEPTH", "-1", "from 1 to 100000"},
        {"POMPPROF_MAX_DEPTH", "100001", "from 1 to 100000"},
        {"POMPPROF_MAX_PARAMETER_VALUES", "0", "from 1 to 1000000"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pp_test_clear_env();
        unsetenv("POMPPROF_MAX_PARAMETER_VALUES");
        setenv(cases[i].var, cases[i].value, 1);
        pp_config cfg;
        int bad;
        const char *err = pp_test_capture_stderr(pp_config_from_env, &cfg, &bad);
        ck_assert_int_eq(bad, 1);
        ck_assert_msg(strstr(err, cases[i].range), "%s=%s: %s", cases[i].var, cases[i].value, err);
        unsetenv(cases[i].var);
    }
}
END_TEST

/* A misspelt variable is not ignored without a word: one line, with the
 * nearest known name; the known ones (also the wrapper's) are quiet. */
START_TEST(unknown_variables_get_the_nearest_name)
{
    pp_test_clear_env();
    static const struct {
        const char *var, *guess;
    } cases[] = {
        {"POMPPROF_METRIC", "did you mean POMPPROF_METRICS?"},
        {"POMPPROF_OUTPU", "did you mean POMPPROF_OUTPUT?"},
        {"POMPPROF_tRACE", "did you mean POMPPROF_TRACE?"},
        {"POMPPROF_COLOUR_SCHEME", "is not a pompprof setting"},
        /* another case, a near miss, a prefix one letter off (issue 34) */
        {"pompprof_trace", "did you mean POMPPROF_TRACE?"},
        {"Pompprof_Metrics", "did you mean POMPPROF_METRICS?"},
        {"POMPPROF_TRAC", "did you mean POMPPROF_TRACE?"},
        {"POMPROF_TRACE", "did you mean POMPPROF_TRACE?"},
        {"POMPPROFF_OUTPUT", "did you mean POMPPROF_OUTPUT?"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setenv(cases[i].var, "1", 1);
        pp_config cfg;
        int bad;
        const char *err = pp_test_capture_stderr(pp_config_from_env, &cfg, &bad);
        unsetenv(cases[i].var);
        ck_assert_int_eq(pp_test_count_lines(err), 1);
        ck_assert_msg(strncmp(err, "pompprof: ", 10) == 0 && strstr(err, cases[i].var) &&
                          strstr(err, cases[i].guess),
                      "%s: %s", cases[i].var, err);
    }
    setenv("POMPPROF_LIBDIR", "/x", 1);
    setenv("POMPPROF_INCDIR", "/x", 1);
    /* names of others that merely look alike are not ours */
    setenv("POMP_DEBUG", "1", 1);
    setenv("PROFILE_TRACE", "1", 1);
    setenv("POMPPROFILE", "1", 1);
    pp_config cfg;
    int bad;
    ck_assert_str_eq(pp_test_capture_stderr(pp_config_from_env, &cfg, &bad), "");
    unsetenv("POMPPROF_LIBDIR");
    unsetenv("POMPPROF_INCDIR");
    unsetenv("POMP_DEBUG");
    unsetenv("PROFILE_TRACE");
    unsetenv("POMPPROFILE");
    ck_assert_uint_eq(pp_nearest_distance("perf::PAGE-FAULT", "perf::PAGE_FAULTS"), 1);
    ck_assert_uint_eq(pp_nearest_distance("papi_tot_ins", "PAPI_TOT_INS"), 0);
}
END_TEST

/* POMPPROF_OUTPUT=e8.cube is a directory (only *.cubex names a file): said
 * in one line; a plain directory name or a .cubex file is quiet. */
START_TEST(output_that_looks_like_a_file_is_said_to_be_a_directory)
{
    pp_test_clear_env();
    pp_config cfg;
    int bad;
    setenv("POMPPROF_OUTPUT", "e8.cube", 1);
    const char *err = pp_test_capture_stderr(pp_config_from_env, &cfg, &bad);
    ck_assert_int_eq(pp_test_count_lines(err), 1);
    ck_assert_msg(strstr(err, "e8.cube/profile.cubex") && strstr(err, "directory"), "%s", err);
    ck_assert_str_eq(cfg.output, "e8.cube");
    const char *quiet[] = {"out", "runs/e8", "e8.cubex", "a.b/c"};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) {
        setenv("POMPPROF_OUTPUT", quiet[i], 1);
        ck_assert_str_eq(pp_test_capture_stderr(pp_config_from_env, &cfg, &bad), "");
    }
    unsetenv("POMPPROF_OUTPUT");
}
END_TEST

START_TEST(timer_is_monotonic_and_calibrated)
{
    pp_timer_kind kinds[] = {PP_TIMER_CLOCK, PP_TIMER_AUTO};
    for (int k = 0; k < 2; k++) {
        pp_timer_init(kinds[k]);
        uint64_t prev = pp_timer_now();
        for (int i = 0; i < 100000; i++) {
            uint64_t t = pp_timer_now();
            ck_assert_uint_ge(t, prev);
            prev = t;
        }
        /* 20 ms of wall time must read as 20 ms within 25% (noisy VM). */
        uint64_t t0 = pp_timer_now();
        usleep(20000);
        double secs = (double)(pp_timer_now() - t0) / pp_timer_ticks_per_second();
        ck_assert_msg(secs > 0.015 && secs < 0.5, "%s: 20 ms measured as %g s", pp_timer_name(), secs);
    }
}
END_TEST

static int pp_test_warn_twice(pp_config *unused)
{
    (void)unused;
    for (int i = 0; i < 2; i++)
        PP_WARN_ONCE("only once %d", 42);
    pp_message_warn("%s", "second line");
    return 0;
}

START_TEST(warn_once_prints_one_prefixed_line)
{
    int ret;
    const char *err = pp_test_capture_stderr(pp_test_warn_twice, NULL, &ret);
    ck_assert_str_eq(err, "pompprof: only once 42\npompprof: second line\n");
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("lib");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, defaults_without_environment);
    tcase_add_test(tc, valid_values_are_taken);
    tcase_add_test(tc, metric_names_as_papi_spells_them);
    tcase_add_loop_test(tc, invalid_value_warns_once_and_keeps_default, 0,
                        (int)(sizeof pp_test_invalid / sizeof pp_test_invalid[0]));
    tcase_add_test(tc, rejected_numbers_state_their_range);
    tcase_add_test(tc, unknown_variables_get_the_nearest_name);
    tcase_add_test(tc, output_that_looks_like_a_file_is_said_to_be_a_directory);
    tcase_add_test(tc, timer_is_monotonic_and_calibrated);
    tcase_add_test(tc, warn_once_prints_one_prefixed_line);
    suite_add_tcase(s, tc);
    return s;
}
