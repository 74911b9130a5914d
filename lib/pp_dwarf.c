/* pp_dwarf: addresses to function names, files and lines (pp_dwarf.h). */
#define _GNU_SOURCE
#include "lib/pp_dwarf.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

static void pp_dwarf_copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

int pp_dwarf_demangle(const char *mangled, char *buf, size_t size)
{
    typedef char *(*demangler)(const char *, char *, size_t *, int *);
    /* looked up each time: only called once per function, at the end */
    demangler dm = (demangler)(uintptr_t)dlsym(RTLD_DEFAULT, "__cxa_demangle");
    int status = -1;
    bool cxx = mangled && mangled[0] == '_' && mangled[1] == 'Z';
    char *d = dm && cxx ? dm(mangled, NULL, NULL, &status) : NULL;
    if (d && status == 0) {
        pp_dwarf_copy(buf, size, d);
        free(d);
        return 0;
    }
    free(d);
    pp_dwarf_copy(buf, size, mangled);
    return -1;
}

#ifdef HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "lib/pp_dlload.h"

struct pp_dwarf {
    Dwfl *dwfl;
};

/* libdw is loaded with dlopen on the first look-up, not linked: a program
 * that never names functions does not pay for loading and relocating libdw
 * and its libraries at start-up.  The calls keep libdw's names and go through
 * pointers resolved once. */
#define PP_DW_FUNCS(X)                                                                             \
    X(dwfl_begin) X(dwfl_end) X(dwfl_report_begin) X(dwfl_report_end) X(dwfl_linux_proc_report)    \
    X(dwfl_linux_proc_find_elf) X(dwfl_standard_find_debuginfo) X(dwfl_addrmodule)                 \
    X(dwfl_module_addrdie) X(dwfl_module_addrname) X(dwfl_module_getsrc) X(dwfl_lineinfo)          \
    X(dwarf_attr) X(dwarf_attr_integrate) X(dwarf_formstring) X(dwarf_formref_die)                 \
    X(dwarf_srclang) X(dwarf_getscopes) X(dwarf_getscopes_die) X(dwarf_tag) X(dwarf_diename)       \
    X(dwarf_decl_file) X(dwarf_decl_line) X(dwarf_ranges) X(dwfl_module_getdwarf)                 \
    X(dwarf_get_units) X(dwarf_haspc) X(dwarf_getsrc_die) X(dwarf_lineno) X(dwarf_linesrc)         \
    X(dwfl_module_info) X(dwfl_module_addrinfo) X(dwarf_getsrclines) X(dwarf_onesrcline)          \
    X(dwarf_lineaddr) X(dwfl_module_getsymtab) X(dwfl_module_getsym_info) X(dwarf_formudata)     \
    X(dwarf_getsrcfiles) X(dwarf_filesrc) X(dwarf_getfuncs) X(dwarf_lowpc)

#define PP_DW_POINTER(f) __typeof__(&f) f;
static struct {
    PP_DW_FUNCS(PP_DW_POINTER)
} pp_dw;
static int pp_dw_state; /* 0 not tried, 1 loaded, -1 not available */

/* 0 once libdw and every function above are at hand, else -1 (tried once). */
static int pp_dw_load(void)
{
    if (pp_dw_state)
        return pp_dw_state > 0 ? 0 : -1;
    pp_dw_state = -1;
#define PP_DW_SLOT(f) (void *)&pp_dw.f,
    static const char *const names[] = {PP_DW_FUNCS(PP_DLLOAD_NAME)};
    void *const slots[] = {PP_DW_FUNCS(PP_DW_SLOT)};
#undef PP_DW_SLOT
    char why[256]; /* a missing libdw leaves names unresolved, as before (no message) */
    if (pp_dlload(PP_LIBDW_SONAME, RTLD_NOW | RTLD_LOCAL, names, slots,
                  sizeof names / sizeof names[0], why, sizeof why) < 0)
        return -1;
    pp_dw_state = 1;
    return 0;
}

