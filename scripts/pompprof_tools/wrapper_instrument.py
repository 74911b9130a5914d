"""The wrapper's compile step: run OPARI2 over a source and make its output
compile exactly as the original would (messages point at the user's file,
Fortran quirks of OPARI2 2.0.7 repaired)."""

from __future__ import annotations

import os
import re

from . import build_config
from .wrapper_depend import mark_depend_clauses
from .wrapper_run import run

SECTIONS_ENTER_WITHOUT_STRING = re.compile(
    r"^(\s*call\s+POMP2_Sections_enter\s*\(\s*opari2_region_(\d+))\s*\)\s*$",
    re.M | re.I)
OPARI2_INCLUDE = re.compile(r"^\s*include\s+'[^']*\.opari\.inc'\s*$", re.I)
LINE_MARKER = re.compile(r'^#line (\d+) (".*")$')
IMPORT_STATEMENT = re.compile(r"^\s*import\b", re.I)


def instrument(source: str, workdir: str, index: int, opari2_args: list[str],
               fortran: tuple[str, bool] | None = None) -> tuple[str | None, int]:
    """Run opari2 on source; return (path of the instrumented copy, 0) - same base
    name, in its own directory so the compiler names outputs as for the original -
    or (None, status) after a failure (opari2 has said why).  fortran: None for
    C/C++, else (form, preprocessed) of the Fortran source."""
    subdir = os.path.join(workdir, "src%d" % index)
    os.makedirs(subdir, exist_ok=True)
    target = os.path.join(subdir, os.path.basename(source))
    language = []
    if fortran:
        # say so explicitly: OPARI2 guesses from the suffix only
        language = ["--f77", "--fix-form"] if fortran[0] == "fixed" else ["--f90", "--free-form"]
    status = run([build_config.OPARI2, "--omp-tpd"] + language + opari2_args + [source, target])
    if status != 0 or not os.path.isfile(target):
        return None, status or 1
    mark_depend_clauses(target + ".opari.inc", fortran is not None)
    with open(target, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    text = spell_line_markers(text, source)
    if fortran:
        text = fix_fortran(text, preprocessed=fortran[1])
    with open(target, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    return target, 0


def spell_line_markers(text: str, source: str) -> str:
    """OPARI2 writes the absolute path into #line; use the user's spelling so
    diagnostics and __FILE__ read exactly as in a plain build."""
    spelled = '"%s"' % source.replace("\\", "\\\\").replace('"', '\\"')
    paths = {os.path.abspath(source), os.path.realpath(source),
             os.path.join(os.getcwd(), source)}  # OPARI2 keeps "dir/../x" as is
    for path in paths:
        pattern = r'^(#line \d+ )"%s"$' % re.escape(path)
        text = re.sub(pattern, lambda m: m.group(1) + spelled, text, flags=re.M)
    return text


def include_after_imports(text: str) -> str:
    """OPARI2 2.0.7 also puts its INCLUDE at the top of interface bodies,
    before IMPORT statements, which must come first: move it behind them
    (and renumber, so messages keep pointing at the right lines)."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        marker = LINE_MARKER.match(lines[i + 1]) if i + 2 < len(lines) else None
        if not (OPARI2_INCLUDE.match(lines[i]) and marker and IMPORT_STATEMENT.match(lines[i + 2])):
            out.append(lines[i])
            i += 1
            continue
        j = i + 2
        while j < len(lines) and (IMPORT_STATEMENT.match(lines[j])
                                  or lines[j - 1].rstrip().endswith("&")):
            j += 1
        out += [lines[i + 1]] + lines[i + 2:j] + [lines[i]]
        out.append("#line %d %s" % (int(marker.group(1)) + j - (i + 2), marker.group(2)))
        i = j
    return "\n".join(out)


def fix_fortran(text: str, preprocessed: bool) -> str:
    """Make OPARI2's Fortran output compile as the original would."""
    text = include_after_imports(text)
    # OPARI2 2.0.7 calls POMP2_Sections_enter without the region string for
    # "parallel sections" but with it for "sections"; gfortran rejects such
    # mixed argument lists in one file.  The string's constant exists (the
    # fork of the same region uses it): pass it (the line stays short enough
    # for fixed form).
    text = SECTIONS_ENTER_WITHOUT_STRING.sub(
        lambda m: "%s, opari2_ctc_%s)" % (m.group(1), m.group(2))
        if re.search(r"\bopari2_ctc_%s\b" % m.group(2), text, re.I) else m.group(0), text)
    if not preprocessed:
        # Without the C preprocessor, gfortran understands cpp's own line
        # markers ("# 12 \"file\"") but not "#line"; running cpp instead
        # could change the meaning of the user's code (e.g. a variable named
        # "linux" or "unix").
        text = re.sub(r"^#line (\d+ )", r"# \1", text, flags=re.M)
    return text
