/* Functions instrumented by pompprof's GCC plugin (pp_func_desc.h): the
 * events read the region from the function's descriptor; registration,
 * from each unit's constructor, defined it.
 *
 * One function can have several descriptors: an inline function or a
 * template instance is compiled in every unit that uses it, each unit
 * with its own descriptor, and the linker keeps one copy of the code (with
 * one of the descriptors).  They are one function: registration gives the
 * same (link name or name, file, line) one region. */
#include "functions/pp_func_desc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "functions/pp_functions_internal.h"
#include "lib/pp_message.h"
#include "profile/pp_profile.h"

_Static_assert(sizeof(pp_func_desc) == 8 + 4 * sizeof(void *) + 8,
               "the plugin builds the descriptor with this layout");

void __pompprof_func_enter(pp_func_desc *desc)
{
    uint32_t r = __atomic_load_n(&desc->region, __ATOMIC_RELAXED);
    if (__builtin_expect(r != 0, 1))
        pp_profile_enter(r);
}

void __pompprof_func_exit(pp_func_desc *desc)
{
    uint32_t r = __atomic_load_n(&desc->region, __ATOMIC_RELAXED);
    if (__builtin_expect(r != 0, 1))
        pp_profile_exit(r);
}

/* ---- registration: the functions seen so far, by identity ------------------ */

typedef struct pp_fp_seen {
    char *key; /* "link name or name\nfile\nline": copied (a module can be unloaded) */
    uint32_t region;
} pp_fp_seen;

static pp_fp_seen *pp_fp_table;
static size_t pp_fp_slots, pp_fp_used;

static size_t pp_fp_hash(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int pp_fp_grow(void)
{
    size_t slots = pp_fp_slots ? 2 * pp_fp_slots : 1024;
    pp_fp_seen *t = calloc(slots, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < pp_fp_slots; i++) {
        if (!pp_fp_table[i].key)
            continue;
        size_t h = pp_fp_hash(pp_fp_table[i].key) & (slots - 1);
        while (t[h].key)
            h = (h + 1) & (slots - 1);
        t[h] = pp_fp_table[i];
    }
    free(pp_fp_table);
    pp_fp_table = t, pp_fp_slots = slots;
    return 0;
}

/* The slot of key: its entry, or the free slot to put it in (NULL when
 * memory is short). */
static pp_fp_seen *pp_fp_slot(const char *key)
{
    if ((pp_fp_used + 1) * 2 > pp_fp_slots && pp_fp_grow() != 0)
        return NULL;
    size_t h = pp_fp_hash(key) & (pp_fp_slots - 1);
    while (pp_fp_table[h].key && strcmp(pp_fp_table[h].key, key) != 0)
        h = (h + 1) & (pp_fp_slots - 1);
    return &pp_fp_table[h];
}

static uint32_t pp_fp_region_of(const pp_func_desc *d)
{
    const char *id = d->mangled && d->mangled[0] ? d->mangled : d->name;
    const char *file = d->file ? d->file : "";
    size_t len = strlen(id) + strlen(file) + 16;
    char *key = malloc(len);
    pp_fp_seen *s = key ? (snprintf(key, len, "%s\n%s\n%d", id, file, (int)d->line),
                           pp_fp_slot(key))
                        : NULL;
    if (s && s->key) {
        free(key);
        return s->region;
    }
    uint32_t r = pp_functions_define(d->name, d->mangled, file, d->line, d->end_line);
    if (s) {
        s->key = key, s->region = r;
        pp_fp_used++;
    } else {
        free(key);
    }
    return r;
}

void __pompprof_func_register(pp_func_desc *last)
{
    pthread_mutex_lock(&pp_functions_lock);
    pp_functions_note_kind(PP_FUNCTIONS_PLUGIN);
    for (pp_func_desc *d = last; d; d = (pp_func_desc *)d->next) {
        if (d->version != PP_FUNC_DESC_VERSION) {
            PP_WARN_ONCE("functions: code instrumented by another version of pompprof's GCC "
                         "plugin (descriptor version %u, this library reads %u) is not "
                         "measured; rebuild it (reported once)",
                         (unsigned)d->version, PP_FUNC_DESC_VERSION);
            continue;
        }
        if (__atomic_load_n(&d->region, __ATOMIC_RELAXED) == 0 && d->name)
            __atomic_store_n(&d->region, pp_fp_region_of(d), __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&pp_functions_lock);
}