/* from here on libdw's names are the loaded functions */
#define dwfl_begin pp_dw.dwfl_begin
#define dwfl_end pp_dw.dwfl_end
#define dwfl_report_begin pp_dw.dwfl_report_begin
#define dwfl_report_end pp_dw.dwfl_report_end
#define dwfl_linux_proc_report pp_dw.dwfl_linux_proc_report
#define dwfl_linux_proc_find_elf pp_dw.dwfl_linux_proc_find_elf
#define dwfl_standard_find_debuginfo pp_dw.dwfl_standard_find_debuginfo
#define dwfl_addrmodule pp_dw.dwfl_addrmodule
#define dwfl_module_addrdie pp_dw.dwfl_module_addrdie
#define dwfl_module_addrname pp_dw.dwfl_module_addrname
#define dwfl_module_getsrc pp_dw.dwfl_module_getsrc
#define dwfl_lineinfo pp_dw.dwfl_lineinfo
#define dwarf_attr pp_dw.dwarf_attr
#define dwarf_attr_integrate pp_dw.dwarf_attr_integrate
#define dwarf_formstring pp_dw.dwarf_formstring
#define dwarf_formref_die pp_dw.dwarf_formref_die
#define dwarf_srclang pp_dw.dwarf_srclang
#define dwarf_getscopes pp_dw.dwarf_getscopes
#define dwarf_getscopes_die pp_dw.dwarf_getscopes_die
#define dwarf_tag pp_dw.dwarf_tag
#define dwarf_diename pp_dw.dwarf_diename
#define dwarf_decl_file pp_dw.dwarf_decl_file
#define dwarf_decl_line pp_dw.dwarf_decl_line
#define dwarf_ranges pp_dw.dwarf_ranges
#define dwfl_module_getdwarf pp_dw.dwfl_module_getdwarf
#define dwarf_get_units pp_dw.dwarf_get_units
#define dwarf_haspc pp_dw.dwarf_haspc
#define dwarf_getsrc_die pp_dw.dwarf_getsrc_die
#define dwarf_lineno pp_dw.dwarf_lineno
#define dwarf_linesrc pp_dw.dwarf_linesrc
#define dwfl_module_info pp_dw.dwfl_module_info
#define dwfl_module_addrinfo pp_dw.dwfl_module_addrinfo
#define dwarf_getsrclines pp_dw.dwarf_getsrclines
#define dwarf_onesrcline pp_dw.dwarf_onesrcline
#define dwarf_lineaddr pp_dw.dwarf_lineaddr
#define dwfl_module_getsymtab pp_dw.dwfl_module_getsymtab
#define dwarf_formudata pp_dw.dwarf_formudata
#define dwarf_getsrcfiles pp_dw.dwarf_getsrcfiles
#define dwarf_filesrc pp_dw.dwarf_filesrc
#define dwarf_getfuncs pp_dw.dwarf_getfuncs
#define dwarf_lowpc pp_dw.dwarf_lowpc
#define dwfl_module_getsym_info pp_dw.dwfl_module_getsym_info

static char *pp_dwarf_debuginfo_path;
static Dwfl_Callbacks pp_dwarf_callbacks = {.debuginfo_path = &pp_dwarf_debuginfo_path};

pp_dwarf *pp_dwarf_open_self(void)
{
    if (pp_dw_load() < 0)
        return NULL;
    pp_dwarf_callbacks.find_elf = dwfl_linux_proc_find_elf;
    pp_dwarf_callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    pp_dwarf *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->dwfl = dwfl_begin(&pp_dwarf_callbacks);
    if (!d->dwfl) {
        free(d);
        return NULL;
    }
    dwfl_report_begin(d->dwfl);
    int rc = dwfl_linux_proc_report(d->dwfl, getpid());
    dwfl_report_end(d->dwfl, NULL, NULL);
    if (rc != 0) {
        pp_dwarf_close(d);
        return NULL;
    }
    return d;
}

void pp_dwarf_close(pp_dwarf *d)
{
    if (!d)
        return;
    if (d->dwfl)
        dwfl_end(d->dwfl);
    free(d);
}

