/* Hooks for the engine's unit tests (pp_profile_test.h). */
#include "profile/pp_profile_internal.h"
#include "profile/pp_profile_test.h"

#include <inttypes.h>
#include <stdio.h>

void pp_profile_test_reset(void)
{
    pp_profile_lifecycle_reset();
}

void pp_profile_test_start_at(uint64_t now)
{
    pp_profile_start_at(now);
}

void pp_profile_test_finalize_at(uint64_t now)
{
    pp_profile_finalize_at(now);
}

void pp_profile_test_use_location(uint32_t index)
{
    for (;;) {
        for (pp_location *l = pp_profile_g.first; l; l = l->next)
            if (l->index == index) {
                pp_profile_tls_set(l);
                return;
            }
        pp_profile_tls_set(NULL);
        if (!pp_profile_location_create())
            return;
    }
}

void pp_profile_test_set_limits(unsigned max_depth, size_t memory_limit)
{
    pp_profile_g.max_depth = max_depth;
    pp_profile_g.memory_limit = memory_limit;
}

size_t pp_profile_test_arena_bytes(uint32_t index)
{
    for (pp_location *l = pp_profile_g.first; l; l = l->next)
        if (l->index == index)
            return l->arena_bytes;
    return 0;
}

uint64_t pp_profile_test_lost(int memory)
{
    uint64_t s = 0;
    for (pp_location *l = pp_profile_g.first; l; l = l->next)
        s += memory ? l->lost_memory : l->lost_depth;
    return s;
}

const char *pp_profile_test_pset_text(uint32_t pset, char *buf, size_t size)
{
    const pp_param_entry *e;
    uint32_t n = pp_profile_pset_entries(pset, &e);
    size_t k = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < n && k < size; i++) {
        const char *sep = i ? ", " : "";
        const char *name = pp_profile_param_name(e[i].key);
        if (e[i].val.type == PP_PARAM_INT64)
            k += (size_t)snprintf(buf + k, size - k, "%s%s=%" PRId64, sep, name, e[i].val.v);
        else if (e[i].val.type == PP_PARAM_STRING)
            k += (size_t)snprintf(buf + k, size - k, "%s%s=%.*s", sep, name, (int)e[i].val.len,
                                  e[i].val.str);
        else
            k += (size_t)snprintf(buf + k, size - k, "%s%s=<other>", sep, name);
    }
    return buf;
}

void pp_profile_test_set_max_parameter_values(uint32_t n)
{
    pp_profile_g.max_param_values = n;
}

void pp_profile_test_enter_paused(pp_region_id region, uint64_t now, void (*inside)(void *),
                                  void *arg)
{
    pp_profile_event_begin();
    pp_location *loc = pp_profile_event_loc();
    if (loc) {
        inside(arg);
        pp_task *t = loc->current;
        pp_node *c = pp_profile_child(loc, t->pos, pp_node_key_of(region, 0), 0);
        if (c) {
            c->start = now - t->susp;
            t->pos = c;
            loc->last = now;
        } else {
            t->fold++;
        }
    }
    pp_profile_event_end();
}

int pp_profile_test_assertions(void)
{
    return PP_ASSERTIONS;
}

void pp_profile_test_misplace_current(void)
{
    pp_location *loc = pp_profile_tls_;
    if (loc)
        loc->current->pos = loc->root;
}

void pp_profile_test_crashed_here(void)
{
    __atomic_store_n(&pp_profile_crashed_thread, &pp_profile_thread_, __ATOMIC_SEQ_CST);
}

uint32_t pp_profile_test_quiesce(uint64_t wait_ns)
{
    pp_profile_set_enabled(false);
    return pp_profile_quiesce(wait_ns);
}
