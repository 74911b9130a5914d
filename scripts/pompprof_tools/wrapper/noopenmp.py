"""Sources with OpenMP directives on a line without -fopenmp (doc/wrapper.md).

Without -fopenmp the compiler ignores OpenMP's directives: the program is serial, nothing
is measured, and no one says so.  The wrapper runs such a line as written and then,
when the compile succeeded, says so in one `pompprof:` line -- only when a source really
holds a directive that the missing flag drops: its text is searched first (cheap: a
line without -fopenmp is usually a program without OpenMP, whose sources are not read
twice), and a source with a directive (or a `_Pragma`) in its text is then preprocessed
with -fopenmp and the user's options (a preprocessed Fortran one too), so that
directives in comments or under `#if 0` do not count.  Directives that only a header
brings are not looked for: finding them would preprocess every source of every build
without OpenMP.  `simd` directives alone (and `declare simd`)
are left out: they are vectorisation hints with nothing to measure, and
-fopenmp-simd keeps them."""

from __future__ import annotations

import os
import re

from . import cmdline as wc
from .run import run_quiet

C_DIRECTIVE_TEXT = re.compile(r'^[ \t]*#[ \t]*pragma[ \t]+omp\b|_Pragma[ \t]*\([ \t]*"[ \t]*omp\b',
                              re.M)
C_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+(\w+)(?:[ \t]+(\w+))?", re.M)
FREE_DIRECTIVE = re.compile(r"^[ \t]*!\$omp[ \t]+(\w+)(?:[ \t]+(\w+))?", re.M | re.I)
FIXED_DIRECTIVE = re.compile(r"^[c*!]\$omp[ \t]+(\w+)(?:[ \t]+(\w+))?", re.M | re.I)
SIMD_ONLY = {("simd", None), ("declare", "simd"), ("end", "simd")}


def _counts(directives) -> bool:
    """Any directive that is not a simd one?"""
    for first, second in directives:
        first, second = first.lower(), (second or "").lower() or None
        if (first, None) in SIMD_ONLY or (first, second) in SIMD_ONLY:
            continue
        return True
    return False


def _read(path: str) -> str | None:
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def _preprocessed(compiler: list[str], cl: wc.CommandLine, index: int, fortran: bool) -> str:
    """The source at index preprocessed with -fopenmp and the user's options ("" when
    that fails: then the text alone decides)."""
    def drop(a: str) -> bool:
        return wc.is_dependency_flag(a) or a in wc.PREPROCESS_OUTPUT_FLAGS \
            or a.startswith(("-save-temps", "-fdump-", "-fopt-info")) \
            or a.startswith(wc.ERROR_FLAGS) or a in wc.OPENMP_OPTIONS
    lang = cl.languages.get(index)
    cmd = compiler[-1:] + wc.options_only(cl.args, drop) + ["-fopenmp", "-w"] \
        + (["-x", lang] if lang else []) + (["-cpp"] if fortran else []) \
        + ["-E", cl.args[index], "-o", "-"]
    status, output = run_quiet(cmd)
    return output if status == 0 else ""


def _has_directives(compiler: list[str], cl: wc.CommandLine, index: int) -> bool:
    path = cl.args[index]
    text = _read(path)
    if text is None:
        return False
    if index in cl.fortran:
        form, preprocessed = cl.fortran_kind(path, index)
        pattern = FIXED_DIRECTIVE if form == "fixed" else FREE_DIRECTIVE
        if not _counts(pattern.findall(text)):
            return False
        if preprocessed:
            pre = _preprocessed(compiler, cl, index, True)
            return _counts(pattern.findall(pre)) if pre else True
        return True
    if not C_DIRECTIVE_TEXT.search(text):
        return False
    pre = _preprocessed(compiler, cl, index, False)
    return _counts(C_DIRECTIVE.findall(pre if pre else text))


def without_openmp(compiler: list[str], cl: wc.CommandLine) -> str | None:
    """The line about the sources of a line without -fopenmp that hold OpenMP
    directives, None when there are none (or the line has -fopenmp)."""
    if cl.openmp or cl.runs_unchanged:
        return None
    found = [cl.args[i] for i in sorted(cl.sources + cl.fortran)
             if _has_directives(compiler, cl, i)]
    if not found:
        return None
    names = ", ".join(os.path.basename(p) for p in found[:3]) + \
        (" and %d more" % (len(found) - 3) if len(found) > 3 else "")
    one = len(found) == 1
    return ("%s %s OpenMP directives, but the line has no -fopenmp: %s compiled without them "
            "(a serial program) and nothing is measured; add -fopenmp to measure %s"
            % (names, "has" if one else "have", "it is" if one else "they are",
               "it" if one else "them"))
