"""pompprof --functions (or POMPPROF_FUNCTIONS=1): the user's functions are
measured (doc/functions.md), instrumented one of two ways:

* with pompprof's GCC plugin, when the compiler is the GCC it was built for
  (gcc, g++, gfortran and compiler wrappers around them): the plugin
  applies the filter file exactly at build time (names, link names, files),
  and a function's calls carry its descriptor, so the library looks nothing
  up (functions/pp_func_desc.h);
* else with the compiler's -finstrument-functions (clang, another GCC): gcc's
  exclusion lists take what they can express of the filter, clang's nothing;
  the rest applies at run time (POMPPROF_FILTER), and the wrapper says once
  per compile line which rules those are.

What is never instrumented, whatever the user's filter says: code from
system headers and the C++ standard library (/usr/include, the compiler's
own include directory), pompprof's own prelude and the region
initialisation OPARI2 appends (the `<pompprof>` marker, POMP2_Init_reg_*),
and pompprof.h (clang cannot leave them out: the library does, at run
time).  Without the plugin the program also gets debug information (-g,
which changes no code) when it asks for none: the library names the
functions from it, with file and line."""

from __future__ import annotations

import functools
import os
import re
import subprocess

from .. import build_config
from .. import filterfile
from .run import echo, note
from .switches import switch

ENVIRONMENT = "POMPPROF_FUNCTIONS"
FILTER_ENVIRONMENT = "POMPPROF_FILTER"
# the plugin's file: this one instead of the build's or the installed one;
# "no": instrument with -finstrument-functions also where the plugin works
PLUGIN_ENVIRONMENT = "POMPPROF_GCC_PLUGIN"
PLUGIN_NAME = "pompprof_gcc"

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


# ---- which compiler: the plugin's GCC, clang, or another --------------------------------

def _probe(cmd: list[str]) -> str:
    echo(cmd)
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              universal_newlines=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def plugin_file() -> str | None:
    """The plugin: $POMPPROF_GCC_PLUGIN; in an uninstalled build (POMPPROF_LIBDIR
    set, as the tests and `make bench` run) the build tree's; else the installed
    one.  None when this pompprof has no plugin (configure found no GCC plugin
    headers)."""
    given = os.environ.get(PLUGIN_ENVIRONMENT)
    if given:
        return None if given == "no" else given
    if not build_config.GCC_PLUGIN_DIR:
        return None
    candidates = [build_config.GCC_PLUGIN, build_config.BUILD_GCC_PLUGIN]
    if os.environ.get("POMPPROF_LIBDIR"):
        candidates.reverse()
    return next((p for p in candidates if os.path.isfile(p)), None)


@functools.lru_cache(maxsize=None)
def compiler_kind(compiler: tuple[str, ...]) -> str:
    """'plugin' (the GCC the plugin was built for), 'clang' or 'other'.  clang
    answers -print-file-name with the GCC installation it uses: asked first."""
    if "clang" in os.path.basename(compiler[-1]) or \
            "clang version" in _probe(list(compiler) + ["--version"]):
        return "clang"
    if plugin_file() and build_config.GCC_PLUGIN_DIR:
        where = _probe(list(compiler) + ["-print-file-name=plugin"])
        if where and os.path.isdir(where) and \
                os.path.realpath(where) == os.path.realpath(build_config.GCC_PLUGIN_DIR):
            return "plugin"
    return "other"


# ---- the compile line's flags -----------------------------------------------------------

def compile_flags(args: list[str], compiler: list[str], includedir: str | None = None,
                  flt: filterfile.Filter | None = None, filter_file: str | None = None,
                  plain_c: bool = False) -> list[str]:
    """The options that instrument a compile line's functions, and the note (once)
    on the filter's rules that only apply at run time."""
    kind = compiler_kind(tuple(compiler))
    if kind == "plugin" and uses_lto(args):
        note("-flto: the functions are instrumented with -finstrument-functions (pompprof's "
             "GCC plugin cannot instrument for link-time optimisation)")
        kind = "other"
    if kind == "plugin":
        flags = ["-fplugin=" + plugin_file()]
        if flt is not None and filter_file:
            flags.append("-fplugin-arg-%s-filter=%s" % (PLUGIN_NAME, os.path.abspath(filter_file)))
        return flags
    if kind == "clang":
        if flt is not None and flt.rules:
            _say_run_time_only(filter_file, [r for r in flt.rules if r.exclude],
                               "clang leaves no function out at build time")
        flags = ["-finstrument-functions"]
        if not asks_for_debug_info(args):
            flags.append("-g")
        return flags
    files = list(NEVER_FILES)
    names = list(NEVER_FUNCTIONS)
    inc = includedir or os.environ.get("POMPPROF_INCDIR") or build_config.INCLUDEDIR
    if inc:
        files.append(os.path.join(inc, "pompprof.h"))
    if flt is not None:
        more_files, more_names, rest = flt.compile_time()
        files += more_files
        if plain_c:
            names += more_names
        else:
            rest = [r for r in flt.rules if r.exclude and not r.file] + \
                [r for r in rest if r.file]
        if rest:
            _say_run_time_only(filter_file, rest,
                               "without pompprof's GCC plugin, gcc leaves out only what its "
                               "exclusion lists can say: %s" % (
                                   "by these rules a C function only where its name is part "
                                   "of no other function's name" if plain_c else
                                   "these rules name no file part and no C function"))
    flags = ["-finstrument-functions",
             "-finstrument-functions-exclude-file-list=" + ",".join(files),
             "-finstrument-functions-exclude-function-list=" + ",".join(names)]
    if not asks_for_debug_info(args):
        flags.append("-g")
    return flags


def uses_lto(args: list[str]) -> bool:
    """-flto, -flto=auto, -flto=4 ... and no later -fno-lto."""
    on = False
    for a in args:
        if a == "-flto" or a.startswith("-flto="):
            on = True
        elif a == "-fno-lto":
            on = False
    return on


def _say_run_time_only(filter_file: str | None, rules: list[filterfile.Rule], why: str):
    """One line naming the rules the compiler cannot apply."""
    if not rules:
        return
    shown = "; ".join("line %d: %s" % (r.line, r.text()) for r in rules)
    note("%s: %s; what they leave out is left out at run time only (POMPPROF_FILTER=%s): %s"
         % (filter_file or "filter", why, filter_file or "FILE", shown))


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


def unit_flags_for(flt: filterfile.Filter, compiler: list[str], args: list[str]):
    """compile_sources' unit_flags for pompprof --filter without the plugin: C
    units only (gcc matches C++ and Fortran functions by names this step does
    not know); with the plugin or clang, None."""
    kind = compiler_kind(tuple(compiler))
    if kind == "clang" or (kind == "plugin" and not uses_lto(args)):
        return None

    def flags(source: str, assembly: str, cplusplus: bool, fortran: bool) -> list[str]:
        if cplusplus or fortran:
            return []
        names = unit_exclusions(flt, assembly)
        if not names:
            return []
        return ["-finstrument-functions-exclude-function-list=" + ",".join(names)]
    return flags
