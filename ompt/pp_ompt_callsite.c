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
/* the GOMP_ entry point gcc calls for a construct of a kind (NULL: none
 * looked for) */
static const void *pp_ompt_gomp_entries[PP_CALLSITE_KINDS];

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
    pp_ompt_gomp_entries[PP_CALLSITE_TASK] = dlsym(RTLD_DEFAULT, "GOMP_task");
    /* (for clang's binaries these find no call: only their taskwaits and
     * barriers reached by a tail call out of an outlined body are helped) */
    pp_ompt_gomp_entries[PP_CALLSITE_UNTIED_TASK] = pp_ompt_gomp_entries[PP_CALLSITE_TASK];
    pp_ompt_gomp_entries[PP_CALLSITE_TASKWAIT] = dlsym(RTLD_DEFAULT, "GOMP_taskwait");
    pp_ompt_gomp_entries[PP_CALLSITE_TASKYIELD] = dlsym(RTLD_DEFAULT, "GOMP_taskyield");
    pp_ompt_gomp_entries[PP_CALLSITE_BARRIER] = dlsym(RTLD_DEFAULT, "GOMP_barrier");
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

/* The function the program calls right before return address w (a direct
 * call, a call through the program's PLT stub, or an indirect call through
 * its GOT), NULL when w follows no such call in the program's code. */
static const void *pp_ompt_call_target(uintptr_t w)
{
    const pp_ompt_segment *s = pp_ompt_segment_of(w - 6, 6);
    if (!s || !s->exec || s->runtime)
        return NULL;
    const unsigned char *c = (const unsigned char *)w;
    if (c[-6] == 0xff && c[-5] == 0x15) /* call *rel32(%rip): through the GOT */
        return pp_ompt_got_entry(w + pp_ompt_rel32(w - 4));
    if (c[-5] != 0xe8) /* call rel32 */
        return NULL;
    uintptr_t target = w + pp_ompt_rel32(w - 4);
    /* a PLT stub: [endbr64] [bnd] jmp *rel32(%rip) */
    const pp_ompt_segment *t = pp_ompt_segment_of(target, 16);
    if (!t || !t->exec || t->runtime)
        return (const void *)target;
    const unsigned char *p = (const unsigned char *)target;
    if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
        p += 4;
    if (p[0] == 0xf2)
        p++;
    if (p[0] != 0xff || p[1] != 0x25)
        return (const void *)target;
    uintptr_t next = (uintptr_t)p + 6;
    return pp_ompt_got_entry(next + pp_ompt_rel32((uintptr_t)p + 2));
}

/* Whether w is a return address into the program right after a call of one
 * of the entries. */
static bool pp_ompt_calls(uintptr_t w, const void *const *entries, int n)
{
    return pp_ompt_is_entry(pp_ompt_call_target(w), entries, n);
}

/* The first return address on the calling thread's stack, between here and
 * the frame the current task's body was called from, that follows a call of
 * one of the entries; NULL when there is none for certain. */
static const void *pp_ompt_stack_callsite(const void *const *entries, int n)
{
    volatile char here = 0;
    int flags = 0, thread_num = 0;
    ompt_data_t *task = NULL, *parallel = NULL;
    ompt_frame_t *frame = NULL;
    if (!pp_ompt_get_task_info ||
        pp_ompt_get_task_info(0, &flags, &task, &frame, &parallel, &thread_num) != 2 || !frame)
        return NULL;
    /* up to the return address of the frame at the exit frame's address
     * (libomp takes it with __builtin_frame_address: a frame pointer's,
     * the return address above it): for an undeferred task, which is the
     * current task in its creation's callback, that frame is GOMP_task's */
    uintptr_t lo = ((uintptr_t)&here + 7) & ~(uintptr_t)7, hi = (uintptr_t)frame->exit_frame.ptr;
    if (!hi || hi <= lo || hi - lo > (1u << 20))
        return NULL; /* no frame to stop at: not searched */
    hi += 2 * sizeof(uintptr_t);
    for (uintptr_t at = (hi - sizeof(uintptr_t)) & ~(uintptr_t)7; at >= lo; at -= sizeof(uintptr_t)) {
        uintptr_t w = *(const uintptr_t *)at;
        if (pp_ompt_calls(w, entries, n))
            return (const void *)w;
    }
    return NULL;
}

const void *pp_ompt_taskloop_callsite(void)
{
    return pp_ompt_stack_callsite(pp_ompt_taskloop_entries, 4);
}

