/* Unit tests of the OPARI2 region-string parser.
 *
 * Inputs are region strings OPARI2 2.0.7 generated for small programs (the
 * expected values come from those programs' source lines), strings OPARI2
 * generates at test time from constructs.c, and broken strings. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pomp2/pp_pomp2_region_string.h"

static pp_pomp2_region_info pp_test_parse_ok(const char *ctc)
{
    pp_pomp2_region_info info;
    const char *err = "(none)";
    ck_assert_msg(pp_pomp2_region_string_parse(ctc, &info, &err), "rejected %s: %s", ctc, err);
    return info;
}

/* ---- samples OPARI2 generated for /tmp/x/all/all.c ---------------------- */

START_TEST(parallel_with_clauses)
{
    pp_pomp2_region_info i = pp_test_parse_ok(
        "132*regionType=parallel*sscl=/tmp/x/all/all.c:12:12*escl=/tmp/x/all/all.c:49:49*"
        "hasIf=1*hasNum_threads=1*hasReduction=1*hasShared=1**");
    ck_assert_int_eq(i.type, PP_POMP2_PARALLEL);
    ck_assert_str_eq(i.start_file, "/tmp/x/all/all.c");
    ck_assert_str_eq(i.end_file, "/tmp/x/all/all.c");
    ck_assert_int_eq(i.start_line1, 12);
    ck_assert_int_eq(i.start_line2, 12);
    ck_assert_int_eq(i.end_line1, 49);
    ck_assert_int_eq(i.end_line2, 49);
    ck_assert_ptr_null(i.name);
    ck_assert_uint_eq(i.clauses, PP_POMP2_HAS_IF | PP_POMP2_HAS_NUM_THREADS |
                                     PP_POMP2_HAS_REDUCTION | PP_POMP2_HAS_SHARED);
    pp_pomp2_region_info_free(&i);
}
END_TEST

START_TEST(loop_with_schedule)
{
    pp_pomp2_region_info i = pp_test_parse_ok(
        "122*regionType=for*sscl=/tmp/x/all/all.c:14:14*escl=/tmp/x/all/all.c:18:18*"
        "hasCollapse=1*hasOrdered=1*hasSchedule=dynamic**");
    ck_assert_int_eq(i.type, PP_POMP2_FOR);
    ck_assert_int_eq(i.start_line1, 14);
    ck_assert_int_eq(i.end_line2, 18);
    ck_assert_str_eq(i.schedule, "dynamic");
    ck_assert_uint_eq(i.clauses,
                      PP_POMP2_HAS_COLLAPSE | PP_POMP2_HAS_ORDERED | PP_POMP2_HAS_SCHEDULE);
    pp_pomp2_region_info_free(&i);

    i = pp_test_parse_ok(
        "87*regionType=for*sscl=/tmp/x/all/all.c:19:19*escl=/tmp/x/all/all.c:20:20*hasNowait=1**");
    ck_assert_uint_eq(i.clauses, PP_POMP2_HAS_NOWAIT);
    ck_assert_ptr_null(i.schedule);
    pp_pomp2_region_info_free(&i);
}
END_TEST

