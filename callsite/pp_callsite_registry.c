/* Constructs by code address: the global registry and each thread's table
 * (pp_callsite.h).
 *
 * The event path asks its thread's table (open addressing, no lock).  A miss
 * goes to the global registry under a mutex, once per thread and construct;
 * the registry defines the construct's engine regions the first time any
 * thread meets it, with a provisional name (the address): the real names
 * come at the end (pp_callsite_names.c).  Constructs are also numbered, so an
 * event source can carry one in a few bits (the OMPT layer's task handles);
 * the numbered table is chunked and published with release semantics, read
 * lock-free. */
#include "callsite/pp_callsite.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/pp_message.h"

#define PP_CALLSITE_MAX_CHUNKS (PP_CALLSITE_MAX / PP_CALLSITE_CHUNK)
_Static_assert(PP_CALLSITE_MAX % PP_CALLSITE_CHUNK == 0, "whole chunks");

__thread pp_callsite_table pp_callsite_mine __attribute__((tls_model("initial-exec")));

static pthread_mutex_t pp_callsite_registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* (pp_callsite_of reads it on the event path) */
pp_callsite *pp_callsite_chunks_[PP_CALLSITE_MAX_CHUNKS];
static uint32_t pp_callsite_n; /* published count */
/* the registry's hash: (codeptr, kind) -> construct, under the lock */
static pp_callsite_slot *pp_callsite_reg;
static uint32_t pp_callsite_reg_slots, pp_callsite_reg_used;

static const struct {
    const char *role, *inner_role;
} pp_callsite_roles[PP_CALLSITE_KINDS] = {
    [PP_CALLSITE_PARALLEL] = {"parallel", NULL},
    [PP_CALLSITE_LOOP] = {"loop", NULL},
    [PP_CALLSITE_SECTIONS] = {"sections", "section"},
    [PP_CALLSITE_SINGLE] = {"single", "single sblock"},
    [PP_CALLSITE_WORKSHARE] = {"workshare", NULL},
    [PP_CALLSITE_TASKLOOP] = {"taskloop", NULL},
    [PP_CALLSITE_MASKED] = {"master", NULL},
    [PP_CALLSITE_BARRIER] = {"barrier", NULL},
    [PP_CALLSITE_IMPLICIT_BARRIER] = {"implicit barrier", NULL},
    [PP_CALLSITE_ANY_BARRIER] = {"barrier", NULL},
    [PP_CALLSITE_TASKWAIT] = {"taskwait", NULL},
    [PP_CALLSITE_TASKWAIT_DEPEND] = {"taskwait", NULL},
    [PP_CALLSITE_TASKGROUP] = {"taskwait", NULL},
    [PP_CALLSITE_REDUCTION] = {"reduction", NULL},
    [PP_CALLSITE_CRITICAL] = {"critical", "critical sblock"},
    [PP_CALLSITE_ORDERED] = {"ordered", "ordered sblock"},
    [PP_CALLSITE_TASK] = {"task", "task create"},
    [PP_CALLSITE_UNTIED_TASK] = {"untied task", "task create"},
    [PP_CALLSITE_TASKYIELD] = {"taskwait", NULL},
    [PP_CALLSITE_FLUSH] = {"flush", NULL},
    [PP_CALLSITE_ATOMIC] = {"atomic", NULL},
    [PP_CALLSITE_TASKLOOP_TASK] = {"task", "task create"},
    [PP_CALLSITE_TASKLOOP_GENERATOR] = {"task", NULL},
};

/* A construct's home slot in a table of n_slots (a power of two). */
static uint32_t pp_callsite_home(const void *codeptr, pp_callsite_kind kind, uint32_t n_slots)
{
    return (uint32_t)(pp_callsite_hash(codeptr, kind) >> (64 - __builtin_ctz(n_slots)));
}

/* Insert into an open-addressing table with room to spare. */
static void pp_callsite_slot_put(pp_callsite_slot *slots, uint32_t n_slots, pp_callsite *c)
{
    uint32_t mask = n_slots - 1, h = pp_callsite_home(c->codeptr, c->kind, n_slots);
    while (slots[h].kind1)
        h = (h + 1) & mask;
    slots[h] = (pp_callsite_slot){c->codeptr, (uintptr_t)c->kind + 1, c};
}

static pp_callsite *pp_callsite_slot_find(const pp_callsite_slot *slots, uint32_t n_slots,
                                            const void *codeptr, pp_callsite_kind kind)
{
    if (!slots)
        return NULL;
    uint32_t mask = n_slots - 1, h = pp_callsite_home(codeptr, kind, n_slots);
    for (; slots[h].kind1; h = (h + 1) & mask)
        if (slots[h].codeptr == codeptr && slots[h].kind1 == (uintptr_t)kind + 1)
            return slots[h].c;
    return NULL;
}

