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
import re

from .. import build_config
from .. import filterfile
from .switches import switch

ENVIRONMENT = "POMPPROF_FUNCTIONS"
FILTER_ENVIRONMENT = "POMPPROF_FILTER"

# substrings of a function's source file (gcc matches them anywhere in the path)
NEVER_FILES = ("/usr/include/", "/usr/lib/gcc/", "<pompprof>")
# substrings of a function's name: the region initialisation OPARI2 writes
# (C and Fortran spellings)
NEVER_FUNCTIONS = ("POMP2_Init_reg_", "POMP2_USER_Init_reg_", "pomp2_init_reg_",
                   "pomp2_user_init_reg_")


def enabled(wrapper_opts: list[str]) -> bool:
    """--functions, --filter=FILE or POMPPROF_FUNCTIONS=1."""
    return "--functions" in wrapper_opts \
        or any(o.startswith("--filter=") for o in wrapper_opts) \
        or switch(ENVIRONMENT, False)


def asks_for_debug_info(args: list[str]) -> bool:
    """-g, -g3, -ggdb...: the user's debug information wins (also -g0)."""
    return any(a.startswith("-g") and not a.startswith("-gsplit") for a in args)


def filter_path(wrapper_opts: list[str]) -> str | None:
    """--filter=FILE, else $POMPPROF_FILTER, else None."""
    for o in wrapper_opts:
        if o.startswith("--filter="):
            return o.split("=", 1)[1]
    return os.environ.get(FILTER_ENVIRONMENT) or None


def compile_flags(args: list[str], includedir: str | None = None,
                  flt: filterfile.Filter | None = None, plain_c: bool = False) -> list[str]:
    """The options that instrument a compile line's functions; with a filter,
    what gcc can leave out of it (Filter.compile_time: files always, function
    names when every source of the line is C, whose names gcc matches as
    written)."""
    files = list(NEVER_FILES)
    names = list(NEVER_FUNCTIONS)
    inc = includedir or os.environ.get("POMPPROF_INCDIR") or build_config.INCLUDEDIR
    if inc:
        files.append(os.path.join(inc, "pompprof.h"))
    if flt is not None:
        more_files, more_names = flt.compile_time()
        files += more_files
        if plain_c:
            names += more_names
    flags = ["-finstrument-functions",
             "-finstrument-functions-exclude-file-list=" + ",".join(files),
             "-finstrument-functions-exclude-function-list=" + ",".join(names)]
    if not asks_for_debug_info(args):
        flags.append("-g")
    return flags




# `.type name, @function` in gcc's assembly: the functions a unit defines
FUNCTION_LABEL = re.compile(r"^\s*\.type\s+([A-Za-z_.$][\w.$]*)\s*,\s*[@%]function", re.M)


def unit_exclusions(flt: filterfile.Filter, assembly: str) -> list[str]:
    """The C functions of one unit (as its plain compile defined them) that the
    filter excludes by name, each given to gcc only where that is exact: gcc
    leaves out every function whose name contains a listed string, so a name
    goes on the list only when no function of the unit that stays measured
    contains it.  The others are left to the run-time filter (POMPPROF_FILTER).
    Files are unknown here: file rules are Filter.compile_time's concern."""
    try:
        with open(assembly, encoding="utf-8", errors="replace") as f:
            names = set(FUNCTION_LABEL.findall(f.read()))
    except OSError:
        return []
    names = {n for n in names if "." not in n}      # gcc's clones (foo.part.0) and the like
    out = [n for n in names if flt.excludes(n)]
    kept = names - set(out)
    return sorted(n for n in out if not any(n in k for k in kept) and "," not in n)


def unit_flags_for(flt: filterfile.Filter):
    """compile_sources' unit_flags for pompprof --filter: C units only (gcc
    matches C++ and Fortran functions by names this step does not know)."""
    def flags(source: str, assembly: str, cplusplus: bool, fortran: bool) -> list[str]:
        if cplusplus or fortran:
            return []
        names = unit_exclusions(flt, assembly)
        if not names:
            return []
        return ["-finstrument-functions-exclude-function-list=" + ",".join(names)]
    return flags
