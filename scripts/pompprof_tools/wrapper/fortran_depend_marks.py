"""Marks Fortran task constructs that have depend clauses, in OPARI2's include
file, for the trace analysis.  (C and C++ get the mark from the directive
facts, directive.TASK_FACTS; the list items of both are recorded by
c_depend.py and fortran_depend.py.)

OPARI2 2.0.7 does not report depend clauses in its region strings, and POMP2 events say
nothing about dependences, so without a mark a trace could not tell a task that waited
for its dependences from one that was ready and not scheduled (doc/trace.md).  Each
task's region string whose directive lines (sscl, first to last line) contain a depend
clause gets the key `hasDepend=1`, which libpompprof passes to the trace as the task's
region description.

The include file declares each string as a character constant, free form
(`CHARACTER (LEN=96), parameter :: opari2_ctc_3 =&` and pieces `"..."//&`) or fixed
form (`CHARACTER*80 opari2_ctc_3`, `PARAMETER (opari2_ctc_3=` and pieces
`&"..."//` on continuation lines).  The constant is read as whatever concatenation
of pieces OPARI2 wrote, of any length and spacing; the marked string is written in
pieces as long as OPARI2's (within 72 columns), on lines laid out as its were, with
the string's length prefix right and LEN kept at OPARI2's margin above the length."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .fortran_depend import constructs

DEPEND = re.compile(r"\bdepend\s*\(", re.I)
# the constant's value begins after its name and "=" (the free-form declaration
# and the fixed-form PARAMETER statement alike)
VALUE = re.compile(r"\bopari2_ctc_(\d+)[ \t]*=(?!=)", re.I)
# what may stand between two pieces of the value besides "//": blanks, "&",
# line ends, a fixed-form continuation line's first six columns
GAP = re.compile(r'(?:[ \t&]|\n(?: {5}[^ \n"])?)*')
PIECE = re.compile(r'"([^"\n]*)"(?!")')
CONCAT = re.compile(r"[ \t]*//")
COLUMNS = 72


def length_declaration(n: str) -> re.Pattern:
    """The LEN of constant opari2_ctc_<n>: `CHARACTER (LEN=96), ... opari2_ctc_<n>` or
    `CHARACTER*80 opari2_ctc_<n>` (group "len")."""
    return re.compile(r"\bCHARACTER\s*(?:\(\s*LEN\s*=\s*|\*\s*)(?P<len>\d+)[^\n]*?\bopari2_ctc_%s\b"
                      % n, re.I)


@dataclass
class Constant:
    """One region string of the include file: its pieces and where they are."""
    n: str                      # opari2_ctc_<n>
    pieces: list[str]
    start: int                  # the first piece's opening quote
    end: int                    # the end of the last piece's line (before its newline)
    first_prefix: str           # the first piece's line up to its opening quote
    between: list[str]          # the text between each two pieces (its "//&\n      ")
    last_suffix: str            # the last piece's line after its closing quote

    @property
    def whole(self) -> str:
        return "".join(self.pieces)


def read_constant(text: str, m: re.Match) -> Constant | None:
    """The constant whose name and "=" VALUE matched at m, or None when its value is
    not a concatenation of character literals."""
    pieces, between, k = [], [], m.end()
    start = None
    while True:
        gap = GAP.match(text, k)
        piece = PIECE.match(text, gap.end())
        if not piece:
            return None
        if start is None:
            start = piece.start()
        elif "\n" not in text[k:gap.end()]:
            return None         # two pieces on one line: not a layout to copy
        pieces.append(piece.group(1))
        k = piece.end()
        concat = CONCAT.match(text, k)
        if not concat:
            break
        between.append(text[k:GAP.match(text, concat.end()).end()])
        k = concat.end()
    end = text.find("\n", k)
    end = len(text) if end < 0 else end
    line_start = text.rfind("\n", 0, start) + 1
    return Constant(m.group(1), pieces, start, end, text[line_start:start], between,
                    text[k:end])


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


def _layout(c: Constant, width: int | None) -> tuple[str, str, int]:
    """(what goes between two pieces, what ends the last one, piece length) for
    writing c again: OPARI2's own where c has several pieces."""
    if c.between:
        joint = c.between[0]
        width = max(len(p) for p in c.pieces[:-1])
    elif re.fullmatch(r" {5}[^ ]", c.first_prefix):      # fixed form: continuation lines
        joint = "//\n" + c.first_prefix
    else:
        joint = "//&\n" + (c.first_prefix if not c.first_prefix.strip() else "      ")
    cont = joint[joint.rfind("\n") + 1:]
    fit = COLUMNS - max(len(cont), len(c.first_prefix)) - 2 - len(joint[:joint.find("\n")])
    return joint, c.last_suffix, min(width or fit, fit)


def _widest(constants: list[Constant]) -> int | None:
    """OPARI2's piece length in this file: its longest piece that is not a string's last."""
    return max((len(p) for c in constants for p in c.pieces[:-1]), default=None)


def mark(inc: str, tally=None, expected: int = 0, sources: dict | None = None) -> str:
    """OPARI2's Fortran include file inc with the task constructs that have depend
    clauses marked; into tally (a tally.Tally) how many of the expected ones (tasks
    with depend clauses in the text OPARI2 got: constructs(text, fixed, ("task",)))
    were marked."""
    sources = {} if sources is None else sources
    constants = [c for c in (read_constant(inc, m) for m in VALUE.finditer(inc)) if c]
    width = _widest(constants)
    edits = []              # (start, end, new text), in the order of the text
    for c in constants:
        prefix, _, body = c.whole.partition("*")
        if not prefix.isdigit() or not _has_depend(body, sources):
            continue
        length = length_declaration(c.n).search(inc)
        if not length:
            continue
        new = _with_length(_marked(body))
        joint, last, size = _layout(c, width)
        pieces = [new[i:i + size] for i in range(0, len(new), size)]
        # OPARI2 declares LEN a little larger than the string: keep the difference
        edits.append((length.start("len"), length.end("len"),
                      str(len(new) + int(length.group("len")) - len(c.whole))))
        edits.append((c.start, c.end, joint.join('"%s"' % p for p in pieces) + last))
    for start, end, new in sorted(edits, reverse=True):
        inc = inc[:start] + new + inc[end:]
    if tally is not None:
        tally.add("fortran_depend_marks", expected, len(edits) // 2,
                  "task constructs with depend clauses",
                  "their region strings lack hasDepend=1, and the trace cannot tell their "
                  "waiting for dependences from a ready task's")
    return inc


def task_constructs(text: str, fixed: bool) -> int:
    """How many task constructs of text (the Fortran text OPARI2 gets) mark() should mark."""
    return constructs(text, fixed, ("task",))
