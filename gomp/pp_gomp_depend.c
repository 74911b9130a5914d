/* The dependences of a task (GOMP_task's depend argument) or of a taskwait
 * depend, handed to the engine's dependence interface
 * (profile/pp_profile_depend.h).
 *
 * gcc passes an array of pointers in one of two formats (libgomp's
 * task.c reads them so):
 * - depend[0] = n, the number of items, depend[1] = how many of them are
 *   out or inout; the addresses follow from depend[2], out and inout first
 *   (gcc's old format, for in, out and inout only);
 * - depend[0] = 0, depend[1] = n, depend[2] = out and inout, depend[3] =
 *   mutexinoutset, depend[4] = in; the addresses follow from depend[5] in
 *   that order, then the depobj items, each the address of a depobj's two
 *   words (the item's address, its type: 1 in, 2 out, 3 inout, 4
 *   mutexinoutset, 5 inoutset).
 * libgomp cannot tell out from inout outside a depobj (nor need it): such
 * items are recorded as inout, as OMPT reports them.  No size is known:
 * size 0 (the replay matches items by address only).  The items go to the
 * engine in the array's order, 64 at a time. */
#include "gomp/pp_gomp_internal.h"

#include "profile/pp_profile_depend.h"

#define PP_GOMP_DEPEND_CHUNK 64u

static uint32_t pp_gomp_depobj_kind(uintptr_t type)
{
    switch (type) {
    case 1: return PP_DEPEND_IN;
    case 2: return PP_DEPEND_OUT;
    case 3: return PP_DEPEND_INOUT;
    case 4: return PP_DEPEND_MUTEXINOUTSET;
    case 5: return PP_DEPEND_INOUTSET;
    default: return PP_DEPEND_UNKNOWN;
    }
}

/* Every item of depend to the engine, as the task's or the taskwait's. */
static void pp_gomp_depend_each(void **depend, pp_task_handle task, bool taskwait)
{
    pp_depend items[PP_GOMP_DEPEND_CHUNK];
    uint32_t m = 0;
    uintptr_t n, first, nout, nmutex, nin;
    if (depend[0]) { /* the old format */
        n = (uintptr_t)depend[0];
        nout = (uintptr_t)depend[1];
        nmutex = 0;
        nin = n - nout;
        first = 2;
    } else {
        n = (uintptr_t)depend[1];
        nout = (uintptr_t)depend[2];
        nmutex = (uintptr_t)depend[3];
        nin = (uintptr_t)depend[4];
        first = 5;
    }
    for (uintptr_t i = 0; i < n; i++) {
        uint64_t addr;
        uint32_t kind;
        if (i < nout + nmutex + nin) {
            addr = (uint64_t)(uintptr_t)depend[first + i];
            kind = i < nout ? PP_DEPEND_INOUT
                            : i < nout + nmutex ? PP_DEPEND_MUTEXINOUTSET : PP_DEPEND_IN;
        } else { /* a depobj: its item and type */
            void **obj = (void **)depend[first + i];
            addr = (uint64_t)(uintptr_t)obj[0];
            kind = pp_gomp_depobj_kind((uintptr_t)obj[1]);
        }
        items[m++] = (pp_depend){addr, 0, kind};
        if (m == PP_GOMP_DEPEND_CHUNK || i + 1 == n) {
            if (taskwait)
                pp_profile_taskwait_depend(items, m);
            else
                pp_profile_task_depend(task, items, m);
            m = 0;
        }
    }
}

void pp_gomp_depend(pp_task_handle task, void **depend)
{
    pp_gomp_depend_each(depend, task, false);
}

void pp_gomp_taskwait_depend_items(void **depend)
{
    pp_gomp_depend_each(depend, 0, true);
}
