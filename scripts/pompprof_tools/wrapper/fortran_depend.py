"""The dependences of Fortran tasks, recorded where they are created (doc/trace.md,
"Dependences"; doc/wrapper.md).  C and C++ have theirs in c_depend.py; the mark
of a Fortran task with depend clauses in OPARI2's include file is
fortran_depend_marks.py's.

After OPARI2's `call POMP2_Task_create_begin(...)` (inside its `if (pomp2_if)`)
this module inserts, before the task's directive, one
`call pompprof_task_depend(pomp2_new_task, loc(E), sizeof(E), kind)` per list
item (gfortran's LOC and SIZEOF) under the same condition; a section
`v(lb:ub, ...)` by the addresses of its first and last element (both bounds
needed, no stride).  A `taskwait depend(...)` gets
`call pompprof_taskwait_depend(...)` per item before its POMP2_Taskwait_begin.
The calls are written on lines of the file's form.  Items that cannot be
recorded (`iterator`, `depobj`, expressions with calls) are recorded as
unknown, with one `pompprof:` note."""

from __future__ import annotations

import re

from . import directive as wd
from .ctext import MARKER, line_origins
from .depend_items import (CALLS, KINDS, MAY_HAVE, UNKNOWN, Unrecorded, not_recorded,
                           reason, split_colon)
from .fortran_text import directives

# OPARI2 2.0.7 writes the creation as a CALL inside an IF block; a logical IF
# (`if (pomp2_if) call ...`) is read as well
CREATE = re.compile(r"^\s*(?:if\s*\(\s*pomp2_if\s*\)\s*)?call\s+POMP2_(?:Untied_task|Task)"
                    r"_create_begin\s*\(", re.I)
TASKWAIT = re.compile(r"^\s*call\s+POMP2_Taskwait_begin\s*\(", re.I)
DIRECTIVE = re.compile(r"^[!cC*]\$omp(&?)\s?(.*)$", re.I)
SUBSCRIPTED = re.compile(r"^(.*?)\((.*)\)$", re.S)
# how far after OPARI2's call its directive may be (fixed form takes five lines
# for the call, one for END IF, one for the line marker)
REACH = 8


def recorded(d: wd.Directive | None, words: tuple[str, ...] = ("task", "taskwait")) -> bool:
    """Whether directive d is one whose dependences are recorded."""
    return d is not None and d.words[0] in words and d.has("depend")


def constructs(text: str, fixed: bool, words: tuple[str, ...] = ("task", "taskwait")) -> int:
    """How many directives of text (the Fortran text OPARI2 gets: its hidden
    directives are comments) are constructs of `words` with depend clauses."""
    count = 0
    for fd in directives(text.split("\n"), fixed):
        try:
            count += recorded(wd.parse(fd.text, fortran=True), words)
        except wd.DirectiveError:
            pass
    return count


def _item(text: str) -> tuple[str, str]:
    """(address, size) expressions of a Fortran list item (gfortran's LOC and SIZEOF)."""
    t = " ".join(text.split())
    m = SUBSCRIPTED.match(t)
    if not m:
        if not re.fullmatch(r"[A-Za-z_][\w%]*", t):
            raise Unrecorded("the item")
        return "loc(%s)" % t, "sizeof(%s)" % t
    base, subs = m.group(1), m.group(2)
    if not re.fullmatch(r"[A-Za-z_][\w%()]*", base) or "(" in subs and CALLS.search(subs):
        raise Unrecorded(MAY_HAVE if CALLS.search(subs) else "the item")
    dims = wd.split_top(subs, ",")
    if not any(len(split_colon(d)) > 1 for d in dims):
        return "loc(%s)" % t, "sizeof(%s)" % t
    first, last = [], []
    for d in dims:
        parts = [p.strip() for p in split_colon(d)]
        if len(parts) == 1:
            first.append(parts[0])
            last.append(parts[0])
        elif len(parts) == 2 and parts[0] and parts[1]:
            first.append(parts[0])
            last.append(parts[1])
        else:
            raise Unrecorded("a section without both bounds or with a stride")
    f = "%s(%s)" % (base, ", ".join(first))
    return "loc(%s)" % f, "loc(%s(%s)) - loc(%s) + sizeof(%s)" % (base, ", ".join(last), f, f)


