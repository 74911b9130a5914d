"""pompprof --functions (or POMPPROF_FUNCTIONS=1): the user's functions are
measured through gcc's -finstrument-functions (doc/functions.md).

What is never instrumented, whatever the user's filter says: code from
system headers and the C++ standard library (/usr/include, gcc's own include
directory), pompprof's own prelude and the region initialisation OPARI2
appends (the `<pompprof>` marker, POMP2_Init_reg_*), and pompprof.h.  The
program also gets debug information (-g, which changes no code) when it asks
for none: the library names the functions from it at the end, with file and
line."""

from __future__ import annotations

import os

from .. import build_config

ENVIRONMENT = "POMPPROF_FUNCTIONS"
TRUE_WORDS = ("1", "yes", "true", "on")

# substrings of a function's source file (gcc matches them anywhere in the path)
NEVER_FILES = ("/usr/include/", "/usr/lib/gcc/", "<pompprof>")
# substrings of a function's name: the region initialisation OPARI2 writes
# (C and Fortran spellings)
NEVER_FUNCTIONS = ("POMP2_Init_reg_", "POMP2_USER_Init_reg_", "pomp2_init_reg_",
                   "pomp2_user_init_reg_")


def enabled(wrapper_opts: list[str]) -> bool:
    return "--functions" in wrapper_opts or \
        os.environ.get(ENVIRONMENT, "").strip().lower() in TRUE_WORDS


def asks_for_debug_info(args: list[str]) -> bool:
    """-g, -g3, -ggdb...: the user's debug information wins (also -g0)."""
    return any(a.startswith("-g") and not a.startswith("-gsplit") for a in args)


def compile_flags(args: list[str], includedir: str | None = None) -> list[str]:
    """The options that instrument a compile line's functions."""
    files = list(NEVER_FILES)
    inc = includedir or os.environ.get("POMPPROF_INCDIR") or build_config.INCLUDEDIR
    if inc:
        files.append(os.path.join(inc, "pompprof.h"))
    flags = ["-finstrument-functions",
             "-finstrument-functions-exclude-file-list=" + ",".join(files),
             "-finstrument-functions-exclude-function-list=" + ",".join(NEVER_FUNCTIONS)]
    if not asks_for_debug_info(args):
        flags.append("-g")
    return flags


