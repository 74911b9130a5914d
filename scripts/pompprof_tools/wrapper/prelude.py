"""The declarations an instrumented C/C++ translation unit needs, written by
the wrapper instead of OPARI2's `#include "x.opari.inc"`.

OPARI2's include file pulls in <opari2/pomp2_lib.h> (and with it <omp.h>,
<stdint.h>, <stddef.h>); the wrapper compiles already preprocessed text,
where a second copy of <omp.h> would clash with the user's.  So the prelude
declares only what the inserted calls use, with the compiler's built-in types,
and no header.  It is preprocessed text itself: no macros.  The task handle
is int64_t spelled as the type of a literal that needs 64 bits, which is the
type int64_t is (long on LP64, long long elsewhere), so a program that
includes <opari2/pomp2_lib.h> itself (hand-written POMP2 calls) gets the same
typedefs twice, as C11 and C++ allow; a function such a program declares is
not declared again.  It never warns, also under -Wall -Wextra
-Wmissing-prototypes -Wstrict-prototypes -Wold-style-definition
-Wmissing-declarations.
"""

from __future__ import annotations

import re

from .c_depend import declarations as depend_declarations

# The POMP2 entry points OPARI2 (and the wrapper) call, with the parameter
# types of <opari2/pomp2_lib.h> spelled in built-in types.  Locks are passed as
# void * (the calls pass omp_lock_t *, which the prelude cannot name: <omp.h>
# may come later or not at all).  test/tools/test_wrapper_prototypes.py
# compiles these after OPARI2's headers and libpompprof's: a change on either
# side fails it.
H = "POMP2_Region_handle *"
T = "POMP2_Task_handle"
S = "const char *"
SIGNATURES = {
    "Assign_handle": "void (%s, %s)" % (H, S),
    "USER_Assign_handle": "void (POMP2_USER_Region_handle *, %s)" % S,
    "Begin": "void (POMP2_USER_Region_handle *, %s)" % S,
    "End": "void (POMP2_USER_Region_handle *)",
    "Init": "void (void)",
    "Finalize": "void (void)",
    "On": "void (void)",
    "Off": "void (void)",
    "Atomic_enter": "void (%s, %s)" % (H, S),
    "Atomic_exit": "void (%s)" % H,
    "Barrier_enter": "void (%s, %s *, %s)" % (H, T, S),
    "Barrier_exit": "void (%s, %s)" % (H, T),
    "Implicit_barrier_enter": "void (%s, %s *)" % (H, T),
    "Implicit_barrier_exit": "void (%s, %s)" % (H, T),
    "Flush_enter": "void (%s, %s)" % (H, S),
    "Flush_exit": "void (%s)" % H,
    "Critical_begin": "void (%s)" % H,
    "Critical_end": "void (%s)" % H,
    "Critical_enter": "void (%s, %s)" % (H, S),
    "Critical_exit": "void (%s)" % H,
    "For_enter": "void (%s, %s)" % (H, S),
    "For_exit": "void (%s)" % H,
    "Master_begin": "void (%s, %s)" % (H, S),
    "Master_end": "void (%s)" % H,
    "Parallel_begin": "void (%s)" % H,
    "Parallel_end": "void (%s)" % H,
    "Parallel_fork": "void (%s, int, int, %s *, %s)" % (H, T, S),
    "Parallel_join": "void (%s, %s)" % (H, T),
    "Section_begin": "void (%s, %s)" % (H, S),
    "Section_end": "void (%s)" % H,
    "Sections_enter": "void (%s, %s)" % (H, S),
    "Sections_exit": "void (%s)" % H,
    "Single_begin": "void (%s)" % H,
    "Single_end": "void (%s)" % H,
    "Single_enter": "void (%s, %s)" % (H, S),
    "Single_exit": "void (%s)" % H,
    "Workshare_enter": "void (%s, %s)" % (H, S),
    "Workshare_exit": "void (%s)" % H,
    "Ordered_begin": "void (%s)" % H,
    "Ordered_end": "void (%s)" % H,
    "Ordered_enter": "void (%s, %s)" % (H, S),
    "Ordered_exit": "void (%s)" % H,
    "Task_create_begin": "void (%s, %s *, %s *, int, %s)" % (H, T, T, S),
    "Task_create_end": "void (%s, %s)" % (H, T),
    "Task_begin": "void (%s, %s)" % (H, T),
    "Task_end": "void (%s)" % H,
    "Untied_task_create_begin": "void (%s, %s *, %s *, int, %s)" % (H, T, T, S),
    "Untied_task_create_end": "void (%s, %s)" % (H, T),
    "Untied_task_begin": "void (%s, %s)" % (H, T),
    "Untied_task_end": "void (%s)" % H,
    "Taskwait_begin": "void (%s, %s *, %s)" % (H, T, S),
    "Taskwait_end": "void (%s, %s)" % (H, T),
    # pompprof's merged calls of adjacent task events (wrapper/adjacent.py)
    "Task_create_next": "void (%s, %s, %s, %s *, %s)" % (H, T, H, T, S),
    "Task_create_end_wait": "void (%s, %s, %s, %s)" % (H, T, H, S),
    "Init_lock": "void (void *)",
    "Destroy_lock": "void (void *)",
    "Set_lock": "void (void *)",
    "Unset_lock": "void (void *)",
    "Test_lock": "int (void *)",
    "Init_nest_lock": "void (void *)",
    "Destroy_nest_lock": "void (void *)",
    "Set_nest_lock": "void (void *)",
    "Unset_nest_lock": "void (void *)",
    "Test_nest_lock": "int (void *)",
    # the hint is an omp_sync_hint_t, an enum of int's size in libgomp and libomp
    "Init_lock_with_hint": "void (void *, int)",
    "Init_nest_lock_with_hint": "void (void *, int)",
}
# The library's forms of the task calls for the wrapper's own calls
# (instrument.py, WRAPPED_CALL): the same signatures under a second name.
SIGNATURES.update({name + "_wrapped": SIGNATURES[name] for name in (
    "Task_create_begin", "Task_create_end", "Task_begin", "Task_end", "Taskwait_begin",
    "Taskwait_end")})
