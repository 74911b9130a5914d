/* Constructs by code address: the global registry and each thread's table.
 *
 * The event path asks its thread's table (open addressing, no lock).  A miss
 * goes to the global registry under a mutex, once per thread and construct;
 * the registry defines the construct's engine regions the first time any
 * thread meets it, with a provisional name (the address): the real names
 * come at the end (pp_ompt_names.c).  Constructs are also numbered, so a
 * task's handle can carry its construct (pp_ompt_internal.h); the numbered
 * table is chunked and published with release semantics, read lock-free. */
#include "ompt/pp_ompt_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/pp_message.h"
#include "profile/pp_profile_names.h"

/* as many constructs as a task's handle can name (pp_ompt_handle.h) */
#define PP_OMPT_MAX_CHUNKS (PP_OMPT_MAX_CONSTRUCTS / PP_OMPT_CHUNK)
_Static_assert(PP_OMPT_MAX_CONSTRUCTS % PP_OMPT_CHUNK == 0, "whole chunks");

static pthread_mutex_t pp_ompt_registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* (pp_ompt_construct_of reads it on the event path) */
pp_ompt_construct *pp_ompt_chunks_[PP_OMPT_MAX_CHUNKS];
static uint32_t pp_ompt_n; /* published count */
/* the registry's hash: (codeptr, kind) -> construct, under the lock */
static pp_ompt_slot *pp_ompt_reg;
static uint32_t pp_ompt_reg_slots, pp_ompt_reg_used;

static const struct {
    const char *role, *inner_role;
} pp_ompt_roles[PP_OMPT_KINDS] = {
    [PP_OMPT_PARALLEL] = {"parallel", NULL},
    [PP_OMPT_LOOP] = {"loop", NULL},
    [PP_OMPT_SECTIONS] = {"sections", NULL},
    [PP_OMPT_SINGLE] = {"single", "single sblock"},
    [PP_OMPT_WORKSHARE] = {"workshare", NULL},
    [PP_OMPT_TASKLOOP] = {"taskloop", NULL},
    [PP_OMPT_MASKED] = {"master", NULL},
    [PP_OMPT_BARRIER] = {"barrier", NULL},
    [PP_OMPT_IMPLICIT_BARRIER] = {"implicit barrier", NULL},
    [PP_OMPT_TASKWAIT] = {"taskwait", NULL},
    [PP_OMPT_TASKWAIT_DEPEND] = {"taskwait", NULL},
    [PP_OMPT_TASKGROUP] = {"taskwait", NULL},
    [PP_OMPT_REDUCTION] = {"reduction", NULL},
    [PP_OMPT_CRITICAL] = {"critical", "critical sblock"},
    [PP_OMPT_ORDERED] = {"ordered", "ordered sblock"},
    [PP_OMPT_TASK] = {"task", "task create"},
    [PP_OMPT_UNTIED_TASK] = {"untied task", "task create"},
    [PP_OMPT_TASKYIELD] = {"taskwait", NULL},
    [PP_OMPT_FLUSH] = {"flush", NULL},
    [PP_OMPT_TASKLOOP_TASK] = {"task", "task create"},
    [PP_OMPT_TASKLOOP_GENERATOR] = {"task", NULL},
};

static inline uint32_t pp_ompt_hash(const void *codeptr, pp_ompt_kind kind)
{
    uint64_t x = ((uint64_t)(uintptr_t)codeptr ^ ((uint64_t)kind << 56)) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(x >> 32);
}

/* Insert into an open-addressing table with room to spare. */
static void pp_ompt_slot_put(pp_ompt_slot *slots, uint32_t n_slots, pp_ompt_construct *c)
{
    uint32_t mask = n_slots - 1, h = pp_ompt_hash(c->codeptr, c->kind) & mask;
    while (slots[h].kind1)
        h = (h + 1) & mask;
    slots[h] = (pp_ompt_slot){c->codeptr, (uintptr_t)c->kind + 1, c};
}

static pp_ompt_construct *pp_ompt_slot_find(const pp_ompt_slot *slots, uint32_t n_slots,
                                            const void *codeptr, pp_ompt_kind kind)
{
    if (!slots)
        return NULL;
    uint32_t mask = n_slots - 1, h = pp_ompt_hash(codeptr, kind) & mask;
    for (; slots[h].kind1; h = (h + 1) & mask)
        if (slots[h].codeptr == codeptr && slots[h].kind1 == (uintptr_t)kind + 1)
            return slots[h].c;
    return NULL;
}

/* Make room for one more entry (doubling); -1 when out of memory. */
static int pp_ompt_slots_reserve(pp_ompt_slot **slots, uint32_t *n_slots, uint32_t n_used)
{
    if (*slots && (n_used + 1) * 2 <= *n_slots)
        return 0;
    uint32_t n = *n_slots ? *n_slots * 2 : 256;
    pp_ompt_slot *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (uint32_t i = 0; i < *n_slots; i++)
        if ((*slots)[i].kind1)
            pp_ompt_slot_put(s, n, (*slots)[i].c);
    free(*slots);
    *slots = s;
    *n_slots = n;
    return 0;
}

