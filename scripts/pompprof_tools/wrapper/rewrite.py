"""Preprocessed C/C++ made ready for OPARI2 2.0.7, which understands the
OpenMP 3 constructs and mangles much of the rest (doc/wrapper.md lists what
and why).  Every OpenMP directive gets one treatment (directive.treatment):

- combined constructs are split into leaf constructs with the same meaning
  (`parallel master` -> `parallel` + `master`), their clauses distributed as
  OpenMP specifies;
- constructs OPARI2 does not know but that are worth measuring (taskloop,
  taskgroup, taskyield, masked, doacross `ordered`) are instrumented here with
  the same POMP2 calls OPARI2 would use, with region strings of our own;
- directives with nothing to measure, and constructs that cannot be measured
  (offload, `loop`...), are hidden from OPARI2 (`#pragma pompprof_omp`) and
  restored afterwards, with a note for what is not measured;
- the structured block of every instrumented construct is put on lines of its
  own and braced, which OPARI2 needs ("could not determine end of construct").

Inserted lines are followed by a line marker, so every line of the user's
code keeps its file and line, and so does every construct OPARI2 sees.
"""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass, field

from . import directive as wd
from .ctext import RAW_STRING, Code, Origin, Scanner, TextError, Token, line_origins

OMP_PRAGMA = re.compile(r"^\s*#\s*pragma\s+omp\b(.*)$")
HIDDEN_PREFIX = "#pragma pompprof_omp"
HIDDEN = re.compile(r"^#pragma pompprof_omp\b", re.M)

# The POMP2 calls around the constructs the wrapper instruments itself, as
# (lines before the directive, lines between it and its block, lines after the
# block); {r} is the region handle's address, {s} the region string.  Each is
# measured with the calls OPARI2 uses for the construct it resembles most: a
# masked block as a master block, taskloop/taskyield/the end of a taskgroup
# as task scheduling points (like taskwait), a doacross wait as an ordered
# region, a loop that must keep its implicit barrier as a loop without one.
# The handle's address comes from a function, not a variable: a variable
# would need a data-sharing clause under default(none) (OPARI2 adds its own
# handles to the enclosing parallel's shared clause).
SCHEDULING_POINT = (["{{ POMP2_Task_handle pompprof_old_task; "
                     "POMP2_Taskwait_begin({r}, &pompprof_old_task, {s});"], [],
                    ["POMP2_Taskwait_end({r}, pompprof_old_task); }}"])
OWN_LAYOUT = {
    "masked": ([], ["{{ POMP2_Master_begin({r}, {s});"], ["POMP2_Master_end({r}); }}"]),
    "ordered": (["{{ POMP2_Ordered_enter({r}, {s});"], [], ["POMP2_Ordered_exit({r}); }}"]),
    # a loop OPARI2 cannot read (range-for): as OPARI2 would do it, with nowait
    # and its own barrier measured as the implicit barrier
    "for": (["{{ POMP2_For_enter({r}, {s});"], [],
            ["{{ POMP2_Task_handle pompprof_old_task; "
             "POMP2_Implicit_barrier_enter({r}, &pompprof_old_task);",
             HIDDEN_PREFIX + " barrier",
             "POMP2_Implicit_barrier_exit({r}, pompprof_old_task); }}",
             "POMP2_For_exit({r}); }}"]),
    # a loop or sections that must keep their own barrier (task reductions,
    # cancellation): measured as one region, the barrier included
    "for+barrier": (["{{ POMP2_For_enter({r}, {s});"], [], ["POMP2_For_exit({r}); }}"]),
    "sections+barrier": (["{{ POMP2_Sections_enter({r}, {s});"], [],
                         ["POMP2_Sections_exit({r}); }}"]),
    "taskloop": SCHEDULING_POINT,
    "taskyield": SCHEDULING_POINT,
    # the wait at the end of the group: from the end of its block to after it
    "taskgroup": (["{{ POMP2_Task_handle pompprof_old_task;"], ["{{"],
                  ["POMP2_Taskwait_begin({r}, &pompprof_old_task, {s}); }}",
                   "POMP2_Taskwait_end({r}, pompprof_old_task); }}"]),
}
# For the layouts whose names are not region types.
REGION_TYPE = {"for+barrier": "for", "sections+barrier": "sections"}