START_TEST(every_type_without_clauses)
{
    static const struct {
        const char *ctc;
        pp_pomp2_region_type type;
        int first, last;
    } cases[] = {
        {"79*regionType=ordered*sscl=/tmp/x/all/all.c:16:16*escl=/tmp/x/all/all.c:17:17**",
         PP_POMP2_ORDERED, 16, 17},
        {"78*regionType=master*sscl=/tmp/x/all/all.c:30:30*escl=/tmp/x/all/all.c:31:31**",
         PP_POMP2_MASTER, 30, 31},
        {"80*regionType=critical*sscl=/tmp/x/all/all.c:34:34*escl=/tmp/x/all/all.c:35:35**",
         PP_POMP2_CRITICAL, 34, 35},
        {"78*regionType=atomic*sscl=/tmp/x/all/all.c:36:36*escl=/tmp/x/all/all.c:37:37**",
         PP_POMP2_ATOMIC, 36, 37},
        {"77*regionType=flush*sscl=/tmp/x/all/all.c:38:38*escl=/tmp/x/all/all.c:38:38**",
         PP_POMP2_FLUSH, 38, 38},
        {"79*regionType=barrier*sscl=/tmp/x/all/all.c:39:39*escl=/tmp/x/all/all.c:39:39**",
         PP_POMP2_BARRIER, 39, 39},
        {"80*regionType=taskwait*sscl=/tmp/x/all/all.c:44:44*escl=/tmp/x/all/all.c:44:44**",
         PP_POMP2_TASKWAIT, 44, 44},
        {"83*regionType=parallelfor*sscl=/tmp/x/all/all.c:50:50*escl=/tmp/x/all/all.c:51:51**",
         PP_POMP2_PARALLEL_FOR, 50, 51},
        {"88*regionType=parallelsections*sscl=/tmp/x/all/all.c:52:52*escl=/tmp/x/all/all.c:56:56**",
         PP_POMP2_PARALLEL_SECTIONS, 52, 56},
        {"72*regionType=task*sscl=/tmp/x/tasks.c:10:10*escl=/tmp/x/tasks.c:11:11**",
         PP_POMP2_TASK, 10, 11},
        {"74*regionType=single*sscl=/tmp/x/tasks.c:22:22*escl=/tmp/x/tasks.c:31:31**",
         PP_POMP2_SINGLE, 22, 31},
        /* Fortran-only types, as opari2 writes them for a .f90 file */
        {"71*regionType=workshare*sscl=/tmp/x/ws.f90:6:6*escl=/tmp/x/ws.f90:8:8**",
         PP_POMP2_WORKSHARE, 6, 8},
        {"83*regionType=parallelworkshare*sscl=/tmp/x/ws.f90:10:10*escl=/tmp/x/ws.f90:12:12**",
         PP_POMP2_PARALLEL_WORKSHARE, 10, 12},
        {"76*regionType=paralleldo*sscl=/tmp/x/ws.f90:13:13*escl=/tmp/x/ws.f90:17:17**",
         PP_POMP2_PARALLEL_DO, 13, 17},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pp_pomp2_region_info i = pp_test_parse_ok(cases[c].ctc);
        ck_assert_int_eq(i.type, cases[c].type);
        ck_assert_int_eq(i.start_line1, cases[c].first);
        ck_assert_int_eq(i.end_line2, cases[c].last);
        ck_assert_uint_eq(i.clauses, 0);
        ck_assert_ptr_null(i.name);
        pp_pomp2_region_info_free(&i);
    }
}
END_TEST

