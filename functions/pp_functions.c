/* The function event source (pp_functions.h, doc/functions.md).
 *
 * A function is known by its code address.  A process-wide open-addressing
 * table maps the address to its engine region.  Looking up is lock-free:
 * a slot's address is published (release) only after its region is stored,
 * and slots are never removed or moved, so a reader that sees the address
 * sees the region.  Only a function's first call takes the lock, to define
 * its region under a placeholder name; names, files and lines come from the
 * debug information once, at the end (pp_functions_name_all). */
#include "functions/pp_functions.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "functions/pp_filter.h"
#include "lib/pp_config.h"
#include "lib/pp_dwarf.h"
#include "lib/pp_message.h"
#include "profile/pp_profile.h"

/* 2^16 functions, 1 MiB of zero pages until used; 3/4 of it is filled at
 * most, so a probe for a missing address ends soon */
#define PP_FN_BITS 16
#define PP_FN_SLOTS (1u << PP_FN_BITS)
#define PP_FN_LIMIT (PP_FN_SLOTS / 4 * 3)

typedef struct pp_fn_slot {
    uintptr_t addr; /* 0: free */
    pp_region_id region;
} pp_fn_slot;

static pp_fn_slot pp_fn_table[PP_FN_SLOTS];
static uint32_t pp_fn_used; /* slots taken, under the lock */
static pthread_mutex_t pp_fn_lock = PTHREAD_MUTEX_INITIALIZER;

static void pp_functions_name_all(void);

/* POMPPROF_FILTER: read at the first function call (under the lock); the
 * debug information it needs to name functions stays open until the end. */
static int pp_fn_filter_state; /* 0: not read yet, 1: read */
static pp_filter *pp_fn_filter;
static pp_dwarf *pp_fn_dwarf;

static __attribute__((no_instrument_function)) void pp_fn_filter_load(void)
{
    pp_fn_filter_state = 1;
    const char *path = pp_config_get()->filter;
    if (!path)
        return;
    char err[1024];
    pp_fn_filter = pp_filter_load(path, err, sizeof err);
    if (!pp_fn_filter)
        pp_message_warn("POMPPROF_FILTER: %s; all instrumented functions are measured", err);
    else if (!(pp_fn_dwarf = pp_dwarf_open_self()))
        pp_message_warn("POMPPROF_FILTER: the program's debug information cannot be read; "
                        "the filter applies to nothing");
}

/* Does the run-time filter exclude the function at addr?  Its name from the
 * debug information (once per function, at its first call). */
static __attribute__((no_instrument_function)) bool pp_fn_filtered(uintptr_t addr)
{
    if (!pp_fn_filter_state)
        pp_fn_filter_load();
    if (!pp_fn_filter || !pp_fn_dwarf)
        return false;
    pp_dwarf_func *f = malloc(sizeof *f);
    bool out = f && pp_dwarf_lookup(pp_fn_dwarf, addr, f) == 0 &&
               pp_filter_excludes(pp_fn_filter, f->name, f->mangled, f->file);
    free(f);
    return out;
}

static inline __attribute__((no_instrument_function)) uint32_t pp_fn_hash(uintptr_t addr)
{
    /* code addresses are aligned and close together: multiply, take the top */
    return (uint32_t)(((uint64_t)addr * 0x9E3779B97F4A7C15ull) >> (64 - PP_FN_BITS));
}

/* The first call of a function (or a race of threads to it): define its
 * region.  PP_REGION_INVALID when the table or the engine is full: the
 * function is then not measured, its enter and exit alike. */
