/* pp_modules: the loaded executable and shared libraries, as the dynamic
 * linker has them in memory (no file is read, nothing is loaded).
 *
 * The function event source asks at start which modules call a function of
 * libpompprof (__cyg_profile_func_enter: compiled with
 * -finstrument-functions), so that a program without such code pays nothing
 * for preparing their functions. */
#ifndef PP_MODULES_H
#define PP_MODULES_H

#include <stdint.h>

/* A loaded module: its file name ("" for the executable), its load bias,
 * and an address inside its code (for look-ups by address). */
typedef struct pp_module {
    const char *path;
    uintptr_t bias;
    uintptr_t code;
} pp_module;

/* Call cb for every loaded module whose dynamic relocations refer to
 * symbol (a call of it through the PLT or the GOT); the number of such
 * modules.  cb returns 0 to go on, else the walk stops. */
int pp_modules_referencing(const char *symbol, int (*cb)(const pp_module *m, void *user),
                           void *user);

/* The load biases of the modules loaded now (up to max of them into
 * biases); how many there are. */
int pp_modules_loaded(uintptr_t *biases, int max);

#endif
