/* Code addresses to source positions through elfutils' libdwfl (when
 * configure found libdw), else through dladdr.
 *
 * OMPT gives a construct's code address as the return address of the call
 * into the runtime; the call itself is one byte earlier, and that byte's
 * line is the construct's (the return address may already be on the next
 * line).  Runs at finalize only, never on the event path. */
#define _GNU_SOURCE
#include "config.h"

#include "ompt/pp_ompt_resolve.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBDW
#include <elfutils/libdwfl.h>

static Dwfl *pp_ompt_dwfl;
static char *pp_ompt_debuginfo_path;
static const Dwfl_Callbacks pp_ompt_dwfl_callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &pp_ompt_debuginfo_path,
};
#endif

#ifdef HAVE_LIBDW
/* The line of addr found unit by unit: dwfl_module_getsrc finds units
 * through .debug_aranges, which clang does not write. */
static const char *pp_ompt_line_by_units(Dwfl_Module *m, Dwarf_Addr addr, int *line)
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
#endif

void pp_ompt_resolve_begin(void)
{
#ifdef HAVE_LIBDW
    pp_ompt_dwfl = dwfl_begin(&pp_ompt_dwfl_callbacks);
    if (pp_ompt_dwfl && (dwfl_linux_proc_report(pp_ompt_dwfl, getpid()) != 0 ||
                         dwfl_report_end(pp_ompt_dwfl, NULL, NULL) != 0)) {
        dwfl_end(pp_ompt_dwfl);
        pp_ompt_dwfl = NULL;
    }
#endif
}

void pp_ompt_resolve_end(void)
{
#ifdef HAVE_LIBDW
    if (pp_ompt_dwfl)
        dwfl_end(pp_ompt_dwfl);
    pp_ompt_dwfl = NULL;
#endif
}

static void pp_ompt_copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

int pp_ompt_resolve(const void *return_address, pp_ompt_where *out)
{
    memset(out, 0, sizeof *out);
    if (!return_address)
        return -1;
    uintptr_t call = (uintptr_t)return_address - 1;
#ifdef HAVE_LIBDW
    Dwfl_Module *m = pp_ompt_dwfl ? dwfl_addrmodule(pp_ompt_dwfl, call) : NULL;
    if (m) {
        Dwarf_Addr start = 0;
        const char *mainfile = NULL;
        const char *name = dwfl_module_info(m, NULL, &start, NULL, NULL, NULL, &mainfile, NULL);
        pp_ompt_copy(out->module, sizeof out->module, mainfile ? mainfile : name);
        out->module_offset = (uint64_t)((uintptr_t)return_address - start);
        Dwfl_Line *l = dwfl_module_getsrc(m, call);
        int line = 0;
        const char *file = l ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
        if (!file || line <= 0)
            file = pp_ompt_line_by_units(m, call, &line);
        if (file && line > 0) {
            pp_ompt_copy(out->file, sizeof out->file, file);
            out->line = line;
        }
        GElf_Off off = 0;
        GElf_Sym sym;
        const char *fn = dwfl_module_addrinfo(m, call, &off, &sym, NULL, NULL, NULL);
        if (fn) {
            pp_ompt_copy(out->function, sizeof out->function, fn);
            out->function_offset = (uint64_t)off + 1;
        }
        return 0;
    }
#endif
    Dl_info info;
    if (!dladdr((void *)call, &info))
        return -1;
    pp_ompt_copy(out->module, sizeof out->module, info.dli_fname);
    out->module_offset = (uint64_t)((uintptr_t)return_address - (uintptr_t)info.dli_fbase);
    if (info.dli_sname && info.dli_saddr) {
        pp_ompt_copy(out->function, sizeof out->function, info.dli_sname);
        out->function_offset = (uint64_t)((uintptr_t)return_address - (uintptr_t)info.dli_saddr);
    }
    return 0;
}
