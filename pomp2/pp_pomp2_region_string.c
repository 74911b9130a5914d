/* Parser of OPARI2 region strings; see pp_pomp2_region_string.h.
 *
 * Runs once per region (at registration), so clarity beats speed here. */
#include "pomp2/pp_pomp2_region_string.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    pp_pomp2_region_type type;
} pp_pomp2_type_names[] = {
    {"atomic", PP_POMP2_ATOMIC},
    {"barrier", PP_POMP2_BARRIER},
    {"critical", PP_POMP2_CRITICAL},
    {"do", PP_POMP2_DO},
    {"flush", PP_POMP2_FLUSH},
    {"for", PP_POMP2_FOR},
    {"masked", PP_POMP2_MASKED},
    {"master", PP_POMP2_MASTER},
    {"ordered", PP_POMP2_ORDERED},
    {"parallel", PP_POMP2_PARALLEL},
    {"paralleldo", PP_POMP2_PARALLEL_DO},
    {"parallelfor", PP_POMP2_PARALLEL_FOR},
    {"parallelsections", PP_POMP2_PARALLEL_SECTIONS},
    {"parallelworkshare", PP_POMP2_PARALLEL_WORKSHARE},
    {"sections", PP_POMP2_SECTIONS},
    {"single", PP_POMP2_SINGLE},
    {"task", PP_POMP2_TASK},
    {"taskgroup", PP_POMP2_TASKGROUP},
    {"taskloop", PP_POMP2_TASKLOOP},
    {"taskuntied", PP_POMP2_TASKUNTIED},
    {"taskwait", PP_POMP2_TASKWAIT},
    {"taskyield", PP_POMP2_TASKYIELD},
    {"workshare", PP_POMP2_WORKSHARE},
    {"userRegion", PP_POMP2_USER_REGION},
};
#define PP_POMP2_N_TYPES (sizeof pp_pomp2_type_names / sizeof pp_pomp2_type_names[0])

/* Clause keys.  OPARI2 2.0.7 writes hasNum_threads; accept the camel-case
 * spelling too, older and newer versions differ.  (Shaped like the type table
 * above, but other facts.) */
static const struct {
    const char *key;
    unsigned bit;
} pp_pomp2_clause_keys[] = {
    {"hasIf", PP_POMP2_HAS_IF},
    {"hasNum_threads", PP_POMP2_HAS_NUM_THREADS},
    {"hasNumThreads", PP_POMP2_HAS_NUM_THREADS},
    {"hasReduction", PP_POMP2_HAS_REDUCTION},
    {"hasCollapse", PP_POMP2_HAS_COLLAPSE},
    {"hasOrdered", PP_POMP2_HAS_ORDERED},
    {"hasUntied", PP_POMP2_HAS_UNTIED},
    {"hasShared", PP_POMP2_HAS_SHARED},
    {"hasNowait", PP_POMP2_HAS_NOWAIT},
    {"hasCopyprivate", PP_POMP2_HAS_COPYPRIVATE},
    {"hasFirstprivate", PP_POMP2_HAS_FIRSTPRIVATE},
    {"hasLastprivate", PP_POMP2_HAS_LASTPRIVATE},
    {"hasPrivate", PP_POMP2_HAS_PRIVATE},
    {"hasDepend", PP_POMP2_HAS_DEPEND},
};
#define PP_POMP2_N_CLAUSES (sizeof pp_pomp2_clause_keys / sizeof pp_pomp2_clause_keys[0])

const char *pp_pomp2_region_type_name(pp_pomp2_region_type type)
{
    for (size_t i = 0; i < PP_POMP2_N_TYPES; i++)
        if (pp_pomp2_type_names[i].type == type)
            return pp_pomp2_type_names[i].name;
    return "unknown";
}

