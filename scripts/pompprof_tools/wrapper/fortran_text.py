"""Fortran source as the wrapper reads it, free and fixed form (tab format
too): directive lines and their continuations without comments, statements
(also several on a line, separated by ";"), the extent of a DO loop and of a
BLOCK construct, shared DO termination; and what it changes in the text
before anything else: files named by INCLUDE lines put in place, a PROGRAM
statement for a main program without one."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from . import directive as wd
from .ctext import MARKER, escape, unescape

FREE_DIRECTIVE = re.compile(r"^(\s*)!\$omp(&?)(\s.*|)$", re.I)


FIXED_DIRECTIVE = re.compile(r"^[!cC*]\$omp(.)(.*)$", re.I)


@dataclass
class FDirective:
    first: int                   # line indexes
    last: int
    indent: str
    text: str                    # without the sentinels and comments
    d: wd.Directive | None = None
    commented: bool = False      # a line of it ends in a comment (OPARI2 cannot read it)


def outside_literals(text: str):
    """(index, character) of the characters of text outside character literals."""
    quote = None
    for k, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        else:
            yield k, ch


def without_comment(text: str) -> tuple[str, bool]:
    """The text of a directive line before its comment ("! ..." outside
    character literals), and whether it had one."""
    for k, ch in outside_literals(text):
        if ch == "!":
            return text[:k].rstrip(), True
    return text, False


def directives(lines: list[str], fixed: bool) -> list[FDirective]:
    out = []
    i = 0
    while i < len(lines):
        if fixed:
            m = FIXED_DIRECTIVE.match(lines[i])
            if not m or m.group(1) not in (" ", "0", "\t"):
                i += 1
                continue
            text, commented = without_comment(m.group(2))
            last = i
            while last + 1 < len(lines):
                c = FIXED_DIRECTIVE.match(lines[last + 1])
                if not c or c.group(1) in (" ", "0", "\t"):
                    break
                last += 1
                more, had = without_comment(c.group(2))
                text += " " + more
                commented = commented or had
            out.append(FDirective(i, last, "      ", text, commented=commented))
        else:
            m = FREE_DIRECTIVE.match(lines[i])
            if not m or m.group(2):
                i += 1
                continue
            text, commented = without_comment(m.group(3))
            last = i
            while text.rstrip().endswith("&") and last + 1 < len(lines):
                text = text.rstrip()[:-1]
                last += 1
                c = FREE_DIRECTIVE.match(lines[last])
                more, had = without_comment(c.group(3) if c else lines[last].strip())
                text += " " + more.strip().lstrip("&")
                commented = commented or had
            out.append(FDirective(i, last, m.group(1), text, commented=commented))
        i = out[-1].last + 1
    return out


def statement_lines(lines: list[str], fixed: bool, start: int):
    """(index, label, text) of each statement from line start on (first lines
    only; a line with several statements yields each, at the same index)."""
    previous_continues = False
    for k in range(start, len(lines)):
        line = lines[k]
        if line.startswith("#") or not line.strip():
            continue
        if fixed:
            if line[:1] in "cC*!" or line.lstrip().startswith("!"):
                continue
            tab = line.find("\t", 0, 6)
            if tab >= 0:
                # tab format: label, TAB, then the statement (a digit after
                # the TAB continues the line before)
                if line[tab + 1:tab + 2] in tuple("123456789"):
                    continue
                label, text = line[:tab].strip(), line[tab + 1:]
            elif len(line) > 5 and line[5] not in " 0":
                continue
            else:
                label, text = line[:5].strip(), line[6:]
        else:
            stripped = line.strip()
            if stripped.startswith("!"):
                continue
            continues = without_comment(stripped)[0].rstrip().endswith("&")
            if previous_continues:
                previous_continues = continues
                continue
            previous_continues = continues
            m = re.match(r"(\d+)\s+(.*)", stripped)
            label, text = (m.group(1), m.group(2)) if m else ("", stripped)
        # "do i = 1, n; a(i) = 0; end do": statements separated by ";"
        for n, part in enumerate(split_statements(text)):
            yield k, label if n == 0 else "", part


def split_statements(text: str) -> list[str]:
    """The statements of one line: split at ";" outside character literals,
    up to a comment."""
    text = without_comment(text)[0]
    out, start = [], 0
    for k, ch in outside_literals(text):
        if ch == ";":
            out.append(text[start:k].strip())
            start = k + 1
    out.append(text[start:].strip())
    return [part for part in out if part] or [""]


DO_START = re.compile(r"^(?:[A-Za-z_]\w*\s*:\s*)?do\b\s*(\d+)?(?!\s*=)", re.I)


END_DO = re.compile(r"^end\s*do\b", re.I)


def loop_end(lines: list[str], fixed: bool, after: int) -> int | None:
    """The last line of the DO loop that starts after line `after`."""
    stack: list[str] = []
    for k, label, text in statement_lines(lines, fixed, after + 1):
        m = DO_START.match(text)
        if m:
            stack.append(m.group(1) or "")
        elif END_DO.match(text) and stack and stack[-1] == "":
            stack.pop()
        elif not stack:
            return None
        if label:
            while stack and stack[-1] == label:
                stack.pop()
        if not stack:
            return k
    return None


def ends_outer_loop(lines: list[str], fixed: bool, directive: int, last: int) -> bool:
    """Does the labelled statement `last`, which ends the loop of the
    directive at line `directive`, also end a DO loop that encloses the
    directive (a shared termination: its end directive is implied, and no end
    directive may follow)?"""
    label = next((lab for k, lab, _ in statement_lines(lines, fixed, last) if k == last), "")
    if not label:
        return False
    open_labels: list[str] = []
    for k, lab, text in statement_lines(lines, fixed, 0):
        if k >= directive:
            break
        m = DO_START.match(text)
        if m and m.group(1):
            open_labels.append(m.group(1))
        if lab:
            open_labels = [o for o in open_labels if o != lab]
    return label in open_labels


BLOCK_START = re.compile(r"^(?:[A-Za-z_]\w*\s*:\s*)?block\s*(?:!.*)?$", re.I)


END_BLOCK = re.compile(r"^end\s*block\b(?!\s*data)", re.I)


def block_end(lines: list[str], fixed: bool, after: int) -> int | None:
    """The END BLOCK line of the BLOCK construct that is the first statement
    after line `after`, None when that statement is no BLOCK."""
    depth = 0
    for k, _, text in statement_lines(lines, fixed, after + 1):
        if BLOCK_START.match(text):
            depth += 1
        elif depth == 0:
            return None
        elif END_BLOCK.match(text):
            depth -= 1
            if depth == 0:
                return k
    return None


INCLUDE_LINE = re.compile(r"""^\s*include\s*(['"])([^'"]+)\1\s*(?:!.*)?$""", re.I)


OMP_SENTINEL = re.compile(r"^\s*[!cC*]\$omp", re.I | re.M)


def include_dirs(args: list[str]) -> list[str]:
    """The -I directories of a command line, in order."""
    out = []
    for k, a in enumerate(args):
        if a == "-I" and k + 1 < len(args):
            out.append(args[k + 1])
        elif a.startswith("-I") and len(a) > 2:
            out.append(a[2:])
    return out


def expand_includes(text: str, dirs: list[str], depth: int = 0) -> str:
    """Files named by Fortran INCLUDE lines that hold OpenMP directives, in
    place of their lines, between line markers (OPARI2 reads one file; the
    compiler and OPARI2 follow the markers, so each construct keeps its file
    and line).  Looked up as gfortran does: next to the including file, then
    in the -I directories.  Other INCLUDE lines stay as they are."""
    if depth > 8 or "include" not in text.lower():
        return text
    out = []
    current, number = "", 0
    for line in text.split("\n"):
        m = MARKER.match(line)
        if m:
            current, number = unescape(m.group(2)), int(m.group(1)) - 1
            out.append(line)
            continue
        number += 1
        inc = INCLUDE_LINE.match(line)
        found = None
        if inc:
            for d in [os.path.dirname(current)] + dirs:
                path = os.path.join(d, inc.group(2))
                if os.path.isfile(path):
                    found = path
                    break
        body = None
        if found:
            try:
                with open(found, encoding="utf-8", errors="surrogateescape") as f:
                    body = f.read()
            except OSError:
                body = None
        if body is None or not OMP_SENTINEL.search(body):
            out.append(line)
            continue
        body = expand_includes('# 1 "%s"\n' % escape(found) + body.rstrip("\n"), dirs,
                               depth + 1)
        out += body.split("\n")
        out.append('# %d "%s"' % (number + 1, escape(current)))
    return "\n".join(out)


UNIT_HEADER = re.compile(r"^(program|module|submodule|block\s*data)\b|"
                         r"^[^'\"!=]*?\b(subroutine|function)\s*\w+\s*(\(|$|!|bind\b)", re.I)


def name_the_main_program(text: str, fixed: bool) -> str:
    """A main program may leave out its PROGRAM statement; OPARI2 then puts
    its declarations nowhere (and implicit typing makes pomp2_if REAL).  Such a
    file gets one, on a line of its own, when it has OpenMP directives."""
    if not OMP_SENTINEL.search(text):
        return text
    lines = text.split("\n")
    first = next(statement_lines(lines, fixed, 0), None)
    if first is None or UNIT_HEADER.match(first[2]):
        return text
    k = first[0]
    origin = None
    for j in range(k - 1, -1, -1):
        m = MARKER.match(lines[j])
        if m:
            origin = '# %d "%s"' % (int(m.group(1)) + (k - j - 1), m.group(2))
            break
    header = ("      " if fixed else "") + "program pompprof_main"
    return "\n".join(lines[:k] + [header] + ([origin] if origin else []) + lines[k:])
