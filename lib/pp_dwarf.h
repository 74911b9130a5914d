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

/* The first line-table row at exactly addr (a function's entry: gcc gives
 * an outlined OpenMP body's first row the directive's line, the rows after
 * it at the same address the body's first statement): 0 when found. */
int pp_dwarf_entry_line(pp_dwarf *d, uintptr_t addr, char *file, size_t size, int *line);

/* What the call before a return address calls, by DWARF's call-site entries
 * (gcc writes them with -g at -O1 and above): a construct's call into the
 * OpenMP runtime that a function of the program makes as a tail call (a
 * jump: "foo() { ...; taskwait }") returns to foo's caller, so the return
 * address the runtime sees is the caller's, after its call of foo.
 * - DIRECT: the call at ra calls a runtime function (one whose name begins
 *   with one of the prefixes in runtime, NULL-terminated);
 * - TAIL: it calls a function of the program that reaches the runtime by a
 *   tail call (possibly through a chain of them), of one only of the
 *   functions named in targets (the construct's entry points, NULL-
 *   terminated; a trailing '*': any name it begins): *tail gets that tail
 *   call's return address (the construct is one byte before);
 * - LOST: it calls a function of the program whose tail call DWARF cannot
 *   single out, or calls through a pointer (callee: the function's name,
 *   "" when unknown);
 * - UNSEEN: it calls a function of the program in which DWARF shows no
 *   tail call into the runtime at all (clang writes no call-site entries
 *   for calls of functions it has no declaration of);
 * - UNKNOWN: no call-site entry for ra (no debug information, -O0, or no
 *   libdw). */
typedef enum pp_dwarf_call {
    PP_DWARF_CALL_UNKNOWN,
    PP_DWARF_CALL_DIRECT,
    PP_DWARF_CALL_TAIL,
    PP_DWARF_CALL_LOST,
    PP_DWARF_CALL_UNSEEN
} pp_dwarf_call;
pp_dwarf_call pp_dwarf_call_through(pp_dwarf *d, uintptr_t ra, const char *const *runtime,
                                    const char *const *targets, uintptr_t *tail, char *callee,
                                    size_t size);
/* The same from the code, where DWARF has no call-site entry (clang writes
 * them for few calls): the call instruction before ra decoded (x86-64: call
 * rel32, call *disp32(%rip)); DIRECT when it calls the runtime (a PLT stub,
 * another module, a runtime name), LOST with *callee (its entry) and name
 * when it calls a function of the program, UNKNOWN otherwise. */
pp_dwarf_call pp_dwarf_call_decoded(pp_dwarf *d, uintptr_t ra, const char *const *runtime,
                                    uintptr_t *callee, char *name, size_t size);
/* The same for the tail calls of the function whose code starts at
 * fn_entry (TAIL, LOST, UNSEEN or UNKNOWN). */
pp_dwarf_call pp_dwarf_tail_of(pp_dwarf *d, uintptr_t fn_entry, const char *const *runtime,
                               const char *const *targets, uintptr_t *tail);

/* A C++ link name demangled into buf (the runtime's __cxa_demangle, looked
 * up in the process, so libpompprof does not depend on libstdc++; a C++
 * program has it).  Returns 0 when demangled, else copies the name as it is
 * and returns -1. */
int pp_dwarf_demangle(const char *mangled, char *buf, size_t size);

#endif
