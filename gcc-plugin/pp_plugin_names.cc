/* The name, link name, file and lines of a function, as the profile shows
 * them -- the same as the library reads from the debug information for
 * code built with -finstrument-functions (lib/pp_dwarf.c), so that a filter
 * means the same at build time and at run time:
 * - C: the name as written;
 * - C++: the link name demangled (`int geo::twice<int>(int)`,
 *   `geo::Box::area(int) const`); a lambda is its call operator,
 *   `main::{lambda(int)#1}::operator()(int) const`: its enclosing
 *   function's name comes first;
 * - Fortran: the procedure behind its module and host procedures
 *   (`shapes::grow::inner`); the main program by its PROGRAM name.
 * The file is the declaring one, made absolute; the lines are the
 * declaration's and the function's closing one. */
#include "pp_plugin.h"

#include <cxxabi.h>
#include <stdlib.h>
#include <string.h>

#include "function.h"
#include "langhooks.h"
#include "libiberty.h"

static bool pp_plugin_fortran(void)
{
    return strncmp(lang_hooks.name, "GNU Fortran", 11) == 0;
}

/* "host::name" for a procedure nested in modules and procedures. */
static char *pp_plugin_fortran_name(tree fndecl)
{
    const char *parts[32];
    int n = 0;
    for (tree c = fndecl; c && n < 32; c = DECL_CONTEXT(c)) {
        if (TREE_CODE(c) != FUNCTION_DECL && TREE_CODE(c) != NAMESPACE_DECL)
            break;
        if (DECL_NAME(c))
            parts[n++] = IDENTIFIER_POINTER(DECL_NAME(c));
    }
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(parts[i]) + 2;
    char *s = XNEWVEC(char, len);
    s[0] = '\0';
    for (int i = n - 1; i >= 0; i--) {
        strcat(s, parts[i]);
        if (i)
            strcat(s, "::");
    }
    return s;
}

static char *pp_plugin_absolute(const char *file)
{
    if (!file || !*file)
        return xstrdup("");
    if (file[0] == '/' || file[0] == '<')
        return xstrdup(file);
    return concat(getpwd(), "/", file, NULL);
}

void pp_plugin_function_of(tree fndecl, pp_plugin_function *f)
{
    const char *link = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fndecl));
    const char *plain = DECL_NAME(fndecl) ? IDENTIFIER_POINTER(DECL_NAME(fndecl)) : link;
    char *name = NULL;
    if (pp_plugin_fortran()) {
        name = pp_plugin_fortran_name(fndecl);
    } else if (link[0] == '_' && link[1] == 'Z') {
        int status = -1;
        char *d = abi::__cxa_demangle(link, NULL, NULL, &status);
        name = xstrdup(d && status == 0 ? d : link);
        free(d);
    } else {
        name = xstrdup(plain);
    }
    f->name = name;
    f->mangled = xstrdup(strcmp(link, name) == 0 ? "" : link);
    expanded_location where = expand_location(DECL_SOURCE_LOCATION(fndecl));
    f->file = pp_plugin_absolute(where.file);
    f->line = where.file ? where.line : -1;
    f->end_line = -1;
    function *fn = DECL_STRUCT_FUNCTION(fndecl);
    if (fn && where.file) {
        expanded_location end = expand_location(fn->function_end_locus);
        if (end.file && strcmp(end.file, where.file) == 0 && end.line >= where.line)
            f->end_line = end.line;
    }
}

void pp_plugin_function_free(pp_plugin_function *f)
{
    free(f->name);
    free(f->mangled);
    free(f->file);
}
