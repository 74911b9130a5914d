/* The dependences the wrapper's inserted code records (doc/trace.md,
 * "Dependences"): pompprof_task_depend and pompprof_taskwait_depend hand a
 * construct's list items to the engine (profile/pp_profile_depend.h) after
 * resolving depobj items, which the wrapper passes as the depobj object's
 * address with kind PP_POMP2_DEPOBJ.
 *
 * depobj objects: the wrapper follows each `depobj` construct with a call
 * (pompprof_depobj_init/_update/_destroy), and this file keeps what each
 * object holds in a fixed table keyed by the object's address.  Writers
 * (the depobj constructs, rare) take a lock; readers (task creation) probe
 * without one: a slot's key is published last, its fields are atomics. */
#include <pthread.h>
#include <stdint.h>

#include "lib/pp_message.h"
#include "pomp2/pp_pomp2_depend.h"
#include "pomp2/pp_pomp2_internal.h"
#include "profile/pp_profile_depend.h"

/* What the wrapper passes for depend(depobj: o): addr is &o. */
#define PP_POMP2_DEPOBJ 7u
/* Items handed to the engine per call (the rest follow in further calls). */
#define PP_POMP2_DEPEND_CHUNK 64u

typedef struct pp_pomp2_depobj {
    uintptr_t key; /* the object's address, 0: free */
    uint64_t addr, size;
    uint32_t kind; /* 0 after a destroy */
} pp_pomp2_depobj;

#define PP_POMP2_DEPOBJS 4096u /* power of two */
static pp_pomp2_depobj pp_pomp2_depobjs[PP_POMP2_DEPOBJS];
static pthread_mutex_t pp_pomp2_depobj_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t pp_pomp2_depobj_home(uintptr_t key)
{
    return (uint32_t)((key >> 3) * 0x9E3779B97F4A7C15ull >> 40) & (PP_POMP2_DEPOBJS - 1);
}

/* The slot of key, or NULL (make: a free one is taken, under the lock). */
static pp_pomp2_depobj *pp_pomp2_depobj_slot(uintptr_t key, int make)
{
    uint32_t i = pp_pomp2_depobj_home(key);
    for (uint32_t n = 0; n < PP_POMP2_DEPOBJS; n++, i = (i + 1) & (PP_POMP2_DEPOBJS - 1)) {
        uintptr_t k = __atomic_load_n(&pp_pomp2_depobjs[i].key, __ATOMIC_ACQUIRE);
        if (k == key)
            return &pp_pomp2_depobjs[i];
        if (k == 0)
            return make ? &pp_pomp2_depobjs[i] : NULL;
    }
    return NULL;
}

static void pp_pomp2_depobj_store(const void *obj, uint64_t addr, uint64_t size, uint32_t kind,
                                  int set_item)
{
    uintptr_t key = (uintptr_t)obj;
    if (!key)
        return;
    pthread_mutex_lock(&pp_pomp2_depobj_lock);
    pp_pomp2_depobj *d = pp_pomp2_depobj_slot(key, set_item);
    if (d) {
        if (set_item) {
            __atomic_store_n(&d->addr, addr, __ATOMIC_RELAXED);
            __atomic_store_n(&d->size, size, __ATOMIC_RELAXED);
        }
        __atomic_store_n(&d->kind, kind, __ATOMIC_RELAXED);
        __atomic_store_n(&d->key, key, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&pp_pomp2_depobj_lock);
    if (!d && set_item)
        PP_WARN_ONCE("more than %u depobj objects: the dependences of the others are unknown",
                     PP_POMP2_DEPOBJS);
}

void pompprof_depobj_init(const void *obj, uint64_t addr, uint64_t size, uint32_t kind)
{
    pp_pomp2_depobj_store(obj, addr, size, kind, 1);
}

void pompprof_depobj_update(const void *obj, uint32_t kind)
{
    pp_pomp2_depobj_store(obj, 0, 0, kind, 0);
}

void pompprof_depobj_destroy(const void *obj)
{
    pp_pomp2_depobj_store(obj, 0, 0, 0, 0);
}

/* items[0..n) with depobj items resolved, a chunk at a time, to send. */
static void pp_pomp2_depend(pp_task_handle task, int wait, const pp_depend *items, uint32_t n)
{
    pp_depend buf[PP_POMP2_DEPEND_CHUNK];
    while (n) {
        uint32_t m = n < PP_POMP2_DEPEND_CHUNK ? n : PP_POMP2_DEPEND_CHUNK;
        for (uint32_t i = 0; i < m; i++) {
            buf[i] = items[i];
            if (items[i].kind != PP_POMP2_DEPOBJ)
                continue;
            const pp_pomp2_depobj *d = pp_pomp2_depobj_slot((uintptr_t)items[i].addr, 0);
            uint32_t kind = d ? __atomic_load_n(&d->kind, __ATOMIC_RELAXED) : 0;
            buf[i].kind = kind ? kind : PP_DEPEND_UNKNOWN;
            buf[i].addr = kind ? __atomic_load_n(&d->addr, __ATOMIC_RELAXED) : 0;
            buf[i].size = kind ? __atomic_load_n(&d->size, __ATOMIC_RELAXED) : 0;
        }
        if (wait)
            pp_profile_taskwait_depend(buf, m);
        else
            pp_profile_task_depend(task, buf, m);
        items += m;
        n -= m;
    }
}

void pompprof_task_depend(POMP2_Task_handle task, const pp_depend *items, uint32_t n)
{
    pp_pomp2_depend((pp_task_handle)task, 0, items, n);
}

void pompprof_taskwait_depend(const pp_depend *items, uint32_t n)
{
    pp_pomp2_depend(0, 1, items, n);
}
