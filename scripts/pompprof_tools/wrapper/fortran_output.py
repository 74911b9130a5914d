"""OPARI2's Fortran output made to compile as the original would: hidden
directives given back (and OPARI2's INCLUDE kept before them), its INCLUDE
after IMPORT statements, its declarations and calls fixed, and the wrapper's
own user regions turned into the constructs they stand for."""

from __future__ import annotations

import re

from .ctext import MARKER
from .fortran import HIDDEN_LINE, FPrepared
from .rewrite import region_string

SECTIONS_ENTER_WITHOUT_STRING = re.compile(
    r"^(\s*call\s+POMP2_Sections_enter\s*\(\s*opari2_region_(\d+))\s*\)\s*$",
    re.M | re.I)


OPARI2_INCLUDE = re.compile(r"^\s*include\s+'[^']*\.opari\.inc'\s*$", re.I)


LINE_MARKER = re.compile(r'^#line (\d+) (".*")$')


IMPORT_STATEMENT = re.compile(r"^\s*import\b", re.I)


# The calls that stand for the wrapper's own user regions, per layout:
# (calls at the begin, calls at the end); {h} the handle, {s} the string.
OWN_CALLS = {
    "masked": (["call POMP2_Master_begin({h}, {s})"], ["call POMP2_Master_end({h})"]),
    "atomic": (["call POMP2_Atomic_enter({h}, {s})"], ["call POMP2_Atomic_exit({h})"]),
    "ordered": (["call POMP2_Ordered_enter({h}, {s})"], ["call POMP2_Ordered_exit({h})"]),
    "for+barrier": (["call POMP2_Do_enter({h}, {s})"], ["call POMP2_Do_exit({h})"]),
    "sections+barrier": (["call POMP2_Sections_enter({h}, {s})"],
                         ["call POMP2_Sections_exit({h})"]),
    "taskloop": (["call POMP2_Taskwait_begin({h}, pomp2_old_task, {s})"],
                 ["call POMP2_Taskwait_end({h}, pomp2_old_task)"]),
    "taskyield": (["call POMP2_Taskwait_begin({h}, pomp2_old_task, {s})"],
                  ["call POMP2_Taskwait_end({h}, pomp2_old_task)"]),
    "taskgroup": (["call POMP2_Taskwait_begin({h}, pomp2_old_task, {s})"],
                  ["call POMP2_Taskwait_end({h}, pomp2_old_task)"]),
}


REGION_TYPE = {"for+barrier": "do", "sections+barrier": "sections"}


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


MAX_THREADS_DECLARATION = re.compile(r"^(\s*)integer\s*(?:\*\s*4|\(\s*kind\s*=\s*4\s*\))"
                                     r"\s*(?:::)?\s*pomp2_lib_get_max_threads[ \t]*$", re.I | re.M)


def fix_include(inc: str) -> str:
    """OPARI2's include declares pomp2_lib_get_max_threads by its type alone;
    inside an ASSOCIATE block gfortran then takes it for a variable ("is not
    a function"): declare it EXTERNAL."""
    return MAX_THREADS_DECLARATION.sub(r"\1integer*4 pomp2_lib_get_max_threads\n"
                                       r"\1external pomp2_lib_get_max_threads", inc)


CTC_DECLARATION = re.compile(
    r"(?P<head>[^\n]*\bopari2_ctc_(?P<n>\d+)\s*=\s*&?\s*\n)(?P<body>(?:[ \t]*&?\"[^\"\n]*\"(?://)?&?\)?\s*\n)+)",
    re.I)


BEGIN_CALL = re.compile(r"call\s+POMP2_Begin\s*\(\s*(opari2_region_(\d+))\s*,\s*(?:\n\s*&)?\s*"
                        r"(opari2_ctc_\d+)\s*\)", re.I)


END_CALL = re.compile(r"call\s+POMP2_End\s*\(\s*(opari2_region_(\d+))\s*\)", re.I)


def own_regions(out: str, inc: str, prepared: FPrepared, fixed: bool,
                tally=None) -> tuple[str, str]:
    """The wrapper's user regions as the constructs they stand for: region
    strings with their construct's type, POMP2_Begin/End as its calls.  Into
    tally (a tally.Tally): the wrapper's regions, and those whose string and
    calls were all found."""
    layouts: dict[str, str] = {}
    found: dict[str, set[str]] = {"begin": set(), "end": set()}
    if not prepared.own:
        out_inc = out, inc
    else:
        out_inc = _own_regions(out, inc, prepared, fixed, layouts, found)
    if tally is not None:
        tally.add("fortran_own_regions", len(prepared.own),
                  len(set(layouts) & found["begin"] & found["end"]),
                  "constructs the wrapper measures itself (masked, taskloop, ...)",
                  "they are measured as user regions named pompprof_<n>, or not at all")
    return out_inc


