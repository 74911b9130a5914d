"""OPARI2 over preprocessed C/C++, and its output made to compile as the
user's code would: the wrapper's prelude instead of OPARI2's include file,
OPARI2's macros expanded (the result is compiled as preprocessed text), line
markers that name the user's files as the compiler spelled them, undeferred
tasks measured, extra facts in the region strings, hidden directives back.
Fortran's share is in fortran.py, fortran_text.py and fortran_output.py."""

from __future__ import annotations

import os
import re
import subprocess

from .. import build_config
from . import run as wrapper_run
from . import c_depend
from .adjacent import merge as merge_adjacent
from .ctext import MARKER, escape, unescape
from .prelude import prelude
from .rewrite import Prepared, region_string, restore_hidden, restore_raw_strings
from .tally import Tally

OPARI2_LINE = re.compile(r'^#line (\d+) "((?:[^"\\]|\\.)*)"\s*$', re.M)
OPARI2_INCLUDE = re.compile(r'^#include "[^"]*\.opari\.inc"\n', re.M)
HANDLE = re.compile(r"^static\s+OPARI2_Region_handle\s+(opari2_region_\d+)\s*=", re.M)
DEFINE = re.compile(r"^#define\s+(opari2_ctc_\d+|POMP2_DLIST_\d+)\s+(.*?)\s*$", re.M)
INIT_FUNCTION = re.compile(r"void\s+(POMP2_(?:USER_)?Init_reg_([0-9A-Za-z]+)_\d+)\s*\(\s*\)\s*\{(.*?)\}",
                           re.S)
ASSIGN = re.compile(r"(POMP2_(?:USER_)?Assign_handle)\s*\(\s*&\s*(opari2_region_\d+)\s*,"
                    r"\s*(opari2_ctc_\d+)\s*\)")
OPARI2_MACRO = re.compile(r"\b(opari2_ctc_\d+|POMP2_DLIST_\d+)\b")
# OPARI2 runs no task event when the if clause is false; undeferred tasks run at
# once on the creating thread, inside the creation, and are measured like that.
TASK_GUARD = re.compile(r"\bif\s*\(\s*pomp2_if\s*\)\s*(POMP2_(?:Untied_task|Task)_\w+\s*\()")
# a guard in any layout, on a line that is not a directive (whose if clause
# names pomp2_if too)
ANY_GUARD = re.compile(r"\bif\s*\(\s*pomp2_if\s*\)")


def unguard_tasks(text: str, tally: Tally | None = None) -> str:
    """text without OPARI2's `if (pomp2_if)` guards of its task calls; into tally,
    OPARI2's guards (any layout) and those removed."""
    text, removed = TASK_GUARD.subn(r"\1", text)
    if tally is not None:
        left = sum(len(ANY_GUARD.findall(line)) for line in text.split("\n")
                   if "pomp2_if" in line and not line.lstrip().startswith("#"))
        tally.add("task_guards", removed + left, removed,
                  "guards of task events (if (pomp2_if))",
                  "undeferred tasks (a false if clause, inside a final task) are not measured")
    return text


# OPARI2's task calls name the address of a handle it defines, never NULL: they
# call the library's form that does not test for a NULL address (pomp2/
# pp_pomp2_task.c: POMP2_..._wrapped).  The untied creation and end are the
# tied ones under a second name; an untied begin keeps its own entry point.
HANDLE_ARG = r"(\s*\(\s*&\s*opari2_region_\d+\b)"
WRAPPED_CALL = re.compile(r"\bPOMP2_(?:Untied_task|Task)_(create_begin|create_end|end)" + HANDLE_ARG
                          + r"|\bPOMP2_(Task_begin|Taskwait_begin|Taskwait_end)" + HANDLE_ARG)


def wrapped_calls(text: str) -> str:
    """OPARI2's hot task calls renamed to the library's _wrapped forms."""
    def rename(m):
        if m.group(1):
            return "POMP2_Task_%s_wrapped%s" % (m.group(1), m.group(2))
        return "POMP2_%s_wrapped%s" % (m.group(3), m.group(4))
    return WRAPPED_CALL.sub(rename, text)


