"""Adjacent task events in one POMP2 call (doc/wrapper.md, "Adjacent task events").

OPARI2 wraps each task construct in a block of its own:

    {
      int pomp2_if = 1;                       (or (int)( if-clause ))
    { POMP2_Task_handle pomp2_old_task;
      POMP2_Task_handle pomp2_new_task;
    POMP2_Task_create_begin( &R, &pomp2_new_task, &pomp2_old_task, pomp2_if, CTC );
    #pragma omp task ...
    ...
    POMP2_Task_create_end( &R, pomp2_old_task ); }
    }

and each taskwait in `{ POMP2_Task_handle pomp2_old_task; POMP2_Taskwait_begin(...);
... POMP2_Taskwait_end( &R, pomp2_old_task ); }`.  Where a creation's block is followed
by the next one's, or by a taskwait's, with nothing but line markers and blank lines
between, the end of the first and the begin of the second are one call of libpompprof
(POMP2_Task_create_next, POMP2_Task_create_end_wait; one clock read instead of two):
the second construct moves into the first one's block and uses its variables, whose
pomp2_old_task already holds the task that the second begin would store.  Deleted lines
become empty lines, so every line marker and every line of user code stays where it was.

Nothing else is merged: user code, depend recording or any other line between the two,
an if clause on the second task (its expression stays evaluated where it was), a first
block that is the body of a control statement or of another directive (the second
construct would move under it), any other layout (e.g. the wrapper's own scheduling
points with pompprof_old_task).  POMPPROF_MERGE_CALLS=0 turns the pass off.

OPARI2's lines are read token by token: its spacing may change, its tokens and its
lines may not.  The pass counts OPARI2's creations and taskwaits, those in the layout
above and the merges (tally.py): an OPARI2 that wrote them otherwise is reported,
not silently left unmerged."""

from __future__ import annotations

import re

from .ctext import MARKER
from .switches import switch

ENVIRONMENT = "POMPPROF_MERGE_CALLS"

# OPARI2's lines are compared token by token (canon): the spacing may change,
# the tokens and the lines may not.
HANDLE = r"(opari2_region_\d+)"
CTC = r'("(?:[^"\\]|\\.)*"|\w+)'
TASK = r"POMP2_(?:Task|Untied_task)"
# the entry points' second form for the wrapper's calls (pomp2/pp_pomp2_task.c), if
# a pass has renamed them before this one
WRAPPED = r"(?:_wrapped)?"
CREATE_END = re.compile(r"^%s_create_end%s\(&%s,pomp2_old_task\);\}$" % (TASK, WRAPPED, HANDLE))
CREATE_BEGIN = re.compile(r"^%s_create_begin%s\(&%s,&pomp2_new_task,&pomp2_old_task,"
                          r"pomp2_if,%s\);$" % (TASK, WRAPPED, HANDLE, CTC))
IF_INIT = re.compile(r"^int pomp2_if=(.*);$")
WAIT_BEGIN = re.compile(r"^POMP2_Taskwait_begin%s\(&%s,&pomp2_old_task,%s\);$"
                        % (WRAPPED, HANDLE, CTC))
# a task block's first lines, before its POMP2_Task_create_begin
HEADER = ["{", None, "{POMP2_Task_handle pomp2_old_task;", "POMP2_Task_handle pomp2_new_task;"]
WAIT_OPEN = "{POMP2_Task_handle pomp2_old_task;"
WAIT_END = re.compile(r"^POMP2_Taskwait_end%s\(&%s,pomp2_old_task\);\}$" % (WRAPPED, HANDLE))
# what may end the code before a block that is a statement of its own
STATEMENT_END = (";", "{", "}")
# OPARI2's task creations and taskwaits in any layout, for the counts
ANY_CREATE = re.compile(r"\b%s_create_begin%s\s*\(\s*&\s*%s" % (TASK, WRAPPED, HANDLE))
ANY_WAIT = re.compile(r"\bPOMP2_Taskwait_begin%s\s*\(\s*&\s*%s" % (WRAPPED, HANDLE))
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\w+|\S')


def canon(line: str) -> str:
    """line as its tokens, with a blank only between two words: the form the
    patterns above match, whatever OPARI2's spacing."""
    out = ""
    for t in TOKEN.findall(line):
        if out and (out[-1].isalnum() or out[-1] == "_") and (t[0].isalnum() or t[0] == "_"):
            out += " "
        out += t
    return out


def enabled() -> bool:
    return switch(ENVIRONMENT, True)


def between(lines: list[str], k: int) -> int:
    """The first line from k on that is neither a line marker nor blank."""
    while k < len(lines) and (not lines[k].strip() or MARKER.match(lines[k])):
        k += 1
    return k


def stands_alone(lines: list[str], k: int) -> bool:
    """Whether the block opening at line k is a statement of its own: the code
    before it ends a statement or opens a block (not `if (c)`, `else`, a label,
    a directive that takes the block as its body)."""
    k -= 1
    while k >= 0 and (not lines[k].strip() or MARKER.match(lines[k])):
        k -= 1
    if k < 0:
        return False
    before = lines[k].strip()
    return not before.startswith("#") and before.endswith(STATEMENT_END)


def canon_lines(lines: list[str]) -> list[str]:
    """canon() of the lines that can be OPARI2's task lines (they name pomp2 or
    POMP2); the others stripped (they can only be braces or something else)."""
    return [canon(line) if "omp2" in line or "OMP2" in line else line.strip() for line in lines]