static char *pp_pomp2_strndup(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* A non-negative decimal int spanning exactly [s, s+n). */
static bool pp_pomp2_parse_uint(const char *s, size_t n, int *out)
{
    if (n == 0 || n > 9)
        return false;
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

/* "file:line1:line2"; the file name may itself contain ':' (the two numbers
 * are taken from the right). */
static bool pp_pomp2_parse_location(const char *v, size_t n, char **file, int *l1, int *l2)
{
    const char *end = v + n;
    const char *c2 = NULL, *c1 = NULL;
    for (const char *p = end; p > v; p--) {
        if (p[-1] == ':') {
            if (!c2)
                c2 = p - 1;
            else {
                c1 = p - 1;
                break;
            }
        }
    }
    if (!c1 || c1 == v)
        return false;
    if (!pp_pomp2_parse_uint(c1 + 1, (size_t)(c2 - c1 - 1), l1) ||
        !pp_pomp2_parse_uint(c2 + 1, (size_t)(end - c2 - 1), l2) || *l1 > *l2)
        return false;
    free(*file); /* a repeated key: the last one wins */
    *file = pp_pomp2_strndup(v, (size_t)(c1 - v));
    return *file != NULL;
}

static bool pp_pomp2_key_is(const char *k, size_t kn, const char *lit)
{
    return strlen(lit) == kn && memcmp(k, lit, kn) == 0;
}

static bool pp_pomp2_replace_string(char **dst, const char *v, size_t n)
{
    free(*dst);
    *dst = pp_pomp2_strndup(v, n);
    return *dst != NULL;
}

/* Apply one key=value field; returns an error text or NULL. */
static const char *pp_pomp2_apply_field(pp_pomp2_region_info *info, bool *have_type,
                                        const char *k, size_t kn, const char *v, size_t vn)
{
    if (pp_pomp2_key_is(k, kn, "regionType")) {
        for (size_t i = 0; i < PP_POMP2_N_TYPES; i++) {
            if (pp_pomp2_key_is(v, vn, pp_pomp2_type_names[i].name)) {
                info->type = pp_pomp2_type_names[i].type;
                *have_type = true;
                return NULL;
            }
        }
        return "unknown regionType";
    }
    if (pp_pomp2_key_is(k, kn, "sscl"))
        return pp_pomp2_parse_location(v, vn, &info->start_file, &info->start_line1,
                                       &info->start_line2)
                   ? NULL
                   : "sscl is not file:line1:line2";
    if (pp_pomp2_key_is(k, kn, "escl"))
        return pp_pomp2_parse_location(v, vn, &info->end_file, &info->end_line1,
                                       &info->end_line2)
                   ? NULL
                   : "escl is not file:line1:line2";
    if (pp_pomp2_key_is(k, kn, "criticalName") || pp_pomp2_key_is(k, kn, "userRegionName"))
        return pp_pomp2_replace_string(&info->name, v, vn) ? NULL : "out of memory";
    if (pp_pomp2_key_is(k, kn, "hasSchedule")) {
        info->clauses |= PP_POMP2_HAS_SCHEDULE;
        return pp_pomp2_replace_string(&info->schedule, v, vn) ? NULL : "out of memory";
    }
    if (pp_pomp2_key_is(k, kn, "hasDefault")) {
        info->clauses |= PP_POMP2_HAS_DEFAULT;
        return NULL;
    }
    if (pp_pomp2_key_is(k, kn, "numSections")) {
        if (!pp_pomp2_parse_uint(v, vn, &info->num_sections) || info->num_sections == 0)
            return "numSections is not a positive number";
        return NULL;
    }
    for (size_t i = 0; i < PP_POMP2_N_CLAUSES; i++) {
        if (pp_pomp2_key_is(k, kn, pp_pomp2_clause_keys[i].key)) {
            if (pp_pomp2_key_is(v, vn, "1"))
                info->clauses |= pp_pomp2_clause_keys[i].bit;
            else if (pp_pomp2_key_is(v, vn, "0"))
                info->clauses &= ~pp_pomp2_clause_keys[i].bit;
            else
                return "a clause flag is neither 0 nor 1";
            return NULL;
        }
    }
    return NULL; /* unknown key: a newer OPARI2, not an error */
}

static const char *pp_pomp2_parse_fields(const char *ctc, pp_pomp2_region_info *info)
{
    const char *p = ctc;
    while (isdigit((unsigned char)*p))
        p++;
    if (p == ctc)
        return "no length prefix";
    if (*p != '*')
        return "no '*' after the length prefix";
    p++;
    /* OPARI2 2.0.7 computes the prefix as if it had two digits (the text
     * after "NN*" plus 3), so a 3-digit prefix is one less than the real
     * length; accept that and the exact length. */
    errno = 0;
    unsigned long declared = strtoul(ctc, NULL, 10);
    size_t rest = strlen(p);
    if (errno != 0 || (declared != rest + 3 && declared != strlen(ctc)))
        return "length prefix does not match the string's length";

    bool have_type = false;
    for (;;) {
        if (*p == '*')
            break; /* the closing "**" */
        if (*p == '\0')
            return "string ends without the closing '*'";
        const char *k = p;
        while (*p && *p != '=' && *p != '*')
            p++;
        if (*p != '=' || p == k)
            return "a field is not key=value";
        size_t kn = (size_t)(p - k);
        const char *v = ++p;
        while (*p && *p != '*')
            p++;
        if (*p != '*')
            return "a value is not closed by '*'";
        if (p == v)
            return "a field has an empty value";
        const char *err = pp_pomp2_apply_field(info, &have_type, k, kn, v, (size_t)(p - v));
        if (err)
            return err;
        p++;
    }
    if (p[1] != '\0')
        return "text after the closing '*'";
    if (!have_type)
        return "no regionType";
    if (!info->start_file || !info->end_file)
        return "sscl or escl missing";
    if (info->type == PP_POMP2_USER_REGION && !info->name)
        return "user region without userRegionName";
    return NULL;
}

bool pp_pomp2_region_string_parse(const char *ctc, pp_pomp2_region_info *info,
                                  const char **error)
{
    memset(info, 0, sizeof *info);
    const char *err = ctc ? pp_pomp2_parse_fields(ctc, info) : "no region string (NULL)";
    if (err) {
        pp_pomp2_region_info_free(info);
        if (error)
            *error = err;
        return false;
    }
    return true;
}

void pp_pomp2_region_info_free(pp_pomp2_region_info *info)
{
    free(info->start_file);
    free(info->end_file);
    free(info->name);
    free(info->schedule);
    memset(info, 0, sizeof *info);
}
