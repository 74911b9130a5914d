/* pp_filter: Score-P filter files (pp_filter.h).  The same rules and
 * messages as scripts/pompprof_tools/filterfile.py, which the wrapper and
 * pompprof-score use (test_functions_filterfile checks both on the same
 * files). */
#include "functions/pp_filter.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct pp_filter {
    pp_filter_rule *rules;
    size_t n, cap;
};

static const char *const pp_filter_keywords[] = {
    "SCOREP_FILE_NAMES_BEGIN", "SCOREP_FILE_NAMES_END", "SCOREP_REGION_NAMES_BEGIN",
    "SCOREP_REGION_NAMES_END", "EXCLUDE", "INCLUDE", "MANGLED", "DEMANGLED"};
#define PP_FILTER_N_KEYWORDS (sizeof pp_filter_keywords / sizeof *pp_filter_keywords)

void pp_filter_free(pp_filter *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++)
        free(f->rules[i].pattern);
    free(f->rules);
    free(f);
}

size_t pp_filter_count(const pp_filter *f)
{
    return f ? f->n : 0;
}

const pp_filter_rule *pp_filter_rule_at(const pp_filter *f, size_t i)
{
    return f && i < f->n ? &f->rules[i] : NULL;
}

static int pp_filter_add(pp_filter *f, pp_filter_rule r, const char *word)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 16;
        pp_filter_rule *n = realloc(f->rules, cap * sizeof *n);
        if (!n)
            return -1;
        f->rules = n, f->cap = cap;
    }
    r.pattern = strdup(word);
    if (!r.pattern)
        return -1;
    f->rules[f->n++] = r;
    return 0;
}

static bool pp_filter_is(const char *w, const char *keyword)
{
    return strcmp(w, keyword) == 0;
}

/* Edit distance of two short words (insertions, deletions, substitutions);
 * words longer than the keywords are far from them anyway. */
static size_t pp_filter_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return la > lb ? la - lb : lb - la;
    size_t prev[41], cur[41];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t d = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            cur[j] = d;
        }
        memcpy(prev, cur, (lb + 1) * sizeof *prev);
    }
    return prev[lb];
}

/* Capitals and underscores only, a capital at both ends. */
static bool pp_filter_capitals(const char *w)
{
    size_t n = strlen(w);
    if (n < 2 || !isupper((unsigned char)w[0]) || !isupper((unsigned char)w[n - 1]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isupper((unsigned char)w[i]) && w[i] != '_')
            return false;
    return true;
}

/* Why a word that is no keyword would be mistaken for one: a message into
 * msg and true; false for a pattern (filterfile.keyword_problem). */
static bool pp_filter_keyword_problem(const char *w, bool first_on_line, char *msg,
                                      size_t size)
{
    for (size_t k = 0; k < PP_FILTER_N_KEYWORDS; k++)
        if (pp_filter_is(w, pp_filter_keywords[k]))
            return false;
    for (size_t k = 0; k < PP_FILTER_N_KEYWORDS; k++)
        if (strcasecmp(w, pp_filter_keywords[k]) == 0) {
            snprintf(msg, size, "unknown keyword '%s' (keywords are written in capitals: %s)",
                     w, pp_filter_keywords[k]);
            return true;
        }
    if (!pp_filter_capitals(w))
        return false;
    bool near = first_on_line || strncmp(w, "SCOREP_", 7) == 0;
    for (size_t k = 0; !near && k < PP_FILTER_N_KEYWORDS; k++)
        near = pp_filter_distance(w, pp_filter_keywords[k]) <= 2;
    if (near)
        snprintf(msg, size, "unknown keyword '%s'", w);
    return near;
}

/* The parser's state between words. */
typedef struct pp_filter_parser {
    const char *name;
    pp_filter *f;
    const char *block; /* NULL, or the BEGIN keyword of the open block */
    int block_line;
    bool in_rule;
    pp_filter_rule rule; /* the open rule: exclude, mangled, line */
    size_t rule_patterns;
    char *err;
    size_t err_size;
} pp_filter_parser;

static int pp_filter_fail(pp_filter_parser *p, int line, const char *fmt, ...)
{
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->err_size, "%s:%d: %s", p->name, line, what);
    return -1;
}

static int pp_filter_close_rule(pp_filter_parser *p)
{
    if (p->in_rule && p->rule_patterns == 0)
        return pp_filter_fail(p, p->rule.line, "%s without patterns",
                              p->rule.exclude ? "EXCLUDE" : "INCLUDE");
    p->in_rule = false;
    return 0;
}

