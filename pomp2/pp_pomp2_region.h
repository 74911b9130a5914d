/* pp_pomp2_region: the registry behind POMP2 region handles.
 *
 * An OPARI2 region handle is a void* slot in the instrumented code.  We point
 * it at a registry entry that holds the engine regions one construct needs:
 * e.g. "#pragma omp single" is entered as "!$omp single", its body as
 * "!$omp single sblock" and its end as "!$omp implicit barrier".
 *
 * A slot is assigned by POMP2_Init_regions() at start-up or, when that never
 * ran, on the first *_enter/_begin/_fork call that carries the region string.
 * Several threads may race to the same NULL slot: the slot is read with one
 * atomic load, and only a NULL slot takes the registry mutex (double-checked),
 * so the hot path costs one load.  The same string always maps to the same
 * entry. */
#ifndef PP_POMP2_REGION_H
#define PP_POMP2_REGION_H

#include "pomp2/pp_pomp2_region_string.h"
#include "profile/pp_profile.h"

typedef struct pp_pomp2_region {
    pp_region_id main;        /* parallel, loop, single, critical, task, user region... */
    pp_region_id worksharing; /* loop/sections/workshare of "parallel for" & co; else main */
    pp_region_id inner;       /* sblock, section, task creation; else main */
    pp_region_id barrier;     /* implicit barrier at the construct's end; else main */
    pp_pomp2_region_type type;
    bool untied;             /* task written with the untied clause */
    const char *ctc;         /* the string the entry was made from (a copy) */
    struct pp_pomp2_region *next; /* registry hash chain */
} pp_pomp2_region;

/* Slow path of pp_pomp2_region_of: assign *slot from ctc under the registry
 * lock (ctc NULL: no string at hand, see below). */
pp_pomp2_region *pp_pomp2_region_assign_slow(void **slot, const char *ctc);

/* The entry of a handle.  ctc may be NULL for calls that carry no string
 * (Single_begin, Task_begin...): a still-NULL slot then yields the shared
 * "unknown region" entry with a one-time warning, and the slot stays NULL so
 * a later call with the string can still assign it. */
static inline pp_pomp2_region *pp_pomp2_region_of(void **slot, const char *ctc)
{
    if (__builtin_expect(slot != NULL, 1)) {
        pp_pomp2_region *r = __atomic_load_n((pp_pomp2_region **)slot, __ATOMIC_ACQUIRE);
        if (__builtin_expect(r != NULL, 1))
            return r;
    }
    return pp_pomp2_region_assign_slow(slot, ctc);
}

/* The entry of an assigned handle at an address that is never NULL (the
 * wrapper's own calls), NULL for an unassigned one. */
static inline pp_pomp2_region *pp_pomp2_region_assigned(void **slot)
{
    return __atomic_load_n((pp_pomp2_region **)slot, __ATOMIC_ACQUIRE);
}

/* The entry of an assigned handle, NULL for an unassigned (or NULL) one:
 * the hot entry points (pp_pomp2_task.c) go to a cold path of their own
 * for the latter, which assigns it, so that their common case is a tail
 * call into the engine that needs no stack frame. */
static inline pp_pomp2_region *pp_pomp2_region_known(void **slot)
{
    if (__builtin_expect(slot == NULL, 0))
        return NULL;
    return pp_pomp2_region_assigned(slot);
}

/* POMP2_Assign_handle: map ctc to its entry and store it into *slot (a NULL
 * or malformed ctc gets the unknown entry and a warning naming it). */
void pp_pomp2_region_assign(void **slot, const char *ctc);

/* The entry for ctc without any slot (creates it on first use). */
pp_pomp2_region *pp_pomp2_region_lookup(const char *ctc);

/* The shared entry of regions we cannot identify. */
pp_pomp2_region *pp_pomp2_region_unknown(void);

/* Fill e's engine regions for a parsed string (pp_pomp2_region_names.c). */
void pp_pomp2_region_define(pp_pomp2_region *e, const pp_pomp2_region_info *info);

/* The adapter's one-time initialization (pp_pomp2_entry.c): engine start,
 * lock wrapper regions, POMP2_Init_regions if the program has it.  Cheap
 * after the first call and safe to call from inside the initialization. */
void pp_pomp2_init_slow(void);
extern int pp_pomp2_initialized;
static inline void pp_pomp2_ensure_init(void)
{
    if (__builtin_expect(!__atomic_load_n(&pp_pomp2_initialized, __ATOMIC_ACQUIRE), 0))
        pp_pomp2_init_slow();
}

#endif
