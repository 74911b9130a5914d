"""Marks Fortran task constructs that have depend clauses, in OPARI2's include
file, for the trace analysis.  (C and C++ get the mark from the directive
facts, directive.TASK_FACTS; the list items of both are recorded by
c_depend.py and fortran_depend.py.)

OPARI2 2.0.7 does not report depend clauses in its region strings, and POMP2 events say
nothing about dependences, so without a mark a trace could not tell a task that waited
for its dependences from one that was ready and not scheduled (doc/trace.md).  Each
task's region string whose directive lines (sscl, first to last line) contain a depend
clause gets the key `hasDepend=1`, which libpompprof passes to the trace as the task's
region description.  The string's length prefix and the constant's LEN are kept right."""

from __future__ import annotations

import re

DEPEND = re.compile(r"\bdepend\s*\(", re.I)
F_DECL = re.compile(
    r'( *CHARACTER \(LEN=)(\d+)(\), parameter :: opari2_ctc_\d+ =&\n)((?: *"[^"\n]*"//&\n)* *"[^"\n]*"\n)',
    re.I)
F_PIECE = re.compile(r'"([^"\n]*)"')
F_PIECE_LEN = 58     # characters per continuation line, as OPARI2 writes them


def _fields(body: str) -> dict:
    return dict(f.split("=", 1) for f in body.split("*") if "=" in f)


def _has_depend(body: str, sources: dict) -> bool:
    fields = _fields(body)
    if fields.get("regionType") not in ("task", "taskuntied") or "hasDepend" in fields:
        return False
    m = re.match(r"(.*):(\d+):(\d+)$", fields.get("sscl", ""))
    if not m:
        return False
    path, first, last = m.group(1), int(m.group(2)), int(m.group(3))
    if path not in sources:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                sources[path] = f.read().split("\n")
        except OSError:
            sources[path] = []
    text = "\n".join(sources[path][first - 1:last])
    return bool(DEPEND.search(text))


def _marked(body: str) -> str:
    """body without its final '**' closing, with the mark added."""
    assert body.endswith("**")
    return body[:-1] + "hasDepend=1**"


def _with_length(body: str) -> str:
    """The whole string for body: its length prefix counts the whole string."""
    n = len(body) + 1
    while len("%d*%s" % (n, body)) != n:
        n = len("%d*%s" % (n, body))
    return "%d*%s" % (n, body)


def mark_fortran(text: str, sources: dict) -> str:
    def repl(m):
        whole = "".join(F_PIECE.findall(m.group(4)))
        prefix, _, body = whole.partition("*")
        if not prefix.isdigit() or not _has_depend(body, sources):
            return m.group(0)
        new = _with_length(_marked(body))
        indent = re.match(r" *", m.group(4)).group(0)
        pieces = [new[i:i + F_PIECE_LEN] for i in range(0, len(new), F_PIECE_LEN)]
        lines = "//&\n".join('%s"%s"' % (indent, p) for p in pieces) + "\n"
        # OPARI2 declares LEN a little larger than the string: keep the difference
        return "%s%d%s%s" % (m.group(1), len(new) + int(m.group(2)) - len(whole), m.group(3),
                             lines)
    return F_DECL.sub(repl, text)


def mark_depend_clauses(inc: str) -> str:
    """OPARI2's Fortran include file inc with the depend clauses marked."""
    return mark_fortran(inc, {})