def region_string(fields: list[tuple[str, str]]) -> str:
    """An OPARI2 region string: total length, '*', key=value fields each closed
    by '*', and a final '*'."""
    body = "".join("%s=%s*" % kv for kv in fields) + "*"
    n = len(body) + 2
    while len(str(n)) + 1 + len(body) != n:
        n = len(str(n)) + 1 + len(body)
    return "%d*%s" % (n, body)


def c_string(s: str) -> str:
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def absolute(spelled_file: str) -> str:
    """The file as OPARI2 names it in region strings (joined to the working directory)."""
    return spelled_file if os.path.isabs(spelled_file) else os.path.join(os.getcwd(), spelled_file)


@dataclass
class OwnRegion:
    handle: str
    ctc: str


@dataclass
class Prepared:
    text: str
    notes: list[str] = field(default_factory=list)         # "file:line: message"
    regions: list[OwnRegion] = field(default_factory=list)
    facts: dict[tuple[str, int, str], dict[str, str]] = field(default_factory=dict)
    raw_strings: list[str] = field(default_factory=list)  # protected from OPARI2
    user_names: frozenset = frozenset()    # POMP2 functions the user's code names


class _Edits:
    """Insertions into the text, applied at once; each inserted block is followed
    by a line marker that gives the text after it its original line back."""

    def __init__(self, text: str, origins: list[Origin]):
        self.text = text
        self.origins = origins
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.edits: list[tuple[tuple, int, int, list[str]]] = []

    def origin_at(self, offset: int) -> Origin:
        return self.origins[bisect.bisect_right(self.line_starts, offset) - 1]

    def replace(self, start: int, end: int, lines: list[str], key: tuple) -> None:
        self.edits.append((key, start, end, lines))

    def apply(self) -> str:
        out, pos = [], 0
        for _, start, end, lines in sorted(self.edits, key=lambda e: e[0]):
            if start < pos:
                raise TextError("overlapping rewrites at offset %d" % start)
            out.append(self.text[pos:start])
            at_line_start = start == 0 or self.text[start - 1] == "\n"
            if not at_line_start:
                out.append("\n")
            out.append("\n".join(lines))
            out.append("\n" + self.origin_at(end).marker() + "\n")
            pos = end
        out.append(self.text[pos:])
        return "".join(out)