static const char *pp_dwarf_string(Dwarf_Die *die, unsigned int name)
{
    Dwarf_Attribute a;
    return dwarf_attr_integrate(die, name, &a) ? dwarf_formstring(&a) : NULL;
}

static int pp_dwarf_is_fortran(Dwarf_Die *cu)
{
    int lang = dwarf_srclang(cu);
    return lang == DW_LANG_Fortran77 || lang == DW_LANG_Fortran90 || lang == DW_LANG_Fortran95 ||
           lang == DW_LANG_Fortran03 || lang == DW_LANG_Fortran08;
}

/* Fortran: the procedure's name behind the names of the modules and host
 * procedures that contain it ("mod::host::inner"), as the source nests them;
 * the link names (__mod_MOD_proc) are the compiler's, not the user's. */
static void pp_dwarf_fortran_name(Dwarf_Die *fn, const char *name, const char *link, char *buf,
                                  size_t size)
{
    Dwarf_Die decl = *fn, origin;
    Dwarf_Attribute a;
    /* an out-of-line copy of an inlined procedure, or the definition of a
     * declared one: its nesting is its origin's */
    while ((dwarf_attr(&decl, DW_AT_abstract_origin, &a) ||
            dwarf_attr(&decl, DW_AT_specification, &a)) &&
           dwarf_formref_die(&a, &origin))
        decl = origin;
    Dwarf_Die *chain = NULL;
    int n = dwarf_getscopes_die(&decl, &chain);
    buf[0] = '\0';
    size_t len = 0;
    for (int i = n - 1; i >= 1; i--) { /* chain[0] is the procedure, chain[n-1] the unit */
        int tag = dwarf_tag(&chain[i]);
        if (tag != DW_TAG_module && tag != DW_TAG_subprogram && tag != DW_TAG_namespace)
            continue;
        const char *s = dwarf_diename(&chain[i]);
        if (s && len < size)
            len += (size_t)snprintf(buf + len, size - len, "%s::", s);
    }
    free(chain);
    /* minimal debug information (-g1) has no module entries: the link name
     * of a module procedure, __<module>_MOD_<name>, still says which */
    const char *mod = link ? strstr(link, "_MOD_") : NULL;
    if (len == 0 && mod && link[0] == '_' && link[1] == '_' && mod > link + 2)
        len = (size_t)snprintf(buf, size, "%.*s::", (int)(mod - link - 2), link + 2);
    if (len < size)
        snprintf(buf + len, size - len, "%s", name);
}

/* The declaring file by its index in the unit's file table: libdw takes
 * index 0 for "none", where DWARF 5 (clang's default) numbers the unit's
 * own file 0. */