START_TEST(named_and_flagged_regions)
{
    pp_pomp2_region_info i = pp_test_parse_ok(
        "97*regionType=critical*sscl=/tmp/x/all/all.c:32:32*escl=/tmp/x/all/all.c:33:33*"
        "criticalName=foo**");
    ck_assert_int_eq(i.type, PP_POMP2_CRITICAL);
    ck_assert_str_eq(i.name, "foo");
    pp_pomp2_region_info_free(&i);

    i = pp_test_parse_ok("106*regionType=userRegion*sscl=/tmp/x/all/all.c:11:11*"
                         "escl=/tmp/x/all/all.c:57:57*userRegionName=myregion**");
    ck_assert_int_eq(i.type, PP_POMP2_USER_REGION);
    ck_assert_str_eq(i.name, "myregion");
    ck_assert_int_eq(i.start_line1, 11);
    ck_assert_int_eq(i.end_line1, 57);
    pp_pomp2_region_info_free(&i);

    i = pp_test_parse_ok("94*regionType=sections*sscl=/tmp/x/cp.c:9:9*escl=/tmp/x/cp.c:13:13*"
                         "numSections=1*hasNowait=1**");
    ck_assert_int_eq(i.type, PP_POMP2_SECTIONS);
    ck_assert_int_eq(i.num_sections, 1);
    ck_assert_uint_eq(i.clauses, PP_POMP2_HAS_NOWAIT);
    pp_pomp2_region_info_free(&i);

    i = pp_test_parse_ok("81*regionType=single*sscl=/tmp/x/cp.c:5:5*escl=/tmp/x/cp.c:6:6*"
                         "hasCopyprivate=1**");
    ck_assert_uint_eq(i.clauses, PP_POMP2_HAS_COPYPRIVATE);
    pp_pomp2_region_info_free(&i);

    i = pp_test_parse_ok(
        "88*regionType=task*sscl=/tmp/x/all/all.c:40:40*escl=/tmp/x/all/all.c:41:41*hasUntied=1**");
    ck_assert_uint_eq(i.clauses, PP_POMP2_HAS_UNTIED);
    pp_pomp2_region_info_free(&i);

    i = pp_test_parse_ok("96*regionType=task*sscl=/tmp/x/all/all.c:42:42*"
                         "escl=/tmp/x/all/all.c:43:43*hasIf=1*hasShared=1**");
    ck_assert_uint_eq(i.clauses, PP_POMP2_HAS_IF | PP_POMP2_HAS_SHARED);
    pp_pomp2_region_info_free(&i);

    /* the mark of the pompprof wrapper (scripts/pompprof_tools/wrapper/directive.py,
     * scripts/pompprof_tools/wrapper/fortran_depend_marks.py) */
    i = pp_test_parse_ok("88*regionType=task*sscl=/tmp/x/all/all.c:44:44*"
                         "escl=/tmp/x/all/all.c:45:45*hasDepend=1**");
    ck_assert_uint_eq(i.clauses, PP_POMP2_HAS_DEPEND);
    pp_pomp2_region_info_free(&i);
}
END_TEST

START_TEST(unknown_keys_and_odd_paths)
{
    /* a key from a future OPARI2 is ignored; a ':' inside the file name and a
     * directive spanning several lines are fine */
    pp_pomp2_region_info i = pp_test_parse_ok(
        "81*regionType=for*sscl=/a:b/x.c:4:6*escl=/a:b/x.c:9:9*hasFuture=yes*hasNowait=1**");
    ck_assert_int_eq(i.type, PP_POMP2_FOR);
    ck_assert_str_eq(i.start_file, "/a:b/x.c");
    ck_assert_int_eq(i.start_line1, 4);
    ck_assert_int_eq(i.start_line2, 6);
    ck_assert_uint_eq(i.clauses, PP_POMP2_HAS_NOWAIT);
    pp_pomp2_region_info_free(&i);

    /* OPARI2 writes 3-digit prefixes one short (tested above with its real
     * output); a prefix with the exact length is accepted as well */
    const char *exact = "116*regionType=for*sscl=/a/very/long/path/to/a/source/file/x.c:4:4*"
                        "escl=/a/very/long/path/to/a/source/file/x.c:9:9**";
    ck_assert_uint_eq(strlen(exact), 116);
    i = pp_test_parse_ok(exact);
    ck_assert_int_eq(i.end_line2, 9);
    pp_pomp2_region_info_free(&i);
}
END_TEST

/* Broken strings; all but the "wrong length" case carry a correct length
 * prefix, so each one tests the defect its comment names. */