static int pp_filter_word(pp_filter_parser *p, const char *w, int line, bool first_on_line)
{
    static const char *const begin_files = "SCOREP_FILE_NAMES_BEGIN",
                             *const begin_regions = "SCOREP_REGION_NAMES_BEGIN";
    char msg[300];
    if (pp_filter_keyword_problem(w, first_on_line, msg, sizeof msg))
        return pp_filter_fail(p, line, "%s", msg);
    if (pp_filter_is(w, begin_files) || pp_filter_is(w, begin_regions)) {
        if (p->block)
            return pp_filter_fail(p, line, "%s begins inside another block", w);
        p->block = pp_filter_is(w, begin_files) ? begin_files : begin_regions;
        p->block_line = line;
        p->in_rule = false;
    } else if (pp_filter_is(w, "SCOREP_FILE_NAMES_END") ||
               pp_filter_is(w, "SCOREP_REGION_NAMES_END")) {
        const char *opener = w[7] == 'F' ? begin_files : begin_regions;
        if (p->block != opener)
            return pp_filter_fail(p, line, "%s without %s", w, opener);
        if (pp_filter_close_rule(p))
            return -1;
        p->block = NULL;
    } else if (!p->block) {
        return pp_filter_fail(p, line,
                              "'%s' outside SCOREP_FILE_NAMES_BEGIN/END and "
                              "SCOREP_REGION_NAMES_BEGIN/END",
                              w);
    } else if (pp_filter_is(w, "EXCLUDE") || pp_filter_is(w, "INCLUDE")) {
        if (pp_filter_close_rule(p))
            return -1;
        p->in_rule = true;
        p->rule = (pp_filter_rule){.file = p->block == begin_files, .exclude = *w == 'E',
                                   .line = line};
        p->rule_patterns = 0;
    } else if (pp_filter_is(w, "MANGLED") || pp_filter_is(w, "DEMANGLED")) {
        if (p->block == begin_files)
            return pp_filter_fail(
                p, line, "%s applies to region names, not in SCOREP_FILE_NAMES_BEGIN/END", w);
        if (!p->in_rule)
            return pp_filter_fail(p, line, "%s before EXCLUDE or INCLUDE", w);
        p->rule.mangled = *w == 'M';
    } else if (!p->in_rule) {
        return pp_filter_fail(p, line, "pattern '%s' before EXCLUDE or INCLUDE", w);
    } else {
        pp_filter_rule r = p->rule;
        r.line = line;
        if (pp_filter_add(p->f, r, w) != 0)
            return pp_filter_fail(p, line, "out of memory");
        p->rule_patterns++;
    }
    return 0;
}

/* One line: words split at blanks that no backslash quotes, up to the first
 * '#' that none quotes; the backslashes stay in the words (fnmatch reads
 * them). */
static int pp_filter_line(pp_filter_parser *p, const char *s, size_t len, int line)
{
    char *word = malloc(len + 1);
    if (!word)
        return pp_filter_fail(p, line, "out of memory");
    size_t n = 0;
    bool first = true;
    int rc = 0;
    for (size_t i = 0; i <= len && rc == 0; i++) {
        char c = i < len ? s[i] : ' ';
        if (c == '\\') {
            if (i + 1 >= len) {
                rc = pp_filter_fail(p, line, "a line ends with a backslash (lines cannot be "
                                             "continued that way)");
                break;
            }
            word[n++] = c;
            word[n++] = s[++i];
            continue;
        }
        bool end = c == '#';
        if (end || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            if (n) {
                word[n] = '\0';
                rc = pp_filter_word(p, word, line, first);
                first = false, n = 0;
            }
            if (end)
                break;
        } else {
            word[n++] = c;
        }
    }
    free(word);
    return rc;
}

pp_filter *pp_filter_parse(const char *text, const char *name, char *err, size_t err_size)
{
    pp_filter *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, err_size, "%s: out of memory", name);
        return NULL;
    }
    pp_filter_parser p = {.name = name, .f = f, .err = err, .err_size = err_size};
    int line = 1, rc = 0;
    for (const char *s = text; *s && rc == 0; line++) {
        size_t len = strcspn(s, "\n");
        rc = pp_filter_line(&p, s, len, line);
        s += len;
        if (*s == '\n')
            s++;
    }
    if (rc == 0 && p.block) {
        rc = pp_filter_close_rule(&p);
        if (rc == 0)
            rc = pp_filter_fail(&p, p.block_line, "%s is not closed (%s missing)", p.block,
                                p.block[7] == 'F' ? "SCOREP_FILE_NAMES_END"
                                                  : "SCOREP_REGION_NAMES_END");
    }
    if (rc) {
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

static bool pp_filter_starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* An absolute path without "." and "dir/.." (clang's debug information
 * names /usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/...);
 * the path as it is when it does not fit. */
static const char *pp_filter_lexical(const char *path, char *buf, size_t size)
{
    size_t len = strlen(path);
    if (path[0] != '/' || len >= size)
        return path;
    size_t n = 0;
    for (const char *p = path; *p;) {
        while (*p == '/')
            p++;
        size_t part = strcspn(p, "/");
        if (part == 1 && p[0] == '.') {
            /* nothing */
        } else if (part == 2 && p[0] == '.' && p[1] == '.') {
            while (n > 0 && buf[--n] != '/')
                ;
        } else if (part) {
            buf[n++] = '/';
            memcpy(buf + n, p, part);
            n += part;
        }
        p += part;
    }
    if (n == 0)
        buf[n++] = '/';
    buf[n] = '\0';
    return buf;
}

bool pp_filter_never(const char *name, const char *file)
{
    static const char *const dirs[] = {"/usr/include/", "/usr/lib/gcc/", "/usr/lib/llvm-"};
    /* OPARI2's region initialisation; the OpenMP bodies clang outlines
     * (gcc outlines them after instrumenting) */
    static const char *const names[] = {"POMP2_Init_reg_", "POMP2_USER_Init_reg_",
                                        "pomp2_init_reg_", "pomp2_user_init_reg_",
                                        ".omp_outlined", ".omp_task_", ".omp."};
    char buf[4096];
    const char *path = file && *file ? pp_filter_lexical(file, buf, sizeof buf) : "";
    size_t len = strlen(path);
    for (size_t i = 0; len && i < sizeof dirs / sizeof *dirs; i++)
        if (pp_filter_starts(path, dirs[i]))
            return true;
    if (len && (path[0] == '<' || (len >= 11 && strcmp(path + len - 11, "/pompprof.h") == 0)))
        return true;
    for (size_t i = 0; name && i < sizeof names / sizeof *names; i++)
        if (pp_filter_starts(name, names[i]))
            return true;
    return false;
}
