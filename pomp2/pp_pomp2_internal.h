/* Declarations shared by the adapter's own files (not part of any API). */
#ifndef PP_POMP2_INTERNAL_H
#define PP_POMP2_INTERNAL_H

#include <stdint.h>

/* The threadprivate fork context (defined in pp_pomp2_entry.c). */
extern __thread int64_t pomp_tpd;

/* Define the omp_*_lock wrapper regions (pp_pomp2_lock.c); called once from
 * the adapter's initialization. */
void pp_pomp2_lock_define_regions(void);

#endif