/* The outlined body of the parallel region whose runtime call returns to
 * codeptr: the code address the program loads into the call's argument
 * register for it last before the call (gcc: GOMP_parallel*'s first;
 * clang: __kmpc_fork_call's third), if that is the program's code; else
 * NULL.  (The outlined functions are local symbols, which dladdr does not
 * see; the name then checks that the body holds a tail call of the
 * construct's entry point, or says its position was lost.) */
static const void *pp_ompt_parallel_body(const void *codeptr)
{
    const void *target = pp_ompt_call_target((uintptr_t)codeptr);
    Dl_info info;
    if (!target || !pp_ompt_in_runtime(target) || !dladdr(target, &info) || !info.dli_sname)
        return NULL;
    unsigned char reg; /* the ModRM byte of lea rel32(%rip) into the register */
    if (strncmp(info.dli_sname, "GOMP_parallel", 13) == 0)
        reg = 0x3d; /* %rdi */
    else if (strcmp(info.dli_sname, "__kmpc_fork_call") == 0)
        reg = 0x15; /* %rdx */
    else
        return NULL;
    uintptr_t call = (uintptr_t)codeptr - 5;
    if (((const unsigned char *)codeptr)[-6] == 0xff)
        call--; /* the call through the GOT is six bytes long */
    for (uintptr_t at = call - 7; at + 64 >= call && pp_ompt_segment_of(at, 7); at--) {
        const unsigned char *b = (const unsigned char *)at;
        if (b[0] != 0x48 || b[1] != 0x8d || b[2] != reg)
            continue;
        uintptr_t body = at + 7 + (uintptr_t)(intptr_t)pp_ompt_rel32(at + 3);
        const pp_ompt_segment *s = pp_ompt_segment_of(body, 1);
        return s && s->exec && !s->runtime ? (const void *)body : NULL;
    }
    return NULL;
}

/* Whether the runtime's address codeptr follows an indirect call (libomp
 * calling an outlined body it was given). */
static bool pp_ompt_after_indirect_call(const void *codeptr)
{
    const unsigned char *c = codeptr;
    return (c[-2] == 0xff && (c[-1] & 0xf8) == 0xd0) ||
           (c[-3] == 0x41 && c[-2] == 0xff && (c[-1] & 0xf8) == 0xd0);
}

/* libomp 14 reports some constructs of a gcc binary at a return address
 * that it kept from an earlier entry of the thread's and never used (its
 * guard stores a new address only when none is kept): an undeferred task
 * created inside a deferred one on a team's primary thread at the
 * GOMP_parallel call's address (the region's line), a taskwait there at an
 * address inside GOMP_parallel.  Such a codeptr lies in libomp, or follows
 * a call of another GOMP_ entry point than the construct's; the program's
 * call of the construct's own entry point is then on the stack.  Where it
 * is not, and the codeptr is libomp's return from the implicit task's
 * outlined body, the body reached the runtime by a tail call: the construct
 * is the body's (pp_callsite.tail_body names it). */
const void *pp_ompt_gomp_callsite(const void *codeptr, pp_callsite_kind kind,
                                  const pp_callsite *parallel, int *how)
{
    *how = PP_OMPT_SITE_AS_IS;
    if (kind >= PP_CALLSITE_KINDS || !pp_ompt_gomp_entries[kind])
        return codeptr;
    const void *entry = pp_ompt_gomp_entries[kind];
    bool in_runtime = pp_ompt_in_runtime(codeptr);
    if (!in_runtime) {
        const void *target = pp_ompt_call_target((uintptr_t)codeptr);
        if (!target || target == entry || !pp_ompt_in_runtime(target))
            return codeptr;
        Dl_info info;
        if (!dladdr(target, &info) || !info.dli_sname ||
            strncmp(info.dli_sname, "GOMP_", 5) != 0)
            return codeptr;
    }
    const void *site = pp_ompt_stack_callsite(&entry, 1);
    if (site) {
        *how = PP_OMPT_SITE_STACK;
        return site;
    }
    int flags = 0, thread_num = 0;
    ompt_data_t *task = NULL, *par = NULL;
    ompt_frame_t *frame = NULL;
    const void *body;
    if (in_runtime && parallel && pp_ompt_after_indirect_call(codeptr) &&
        pp_ompt_get_task_info &&
        pp_ompt_get_task_info(0, &flags, &task, &frame, &par, &thread_num) == 2 &&
        (flags & ompt_task_implicit) && (body = pp_ompt_parallel_body(parallel->codeptr))) {
        *how = PP_OMPT_SITE_TAIL_BODY;
        return body;
    }
    return codeptr;
}