static pp_region_id pp_ompt_define(const void *codeptr, const char *word, const char *role)
{
    char name[96];
    snprintf(name, sizeof name, "!$omp %s @%p", word, codeptr);
    pp_region_def def = {.name = name, .begin_line = -1, .end_line = -1,
                         .paradigm = "openmp", .role = role};
    return pp_profile_region_define(&def);
}

/* Caller holds the registry lock. */
static pp_ompt_construct *pp_ompt_registry_get(const void *codeptr, pp_ompt_kind kind)
{
    pp_ompt_construct *c = pp_ompt_slot_find(pp_ompt_reg, pp_ompt_reg_slots, codeptr, kind);
    if (c)
        return c;
    uint32_t index = pp_ompt_n, chunk = index >> PP_OMPT_CHUNK_BITS;
    if (chunk >= PP_OMPT_MAX_CHUNKS) {
        PP_WARN_ONCE("more than %u OpenMP constructs (code addresses and kinds); further ones "
                     "are not measured",
                     PP_OMPT_MAX_CHUNKS * PP_OMPT_CHUNK);
        return NULL;
    }
    if (!pp_ompt_chunks_[chunk] &&
        !(pp_ompt_chunks_[chunk] = calloc(PP_OMPT_CHUNK, sizeof(pp_ompt_construct))))
        return NULL;
    if (pp_ompt_slots_reserve(&pp_ompt_reg, &pp_ompt_reg_slots, pp_ompt_reg_used))
        return NULL;
    c = &pp_ompt_chunks_[chunk][index & (PP_OMPT_CHUNK - 1)];
    c->codeptr = codeptr;
    c->kind = kind;
    c->index = index;
    c->main = pp_ompt_define(codeptr, pp_ompt_roles[kind].role, pp_ompt_roles[kind].role);
    c->inner = pp_ompt_roles[kind].inner_role
                   ? pp_ompt_define(codeptr, pp_ompt_roles[kind].inner_role,
                                    pp_ompt_roles[kind].inner_role)
                   : c->main;
    if (c->main == PP_REGION_INVALID || c->inner == PP_REGION_INVALID)
        return NULL;
    pp_ompt_slot_put(pp_ompt_reg, pp_ompt_reg_slots, c);
    pp_ompt_reg_used++;
    __atomic_store_n(&pp_ompt_n, index + 1, __ATOMIC_RELEASE);
    return c;
}

pp_ompt_construct *pp_ompt_construct_get(const void *codeptr, pp_ompt_kind kind)
{
    pp_ompt_thread *t = pp_ompt_self();
    if (!t)
        return NULL;
    pp_ompt_construct *c = pp_ompt_slot_find(t->slots, t->n_slots, codeptr, kind);
    if (__builtin_expect(c != NULL, 1))
        return c;
    if (pp_ompt_slots_reserve(&t->slots, &t->n_slots, t->n_used))
        return NULL;
    pthread_mutex_lock(&pp_ompt_registry_lock);
    c = pp_ompt_registry_get(codeptr, kind);
    pthread_mutex_unlock(&pp_ompt_registry_lock);
    if (!c) {
        PP_WARN_ONCE("out of memory for an OpenMP construct; it is not measured");
        return NULL;
    }
    pp_ompt_slot_put(t->slots, t->n_slots, c);
    t->n_used++;
    return c;
}

pp_ompt_construct *pp_ompt_construct_at(uint32_t index)
{
    if (index >= __atomic_load_n(&pp_ompt_n, __ATOMIC_ACQUIRE))
        return NULL;
    return &pp_ompt_chunks_[index >> PP_OMPT_CHUNK_BITS][index & (PP_OMPT_CHUNK - 1)];
}

uint32_t pp_ompt_construct_count(void)
{
    return __atomic_load_n(&pp_ompt_n, __ATOMIC_ACQUIRE);
}

/* ---- threads ------------------------------------------------------------------------ */

__thread pp_ompt_thread *pp_ompt_tls __attribute__((tls_model("initial-exec")));
static pp_ompt_thread *pp_ompt_thread_list;

pp_ompt_thread *pp_ompt_threads(void)
{
    return __atomic_load_n(&pp_ompt_thread_list, __ATOMIC_ACQUIRE);
}

pp_ompt_thread *pp_ompt_thread_create(void)
{
    pp_ompt_thread *t = calloc(1, sizeof *t);
    if (!t) {
        PP_WARN_ONCE("out of memory for a thread's OMPT state; that thread is not measured");
        return NULL;
    }
    /* an engine handle carries the location index + 1 in its top bits */
    t->number = (uint32_t)((pp_profile_task_new_handle() >> PP_OMPT_ENGINE_LOCATION_SHIFT) - 1);
    t->value_base = pp_ompt_value_base(t->number);
    pp_ompt_pending_update(t);
    if (!t->value_base)
        PP_WARN_ONCE("more than %u threads: the tasks that thread %u and later ones create are "
                     "not measured (their time stays with the enclosing region)",
                     PP_OMPT_MAX_THREADS, t->number);
    t->location = pp_profile_location_ref();
    t->next = __atomic_load_n(&pp_ompt_thread_list, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&pp_ompt_thread_list, &t->next, t, 1, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED)) {
    }
    pp_ompt_tls = t;
    return t;
}
