/* The entry points the wrapper's inserted code calls for the dependences of
 * tasks (doc/trace.md, "Dependences"): C and C++ (scripts/pompprof_tools/
 * wrapper/c_depend.py, whose prelude declares them in the instrumented code)
 * and Fortran (pp_pomp2_fortran.c's bindings, for wrapper/fortran_depend.py).
 * Defined in pp_pomp2_depend.c; test/tools/test_wrapper_prototypes.py checks
 * the prelude's declarations against these. */
#ifndef PP_POMP2_DEPEND_H
#define PP_POMP2_DEPEND_H

#include <opari2/pomp2_lib.h>
#include <stdint.h>

#include "profile/pp_profile_depend.h"

/* What a depobj object holds from now on (its depobj construct's depend
 * clause), a new type for it (update), or nothing (destroy). */
void pompprof_depobj_init(const void *obj, uint64_t addr, uint64_t size, uint32_t kind);
void pompprof_depobj_update(const void *obj, uint32_t kind);
void pompprof_depobj_destroy(const void *obj);
/* The list items of the task just created (task: its handle), or of a
 * taskwait depend about to begin, in clause order. */
void pompprof_task_depend(POMP2_Task_handle task, const pp_depend *items, uint32_t n);
void pompprof_taskwait_depend(const pp_depend *items, uint32_t n);

#endif