static const struct {
    const char *ctc;
    bool right_length;
} pp_test_bad[] = {
    {"", true},
    {"garbage", true},
    {"*regionType=task*sscl=/a.c:1:1*escl=/a.c:2:2**", true}, /* no length */
    {"99*regionType=task*sscl=/a.c:1:1*escl=/a.c:2:2**", false}, /* wrong length */
    {"47regionType=task*sscl=/a.c:1:1*escl=/a.c:2:2**", true}, /* no '*' after length */
    {"32*sscl=/a.c:1:1*escl=/a.c:2:2**", true}, /* no regionType */
    {"49*regionType=teams*sscl=/a.c:1:1*escl=/a.c:2:2**", true}, /* unknown type */
    {"34*regionType=task*sscl=/a.c:1:1**", true}, /* no escl */
    {"46*regionType=task*sscl=/a.c:1*escl=/a.c:2:2**", true}, /* bad location */
    {"48*regionType=task*sscl=/a.c:5:1*escl=/a.c:2:2**", true}, /* line1 > line2 */
    {"48*regionType=task*sscl=/a.c:x:1*escl=/a.c:2:2**", true}, /* not a number */
    {"47*regionType=task*sscl=/a.c:1:1*escl=/a.c:2:2*", true}, /* no closing '*' */
    {"46*regionType=task*sscl=/a.c:1:1*escl=/a.c:2:2", true}, /* truncated */
    {"49*regionType=task*sscl=/a.c:1:1*escl=/a.c:2:2**x", true}, /* trailing text */
    {"54*regionType=task*sscl=/a.c:1:1*hasIf*escl=/a.c:2:2**", true}, /* key without value */
    {"51*regionType=task*sscl=/a.c:1:1*=1*escl=/a.c:2:2**", true}, /* empty key */
    {"55*regionType=task*sscl=/a.c:1:1*hasIf=*escl=/a.c:2:2**", true}, /* empty value */
    {"56*regionType=task*sscl=/a.c:1:1*hasIf=2*escl=/a.c:2:2**", true}, /* flag not 0/1 */
    {"54*regionType=userRegion*sscl=/a.c:1:1*escl=/a.c:2:2**", true}, /* user region w/o name */
    {"66*regionType=sections*sscl=/a.c:1:1*escl=/a.c:2:2*numSections=0**", true},
};
#define PP_TEST_N_BAD (sizeof pp_test_bad / sizeof pp_test_bad[0])

START_TEST(malformed_strings_are_rejected)
{
    for (size_t c = 0; c < PP_TEST_N_BAD; c++) {
        pp_pomp2_region_info i;
        const char *err = NULL;
        ck_assert_msg(!pp_pomp2_region_string_parse(pp_test_bad[c].ctc, &i, &err), "accepted: %s",
                      pp_test_bad[c].ctc);
        ck_assert_ptr_nonnull(err);
        ck_assert_int_eq(i.type, PP_POMP2_UNKNOWN);
        ck_assert_ptr_null(i.start_file);
        ck_assert_ptr_null(i.name);
    }
    pp_pomp2_region_info i;
    const char *err = NULL;
    ck_assert(!pp_pomp2_region_string_parse(NULL, &i, &err));
    ck_assert_ptr_nonnull(err);
}
END_TEST

START_TEST(malformed_cases_have_right_lengths)
{
    for (size_t c = 0; c < PP_TEST_N_BAD; c++) {
        const char *s = pp_test_bad[c].ctc;
        if (s[0] < '0' || s[0] > '9')
            continue;
        /* OPARI2's rule: the text after the first '*' plus 3 */
        const char *star = s + strspn(s, "0123456789");
        if (*star != '*')
            continue; /* the "no '*' after the length" case */
        size_t declared = strtoul(s, NULL, 10);
        size_t opari2 = strlen(star + 1) + 3;
        if (pp_test_bad[c].right_length)
            ck_assert_msg(declared == opari2, "fix the test case %s", s);
        else
            ck_assert_msg(declared != opari2 && declared != strlen(s), "fix the test case %s", s);
    }
}
END_TEST

/* ---- strings OPARI2 generates now, from constructs.c --------------------- */

/* The line `line` (1-based) of file, without the newline. */
static void pp_test_source_line(const char *file, int line, char *buf, size_t n)
{
    FILE *f = fopen(file, "r");
    ck_assert_ptr_nonnull(f);
    buf[0] = '\0';
    for (int l = 1; l <= line && fgets(buf, (int)n, f); l++)
        ;
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
}