CALL = re.compile(r"\bPOMP2_(\w+?)\s*\(")


# The inserted calls go through the GOT instead of a PLT stub (GCC's noplt: one
# jump less per call, which a fine-grained task program makes a few times per
# task).  Compilers without the attribute (clang) ignore it, and the
# pragmas keep that from being a warning: -Wpragmas first, so that GCC, which
# has no -Wunknown-attributes, does not warn about the name either.
NOPLT_BEGIN = ["#pragma GCC diagnostic push",
               '#pragma GCC diagnostic ignored "-Wpragmas"',
               '#pragma GCC diagnostic ignored "-Wunknown-attributes"']
NOPLT_END = ["#pragma GCC diagnostic pop"]


def declaration(name: str) -> str | None:
    sig = SIGNATURES.get(name)
    if sig is None:
        return None
    ret, params = sig.split(" ", 1)
    return "%s POMP2_%s%s __attribute__((noplt));" % (ret, name, params)


def prelude(body: str, handles: list[str], own: int,
            init_functions: list[tuple[str, list[tuple[str, str, str]]]],
            cplusplus: bool, user_names: frozenset = frozenset()) -> list[str]:
    """Lines that declare everything body calls and the region handles (OPARI2's,
    and `own` of the wrapper's, reached through pompprof_handle_<n>()), and define
    the init functions: (name, [(assign function, handle address, region string)]).
    user_names: the POMP2 functions the user's own code names (and so declares)."""
    called = sorted((set(CALL.findall(body))
                     | {fn.replace("POMP2_", "", 1) for _, assigns in init_functions
                        for fn, _, _ in assigns}) - set(user_names))
    lines = ['# 1 "<pompprof>"']
    if cplusplus:
        lines.append('extern "C" {')
    lines += ["typedef void *OPARI2_Region_handle;",
              "typedef OPARI2_Region_handle POMP2_Region_handle;",
              "typedef OPARI2_Region_handle POMP2_USER_Region_handle;",
              "typedef __typeof__(9223372036854775807L) POMP2_Task_handle;",
              "extern __thread POMP2_Task_handle pomp_tpd;"]
    lines += depend_declarations(body)
    decls = [d for d in map(declaration, called) if d]
    if decls:
        lines += NOPLT_BEGIN + decls + NOPLT_END
    for name, _ in init_functions:
        lines.append("void %s(void);" % name)
    if cplusplus:
        lines.append("}")
    lines += ["static OPARI2_Region_handle %s = 0;" % h for h in handles]
    for n in range(1, own + 1):
        lines += ["static OPARI2_Region_handle pompprof_region_%d = 0;" % n,
                  "static POMP2_Region_handle *pompprof_handle_%d(void)" % n,
                  "{", "    return &pompprof_region_%d;" % n, "}"]
    for name, assigns in init_functions:
        lines.append("void %s(void)" % name)
        lines.append("{")
        lines += ["    %s(%s, %s);" % (fn, h, s) for fn, h, s in assigns]
        lines.append("}")
    return lines