def _call(name: str, args: list[str], fixed: bool) -> list[str]:
    """`call name(args)` as lines of the source form: fixed form takes columns 7 to 72 and
    continues in column 6, free form continues with a `&` at both ends, so either may
    split the statement anywhere (it holds no character constant)."""
    text = "call %s(%s)" % (name, ", ".join(args))
    width = 66
    chunks = [text[k:k + width] for k in range(0, len(text), width)]
    if fixed:
        return ["      " + chunks[0]] + ["     &" + c for c in chunks[1:]]
    return ["      " + c + ("&" if k + 1 < len(chunks) else "") if k == 0 else
            "     &" + c + ("&" if k + 1 < len(chunks) else "") for k, c in enumerate(chunks)]


def _directive(lines: list[str], j: int) -> str | None:
    """The OpenMP directive starting at lines[j] with its continuations (text after the
    sentinels), or None."""
    m = DIRECTIVE.match(lines[j].strip()) if j < len(lines) else None
    if not m or m.group(1):
        return None
    text = [m.group(2)]
    while text[-1].rstrip().endswith("&") or (j + 1 < len(lines) and DIRECTIVE.match(
            lines[j + 1].strip()) and DIRECTIVE.match(lines[j + 1].strip()).group(1)):
        text[-1] = text[-1].rstrip().rstrip("&")
        j += 1
        c = DIRECTIVE.match(lines[j].strip()) if j < len(lines) else None
        if not c:
            break
        text.append(c.group(2))
    return " ".join(text)


def _code(d: wd.Directive, call: str, handle: list[str], fixed: bool, where: str,
          notes: list[str]) -> list[str]:
    out = []
    for c in d.clauses:
        if c.name != "depend":
            continue
        mod, items = c.modifier_and_list()
        kind = KINDS.get((mod or "").strip().lower())
        for text in wd.split_top(items, ","):
            try:
                if kind is None:
                    raise Unrecorded("its modifier" if mod and "iterator" in mod.lower()
                                     else "its dependence type")
                addr, size = _item(text)
                args = [addr, size, str(kind)]
            except Unrecorded as e:
                note = not_recorded(where, text, reason(e))
                if note not in notes:
                    notes.append(note)
                args = ["0_8", "0_8", str(UNKNOWN)]
            out += _call(call, handle + args, fixed)
    return out


def _parsed_directive(lines: list[str], k: int) -> tuple[int, wd.Directive | None]:
    """The first directive within REACH lines after line k: (its line, the directive)."""
    j = k + 1
    while j < len(lines) and j - k <= REACH and not DIRECTIVE.match(lines[j].strip()):
        j += 1
    text = _directive(lines, j)
    try:
        return j, wd.parse(text, fortran=True) if text else None
    except wd.DirectiveError:
        return j, None


def insert(out: str, fixed: bool, notes: list[str], tally=None, expected: int = 0) -> str:
    """OPARI2's Fortran output with the recording calls (after each task's
    POMP2_Task_create_begin, before the task's directive and the line marker right
    before it; before a taskwait depend's POMP2_Taskwait_begin); into tally (a
    tally.Tally), how many of the expected constructs (constructs() of the text
    OPARI2 got) got them."""
    lines = out.split("\n") if re.search(r"depend", out, re.I) else []
    origins = line_origins(lines, "")
    result: list[str] = []
    pending: list[str] = []
    at = -1               # the line before which the pending code goes
    sites = 0
    for k, line in enumerate(lines):
        if pending and k == at:
            result += pending
            pending = []
            sites += 1
        create, wait = CREATE.match(line), TASKWAIT.match(line)
        if create or wait:
            j, d = _parsed_directive(lines, k)
            if recorded(d):
                o = origins[j]
                where = "%s:%d" % (o.display_file, o.line)
                if wait:
                    result += _code(d, "pompprof_taskwait_depend", [], fixed, where, notes)
                    sites += 1
                else:
                    code = _code(d, "pompprof_task_depend", ["pomp2_new_task"], fixed,
                                 where, notes)
                    pending = ["      if (pomp2_if) then"] + code + ["      end if"]
                    at = j - 1 if MARKER.match(lines[j - 1]) else j
        result.append(line)
    if tally is not None:
        tally.add("fortran_depend", expected, sites,
                  "task and taskwait constructs with depend clauses",
                  "their dependences are not recorded, and the trace cannot say when those "
                  "tasks were ready")
    return "\n".join(result) if lines else out
