/* Functions instrumented with -finstrument-functions (clang, or gcc without
 * pompprof's plugin): __cyg_profile_func_enter/exit give a function's
 * address, a process-wide open-addressing table maps it to its region.
 *
 * The table is made when the library starts, before the program's
 * constructors: every function the symbol tables of the instrumented
 * modules (those that call __cyg_profile_func_enter) define gets its name,
 * file and lines from the debug information, the never-measured rules and
 * POMPPROF_FILTER are applied, and its region is defined.  An event only
 * looks its address up: no lock, no allocation, no file, so it is safe in
 * a signal handler, a fork child or an atexit handler.
 *
 * An address the table does not hold (a library loaded with dlopen after
 * start, a function missing from the symbol table) is remembered as not
 * measured -- a slot claimed with one compare-and-swap -- and the end says
 * where such functions were. */
#define _GNU_SOURCE
#include "functions/pp_functions.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "functions/pp_functions_internal.h"
#include "lib/pp_dwarf.h"
#include "lib/pp_message.h"
#include "lib/pp_modules.h"
#include "profile/pp_profile.h"

/* 2^16 functions, 1 MiB of zero pages until used; 3/4 of it is filled at
 * most, so a probe for a missing address ends soon */
#define PP_FA_BITS 16
#define PP_FA_SLOTS (1u << PP_FA_BITS)
#define PP_FA_LIMIT (PP_FA_SLOTS / 4 * 3)
/* a slot's region: a function's region id (> 0, below 2^31); 0: unknown at
 * start, not measured; PP_FA_LEFT_OUT: known at start, not measured (left
 * out by the filter, never measured, or without a name) */
#define PP_FA_LEFT_OUT 0x80000000u
/* the modules prepared at start and all loaded then, to tell at the end
 * why a function was not measured */
#define PP_FA_MODULES 64
#define PP_FA_LOADED 512

typedef struct pp_fa_slot {
    uintptr_t addr; /* 0: free */
    uint32_t region;
} pp_fa_slot;

static pp_fa_slot pp_fa_table[PP_FA_SLOTS];
static uint32_t pp_fa_used; /* slots taken or being taken */
static uintptr_t pp_fa_modules[PP_FA_MODULES];
static int pp_fa_n_modules;
static uintptr_t pp_fa_loaded[PP_FA_LOADED];
static int pp_fa_n_loaded;

static inline __attribute__((always_inline)) uint32_t pp_fa_hash(uintptr_t addr)
{
    /* code addresses are aligned and close together: multiply, take the top */
    return (uint32_t)(((uint64_t)addr * 0x9E3779B97F4A7C15ull) >> (64 - PP_FA_BITS));
}

/* An address the table does not hold: claim a free slot for it (region 0,
 * not measured), so that its later calls find it at once.  Lock-free: the
 * slot's address goes from 0 to addr by one compare-and-swap; a thread that
 * loses the race to the same address finds it there. */