# OPARI2 asks for num_threads(omp_get_max_threads()) where the user wrote none;
# the profile does not need it, and the program keeps its own choice.
MAX_THREADS = "int pomp2_num_threads = omp_get_max_threads();"
NUM_THREADS_CLAUSE = " num_threads(pomp2_num_threads)"
OPARI2_ERROR_AT = re.compile(r"\bat (\S+?):(\d+)\s*$", re.M)


class InstrumentError(Exception):
    """OPARI2 failed; the message names the user's file:line and what to do."""


def run_opari2(infile: str, outfile: str, language: list[str], extra: list[str]) -> str | None:
    """Run OPARI2; None on success, else its message (stderr and stdout)."""
    cmd = [build_config.OPARI2, "--omp-tpd", "--omp-task-untied=no-warn"] + language \
        + extra + [infile, outfile]
    wrapper_run.echo(cmd)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, errors="replace")
    except OSError as e:
        return "cannot run %s: %s" % (build_config.OPARI2, e.strerror)
    if proc.returncode != 0 or not os.path.isfile(outfile):
        return proc.stdout.strip() or "opari2 exited with status %d" % proc.returncode
    return None


def spellings(text: str) -> dict[str, str]:
    """Absolute path (as OPARI2 writes it) -> the marker's spelling (as the
    compiler spelled it), for every file named in the line markers."""
    out = {}
    for m in re.finditer(r'^# \d+ "((?:[^"\\]|\\.)*)"', text, re.M):
        spelled = m.group(1)
        path = unescape(spelled)
        if path.startswith("<"):
            continue
        full = path if os.path.isabs(path) else os.path.join(os.getcwd(), path)
        out.setdefault(full, spelled)
        out.setdefault(os.path.normpath(full), spelled)
    return out


def absolute_markers(text: str) -> str:
    """The text with every marker naming its file by absolute path: OPARI2 takes
    a relative name relative to its input file's directory (the wrapper's work
    directory), not to the directory the compiler ran in."""
    def absolute(m):
        path = unescape(m.group(2))
        if path.startswith("<") or os.path.isabs(path):
            return m.group(0)
        return '# %s "%s"%s' % (m.group(1), escape(os.path.join(os.getcwd(), path)), m.group(3))
    return re.sub(r'^# (\d+) "((?:[^"\\]|\\.)*)"(.*)$', absolute, text, flags=re.M)


def opari2_failure(message: str, names: dict[str, str], source: str,
                   fortran: bool = False) -> str:
    """OPARI2's message as one pompprof line naming the user's file:line (the
    source file alone when OPARI2 says no line), with advice in the terms of
    the source's language."""
    where = source + ": "
    m = OPARI2_ERROR_AT.search(message)
    if m:
        path = m.group(1)
        where = "%s:%s: " % (unescape(names.get(path, escape(path))), m.group(2))
    first = " ".join(line.strip() for line in message.splitlines()
                     if line.strip() and not OPARI2_ERROR_AT.search(line)) or message.strip()
    first = re.sub(r"^ERROR:\s*", "", first)
    advice = ("Close each construct with its end directive (!$omp end ...) and each "
              "!$pomp inst begin with its !$pomp inst end in the same program unit"
              if fortran else
              "Write the construct's block as a braced block on lines of its own")
    return ("%sOPARI2 cannot instrument this (%s); the file is compiled without measurement. "
            "%s, or compile this file without pompprof" % (where, first, advice))


def add_facts(ctc: str, facts: dict[tuple[str, int, str], dict[str, str]]) -> str:
    """The region string with the wrapper's extra facts for its construct."""
    body = ctc.strip('"').split("*", 1)[1]
    fields = [f.split("=", 1) for f in body.split("*") if "=" in f]
    kv = dict((k, v) for k, v in fields)
    kind = kv.get("regionType", "")
    file_line = kv.get("sscl", "").rsplit(":", 2)
    if len(file_line) != 3:
        return ctc
    extra = facts.get((file_line[0], int(file_line[1]), "task" if kind.startswith("task") else kind))
    if not extra:
        return ctc
    fields += [[k, v] for k, v in extra.items() if k not in kv]
    return '"%s"' % region_string([(k, v) for k, v in fields])


