/* pp_modules: loaded modules and their dynamic relocations (pp_modules.h). */
#define _GNU_SOURCE
#include "lib/pp_modules.h"

#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct pp_modules_walk {
    const char *symbol;
    int (*cb)(const pp_module *m, void *user);
    void *user;
    int found;
    int stop;
} pp_modules_walk;

/* The dynamic section's pointers: relocated in place by the dynamic linker
 * on most targets, file offsets from the load bias on others (and in the
 * vDSO); an address below the bias cannot be one already relocated. */
static uintptr_t pp_modules_ptr(uintptr_t bias, ElfW(Addr) value)
{
    return value < bias ? bias + value : value;
}

/* Does one table of relocations (entries of ent bytes, the symbol index in
 * the info word as ELF_R_SYM reads it) refer to the symbol? */
static bool pp_modules_table_refers(const unsigned char *table, size_t size, size_t ent,
                                    const ElfW(Sym) *symtab, const char *strtab,
                                    const char *symbol)
{
    if (!table || !ent)
        return false;
    for (size_t off = 0; off + ent <= size; off += ent) {
        /* r_info follows r_offset in Rel and Rela alike */
        const ElfW(Rel) *r = (const ElfW(Rel) *)(const void *)(table + off);
#if __ELF_NATIVE_CLASS == 64
        size_t sym = ELF64_R_SYM(r->r_info);
#else
        size_t sym = ELF32_R_SYM(r->r_info);
#endif
        if (sym && strcmp(strtab + symtab[sym].st_name, symbol) == 0)
            return true;
    }
    return false;
}

static int pp_modules_visit(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    pp_modules_walk *w = data;
    const ElfW(Dyn) *dyn = NULL;
    uintptr_t code = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
        else if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && !code)
            code = info->dlpi_addr + ph->p_vaddr;
    }
    if (!dyn || !code || (info->dlpi_name && strstr(info->dlpi_name, "linux-vdso")))
        return 0;
    uintptr_t bias = info->dlpi_addr;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const unsigned char *jmprel = NULL, *rela = NULL, *rel = NULL;
    size_t jmprel_size = 0, rela_size = 0, rel_size = 0, rela_ent = sizeof(ElfW(Rela)),
           rel_ent = sizeof(ElfW(Rel)), jmprel_ent = sizeof(ElfW(Rela));
    for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: symtab = (const ElfW(Sym) *)pp_modules_ptr(bias, d->d_un.d_ptr); break;
        case DT_STRTAB: strtab = (const char *)pp_modules_ptr(bias, d->d_un.d_ptr); break;
        case DT_JMPREL:
            jmprel = (const unsigned char *)pp_modules_ptr(bias, d->d_un.d_ptr);
            break;
        case DT_PLTRELSZ: jmprel_size = d->d_un.d_val; break;
        case DT_PLTREL: jmprel_ent = d->d_un.d_val == DT_REL ? sizeof(ElfW(Rel)) : jmprel_ent; break;
        case DT_RELA: rela = (const unsigned char *)pp_modules_ptr(bias, d->d_un.d_ptr); break;
        case DT_RELASZ: rela_size = d->d_un.d_val; break;
        case DT_RELAENT: rela_ent = d->d_un.d_val; break;
        case DT_REL: rel = (const unsigned char *)pp_modules_ptr(bias, d->d_un.d_ptr); break;
        case DT_RELSZ: rel_size = d->d_un.d_val; break;
        case DT_RELENT: rel_ent = d->d_un.d_val; break;
        default: break;
        }
    }
    if (!symtab || !strtab)
        return 0;
    if (pp_modules_table_refers(jmprel, jmprel_size, jmprel_ent, symtab, strtab, w->symbol) ||
        pp_modules_table_refers(rela, rela_size, rela_ent, symtab, strtab, w->symbol) ||
        pp_modules_table_refers(rel, rel_size, rel_ent, symtab, strtab, w->symbol)) {
        pp_module m = {.path = info->dlpi_name ? info->dlpi_name : "", .bias = bias,
                       .code = code};
        w->found++;
        if (w->cb && w->cb(&m, w->user) != 0)
            return w->stop = 1;
    }
    return 0;
}

int pp_modules_referencing(const char *symbol, int (*cb)(const pp_module *m, void *user),
                           void *user)
{
    pp_modules_walk w = {.symbol = symbol, .cb = cb, .user = user};
    dl_iterate_phdr(pp_modules_visit, &w);
    return w.found;
}

typedef struct pp_modules_list {
    uintptr_t *biases;
    int max, n;
} pp_modules_list;

static int pp_modules_note(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    pp_modules_list *l = data;
    if (l->n < l->max)
        l->biases[l->n] = info->dlpi_addr;
    l->n++;
    return 0;
}

int pp_modules_loaded(uintptr_t *biases, int max)
{
    pp_modules_list l = {.biases = biases, .max = max};
    dl_iterate_phdr(pp_modules_note, &l);
    return l.n;
}
