"""What the recording of depend clauses shares between C/C++ (c_depend.py) and
Fortran (fortran_depend.py): the kinds of dependence as libpompprof numbers
them (pomp2/pp_pomp2_depend.c), which list items must not be evaluated a second
time, and the note that says an item is not recorded."""

from __future__ import annotations

import re

KINDS = {"in": 1, "out": 2, "inout": 3, "mutexinoutset": 4, "inoutset": 5}
UNKNOWN = 6
DEPOBJ = 7

# What evaluating an expression again could change: increments, assignments, calls.
NOT_CALLS = r"(?:sizeof|_Alignof|alignof|__alignof__|__builtin_offsetof|__builtin_addressof|" \
            r"typeof|__typeof__|decltype|__extension__)"
MODIFIES = re.compile(r"\+\+|--|(?<![=!<>])=(?!=)")
CALLS = re.compile(r"\b(?!" + NOT_CALLS + r"\b)[A-Za-z_]\w*\s*\(")
SIDE_EFFECT = re.compile(MODIFIES.pattern + "|" + CALLS.pattern)
SIDE_EFFECTS = "its expression has side effects"
MAY_HAVE = "its expression calls a function, which may have side effects"


def why_not(text: str) -> str | None:
    """Why text must not be evaluated a second time (None: it may)."""
    if MODIFIES.search(text):
        return SIDE_EFFECTS
    return MAY_HAVE if CALLS.search(text) else None


class Unrecorded(Exception):
    """A list item that cannot be recorded without evaluating it twice (or read)."""


def reason(e: Unrecorded) -> str:
    text = str(e)
    return text if text in (SIDE_EFFECTS, MAY_HAVE) else "pompprof cannot read %s there" % text


def not_recorded(where: str, item: str, why: str) -> str:
    """The note for a list item recorded as unknown."""
    return "%s: the dependence on '%s' is not recorded (%s): the trace cannot say " \
           "when this task was ready" % (where, item.strip(), why)


def split_colon(text: str) -> list[str]:
    """text split at top-level ':' (not C++ '::')."""
    out, depth, start, k = [], 0, 0, 0
    while k < len(text):
        ch = text[k]
        if text.startswith("::", k):
            k += 2
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ":" and depth == 0:
            out.append(text[start:k])
            start = k + 1
        k += 1
    out.append(text[start:])
    return out