START_TEST(every_string_opari2_emits_parses)
{
    char dir[] = "/tmp/pp_test_opari2_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char src[4096], cmd[8192], inc[4096];
    snprintf(src, sizeof src, "%s/test/unit/pomp2/constructs.c", PP_TEST_SRCDIR);
    snprintf(cmd, sizeof cmd, "'%s' --omp-tpd --omp-task-untied=no-warn '%s' '%s/c.mod.c'",
             PP_TEST_OPARI2, src, dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(inc, sizeof inc, "%s/constructs.c.opari.inc", dir);
    FILE *f = fopen(inc, "r");
    ck_assert_ptr_nonnull(f);

    unsigned seen = 0; /* bit per region type */
    int n = 0;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "#define opari2_ctc_", 19) != 0)
            continue;
        char *q = strchr(line, '"'), *e = strrchr(line, '"');
        ck_assert(q && e > q);
        *e = '\0';
        pp_pomp2_region_info i = pp_test_parse_ok(q + 1);
        n++;
        seen |= 1u << i.type;
        /* the string points at the directive in the real source */
        char text[512];
        pp_test_source_line(i.start_file, i.start_line1, text, sizeof text);
        const char *want = "#pragma omp ";
        if (i.type == PP_POMP2_USER_REGION)
            want = "#pragma pomp inst begin(myregion)";
        ck_assert_msg(strncmp(text, want, strlen(want)) == 0, "%s -> line '%s'", q + 1, text);
        if (i.type == PP_POMP2_CRITICAL && i.name)
            ck_assert_str_eq(text, "#pragma omp critical (foo)");
        if (i.type == PP_POMP2_PARALLEL_FOR)
            ck_assert_str_eq(text, "#pragma omp parallel for");
        ck_assert_int_le(i.start_line1, i.end_line1);
        pp_pomp2_region_info_free(&i);
    }
    fclose(f);
    ck_assert_int_eq(n, 18);
    static const pp_pomp2_region_type expected[] = {
        PP_POMP2_PARALLEL, PP_POMP2_FOR, PP_POMP2_ORDERED, PP_POMP2_SECTIONS,
        PP_POMP2_SINGLE, PP_POMP2_MASTER, PP_POMP2_CRITICAL, PP_POMP2_ATOMIC,
        PP_POMP2_FLUSH, PP_POMP2_BARRIER, PP_POMP2_TASK, PP_POMP2_TASKWAIT,
        PP_POMP2_PARALLEL_FOR, PP_POMP2_PARALLEL_SECTIONS, PP_POMP2_USER_REGION};
    for (size_t t = 0; t < sizeof expected / sizeof expected[0]; t++)
        ck_assert_msg(seen & (1u << expected[t]), "no %s region",
                      pp_pomp2_region_type_name(expected[t]));
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(type_names_round_trip)
{
    ck_assert_str_eq(pp_pomp2_region_type_name(PP_POMP2_PARALLEL_FOR), "parallelfor");
    ck_assert_str_eq(pp_pomp2_region_type_name(PP_POMP2_USER_REGION), "userRegion");
    ck_assert_str_eq(pp_pomp2_region_type_name(PP_POMP2_UNKNOWN), "unknown");
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("pomp2_region_string");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, parallel_with_clauses);
    tcase_add_test(tc, loop_with_schedule);
    tcase_add_test(tc, every_type_without_clauses);
    tcase_add_test(tc, named_and_flagged_regions);
    tcase_add_test(tc, unknown_keys_and_odd_paths);
    tcase_add_test(tc, malformed_strings_are_rejected);
    tcase_add_test(tc, malformed_cases_have_right_lengths);
    tcase_add_test(tc, every_string_opari2_emits_parses);
    tcase_add_test(tc, type_names_round_trip);
    suite_add_tcase(s, tc);
    return s;
}