def header_init(canons: list[str], k: int) -> str | None:
    """The pomp2_if initializer of the task block whose header (HEADER) begins
    at line k (canons: canon_lines()); None if there is no such header."""
    if k < 0 or k + 4 > len(canons):
        return None
    head = canons[k:k + 4]
    init = IF_INIT.match(head[1])
    if not init or any(want is not None and have != want for have, want in zip(head, HEADER)):
        return None
    return init.group(1)


def in_layout(lines: list[str], canons: list[str]) -> tuple[int, int]:
    """(OPARI2's task creations and taskwaits in any layout, those whose begin and
    end are in the layout the merge reads)."""
    calls = [k for k, line in enumerate(lines) if "POMP2_" in line]
    ends, wait_ends = set(), set()
    for k in calls:
        end, wait_end = CREATE_END.match(canons[k]), WAIT_END.match(canons[k])
        if end and k + 1 < len(canons) and canons[k + 1] == "}":
            ends.add(end.group(1))
        elif wait_end:
            wait_ends.add(wait_end.group(1))
    expected = matched = 0
    for k in calls:
        expected += len(ANY_CREATE.findall(lines[k])) + len(ANY_WAIT.findall(lines[k]))
        begin, wait = CREATE_BEGIN.match(canons[k]), WAIT_BEGIN.match(canons[k])
        matched += bool(begin and begin.group(1) in ends and header_init(canons, k - 4) is not None
                        or wait and wait.group(1) in wait_ends)
    return expected, matched


def merge(text: str, tally=None) -> str:
    """text (OPARI2's C/C++ output, as finish_c has it) with adjacent task events
    merged; unchanged when the pass is off.  Into tally (a tally.Tally): OPARI2's
    task creations and taskwaits, those in the layout the pass reads, the merges."""
    if not enabled():
        return text
    lines = text.split("\n")
    canons = canon_lines(lines)
    expected, matched = in_layout(lines, canons)
    # the open task blocks that a merge may extend, by the handle of their last
    # creation: whether the block's pomp2_if holds 1
    blocks: dict[str, bool] = {}
    wait_ends: dict[str, list[int]] = {}
    for k, c in enumerate(canons):
        m = WAIT_END.match(c)
        if m:
            wait_ends.setdefault(m.group(1), []).append(k)
    merged = {"create_next": 0, "create_end_wait": 0}
    for k in range(len(lines)):
        begin = CREATE_BEGIN.match(canons[k])
        if begin:
            init = header_init(canons, k - 4)
            if init is not None and stands_alone(lines, k - 4):
                blocks[begin.group(1)] = init == "1"
            continue
        end = CREATE_END.match(canons[k])
        if not end or end.group(1) not in blocks or k + 1 >= len(lines) \
                or canons[k + 1] != "}":
            continue
        if_is_one = blocks.pop(end.group(1))
        j = between(lines, k + 2)
        if merge_create(lines, canons, k, j, end.group(1), if_is_one, blocks):
            merged["create_next"] += 1
        elif merge_wait(lines, canons, k, j, end.group(1), wait_ends):
            merged["create_end_wait"] += 1
    if tally is not None:
        tally.add("adjacent", expected, matched, "task creations and taskwaits",
                  "their adjacent events are not merged into one call (the profile is the "
                  "same, the measurement costs more)", **merged)
    return "\n".join(lines)


def _set(lines: list[str], canons: list[str], n: int, text: str) -> None:
    lines[n] = text
    canons[n] = canon(text)


def merge_create(lines: list[str], canons: list[str], k: int, j: int, ended: str,
                 if_is_one: bool, blocks: dict[str, bool]) -> bool:
    """The creation ending at line k followed by a task block at line j."""
    begin = CREATE_BEGIN.match(canons[j + 4]) if j + 4 < len(lines) else None
    if not begin or header_init(canons, j) != "1":
        return False
    created, ctc = begin.groups()
    for n in (k, k + 1, j, j + 1, j + 2, j + 3):
        _set(lines, canons, n, "")
    _set(lines, canons, j + 4, "%sPOMP2_Task_create_next( &%s, pomp2_old_task, &%s, "
         "&pomp2_new_task, %s );" % ("" if if_is_one else "pomp2_if = 1; ", ended, created, ctc))
    blocks[created] = True
    return True


def merge_wait(lines: list[str], canons: list[str], k: int, j: int, ended: str,
               wait_ends: dict[str, list[int]]) -> bool:
    """The creation ending at line k followed by a taskwait block at line j
    (wait_ends: the lines of each taskwait's end, by handle)."""
    if j + 1 >= len(lines) or canons[j] != WAIT_OPEN:
        return False
    begin = WAIT_BEGIN.match(canons[j + 1])
    if not begin:
        return False
    wait, ctc = begin.groups()
    ends = wait_ends.get(wait, [])
    if len(ends) != 1 or ends[0] <= j + 1:
        return False
    for n in (k, k + 1, j):
        _set(lines, canons, n, "")
    _set(lines, canons, j + 1, "POMP2_Task_create_end_wait( &%s, pomp2_old_task, &%s, %s );"
         % (ended, wait, ctc))
    # it closes the first block's two braces now (one was the taskwait's own)
    _set(lines, canons, ends[0], lines[ends[0]] + " }")
    return True
