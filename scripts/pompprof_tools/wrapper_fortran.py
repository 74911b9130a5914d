"""Fortran through OPARI2: its output made to compile as the original would.

OPARI2 reads the source itself when the compiler would not preprocess it,
else the compiler's `-E -cpp` output (so #include'd files and macros are
instrumented like the rest).  The instrumented text is compiled without cpp:
gfortran reads cpp's line markers ("# 12 \\"file\\"") then too, but not
"#line", and running cpp again could change the meaning of the user's code
(e.g. a variable named "linux" or "unix")."""

from __future__ import annotations

import re

SECTIONS_ENTER_WITHOUT_STRING = re.compile(
    r"^(\s*call\s+POMP2_Sections_enter\s*\(\s*opari2_region_(\d+))\s*\)\s*$",
    re.M | re.I)
OPARI2_INCLUDE = re.compile(r"^\s*include\s+'[^']*\.opari\.inc'\s*$", re.I)
LINE_MARKER = re.compile(r'^#line (\d+) (".*")$')
IMPORT_STATEMENT = re.compile(r"^\s*import\b", re.I)


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


def fix_fortran(text: str) -> str:
    """Make OPARI2's Fortran output compile as the original would (before its
    #line markers become cpp markers)."""
    text = include_after_imports(text)
    # OPARI2 2.0.7 calls POMP2_Sections_enter without the region string for
    # "parallel sections" but with it for "sections"; gfortran rejects such
    # mixed argument lists in one file.  The string's constant exists (the
    # fork of the same region uses it): pass it (the line stays short enough
    # for fixed form).
    text = SECTIONS_ENTER_WITHOUT_STRING.sub(
        lambda m: "%s, opari2_ctc_%s)" % (m.group(1), m.group(2))
        if re.search(r"\bopari2_ctc_%s\b" % m.group(2), text, re.I) else m.group(0), text)
    return text
