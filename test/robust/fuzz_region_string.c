/* libFuzzer harness for the OPARI2 region-string parser
 * (pomp2/pp_pomp2_region_string.c).
 *
 * The parser sees strings compiled into the user's program, so any byte
 * sequence must give either a descriptor or an error text, never a crash or
 * a leak.  Beyond the sanitizers, the harness checks the parser's promises:
 *  - failure: *error set, the descriptor empty;
 *  - success: a known type, both source locations present with line1 <= line2,
 *    a user region has a name, and parsing is deterministic. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pomp2/pp_pomp2_region_string.h"

#define PP_FUZZ_REQUIRE(c) \
    do {                   \
        if (!(c))          \
            abort();       \
    } while (0)

static void pp_fuzz_check_one(const char *s)
{
    pp_pomp2_region_info info, again;
    const char *err = NULL;
    if (!pp_pomp2_region_string_parse(s, &info, &err)) {
        PP_FUZZ_REQUIRE(err != NULL && strlen(err) > 0);
        PP_FUZZ_REQUIRE(info.type == PP_POMP2_UNKNOWN);
        PP_FUZZ_REQUIRE(!info.start_file && !info.end_file && !info.name && !info.schedule);
        return;
    }
    PP_FUZZ_REQUIRE(info.type != PP_POMP2_UNKNOWN);
    PP_FUZZ_REQUIRE(strcmp(pp_pomp2_region_type_name(info.type), "unknown") != 0);
    PP_FUZZ_REQUIRE(info.start_file && info.end_file);
    PP_FUZZ_REQUIRE(info.start_line1 >= 0 && info.start_line1 <= info.start_line2);
    PP_FUZZ_REQUIRE(info.end_line1 >= 0 && info.end_line1 <= info.end_line2);
    PP_FUZZ_REQUIRE(info.type != PP_POMP2_USER_REGION || info.name);
    /* every string the parser hands out is a proper C string */
    PP_FUZZ_REQUIRE(strlen(info.start_file) < strlen(s));
    if (info.name)
        PP_FUZZ_REQUIRE(strlen(info.name) < strlen(s));

    const char *err2 = NULL;
    PP_FUZZ_REQUIRE(pp_pomp2_region_string_parse(s, &again, &err2));
    PP_FUZZ_REQUIRE(again.type == info.type && again.clauses == info.clauses);
    PP_FUZZ_REQUIRE(again.start_line1 == info.start_line1 && again.end_line2 == info.end_line2);
    PP_FUZZ_REQUIRE(strcmp(again.start_file, info.start_file) == 0);
    pp_pomp2_region_info_free(&again);
    pp_pomp2_region_info_free(&info);
    PP_FUZZ_REQUIRE(!info.start_file && !info.name); /* free leaves it empty */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The parser takes a C string: fuzz the bytes up to the first NUL as is,
     * and also with a correct length prefix, so the mutations reach the
     * fields behind the length check instead of dying there. */
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    pp_fuzz_check_one(s);

    size_t body = strlen(s);
    const char *star = memchr(s, '*', body);
    if (star) {
        size_t tail = body - (size_t)(star - s);
        char *fixed = malloc(tail + 24);
        if (fixed) {
            /* the prefix counts its own digits: find the fixed point */
            size_t total = tail + 1;
            for (int i = 0; i < 3; i++) {
                char digits[24];
                int nd = snprintf(digits, sizeof digits, "%zu", total);
                total = tail + (size_t)nd;
            }
            snprintf(fixed, tail + 24, "%zu%s", total, star);
            pp_fuzz_check_one(fixed);
            free(fixed);
        }
    }
    pp_fuzz_check_one(NULL); /* a NULL string is an error, not a crash */
    free(s);
    return 0;
}
