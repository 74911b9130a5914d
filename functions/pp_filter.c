/* pp_filter: Score-P filter files (pp_filter.h). */
#include "functions/pp_filter.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pp_filter_rule {
    bool file;    /* a file rule, else a region rule */
    bool exclude; /* EXCLUDE, else INCLUDE */
    bool mangled; /* MANGLED: against the link name */
    char *pattern;
} pp_filter_rule;

struct pp_filter {
    pp_filter_rule *rules;
    size_t n, cap;
};

void pp_filter_free(pp_filter *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++)
        free(f->rules[i].pattern);
    free(f->rules);
    free(f);
}

static int pp_filter_add(pp_filter *f, pp_filter_rule r, const char *word, size_t len)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 16;
        pp_filter_rule *n = realloc(f->rules, cap * sizeof *n);
        if (!n)
            return -1;
        f->rules = n, f->cap = cap;
    }
    r.pattern = strndup(word, len);
    if (!r.pattern)
        return -1;
    f->rules[f->n++] = r;
    return 0;
}

static bool pp_filter_word_is(const char *w, size_t len, const char *keyword)
{
    return strlen(keyword) == len && memcmp(w, keyword, len) == 0;
}

/* The parser's place: outside any block, in a block without a rule yet, or
 * in a rule (whose patterns follow, also on later lines). */
enum { PP_FILTER_OUTSIDE, PP_FILTER_BLOCK, PP_FILTER_RULE };

pp_filter *pp_filter_parse(const char *text, const char *name, char *err, size_t err_size)
{
    pp_filter *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, err_size, "%s: out of memory", name);
        return NULL;
    }
    int state = PP_FILTER_OUTSIDE, line = 1;
    bool in_files = false, rule_start = false;
    pp_filter_rule rule = {0};
    const char *p = text;
    const char *problem = NULL;
    while (*p && !problem) {
        if (*p == '\n')
            line++;
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (*p == '#') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        const char *w = p;
        while (*p && !isspace((unsigned char)*p) && *p != '#')
            p++;
        size_t len = (size_t)(p - w);
        bool begin_files = pp_filter_word_is(w, len, "SCOREP_FILE_NAMES_BEGIN");
        bool begin_regions = pp_filter_word_is(w, len, "SCOREP_REGION_NAMES_BEGIN");
        bool end_files = pp_filter_word_is(w, len, "SCOREP_FILE_NAMES_END");
        bool end_regions = pp_filter_word_is(w, len, "SCOREP_REGION_NAMES_END");
        if (begin_files || begin_regions) {
            if (state != PP_FILTER_OUTSIDE)
                problem = "a block begins inside another block";
            state = PP_FILTER_BLOCK, in_files = begin_files;
        } else if (end_files || end_regions) {
            if (state == PP_FILTER_OUTSIDE || end_files != in_files)
                problem = "a block ends that did not begin";
            else if (state == PP_FILTER_RULE && rule_start)
                problem = "a rule without patterns";
            state = PP_FILTER_OUTSIDE;
        } else if (state == PP_FILTER_OUTSIDE) {
            problem = "text outside SCOREP_FILE_NAMES_BEGIN/END and SCOREP_REGION_NAMES_BEGIN/END";
        } else if (pp_filter_word_is(w, len, "EXCLUDE") || pp_filter_word_is(w, len, "INCLUDE")) {
            if (state == PP_FILTER_RULE && rule_start)
                problem = "a rule without patterns";
            rule = (pp_filter_rule){.file = in_files, .exclude = *w == 'E'};
            state = PP_FILTER_RULE, rule_start = true;
        } else if (pp_filter_word_is(w, len, "MANGLED") && state == PP_FILTER_RULE && rule_start &&
                   !in_files) {
            rule.mangled = true;
        } else if (state == PP_FILTER_BLOCK) {
            problem = "a pattern before EXCLUDE or INCLUDE";
        } else {
            rule_start = false;
            if (pp_filter_add(f, rule, w, len) != 0)
                problem = "out of memory";
        }
    }
    if (!problem && state != PP_FILTER_OUTSIDE)
        problem = "a block is not closed (SCOREP_..._END missing)";
    if (problem) {
        snprintf(err, err_size, "%s:%d: %s", name, line, problem);
        pp_filter_free(f);
        return NULL;
    }
    return f;
}

pp_filter *pp_filter_load(const char *path, char *err, size_t err_size)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, err_size, "%s: cannot be read", path);
        return NULL;
    }
    char *text = NULL;
    size_t n = 0, cap = 0, got = 1;
    while (got > 0) {
        if (n + 4097 > cap) {
            char *t = realloc(text, cap = 2 * cap + 8192);
            if (!t) {
                free(text), text = NULL;
                break;
            }
            text = t;
        }
        got = fread(text + n, 1, 4096, fp);
        n += got;
    }
    fclose(fp);
    if (!text) {
        snprintf(err, err_size, "%s: out of memory", path);
        return NULL;
    }
    text[n] = '\0';
    pp_filter *f = pp_filter_parse(text, path, err, err_size);
    free(text);
    return f;
}

bool pp_filter_excludes(const pp_filter *f, const char *name, const char *mangled,
                        const char *file)
{
    if (!f)
        return false;
    bool file_out = false, name_out = false;
    bool have_file = file && *file;
    const char *link = mangled && *mangled ? mangled : name;
    for (size_t i = 0; i < f->n; i++) {
        const pp_filter_rule *r = &f->rules[i];
        if (r->file) {
            if (have_file && fnmatch(r->pattern, file, 0) == 0)
                file_out = r->exclude;
        } else if (fnmatch(r->pattern, r->mangled ? link : name, 0) == 0) {
            name_out = r->exclude;
        }
    }
    return file_out || name_out;
}