static const char *pp_dwarf_decl_file(Dwarf_Die *cu, Dwarf_Die *fn)
{
    const char *file = dwarf_decl_file(fn);
    Dwarf_Attribute a;
    Dwarf_Word idx;
    Dwarf_Files *files;
    size_t n;
    if (file || !dwarf_attr_integrate(fn, DW_AT_decl_file, &a) || dwarf_formudata(&a, &idx) != 0 ||
        dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
        return file;
    return dwarf_filesrc(files, idx, NULL, NULL);
}

static void pp_dwarf_file(Dwarf_Die *cu, Dwarf_Die *fn, pp_dwarf_func *out)
{
    const char *file = pp_dwarf_decl_file(cu, fn);
    int line = -1;
    if (dwarf_decl_line(fn, &line) != 0)
        line = -1;
    out->line = line;
    if (!file)
        return;
    const char *dir = pp_dwarf_string(cu, DW_AT_comp_dir);
    if (file[0] != '/' && dir)
        snprintf(out->file, sizeof out->file, "%s/%s", dir, file);
    else
        pp_dwarf_copy(out->file, sizeof out->file, file);
}

/* Where the code at addr comes from, by the line table: for functions the
 * compiler made without a declaration of their own (lambdas' operator()). */
static void pp_dwarf_line_of(Dwfl_Module *m, uintptr_t addr, pp_dwarf_func *out)
{
    Dwfl_Line *l = dwfl_module_getsrc(m, addr);
    int line = -1;
    const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
    if (!file)
        return;
    pp_dwarf_copy(out->file, sizeof out->file, file);
    out->line = line;
}

/* Is the line table's file name that of the declaring file (the table may
 * name it relative to the compilation directory)? */
static bool pp_dwarf_same_file(const char *file, const pp_dwarf_func *out)
{
    size_t lf = strlen(file), lo = strlen(out->file);
    return lf <= lo && strcmp(out->file + (lo - lf), file) == 0;
}

/* Index of the first row of the address-sorted line table at or after addr. */
static size_t pp_dwarf_first_row(Dwarf_Lines *lines, size_t n, Dwarf_Addr addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        Dwarf_Addr a = 0;
        dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a);
        if (a < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The function's last line: that of its last instruction in the declaring
 * file (normally the closing brace), in the piece of code it is entered at
 * (entry: the function's address, as the line table counts addresses).
 * Not simply the last instruction's: after the return gcc places landing
 * pads and jumps to a .cold part, whose lines are those of inlined library
 * code; and a function in several pieces (DW_AT_ranges: main and C++ code
 * with their cold paths split off) has no high pc.  The rows are walked
 * backwards from the end of the piece, found by binary search. */
static void pp_dwarf_end_line(Dwarf_Die *cu, Dwarf_Die *fn, Dwarf_Addr entry,
                              pp_dwarf_func *out)
{
    Dwarf_Lines *lines;
    size_t n;
    Dwarf_Addr base, start, end;
    if (out->line < 0 || !out->file[0] || dwarf_getsrclines(cu, &lines, &n) != 0)
        return;
    ptrdiff_t off = 0;
    while ((off = dwarf_ranges(fn, off, &base, &start, &end)) > 0)
        if (start <= entry && entry < end)
            break;
    if (off <= 0)
        return;
    for (size_t i = pp_dwarf_first_row(lines, n, end); i-- > 0;) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i);
        Dwarf_Addr a = 0;
        int line = -1;
        if (dwarf_lineaddr(l, &a) != 0 || a < start)
            return;
        const char *file = dwarf_linesrc(l, NULL, NULL);
        if (file && pp_dwarf_same_file(file, out) && dwarf_lineno(l, &line) == 0) {
            if (line >= out->line)
                out->end_line = line;
            return;
        }
    }
}

/* The unit whose code holds addr, found unit by unit: dwfl_module_addrdie
 * finds units through .debug_aranges, which clang does not write. */
static Dwarf_Die *pp_dwarf_unit_of(Dwfl_Module *m, uintptr_t addr, Dwarf_Die *unit,
                                   Dwarf_Addr *bias)
{
    Dwarf *dw = dwfl_module_getdwarf(m, bias);
    Dwarf_CU *cu = NULL;
    while (dw && dwarf_get_units(dw, cu, &cu, NULL, NULL, unit, NULL) == 0)
        if (dwarf_haspc(unit, addr - *bias) == 1)
            return unit;
    return NULL;
}

typedef struct pp_dwarf_entry_search {
    Dwarf_Addr entry;
    Dwarf_Die *found;
    bool ok;
} pp_dwarf_entry_search;

static int pp_dwarf_entry_visit(Dwarf_Die *fn, void *arg)
{
    pp_dwarf_entry_search *s = arg;
    Dwarf_Addr low;
    if (dwarf_lowpc(fn, &low) == 0 && low == s->entry) {
        *s->found = *fn;
        s->ok = true;
        return DWARF_CB_ABORT;
    }
    return DWARF_CB_OK;
}

/* The unit's subprogram whose code starts at entry (0), else -1. */
static int pp_dwarf_func_at(Dwarf_Die *cu, Dwarf_Addr entry, Dwarf_Die *out)
{
    pp_dwarf_entry_search s = {.entry = entry, .found = out};
    dwarf_getfuncs(cu, pp_dwarf_entry_visit, &s, 0);
    return s.ok ? 0 : -1;
}

int pp_dwarf_lookup(pp_dwarf *d, uintptr_t addr, pp_dwarf_func *out)
{
    memset(out, 0, sizeof *out);
    out->line = out->end_line = -1;
    if (!d)
        return -1;
    Dwfl_Module *m = dwfl_addrmodule(d->dwfl, addr);
    if (!m)
        return -1;
    Dwarf_Addr bias = 0;
    Dwarf_Die unit;
    Dwarf_Die *cu = dwfl_module_addrdie(m, addr, &bias);
    Dwarf_Die *scopes = NULL;
    int n = cu ? dwarf_getscopes(cu, addr - bias, &scopes) : 0;
    if (n <= 0 && !cu)
        cu = pp_dwarf_unit_of(m, addr, &unit, &bias); /* clang writes no .debug_aranges */
    Dwarf_Die *fn = NULL, at_entry;
    /* the innermost subprogram: code inlined at the very entry would be an
     * inlined_subroutine scope inside it */
    for (int i = 0; i < n && !fn; i++)
        if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
            fn = &scopes[i];
    /* libdw finds no scope for the functions clang puts into a namespace
     * (DWARF 5): the subprogram that starts at addr, among all */
    if (!fn && cu && pp_dwarf_func_at(cu, addr - bias, &at_entry) == 0)
        fn = &at_entry;
    int found = -1;
    if (fn) {
        const char *name = pp_dwarf_string(fn, DW_AT_name);
        const char *link = pp_dwarf_string(fn, DW_AT_linkage_name);
        if (!link)
            link = pp_dwarf_string(fn, DW_AT_MIPS_linkage_name);
        if (name || link) {
            found = 0;
            if (link)
                pp_dwarf_copy(out->mangled, sizeof out->mangled, link);
            /* C++ without a link name in DWARF (a lambda's operator()): the
             * symbol table's, which says whose lambda it is */
            const char *sym = NULL;
            if (!link && !pp_dwarf_is_fortran(cu) && (sym = dwfl_module_addrname(m, addr)) &&
                sym[0] == '_' && sym[1] == 'Z') {
                link = sym;
                pp_dwarf_copy(out->mangled, sizeof out->mangled, link);
            }
            if (pp_dwarf_is_fortran(cu))
                pp_dwarf_fortran_name(fn, name ? name : link, link, out->name, sizeof out->name);
            else if (link && link[0] == '_' && link[1] == 'Z')
                pp_dwarf_demangle(link, out->name, sizeof out->name);
            else
                pp_dwarf_copy(out->name, sizeof out->name, name ? name : link);
            pp_dwarf_file(cu, fn, out);
            if (!out->file[0])
                pp_dwarf_line_of(m, addr, out);
            pp_dwarf_end_line(cu, fn, addr - bias, out);
        }
    }
    free(scopes);
    if (found != 0) {
        /* no debug information: the symbol table's name */
        const char *sym = dwfl_module_addrname(m, addr);
        if (!sym)
            return -1;
        pp_dwarf_copy(out->mangled, sizeof out->mangled, sym);
        pp_dwarf_demangle(sym, out->name, sizeof out->name);
        found = 0;
    }
    return found;
}

int pp_dwarf_functions(pp_dwarf *d, uintptr_t code_addr, void (*cb)(uintptr_t addr, void *user),
                       void *user)
{
    Dwfl_Module *m = d ? dwfl_addrmodule(d->dwfl, code_addr) : NULL;
    int n = m ? dwfl_module_getsymtab(m) : -1;
    if (n < 0)
        return -1;
    /* symbols at one address (aliases, C++'s C1/C2 constructors) come one
     * after another only by chance: the callee sees each address it is
     * given and drops the repeats */
    int calls = 0;
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr = 0;
        GElf_Word shndx = 0;
        const char *name = dwfl_module_getsym_info(m, i, &sym, &addr, &shndx, NULL, NULL);
        if (name && GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF &&
            addr != 0) {
            cb((uintptr_t)addr, user);
            calls++;
        }
    }
    return calls;
}