/* Make room for one more entry (doubling); -1 when out of memory. */
static int pp_callsite_slots_reserve(pp_callsite_slot **slots, uint32_t *n_slots, uint32_t n_used)
{
    if (*slots && (n_used + 1) * 2 <= *n_slots)
        return 0;
    uint32_t n = *n_slots ? *n_slots * 2 : 256;
    pp_callsite_slot *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (uint32_t i = 0; i < *n_slots; i++)
        if ((*slots)[i].kind1)
            pp_callsite_slot_put(s, n, (*slots)[i].c);
    free(*slots);
    *slots = s;
    *n_slots = n;
    return 0;
}

static pp_region_id pp_callsite_define(const void *codeptr, const char *word, const char *role)
{
    char name[96];
    snprintf(name, sizeof name, "!$omp %s @%p", word, codeptr);
    pp_region_def def = {.name = name, .begin_line = -1, .end_line = -1,
                         .paradigm = "openmp", .role = role};
    return pp_profile_region_define(&def);
}

/* Caller holds the registry lock. */
static pp_callsite *pp_callsite_registry_get(const void *codeptr, pp_callsite_kind kind)
{
    pp_callsite *c = pp_callsite_slot_find(pp_callsite_reg, pp_callsite_reg_slots, codeptr, kind);
    if (c)
        return c;
    uint32_t index = pp_callsite_n, chunk = index >> PP_CALLSITE_CHUNK_BITS;
    if (chunk >= PP_CALLSITE_MAX_CHUNKS) {
        PP_WARN_ONCE("more than %u OpenMP constructs (code addresses and kinds); further ones "
                     "are not measured",
                     PP_CALLSITE_MAX_CHUNKS * PP_CALLSITE_CHUNK);
        return NULL;
    }
    if (!pp_callsite_chunks_[chunk] &&
        !(pp_callsite_chunks_[chunk] = calloc(PP_CALLSITE_CHUNK, sizeof(pp_callsite))))
        return NULL;
    if (pp_callsite_slots_reserve(&pp_callsite_reg, &pp_callsite_reg_slots, pp_callsite_reg_used))
        return NULL;
    c = &pp_callsite_chunks_[chunk][index & (PP_CALLSITE_CHUNK - 1)];
    c->codeptr = codeptr;
    c->kind = kind;
    c->index = index;
    c->main =
        pp_callsite_define(codeptr, pp_callsite_roles[kind].role, pp_callsite_roles[kind].role);
    c->inner = pp_callsite_roles[kind].inner_role
                   ? pp_callsite_define(codeptr, pp_callsite_roles[kind].inner_role,
                                    pp_callsite_roles[kind].inner_role)
                   : c->main;
    if (c->main == PP_REGION_INVALID || c->inner == PP_REGION_INVALID)
        return NULL;
    pp_callsite_slot_put(pp_callsite_reg, pp_callsite_reg_slots, c);
    pp_callsite_reg_used++;
    __atomic_store_n(&pp_callsite_n, index + 1, __ATOMIC_RELEASE);
    return c;
}

pp_callsite *pp_callsite_get_slow(const void *codeptr, pp_callsite_kind kind)
{
    pp_callsite_table *t = &pp_callsite_mine;
    pp_callsite *c = pp_callsite_slot_find(t->slots, t->n_slots, codeptr, kind);
    if (c)
        return c; /* not in its home slot */
    if (pp_callsite_slots_reserve(&t->slots, &t->n_slots, t->n_used))
        return NULL;
    pthread_mutex_lock(&pp_callsite_registry_lock);
    c = pp_callsite_registry_get(codeptr, kind);
    pthread_mutex_unlock(&pp_callsite_registry_lock);
    if (!c) {
        PP_WARN_ONCE("out of memory for an OpenMP construct; it is not measured");
        return NULL;
    }
    pp_callsite_slot_put(t->slots, t->n_slots, c);
    t->n_used++;
    t->shift = (uint32_t)(64 - __builtin_ctz(t->n_slots));
    return c;
}

pp_callsite *pp_callsite_at(uint32_t index)
{
    if (index >= __atomic_load_n(&pp_callsite_n, __ATOMIC_ACQUIRE))
        return NULL;
    return &pp_callsite_chunks_[index >> PP_CALLSITE_CHUNK_BITS][index & (PP_CALLSITE_CHUNK - 1)];
}

uint32_t pp_callsite_count(void)
{
    return __atomic_load_n(&pp_callsite_n, __ATOMIC_ACQUIRE);
}

void pp_callsite_place_slow(pp_callsite *c, uint64_t place)
{
    uint64_t seen = 0;
    if (!__atomic_compare_exchange_n(&c->place, &seen, place, false, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED) &&
        seen != place)
        __atomic_store_n(&c->place, PP_CALLSITE_PLACES, __ATOMIC_RELAXED);
}