class Rewriter:
    def __init__(self, text: str, main_file: str, cplusplus: bool):
        self.lines = text.split("\n")
        self.origins = line_origins(self.lines, main_file)
        self.code = Code(text)
        self.edits = _Edits(text, self.origins)
        self.cplusplus = cplusplus
        self.result = Prepared(text)
        self.seq = 0
        # the OpenMP directive lines, in order (directives are tokens of their own)
        self.omp = [t for t in self.code.directives if OMP_PRAGMA.match(t.text)]

    # ---- helpers ------------------------------------------------------------------
    def origin(self, tok: Token) -> Origin:
        return self.origins[tok.line]

    def _takes_body(self, directive_text: str) -> bool:
        m = OMP_PRAGMA.match(directive_text)
        if not m:
            return False
        try:
            return wd.takes_body(wd.parse(m.group(1)))
        except wd.DirectiveError:
            return False

    def note(self, origin: Origin, message: str) -> None:
        text = "%s:%d: %s" % (origin.display_file, origin.line, message)
        if text not in self.result.notes:
            self.result.notes.append(text)

    def hide(self, t: Token) -> None:
        m = OMP_PRAGMA.match(t.text)
        self.seq += 1
        self.edits.replace(t.start, t.end, [HIDDEN_PREFIX + m.group(1)], (t.start, 0, self.seq))

    def own_region(self, kind: str, start: Origin, end: Origin) -> OwnRegion:
        n = len(self.result.regions) + 1
        ctc = region_string([("regionType", kind),
                             ("sscl", "%s:%d:%d" % (absolute(start.display_file), start.line,
                                                    start.line)),
                             ("escl", "%s:%d:%d" % (absolute(end.display_file), end.line,
                                                    end.line))])
        r = OwnRegion("pompprof_handle_%d()" % n, ctc)
        self.result.regions.append(r)
        return r

    # ---- the walk ------------------------------------------------------------------
    def run(self) -> Prepared:
        hidden_until = -1               # offsets
        self.sections_until = -1
        for t in self.omp:
            if t.start <= hidden_until or self.origin(t).system \
                    or (t.start <= self.sections_until and self.name_of(t) == "section"):
                self.hide(t)
            else:
                hidden_until = max(hidden_until, self.directive(t))
        self.result.text = self.edits.apply()
        return self.result

    @staticmethod
    def range_for(sc: Scanner) -> bool:
        """Is the statement the scanner starts with (after any directives) a
        range-based for?"""
        i = 0
        while sc.tok(i) is not None and sc.toks[i].kind == "directive":
            i += 1
        if not (sc.at(i, "for") and sc.at(i + 1, "(")):
            return False
        close = sc.match(i + 1)
        k = i + 2
        while k < close:
            if sc.toks[k].is_(";"):
                return False
            k = sc.match(k) + 1 if sc.toks[k].text in "([{" else k + 1
        return True

    @staticmethod
    def name_of(t: Token) -> str:
        """The directive's name, with a cancel's construct ("cancel for")."""
        try:
            d = wd.parse(OMP_PRAGMA.match(t.text).group(1))
        except wd.DirectiveError:
            return ""
        if d.words[0] in ("cancel", "cancellation") and d.clauses:
            return "cancel " + d.clauses[0].name
        return d.name

    def directive(self, t: Token) -> int:
        """Treat the directive t; return the offset up to which the directives
        inside must be hidden (-1 for none)."""
        where = self.origin(t)
        try:
            d = wd.parse(OMP_PRAGMA.match(t.text).group(1))
            has_body = wd.takes_body(d)
            last = t
            inside: set[str] = set()
            if has_body:
                sc = self.code.scan(t.end)
                last = sc.toks[sc.statement_end(0, self._takes_body)]
                inside = {self.name_of(o) for o in self.omp if t.end < o.start < last.end}
                if self.range_for(sc):
                    inside.add(wd.RANGE_FOR)
            layers = wd.expand(d, inside)
        except wd.DirectiveError:
            self.note(where, "this OpenMP directive is not measured (pompprof cannot read it)")
            self.hide(t)
            return -1
        end_where = self.origin(last)
        before: list[str] = []
        after: list[str] = []
        hide_inside = False
        measured = False
        for leaf in layers:
            tr = wd.treatment(leaf, inside)
            if tr.action == wd.OWN and tr.region_type == "sections+barrier":
                self.sections_until = max(self.sections_until, last.end)
            if tr.note:
                self.note(where, tr.note)
            if tr.action == wd.OPARI2:
                leaf = wd.for_opari2(leaf)
                f = wd.facts(leaf)
                if f:
                    key = (absolute(where.display_file), where.line, leaf.words[0])
                    self.result.facts[key] = f
                before += [where.marker(), "#pragma omp " + leaf.text()]
                if has_body and not (wd.is_loop(leaf) or leaf.words[-1] in ("atomic", "sections")):
                    before.append("{")
                    after.insert(0, "}")
            elif tr.action == wd.OWN:
                layout = tr.region_type
                r = self.own_region(REGION_TYPE.get(layout, layout), where,
                                    end_where if has_body else where)
                pre, mid, post = (
                    [line.format(r=r.handle, s=c_string(r.ctc)) for line in part]
                    for part in OWN_LAYOUT[layout])
                if layout == "for":
                    if leaf.has("nowait"):
                        post = post[-1:]
                    else:
                        leaf = wd.Directive(leaf.words, leaf.argument,
                                            leaf.clauses + [wd.Clause("nowait")])
                before += pre + [HIDDEN_PREFIX + " " + leaf.text()] + mid
                if has_body:
                    after[:0] = post
                else:
                    before += post
                hide_inside = hide_inside or tr.hide_inside
            else:
                before.append(HIDDEN_PREFIX + " " + leaf.text())
                hide_inside = hide_inside or tr.action in (wd.NOTE_ALL, wd.QUIET_ALL)
            if tr.action == wd.OPARI2 and tr.hide_inside:
                hide_inside = True
            measured = measured or tr.action in (wd.OPARI2, wd.OWN)
        self.seq += 1
        self.edits.replace(t.start, t.end, before, (t.start, 0, self.seq))
        if has_body and measured:
            # the block ends its line, as OPARI2 needs (even with nothing to add)
            self.edits.replace(last.end, last.end, [end_where.marker()] + after,
                               (last.end, 1, -self.seq))
        return last.end if hide_inside else -1