static __attribute__((noinline, no_instrument_function)) pp_region_id
pp_fn_define(uintptr_t addr)
{
    pthread_mutex_lock(&pp_fn_lock);
    uint32_t h = pp_fn_hash(addr);
    for (;; h = (h + 1) & (PP_FN_SLOTS - 1)) {
        uintptr_t k = pp_fn_table[h].addr;
        if (k == addr) {
            pp_region_id r = pp_fn_table[h].region;
            pthread_mutex_unlock(&pp_fn_lock);
            return r;
        }
        if (k == 0)
            break;
    }
    if (pp_fn_used >= PP_FN_LIMIT) {
        pthread_mutex_unlock(&pp_fn_lock);
        PP_WARN_ONCE("more than %u instrumented functions were called; the others are not "
                     "measured (reported once)",
                     PP_FN_LIMIT);
        return PP_REGION_INVALID;
    }
    if (pp_fn_used == 0 && pp_profile_at_end(pp_functions_name_all) != 0)
        pp_message_warn("functions: no end hook left; functions are named by address");
    pp_region_id r = PP_REGION_INVALID;
    if (!pp_fn_filtered(addr)) {
        /* a placeholder until the end names it */
        char name[64];
        snprintf(name, sizeof name, "function @%#lx", (unsigned long)addr);
        pp_region_def def = {.name = name, .begin_line = -1, .end_line = -1,
                             .paradigm = "compiler", .role = "function"};
        r = pp_profile_region_define(&def);
    }
    pp_fn_table[h].region = r;
    __atomic_store_n(&pp_fn_table[h].addr, addr, __ATOMIC_RELEASE);
    pp_fn_used++;
    pthread_mutex_unlock(&pp_fn_lock);
    return r;
}

static inline __attribute__((always_inline, no_instrument_function)) pp_region_id
pp_fn_region(uintptr_t addr)
{
    for (uint32_t h = pp_fn_hash(addr);; h = (h + 1) & (PP_FN_SLOTS - 1)) {
        uintptr_t k = __atomic_load_n(&pp_fn_table[h].addr, __ATOMIC_ACQUIRE);
        if (__builtin_expect(k == addr, 1))
            return pp_fn_table[h].region;
        if (k == 0)
            return pp_fn_define(addr);
    }
}

void __cyg_profile_func_enter(void *fn, void *call_site)
{
    (void)call_site;
    pp_region_id r = pp_fn_region((uintptr_t)fn);
    if (__builtin_expect(r != PP_REGION_INVALID, 1))
        pp_profile_enter(r);
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
    (void)call_site;
    pp_region_id r = pp_fn_region((uintptr_t)fn);
    if (__builtin_expect(r != PP_REGION_INVALID, 1))
        pp_profile_exit(r);
}

/* The end hook: every function that was called gets its name, file and
 * line, from the debug information of the modules loaded now. */
static void pp_functions_name_all(void)
{
    /* opened afresh: libraries loaded since the filter opened it are mapped too */
    pp_dwarf *d = pp_dwarf_open_self();
    if (!d)
        pp_message_warn("functions: the debug information of the program cannot be read; "
                        "functions are named by address");
    pp_dwarf_func *f = malloc(sizeof *f);
    unsigned unnamed = 0;
    pthread_mutex_lock(&pp_fn_lock);
    for (uint32_t i = 0; f && i < PP_FN_SLOTS; i++) {
        uintptr_t addr = pp_fn_table[i].addr;
        if (!addr || pp_fn_table[i].region == PP_REGION_INVALID)
            continue;
        if (pp_dwarf_lookup(d, addr, f) != 0) {
            unnamed++;
            continue;
        }
        pp_region_def def = {.name = f->name, .file = f->file[0] ? f->file : NULL,
                             .begin_line = f->line, .end_line = f->end_line,
                             .mangled = f->mangled[0] ? f->mangled : NULL};
        pp_profile_region_rename(pp_fn_table[i].region, &def);
    }
    pthread_mutex_unlock(&pp_fn_lock);
    free(f);
    pp_dwarf_close(d);
    pp_dwarf_close(pp_fn_dwarf), pp_fn_dwarf = NULL;
    pp_filter_free(pp_fn_filter), pp_fn_filter = NULL;
    if (unnamed)
        pp_message_warn("functions: %u called functions have no name in the debug information "
                        "or symbol table; they appear as 'function @address'",
                        unnamed);
}