def _own_regions(out: str, inc: str, prepared: FPrepared, fixed: bool,
                 layouts: dict[str, str], found: dict[str, set[str]]) -> tuple[str, str]:
    """own_regions' work; into layouts and found: the regions whose string, begin
    call and end call it rewrote."""

    def fix_string(m):
        pieces = re.findall(r'"([^"]*)"', m.group("body"))
        ctc = "".join(pieces)
        fields = [f.split("=", 1) for f in ctc.split("*")[1:] if "=" in f]
        kv = dict(fields)
        layout = prepared.own.get(kv.get("userRegionName", ""))
        if kv.get("regionType") != "userRegion" or layout is None:
            return m.group(0)
        layouts[m.group("n")] = layout
        new = region_string([(k, REGION_TYPE.get(layout, layout) if k == "regionType" else v)
                             for k, v in fields if k != "userRegionName"])
        chunks = [new[k:k + 50] for k in range(0, len(new), 50)]
        body = []
        for k, c in enumerate(chunks):
            lastpiece = k == len(chunks) - 1
            if fixed:
                body.append('     &"%s"%s' % (c, ")" if lastpiece else "//"))
            else:
                body.append('      "%s"%s' % (c, "" if lastpiece else "//&"))
        return m.group("head") + "\n".join(body) + "\n"

    inc = CTC_DECLARATION.sub(fix_string, inc)

    def call(template: str, handle: str, ctc: str) -> str:
        text = template.format(h=handle, s=ctc)
        if fixed:
            head, _, rest = text.partition(", ")
            return "      %s,\n     &%s" % (head, rest) if rest else "      " + text
        return "      " + text

    def begin(m):
        layout = layouts.get(m.group(2))
        if layout is None:
            return m.group(0)
        found["begin"].add(m.group(2))
        return "\n".join(call(t, m.group(1), m.group(3)).lstrip() if k == 0 else
                         call(t, m.group(1), m.group(3))
                         for k, t in enumerate(OWN_CALLS[layout][0]))

    def end(m):
        layout = layouts.get(m.group(2))
        if layout is None:
            return m.group(0)
        found["end"].add(m.group(2))
        return call(OWN_CALLS[layout][1][0], m.group(1), "").lstrip()

    out = BEGIN_CALL.sub(begin, out)
    out = END_CALL.sub(end, out)
    return out, inc


def include_before_hidden(text: str) -> str:
    """OPARI2 puts its INCLUDE before the first statement of a program unit
    that has no declarations, after the comment lines before it, which may be
    hidden directives (`!$omp target exit data`): the declarations would then
    follow a directive.  The INCLUDE goes before those lines (with a marker
    that keeps their numbers)."""
    lines = text.split("\n")
    origins = line_origins(lines, "")
    k = 0
    while k < len(lines):
        if not OPARI2_INCLUDE.match(lines[k]):
            k += 1
            continue
        j, first = k - 1, None
        while j >= 0 and (HIDDEN_LINE.match(lines[j]) or MARKER.match(lines[j])
                          or not lines[j].strip()):
            if HIDDEN_LINE.match(lines[j]):
                first = j
            j -= 1
        if first is None:
            k += 1
            continue
        file, line = origins[first]
        moved = [lines[k], '# %d "%s"' % (line, file)]
        lines[first:k + 1] = moved + lines[first:k]
        origins[first:k + 1] = [origins[first]] * 2 + origins[first:k]
        k += 2
    return "\n".join(lines)


def line_origins(lines: list[str], file: str) -> list[tuple[str, int]]:
    """(file as spelt in the markers, line) of every line."""
    out, line = [], 1
    for text in lines:
        m = MARKER.match(text)
        if m:
            file, line = m.group(2), int(m.group(1))
            out.append((file, line))
            continue
        out.append((file, line))
        line += 1
    return out


def restore_hidden(text: str, hidden: list[str]) -> str:
    text = include_before_hidden(text)
    return HIDDEN_LINE.sub(lambda m: hidden[int(m.group(1))], text)
