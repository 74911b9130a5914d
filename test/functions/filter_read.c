/* filter_read: the library's filter reader (functions/pp_filter.c) on the
 * command line, for test_functions_filterfile, which reads the same files
 * with the Python reader and compares.
 *
 *   filter_read FILE [NAME MANGLED PATH]...
 *
 * prints the reader's message and exits 1 for a file it refuses; else one
 * line per pattern ("LINE files|regions exclude|include plain|mangled
 * PATTERN") and, per NAME MANGLED PATH triple, "excluded" or "included"
 * ("-" for an empty MANGLED or PATH). */
#include <stdio.h>
#include <string.h>

#include "functions/pp_filter.h"

static const char *arg(const char *s)
{
    return strcmp(s, "-") == 0 ? "" : s;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (argc - 2) % 3 != 0) {
        fprintf(stderr, "usage: filter_read FILE [NAME MANGLED PATH]...\n");
        return 2;
    }
    char err[1200];
    pp_filter *f = pp_filter_load(argv[1], err, sizeof err);
    if (!f) {
        printf("%s\n", err);
        return 1;
    }
    for (size_t i = 0; i < pp_filter_count(f); i++) {
        const pp_filter_rule *r = pp_filter_rule_at(f, i);
        printf("%d %s %s %s %s\n", r->line, r->file ? "files" : "regions",
               r->exclude ? "exclude" : "include", r->mangled ? "mangled" : "plain", r->pattern);
    }
    for (int i = 2; i + 2 < argc; i += 3)
        printf("%s\n", pp_filter_excludes(f, argv[i], arg(argv[i + 1]), arg(argv[i + 2]))
                           ? "excluded"
                           : "included");
    pp_filter_free(f);
    return 0;
}
