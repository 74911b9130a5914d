"""Preprocessed C/C++ made ready for OPARI2 2.0.7, which understands the
OpenMP 3 constructs and mangles much of the rest (doc/wrapper.md lists what
and why).  Every OpenMP directive gets one treatment (wrapper_directive):

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

from . import wrapper_directive as wd
from .wrapper_ctext import Code, Origin, TextError, line_origins

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

    # ---- helpers ------------------------------------------------------------------
    def origin(self, tok_index: int) -> Origin:
        return self.origins[self.code.toks[tok_index].line]

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

    def hide(self, i: int) -> None:
        t = self.code.toks[i]
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
        toks = self.code.toks
        hidden_until = -1
        self.sections_until = -1
        i = 0
        while i < len(toks):
            t = toks[i]
            if t.kind == "directive" and OMP_PRAGMA.match(t.text):
                if i <= hidden_until or self.origin(i).system \
                        or (i <= self.sections_until and self.name_of(i) == "section"):
                    self.hide(i)
                else:
                    hidden_until = max(hidden_until, self.directive(i))
            i += 1
        self.result.text = self.edits.apply()
        return self.result

    def range_for(self, i: int) -> bool:
        """Is the statement at token i (after any directives) a range-based for?"""
        toks = self.code.toks
        while i < len(toks) and toks[i].kind == "directive":
            i += 1
        if not (self.code.at(i, "for") and self.code.at(i + 1, "(")):
            return False
        close = self.code.match[i + 1]
        k = i + 2
        while k < close:
            if toks[k].is_(";"):
                return False
            k = self.code.match.get(k, k) + 1 if toks[k].text in "([{" else k + 1
        return True

    def name_of(self, i: int) -> str:
        """The directive's name, with a cancel's construct ("cancel for")."""
        try:
            d = wd.parse(OMP_PRAGMA.match(self.code.toks[i].text).group(1))
        except wd.DirectiveError:
            return ""
        if d.words[0] in ("cancel", "cancellation") and d.clauses:
            return "cancel " + d.clauses[0].name
        return d.name

    def directive(self, i: int) -> int:
        """Treat the directive at token i; return the last token index whose
        directives must be hidden (-1 for none)."""
        t = self.code.toks[i]
        where = self.origin(i)
        try:
            d = wd.parse(OMP_PRAGMA.match(t.text).group(1))
            has_body = wd.takes_body(d)
            body_end = self.code.statement_end(i + 1, self._takes_body) if has_body else i
            inside = {self.name_of(k) for k in range(i + 1, body_end + 1)
                      if self.code.toks[k].kind == "directive"
                      and OMP_PRAGMA.match(self.code.toks[k].text)}
            if has_body and self.range_for(i + 1):
                inside.add(wd.RANGE_FOR)
            layers = wd.expand(d, inside)
        except wd.DirectiveError:
            self.note(where, "this OpenMP directive is not measured (pompprof cannot read it)")
            self.hide(i)
            return -1
        end_where = self.origin(body_end)
        before: list[str] = []
        after: list[str] = []
        hide_inside = False
        measured = False
        for leaf in layers:
            tr = wd.treatment(leaf, inside)
            if tr.action == wd.OWN and tr.region_type == "sections+barrier":
                self.sections_until = max(self.sections_until, body_end)
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
            last = self.code.toks[body_end]
            # the block ends its line, as OPARI2 needs (even with nothing to add)
            self.edits.replace(last.end, last.end, [end_where.marker()] + after,
                               (last.end, 1, -self.seq))
        return body_end if hide_inside else -1


ATTRIBUTE_START = re.compile(r"\[\s*\[\s*omp\s*::\s*(directive|sequence)\s*\(")


def attributes_as_pragmas(text: str, main_file: str) -> tuple[str, list[str]]:
    """C++ [[omp::directive(...)]] and [[omp::sequence(directive(...), ...)]]
    as the #pragma lines they stand for (OPARI2 reads pragmas only), each on a
    line of its own with the attribute's line.  An attribute list that holds
    other attributes too stays as it is, with a note.  Returns (text, notes)."""
    if "omp" not in text or not ATTRIBUTE_START.search(text):
        return text, []
    origins = line_origins(text.split("\n"), main_file)
    code = Code(text)
    toks = code.toks
    edits = _Edits(text, origins)
    notes = []
    for i, t in enumerate(toks):
        if not (t.is_("[") and code.at(i + 1, "[") and code.at(i + 2, "omp")
                and code.at(i + 3, "::") and i + 5 < len(toks) and code.at(i + 5, "(")
                and toks[i + 4].text in ("directive", "sequence")):
            continue
        outer_close = code.match[i]
        origin = edits.origin_at(t.start)
        args_close = code.match[i + 5]
        if not code.at(args_close + 1, "]") or args_close + 2 != outer_close:
            notes.append("%s:%d: this OpenMP attribute shares its [[...]] with other "
                         "attributes: not measured" % (origin.display_file, origin.line))
            continue
        inner = text[toks[i + 5].end:toks[args_close].start]
        if toks[i + 4].text == "directive":
            directives = [inner]
        else:
            directives = [re.sub(r"^\s*directive\s*\((.*)\)\s*$", r"\1", part, flags=re.S)
                          for part in wd.split_top(inner, ",")]
        lines = []
        for dtext in directives:
            lines += [origin.marker(), "#pragma omp " + " ".join(dtext.split())]
        edits.replace(t.start, toks[outer_close].end, lines, (t.start, 0, i))
    return edits.apply(), notes


RAW_STRING = re.compile(r'(?:u8|u|U|L)?R"([^()\\ \t\n"]{0,16})\(.*?\)\1"', re.S)


def protect_raw_strings(text: str) -> tuple[str, list[str]]:
    """Raw string literals (C++11) confuse OPARI2's reader: each becomes a
    placeholder followed by as many newlines, so lines keep their numbers."""
    saved: list[str] = []
    code = Code(text)
    out, pos = [], 0
    for t in code.toks:
        if t.kind == "str" and RAW_STRING.fullmatch(t.text):
            out.append(text[pos:t.start])
            out.append("pompprof_raw_string_%d" % len(saved) + "\n" * t.text.count("\n"))
            saved.append(t.text)
            pos = t.end
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
