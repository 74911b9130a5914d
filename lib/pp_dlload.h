/* Libraries loaded with dlopen when first needed, not linked (PAPI, libdw,
 * OTF2): a run that does not use one does not pay for loading and relocating
 * it at start-up (doc/engine.md, "The fast path").  Each user lists the
 * functions it calls in an X-macro and keeps their names at its call sites
 * through pointers this module resolves once. */
#ifndef PP_DLLOAD_H
#define PP_DLLOAD_H

#include <stddef.h>

/* dlopen soname with flags and resolve the n functions names[i] into the
 * function pointers at slots[i].  0, or -1 with the reason in why (the
 * library or one of its functions missing; the library is closed again). */
int pp_dlload(const char *soname, int flags, const char *const names[], void *const slots[],
              size_t n, char *why, size_t len);

/* An X-macro list of functions as the names above (its users make the
 * slots the same way: `#define SLOT(f) (void *)&table.f,`). */
#define PP_DLLOAD_NAME(f) #f,

#endif