def finish_c(out: str, inc: str, prepared: Prepared, cplusplus: bool, unit_id: str,
             names: dict[str, str], tally: Tally | None = None) -> str:
    """OPARI2's C/C++ output (out, and its include file inc) as the text the
    compiler gets.  unit_id names the init functions (OPARI2's own id changes
    with every run, which would make every build differ).  Into tally: what
    the passes over OPARI2's output matched, and what they should have."""
    macros = dict(DEFINE.findall(inc))
    for name, value in list(macros.items()):
        if name.startswith("opari2_ctc_"):
            macros[name] = add_facts(value, prepared.facts)
    inits = []
    for name, _, body in INIT_FUNCTION.findall(inc):
        inits.append([name, [(fn, "&" + h, macros.get(c, c)) for fn, h, c in ASSIGN.findall(body)]])
    handles = HANDLE.findall(inc)
    if prepared.regions:
        own = [("POMP2_Assign_handle", r.handle, '"%s"' % r.ctc.replace('"', '\\"'))
               for r in prepared.regions]
        plain = [f for f in inits if not f[0].startswith("POMP2_USER_")]
        if plain:
            plain[0][1] += own
        else:
            inits.append(["POMP2_Init_reg_x_0", own])
    # POMP2[_USER]_Init_reg_<id>_<number of regions>
    inits = [(re.sub(r"_Init_reg_[0-9A-Za-z]+_\d+$", "_Init_reg_%s_%d" % (unit_id, len(assigns)),
                     name), assigns) for name, assigns in inits]

    out = OPARI2_INCLUDE.sub("", out, count=1)
    out = user_markers(out, names)
    out = restore_raw_strings(out, prepared.raw_strings)
    out = OPARI2_MACRO.sub(lambda m: macros.get(m.group(1), m.group(1)), out)
    out = unguard_tasks(out, tally)
    lines = out.split("\n")
    drop_num_threads = False
    for k, line in enumerate(lines):
        if line.strip() == MAX_THREADS:
            lines[k] = line.replace("omp_get_max_threads()", "0")
            drop_num_threads = True
        elif drop_num_threads and line.startswith("#pragma omp parallel"):
            lines[k] = line.replace(NUM_THREADS_CLAUSE, "", 1)
            drop_num_threads = False
    out = restore_hidden("\n".join(lines))
    out = c_depend.insert(out, "<pompprof>", cplusplus, prepared.notes, tally,
                          c_depend.constructs(prepared.text))
    # after the depend recording, which then stands between two calls it separates
    out = merge_adjacent(out, tally)
    out = wrapped_calls(out)

    # the prelude goes after the markers that name the main file and the
    # working directory (the compiler takes both from the first lines)
    lines = out.split("\n")
    at = 1 if lines and MARKER.match(lines[0]) else 0
    if at < len(lines) and lines[at].rstrip().endswith('//"') and MARKER.match(lines[at]):
        at += 1
    head = prelude("\n".join(lines[at:]), handles, len(prepared.regions), inits, cplusplus,
                   prepared.user_names)
    if at < len(lines) and not MARKER.match(lines[at]):
        head.append(lines[0] if at else '# 1 "<pompprof>"')
    return "\n".join(lines[:at] + head + lines[at:])


def user_markers(out: str, names: dict[str, str]) -> str:
    """The markers of OPARI2's output with the compiler's spelling of each file
    (names: absolute path -> spelling), and OPARI2's '#line N "file"' as cpp
    markers ('-fpreprocessed' and gfortran without cpp read no #line).  A #line
    naming OPARI2's own input (it does so at times) goes back to the file of the
    marker before it."""
    current = None
    lines = out.split("\n")
    for k, line in enumerate(lines):
        if not line.startswith("#"):
            continue
        m = OPARI2_LINE.match(line)
        if m:
            spelled = names.get(unescape(m.group(2)), current)
            # none yet: the top of OPARI2's output, where markers follow anyway
            lines[k] = '# %s "%s"' % (m.group(1), spelled) if spelled else None
            if spelled:
                current = spelled
            continue
        m = MARKER.match(line)
        if m and not m.group(2).startswith("<"):
            current = names.get(unescape(m.group(2)), m.group(2))
            if current != m.group(2):
                lines[k] = '# %s "%s"%s' % (m.group(1), current, m.group(3))
    return "\n".join(line for line in lines if line is not None)