/* The line of addr found unit by unit: dwfl_module_getsrc finds units
 * through .debug_aranges, which clang does not write. */
static const char *pp_dwarf_line_by_units(Dwfl_Module *m, Dwarf_Addr addr, int *line)
{
    Dwarf_Addr bias = 0;
    Dwarf *dw = dwfl_module_getdwarf(m, &bias);
    if (!dw)
        return NULL;
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie;
    while (dwarf_get_units(dw, cu, &cu, NULL, NULL, &cudie, NULL) == 0) {
        if (dwarf_haspc(&cudie, addr - bias) != 1)
            continue;
        Dwarf_Line *l = dwarf_getsrc_die(&cudie, addr - bias);
        if (l && dwarf_lineno(l, line) == 0 && *line > 0)
            return dwarf_linesrc(l, NULL, NULL);
    }
    return NULL;
}

int pp_dwarf_position(pp_dwarf *d, uintptr_t addr, pp_dwarf_where *out)
{
    memset(out, 0, sizeof *out);
    Dwfl_Module *m = d ? dwfl_addrmodule(d->dwfl, addr) : NULL;
    if (!m)
        return -1;
    Dwarf_Addr start = 0;
    const char *mainfile = NULL;
    const char *name = dwfl_module_info(m, NULL, &start, NULL, NULL, NULL, &mainfile, NULL);
    pp_dwarf_copy(out->module, sizeof out->module, mainfile ? mainfile : name);
    out->module_offset = (uint64_t)(addr - start);
    Dwfl_Line *l = dwfl_module_getsrc(m, addr);
    int line = 0;
    const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
    if (!file || line <= 0)
        file = pp_dwarf_line_by_units(m, addr, &line);
    if (file && line > 0) {
        pp_dwarf_copy(out->file, sizeof out->file, file);
        out->line = line;
    }
    GElf_Off off = 0;
    GElf_Sym sym;
    const char *fn = dwfl_module_addrinfo(m, addr, &off, &sym, NULL, NULL, NULL);
    if (fn) {
        pp_dwarf_copy(out->function, sizeof out->function, fn);
        out->function_offset = (uint64_t)off;
    }
    return 0;
}

