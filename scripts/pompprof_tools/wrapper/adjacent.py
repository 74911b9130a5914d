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
points with pompprof_old_task).  POMPPROF_MERGE_CALLS=0 turns the pass off."""

from __future__ import annotations

import re

from .ctext import MARKER
from .switches import switch

ENVIRONMENT = "POMPPROF_MERGE_CALLS"

HANDLE = r"(opari2_region_\d+)"
CTC = r'("(?:[^"\\]|\\.)*"|\w+)'
TASK = r"POMP2_(?:Task|Untied_task)"
# the entry points' second form for the wrapper's calls (pomp2/pp_pomp2_task.c), if
# a pass has renamed them before this one
WRAPPED = r"(?:_wrapped)?"
CREATE_END = re.compile(r"^%s_create_end%s\( &%s, pomp2_old_task \); \}$"
                        % (TASK, WRAPPED, HANDLE))
CREATE_BEGIN = re.compile(r"^%s_create_begin%s\( &%s, &pomp2_new_task, &pomp2_old_task, "
                          r"pomp2_if, %s \s*\);$" % (TASK, WRAPPED, HANDLE, CTC))
IF_INIT = re.compile(r"^int pomp2_if = (.*);$")
WAIT_BEGIN = re.compile(r"^POMP2_Taskwait_begin%s\( &%s, &pomp2_old_task, %s \s*\);$"
                        % (WRAPPED, HANDLE, CTC))
# a task block's first lines, before its POMP2_Task_create_begin
HEADER = ["{", None, "{ POMP2_Task_handle pomp2_old_task;", "POMP2_Task_handle pomp2_new_task;"]
WAIT_OPEN = "{ POMP2_Task_handle pomp2_old_task;"
WAIT_END = re.compile(r"^POMP2_Taskwait_end%s\( &%s, pomp2_old_task \); \}$" % (WRAPPED, HANDLE))
# what may end the code before a block that is a statement of its own
STATEMENT_END = (";", "{", "}")


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


def header_init(lines: list[str], k: int) -> str | None:
    """The pomp2_if initializer of the task block whose header (HEADER) begins
    at line k; None if there is no such header."""
    if k < 0 or k + 4 > len(lines):
        return None
    head = [line.strip() for line in lines[k:k + 4]]
    init = IF_INIT.match(head[1])
    if not init or any(want is not None and have != want for have, want in zip(head, HEADER)):
        return None
    return init.group(1).strip()


def merge(text: str) -> str:
    """text (OPARI2's C/C++ output, as finish_c has it) with adjacent task events
    merged; unchanged when the pass is off."""
    if not enabled():
        return text
    lines = text.split("\n")
    # the open task blocks that a merge may extend, by the handle of their last
    # creation: whether the block's pomp2_if holds 1
    blocks: dict[str, bool] = {}
    wait_ends: dict[str, list[int]] = {}
    for k, line in enumerate(lines):
        m = WAIT_END.match(line.strip())
        if m:
            wait_ends.setdefault(m.group(1), []).append(k)
    for k, line in enumerate(lines):
        stripped = line.strip()
        begin = CREATE_BEGIN.match(stripped)
        if begin:
            init = header_init(lines, k - 4)
            if init is not None and stands_alone(lines, k - 4):
                blocks[begin.group(1)] = init == "1"
            continue
        end = CREATE_END.match(stripped)
        if not end or end.group(1) not in blocks or k + 1 >= len(lines) \
                or lines[k + 1].strip() != "}":
            continue
        if_is_one = blocks.pop(end.group(1))
        j = between(lines, k + 2)
        if merge_create(lines, k, j, end.group(1), if_is_one, blocks):
            continue
        merge_wait(lines, k, j, end.group(1), wait_ends)
    return "\n".join(lines)


def merge_create(lines: list[str], k: int, j: int, ended: str, if_is_one: bool,
                 blocks: dict[str, bool]) -> bool:
    """The creation ending at line k followed by a task block at line j."""
    begin = CREATE_BEGIN.match(lines[j + 4].strip()) if j + 4 < len(lines) else None
    if not begin or header_init(lines, j) != "1":
        return False
    created, ctc = begin.groups()
    for n in (k, k + 1, j, j + 1, j + 2, j + 3):
        lines[n] = ""
    lines[j + 4] = "%sPOMP2_Task_create_next( &%s, pomp2_old_task, &%s, &pomp2_new_task, %s );" \
        % ("" if if_is_one else "pomp2_if = 1; ", ended, created, ctc)
    blocks[created] = True
    return True


def merge_wait(lines: list[str], k: int, j: int, ended: str,
               wait_ends: dict[str, list[int]]) -> bool:
    """The creation ending at line k followed by a taskwait block at line j
    (wait_ends: the lines of each taskwait's end, by handle)."""
    if j + 1 >= len(lines) or lines[j].strip() != WAIT_OPEN:
        return False
    begin = WAIT_BEGIN.match(lines[j + 1].strip())
    if not begin:
        return False
    wait, ctc = begin.groups()
    ends = wait_ends.get(wait, [])
    if len(ends) != 1 or ends[0] <= j + 1:
        return False
    for n in (k, k + 1, j):
        lines[n] = ""
    lines[j + 1] = "POMP2_Task_create_end_wait( &%s, pomp2_old_task, &%s, %s );" \
        % (ended, wait, ctc)
    # it closes the first block's two braces now (one was the taskwait's own)
    lines[ends[0]] += " }"
    return True