static __attribute__((noinline)) uint32_t pp_fa_unknown(uintptr_t addr, uint32_t h)
{
    for (;; h = (h + 1) & (PP_FA_SLOTS - 1)) {
        uintptr_t k = __atomic_load_n(&pp_fa_table[h].addr, __ATOMIC_ACQUIRE);
        if (k == addr)
            return pp_fa_table[h].region;
        if (k != 0)
            continue;
        if (__atomic_fetch_add(&pp_fa_used, 1, __ATOMIC_RELAXED) >= PP_FA_LIMIT) {
            __atomic_fetch_sub(&pp_fa_used, 1, __ATOMIC_RELAXED);
            return 0; /* full: not remembered, not measured */
        }
        uintptr_t expected = 0;
        if (__atomic_compare_exchange_n(&pp_fa_table[h].addr, &expected, addr, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return 0;
        __atomic_fetch_sub(&pp_fa_used, 1, __ATOMIC_RELAXED);
        if (expected == addr)
            return pp_fa_table[h].region;
    }
}

static inline __attribute__((always_inline)) uint32_t pp_fa_region(uintptr_t addr)
{
    for (uint32_t h = pp_fa_hash(addr);; h = (h + 1) & (PP_FA_SLOTS - 1)) {
        uintptr_t k = __atomic_load_n(&pp_fa_table[h].addr, __ATOMIC_ACQUIRE);
        if (__builtin_expect(k == addr, 1))
            return pp_fa_table[h].region;
        if (k == 0)
            return pp_fa_unknown(addr, h);
    }
}

void __cyg_profile_func_enter(void *fn, void *call_site)
{
    (void)call_site;
    uint32_t r = pp_fa_region((uintptr_t)fn);
    if (__builtin_expect((int32_t)r > 0, 1))
        pp_profile_enter(r);
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
    (void)call_site;
    uint32_t r = pp_fa_region((uintptr_t)fn);
    if (__builtin_expect((int32_t)r > 0, 1))
        pp_profile_exit(r);
}

/* ---- the table, made at start -------------------------------------------------- */

typedef struct pp_fa_prep {
    pp_dwarf *dwarf;
    pp_dwarf_func *func; /* one look-up's result */
    unsigned full;       /* functions beyond the table's limit */
} pp_fa_prep;

/* One function of an instrumented module (each address once). */
static void pp_fa_prepare_function(uintptr_t addr, void *user)
{
    pp_fa_prep *p = user;
    uint32_t h = pp_fa_hash(addr);
    for (; pp_fa_table[h].addr; h = (h + 1) & (PP_FA_SLOTS - 1))
        if (pp_fa_table[h].addr == addr)
            return; /* an alias of a function done already */
    if (pp_fa_used >= PP_FA_LIMIT) {
        p->full++;
        return;
    }
    uint32_t region = 0;
    pp_dwarf_func *f = p->func;
    if (pp_dwarf_lookup(p->dwarf, addr, f) == 0)
        region = pp_functions_define(f->name, f->mangled, f->file, f->line, f->end_line);
    pp_fa_table[h].region = region ? region : PP_FA_LEFT_OUT;
    __atomic_store_n(&pp_fa_table[h].addr, addr, __ATOMIC_RELEASE);
    pp_fa_used++;
}

static int pp_fa_prepare_module(const pp_module *m, void *user)
{
    pp_fa_prep *p = user;
    if (pp_fa_n_modules < PP_FA_MODULES)
        pp_fa_modules[pp_fa_n_modules++] = m->bias;
    if (pp_dwarf_functions(p->dwarf, m->code, pp_fa_prepare_function, p) < 0)
        pp_message_warn("functions: the symbol table of %s cannot be read; its functions "
                        "are not measured",
                        m->path[0] ? m->path : "the program");
    return 0;
}

static void pp_fa_report(void);

void pp_functions_address_start(void)
{
    static const char enter[] = "__cyg_profile_func_enter";
    pthread_mutex_lock(&pp_functions_lock);
    if (pp_fa_used || pp_fa_n_modules || pp_modules_referencing(enter, NULL, NULL) == 0) {
        pthread_mutex_unlock(&pp_functions_lock);
        return; /* done already, or nothing compiled with -finstrument-functions */
    }
    pp_functions_note_kind(PP_FUNCTIONS_ADDRESS);
    pp_fa_n_loaded = pp_modules_loaded(pp_fa_loaded, PP_FA_LOADED);
    pp_fa_prep p = {.dwarf = pp_dwarf_open_self(), .func = malloc(sizeof(pp_dwarf_func))};
    if (!p.dwarf || !p.func)
        pp_message_warn("functions: the program's symbol tables cannot be read (%s); functions "
                        "compiled with -finstrument-functions are not measured",
                        p.func ? "no libdw" : "out of memory");
    else
        pp_modules_referencing(enter, pp_fa_prepare_module, &p);
    if (p.full)
        pp_message_warn("functions: more than %u functions; %u are not measured", PP_FA_LIMIT,
                        p.full);
    free(p.func);
    pp_dwarf_close(p.dwarf);
    if (pp_profile_at_end(pp_fa_report) != 0)
        pp_message_warn("functions: no end hook left; functions not measured go unreported");
    pthread_mutex_unlock(&pp_functions_lock);
}

static bool pp_fa_among(uintptr_t bias, const uintptr_t *list, int n)
{
    for (int i = 0; i < n; i++)
        if (list[i] == bias)
            return true;
    return false;
}

/* The end: where were the functions the table did not know?  In a module
 * prepared at start: missing from its symbol table.  In another module
 * loaded then: a library's function whose code clang inlined from its
 * header with the instrumentation (atoi of glibc's stdlib.h): not the
 * program's, not worth a word.  Else in a module loaded later (or
 * unloaded since): said, with the modules' names. */
static void pp_fa_report(void)
{
    unsigned later = 0, unknown = 0;
    char later_names[512] = "";
    int n_loaded = pp_fa_n_loaded < PP_FA_LOADED ? pp_fa_n_loaded : PP_FA_LOADED;
    for (uint32_t i = 0; i < PP_FA_SLOTS; i++) {
        uintptr_t addr = __atomic_load_n(&pp_fa_table[i].addr, __ATOMIC_ACQUIRE);
        if (!addr || pp_fa_table[i].region != 0)
            continue;
        Dl_info info = {0};
        bool loaded = dladdr((void *)addr, &info) != 0;
        uintptr_t bias = (uintptr_t)info.dli_fbase;
        if (loaded && pp_fa_among(bias, pp_fa_modules, pp_fa_n_modules)) {
            unknown++;
            continue;
        }
        if (loaded && pp_fa_among(bias, pp_fa_loaded, n_loaded))
            continue;
        later++;
        const char *name = !loaded                               ? "a module unloaded since"
                           : info.dli_fname && info.dli_fname[0] ? info.dli_fname
                                                                 : "?";
        const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
        if (!strstr(later_names, base) &&
            strlen(later_names) + strlen(base) + 3 < sizeof later_names)
            strcat(strcat(later_names, later_names[0] ? ", " : ""), base);
    }
    if (later)
        pp_message_warn("functions: %u functions of modules loaded after the start (%s) were "
                        "called and not measured: code compiled with -finstrument-functions "
                        "is prepared when the program starts (built with gcc and pompprof's "
                        "plugin, such a library is measured)",
                        later, later_names);
    if (unknown)
        pp_message_warn("functions: %u called functions were not in the symbol tables and are "
                        "not measured",
                        unknown);
}
