/* dlopen and dlsym for the libraries loaded when needed (pp_dlload.h). */
#include "lib/pp_dlload.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int pp_dlload(const char *soname, int flags, const char *const names[], void *const slots[],
              size_t n, char *why, size_t len)
{
    void *lib = dlopen(soname, flags);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, len, "%s", e ? e : "not found");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        void *f = dlsym(lib, names[i]);
        if (!f) {
            snprintf(why, len, "%s has no %s", soname, names[i]);
            dlclose(lib);
            return -1;
        }
        /* the slot is a function pointer: its bytes, as POSIX's dlsym
         * conversion has it */
        memcpy(slots[i], &f, sizeof f);
    }
    return 0; /* kept loaded: the functions are called until the end */
}