#else /* no libdw: dladdr's names of exported symbols */

struct pp_dwarf {
    int unused;
};

pp_dwarf *pp_dwarf_open_self(void)
{
    return calloc(1, sizeof(pp_dwarf));
}

void pp_dwarf_close(pp_dwarf *d)
{
    free(d);
}

int pp_dwarf_functions(pp_dwarf *d, uintptr_t code_addr, void (*cb)(uintptr_t addr, void *user),
                       void *user)
{
    (void)d, (void)code_addr, (void)cb, (void)user;
    return -1;
}

int pp_dwarf_lookup(pp_dwarf *d, uintptr_t addr, pp_dwarf_func *out)
{
    memset(out, 0, sizeof *out);
    out->line = out->end_line = -1;
    Dl_info info;
    if (!d || !dladdr((void *)addr, &info) || !info.dli_sname)
        return -1;
    pp_dwarf_copy(out->mangled, sizeof out->mangled, info.dli_sname);
    pp_dwarf_demangle(info.dli_sname, out->name, sizeof out->name);
    return 0;
}

int pp_dwarf_position(pp_dwarf *d, uintptr_t addr, pp_dwarf_where *out)
{
    memset(out, 0, sizeof *out);
    Dl_info info;
    if (!d || !dladdr((void *)addr, &info))
        return -1;
    pp_dwarf_copy(out->module, sizeof out->module, info.dli_fname);
    out->module_offset = (uint64_t)(addr - (uintptr_t)info.dli_fbase);
    if (info.dli_sname && info.dli_saddr) {
        pp_dwarf_copy(out->function, sizeof out->function, info.dli_sname);
        out->function_offset = (uint64_t)(addr - (uintptr_t)info.dli_saddr);
    }
    return 0;
}
#endif
