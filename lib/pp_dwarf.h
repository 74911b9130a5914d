/* pp_dwarf: code addresses of this process to source names, through the
 * DWARF debug information (elfutils libdw) of the loaded executable and
 * shared libraries.  Used at the start and at the end of measurement (never
 * on the event path): it opens files, reads /proc/self/maps and allocates.
 *
 * Without libdw (configure found no libdw-dev) only dladdr's symbol names
 * of exported functions are available; file and line stay unknown. */
#ifndef PP_DWARF_H
#define PP_DWARF_H

#include <stddef.h>
#include <stdint.h>

typedef struct pp_dwarf pp_dwarf;

/* What is known of a function at an address (strings owned by the caller's
 * struct; empty when unknown, line -1 when unknown). */
typedef struct pp_dwarf_func {
    char name[1024]; /* demangled C++ name with parameters; Fortran "module::proc";
                        C: the name as written */
    char mangled[512]; /* the link name (empty for C and main) */
    char file[1024];   /* declaring file, absolute when the compile directory is known */
    int line;          /* declaring line */
    int end_line;      /* the last line of the function's code, -1 when unknown */
} pp_dwarf_func;

/* Map the modules loaded now.  NULL when nothing can be read (the caller
 * then names functions by address). */
pp_dwarf *pp_dwarf_open_self(void);
/* The function whose code starts at (or contains) addr: 0 when found (at
 * least a name), -1 when nothing is known of it. */
int pp_dwarf_lookup(pp_dwarf *d, uintptr_t addr, pp_dwarf_func *out);
void pp_dwarf_close(pp_dwarf *d);
/* Call cb with the address of every function the symbol table of the module
 * around code_addr defines (each address once); the number of calls, -1
 * when the module's symbols cannot be read (without libdw: always). */
int pp_dwarf_functions(pp_dwarf *d, uintptr_t code_addr, void (*cb)(uintptr_t addr, void *user),
                       void *user);

/* Where the code at addr is (a call site, an OpenMP construct's code
 * address): its line by the line table, the function around it and the
 * offset into it, and the loaded module with the offset from its load
 * address (both offsets stable from run to run despite address
 * randomisation).  Empty strings and line 0 when unknown. */
typedef struct pp_dwarf_where {
    char file[1024];
    int line;
    char function[256];
    uint64_t function_offset;
    char module[1024];
    uint64_t module_offset;
} pp_dwarf_where;
/* 0 when at least the module is known, -1 when nothing is. */
int pp_dwarf_position(pp_dwarf *d, uintptr_t addr, pp_dwarf_where *out);

/* A C++ link name demangled into buf (the runtime's __cxa_demangle, looked
 * up in the process, so libpompprof does not depend on libstdc++; a C++
 * program has it).  Returns 0 when demangled, else copies the name as it is
 * and returns -1. */
int pp_dwarf_demangle(const char *mangled, char *buf, size_t size);

#endif