ATTRIBUTE_START = re.compile(r"\[\s*\[\s*omp\s*::\s*(directive|sequence)\s*\(")


def attributes_as_pragmas(text: str, main_file: str) -> tuple[str, list[str]]:
    """C++ [[omp::directive(...)]] and [[omp::sequence(directive(...), ...)]]
    as the #pragma lines they stand for (OPARI2 reads pragmas only), each on a
    line of its own with the attribute's line.  An attribute list that holds
    other attributes too stays as it is, with a note.  Returns (text, notes)."""
    starts = [m.start() for m in ATTRIBUTE_START.finditer(text)]
    if not starts:
        return text, []
    origins = line_origins(text.split("\n"), main_file)
    code = Code(text)
    edits = _Edits(text, origins)
    notes = []
    for k, start in enumerate(starts):
        if code.in_raw_string(start):
            continue
        sc = code.scan(start)        # [ [ omp :: directive|sequence ( ... ) ] ]
        outer_close = sc.match(0)
        args_close = sc.match(5)
        origin = edits.origin_at(start)
        if not sc.at(args_close + 1, "]") or args_close + 2 != outer_close:
            notes.append("%s:%d: this OpenMP attribute shares its [[...]] with other "
                         "attributes: not measured" % (origin.display_file, origin.line))
            continue
        inner = text[sc.toks[5].end:sc.toks[args_close].start]
        if sc.toks[4].text == "directive":
            directives = [inner]
        else:
            directives = [re.sub(r"^\s*directive\s*\((.*)\)\s*$", r"\1", part, flags=re.S)
                          for part in wd.split_top(inner, ",")]
        lines = []
        for dtext in directives:
            lines += [origin.marker(), "#pragma omp " + " ".join(dtext.split())]
        edits.replace(start, sc.toks[outer_close].end, lines, (start, 0, k))
    return edits.apply(), notes


def protect_raw_strings(text: str) -> tuple[str, list[str]]:
    """Raw string literals (C++11) confuse OPARI2's reader: each becomes a
    placeholder followed by as many newlines, so lines keep their numbers."""
    saved: list[str] = []
    out, pos = [], 0
    for m in RAW_STRING.finditer(text):
        out.append(text[pos:m.start()])
        out.append("pompprof_raw_string_%d" % len(saved) + "\n" * m.group(0).count("\n"))
        saved.append(m.group(0))
        pos = m.end()
    out.append(text[pos:])
    return "".join(out), saved


def restore_raw_strings(text: str, saved: list[str]) -> str:
    for k, original in enumerate(saved):
        text = text.replace("pompprof_raw_string_%d" % k + "\n" * original.count("\n"),
                            original, 1)
    return text


def prepare(text: str, main_file: str, cplusplus: bool) -> Prepared:
    """The preprocessed text of main_file, ready for OPARI2 (raises TextError
    for text the wrapper cannot read)."""
    notes: list[str] = []
    user_names = frozenset(re.findall(r"\bPOMP2_(\w+?)\s*\(", text))
    if cplusplus:
        text, notes = attributes_as_pragmas(text, main_file)
    prepared = Rewriter(text, main_file, cplusplus).run()
    prepared.notes[:0] = notes
    prepared.user_names = user_names
    if cplusplus and 'R"' in prepared.text:
        prepared.text, prepared.raw_strings = protect_raw_strings(prepared.text)
    return prepared


def restore_hidden(text: str) -> str:
    return HIDDEN.sub("#pragma omp", text)
