/* Where code lies: libomp's text, the program's modules, and the program's
 * call site of an entry point into libomp, found on the stack.
 *
 * libomp 14 reports some constructs at an address inside itself, e.g. a
 * taskloop at __kmpc_taskloop+0xbb: no position in the program.  The call
 * that entered libomp is still on the thread's stack: its return address
 * lies between the callback's frame and the frame the current task's body
 * was called from (OMPT's exit frame of the task).  The stack is read from
 * that frame down; the first word that is a return address into the
 * program right after a call of the entry point (a direct call, a call
 * through the program's PLT stub, or an indirect call through its GOT: each
 * decoded from the program's own instruction bytes and GOT, read only where
 * the modules' segments are mapped) is the call site.  Nothing is written;
 * only live stack, mapped code and the GOT are read; at most one task's
 * frames.  So a position is found only when it is certain; otherwise none
 * is (the caller keeps libomp's address).  The modules are those loaded
 * when the tool starts. */
#define _GNU_SOURCE
#include "ompt/pp_ompt_internal.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

#define PP_OMPT_SEGMENTS 256

typedef struct pp_ompt_segment {
    uintptr_t lo, hi;
    bool exec, runtime; /* executable; libomp's (or this tool's) */
} pp_ompt_segment;

static pp_ompt_segment pp_ompt_segments[PP_OMPT_SEGMENTS];
static int pp_ompt_n_segments;
static ompt_get_task_info_t pp_ompt_get_task_info;
static const void *pp_ompt_taskloop_entries[4];

/* dl_iterate_phdr: every module's loaded segments; those of the module
 * holding runtime_fn (libomp) or this function (the tool) marked. */
static int pp_ompt_module_segments(struct dl_phdr_info *info, size_t size, void *runtime_fn)
{
    (void)size;
    bool runtime = false;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < info->dlpi_phnum; i++) {
            const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
            if (ph->p_type != PT_LOAD)
                continue;
            uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
            if (pass == 0) {
                uintptr_t a = (uintptr_t)runtime_fn, b = (uintptr_t)pp_ompt_module_segments;
                runtime |= (a >= lo && a < hi) || (b >= lo && b < hi);
            } else if (pp_ompt_n_segments < PP_OMPT_SEGMENTS && (ph->p_flags & PF_R)) {
                pp_ompt_segments[pp_ompt_n_segments++] =
                    (pp_ompt_segment){lo, hi, (ph->p_flags & PF_X) != 0, runtime};
            }
        }
    }
    return 0;
}

void pp_ompt_callsite_init(ompt_function_lookup_t lookup)
{
    pp_ompt_n_segments = 0;
    pp_ompt_get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
    dl_iterate_phdr(pp_ompt_module_segments, (void *)lookup);
    static const char *const names[] = {"__kmpc_taskloop", "__kmpc_taskloop_5", "GOMP_taskloop",
                                        "GOMP_taskloop_ull"};
    for (int i = 0; i < 4; i++)
        pp_ompt_taskloop_entries[i] = dlsym(RTLD_DEFAULT, names[i]);
}

/* The segment holding [a, a + n), or NULL. */
static const pp_ompt_segment *pp_ompt_segment_of(uintptr_t a, uintptr_t n)
{
    for (int i = 0; i < pp_ompt_n_segments; i++)
        if (a >= pp_ompt_segments[i].lo && a + n <= pp_ompt_segments[i].hi && a + n > a)
            return &pp_ompt_segments[i];
    return NULL;
}

bool pp_ompt_in_runtime(const void *codeptr)
{
    const pp_ompt_segment *s = pp_ompt_segment_of((uintptr_t)codeptr, 1);
    return s && s->exec && s->runtime;
}

static int32_t pp_ompt_rel32(uintptr_t at)
{
    int32_t r;
    memcpy(&r, (const void *)at, sizeof r);
    return r;
}

static const void *pp_ompt_got_entry(uintptr_t slot)
{
    if (!pp_ompt_segment_of(slot, sizeof(void *)))
        return NULL;
    const void *p;
    memcpy(&p, (const void *)slot, sizeof p);
    return p;
}

static bool pp_ompt_is_entry(const void *fn, const void *const *entries, int n)
{
    for (int i = 0; fn && i < n; i++)
        if (entries[i] && entries[i] == fn)
            return true;
    return false;
}

/* Whether w is a return address into the program right after a call of one
 * of the entries. */
static bool pp_ompt_calls(uintptr_t w, const void *const *entries, int n)
{
    const pp_ompt_segment *s = pp_ompt_segment_of(w - 6, 6);
    if (!s || !s->exec || s->runtime)
        return false;
    const unsigned char *c = (const unsigned char *)w;
    if (c[-6] == 0xff && c[-5] == 0x15) /* call *rel32(%rip): through the GOT */
        return pp_ompt_is_entry(pp_ompt_got_entry(w + pp_ompt_rel32(w - 4)), entries, n);
    if (c[-5] != 0xe8) /* call rel32 */
        return false;
    uintptr_t target = w + pp_ompt_rel32(w - 4);
    if (pp_ompt_is_entry((const void *)target, entries, n))
        return true;
    /* a PLT stub: [endbr64] [bnd] jmp *rel32(%rip) */
    const pp_ompt_segment *t = pp_ompt_segment_of(target, 16);
    if (!t || !t->exec || t->runtime)
        return false;
    const unsigned char *p = (const unsigned char *)target;
    if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
        p += 4;
    if (p[0] == 0xf2)
        p++;
    if (p[0] != 0xff || p[1] != 0x25)
        return false;
    uintptr_t next = (uintptr_t)p + 6;
    return pp_ompt_is_entry(pp_ompt_got_entry(next + pp_ompt_rel32((uintptr_t)p + 2)), entries,
                            n);
}

const void *pp_ompt_taskloop_callsite(void)
{
    volatile char here = 0;
    int flags = 0, thread_num = 0;
    ompt_data_t *task = NULL, *parallel = NULL;
    ompt_frame_t *frame = NULL;
    if (!pp_ompt_get_task_info ||
        pp_ompt_get_task_info(0, &flags, &task, &frame, &parallel, &thread_num) != 2 || !frame)
        return NULL;
    uintptr_t lo = ((uintptr_t)&here + 7) & ~(uintptr_t)7, hi = (uintptr_t)frame->exit_frame.ptr;
    if (!hi || hi <= lo || hi - lo > (1u << 20))
        return NULL; /* no frame to stop at: not searched */
    for (uintptr_t at = (hi - sizeof(uintptr_t)) & ~(uintptr_t)7; at >= lo; at -= sizeof(uintptr_t)) {
        uintptr_t w = *(const uintptr_t *)at;
        if (pp_ompt_calls(w, pp_ompt_taskloop_entries, 4))
            return (const void *)w;
    }
    return NULL;
}
