"""Fortran through OPARI2: the text OPARI2 gets (fortran_text.py reads the
source, fortran_output.py makes OPARI2's output compile as the original would).

OPARI2 reads the source itself when the compiler would not preprocess it,
else the compiler's `-E -cpp` output (so #include'd files and macros are
instrumented like the rest).  The instrumented text is compiled without cpp:
gfortran reads cpp's line markers ("# 12 \\"file\\"") then too, but not
"#line", and running cpp again could change the meaning of the user's code
(e.g. a variable named "linux" or "unix").

The directives get the treatments of directive.py, as in C: combined
constructs split, constructs OPARI2 does not know hidden from it (each hidden
line is a numbered comment while OPARI2 runs, then the original line again),
and the constructs the wrapper measures itself marked with OPARI2 user
regions (`!$pomp inst begin(pompprof_<n>)`), whose calls and region strings
are then turned into those of the construct: OPARI2 so declares the handles
and strings in every program unit that needs them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import directive as wd
from .ctext import MARKER, escape, unescape
from .fortran_text import (FDirective, block_end, directives, ends_outer_loop, expand_includes,
                           loop_end, name_the_main_program, statement_lines, without_comment)


HIDDEN_LINE = re.compile(r"^!pompprof_hidden_(\d+)$", re.M)
OWN_NAME = "pompprof_%d"
END_WORD = re.compile(r"^\s*end(?=[a-z])(?!\s*$)", re.I)


@dataclass
class FPrepared:
    text: str
    notes: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)       # original lines
    own: dict[str, str] = field(default_factory=dict)     # user region name -> layout


@dataclass
class Span:
    """Where a construct ends: the index of its end directive in the directives found
    (None: it has none), its last line, and the last line of the BLOCK that ends it
    (None: none does)."""
    end_n: int | None
    last: int
    block_last: int | None


FIXED_SENTINEL = re.compile(r"^[!cC*]\$(omp|pomp)", re.I)


def keep_hidden_lines(lines: list[str]) -> list[str]:
    """OPARI2 drops a comment line right after a fixed-form directive (as if
    it might continue it): a hidden line there gets a blank line before it."""
    out = []
    for line in lines:
        if out and HIDDEN_LINE.match(line) and FIXED_SENTINEL.match(out[-1]):
            out.append("")
        out.append(line)
    return out


# Free form allows 132 columns; OPARI2 appends its clauses to the last line of
# a task directive ("if(pomp2_if) firstprivate(pomp2_new_task, pomp2_if)"), so
# the wrapper's lines leave room for them.
FREE_LIMIT = 132 - 60


def wrap(indent: str, sentinel: str, text: str, fixed: bool) -> list[str]:
    """A directive (or pomp line) of any length as source lines of the form."""
    limit = 72 if fixed else FREE_LIMIT
    # what a line holds besides its part: the sentinel, a blank (or "&"), and
    # in free form the indent and the " &" of a continued line
    other = len(sentinel) + 2 if fixed else len(indent) + len(sentinel) + 3
    words = text.split(" ")
    lines, current = [], ""
    for w in words:
        if current and other + len(current) + 1 + len(w) > limit:
            lines.append(current)
            current = w
        else:
            current = (current + " " + w).strip()
    lines.append(current)
    if fixed:
        return [sentinel + (" " if k == 0 else "&") + " " + part for k, part in enumerate(lines)]
    return [indent + sentinel + " " + part + (" &" if k < len(lines) - 1 else "")
            for k, part in enumerate(lines)]


class FRewriter:
    def __init__(self, text: str, source: str, fixed: bool):
        self.lines = text.split("\n")
        self.source = source
        self.fixed = fixed
        self.result = FPrepared(text)
        self.replace: dict[int, list[str]] = {}     # line -> lines in its place
        self.insert_after: dict[int, list[str]] = {}
        self.drop: set[int] = set()

    def origin(self, k: int) -> tuple[str, int]:
        """(file as the markers spell it, line) of line k."""
        for j in range(k - 1, -1, -1):
            m = MARKER.match(self.lines[j])
            if m:
                return m.group(2), int(m.group(1)) + (k - j - 1)
        return escape(self.source), k + 1

    def marker(self, k: int) -> str:
        """A marker that gives line k (and the lines after it) its own number."""
        return '# %d "%s"' % (self.origin(k)[1], self.origin(k)[0])

    def rewrite(self, fd: FDirective, text: str) -> None:
        """Directive fd as text, on lines of the wrapper's."""
        self.replace[fd.first] = self.directive_lines(fd, text)
        self.drop.update(range(fd.first + 1, fd.last + 1))

    def hide(self, fd: FDirective) -> None:
        out = self.original_lines(fd)
        self.replace[fd.first] = out + self.replace.get(fd.first, [])[len(out):]
        self.drop.update(range(fd.first + 1, fd.last + 1))

    def note(self, k: int, message: str) -> None:
        file, line = self.origin(k)
        text = "%s:%d: %s" % (unescape(file), line, message)
        if text not in self.result.notes:
            self.result.notes.append(text)

    def directive_lines(self, fd: FDirective, text: str) -> list[str]:
        return wrap(fd.indent, "!$omp", text, self.fixed)

    def pomp(self, fd: FDirective, what: str) -> list[str]:
        return wrap(fd.indent, "!$pomp", what, self.fixed)

    def run(self) -> FPrepared:
        found = directives(self.lines, self.fixed)
        for fd in found:
            try:
                # "enddo", "endparallel": blanks after END are optional
                fd.d = wd.parse(END_WORD.sub("end ", fd.text, count=1), fortran=True)
            except wd.DirectiveError:
                fd.d = None
        hidden_until = -1
        consumed: set[int] = set()          # end directives already handled
        for n, fd in enumerate(found):
            if n in consumed:
                continue
            if fd.first <= hidden_until or fd.d is None:
                if fd.d is None and fd.first > hidden_until:
                    self.note(fd.first, "this OpenMP directive is not measured (pompprof "
                                        "cannot read it), nor anything inside it")
                    hidden_until = max(hidden_until, self.unreadable_extent(n, found))
                self.hide(fd)
                continue
            if fd.d.words[0] == "end":
                # an end of a construct OPARI2 handles as written (without
                # its comment, which OPARI2 cannot read)
                if fd.commented or fd.last > fd.first:
                    self.rewrite(fd, fd.d.text())
                continue
            hidden_until = max(hidden_until, self.construct(n, found, consumed))
        # every changed block is followed by a marker: the lines after it keep
        # their numbers (OPARI2 and the compiler count from the markers)
        out = []
        for k, line in enumerate(self.lines):
            if k in self.drop:
                continue
            if k in self.replace:
                out += self.replace[k]
                nxt = k + 1
                while nxt in self.drop:
                    nxt += 1
                if nxt < len(self.lines) and k not in self.insert_after:
                    out.append(self.marker(nxt))
            else:
                out.append(line)
            if k in self.insert_after:
                out += self.insert_after[k]
                if k + 1 < len(self.lines):
                    out.append(self.marker(k + 1))
        if self.fixed:
            out = keep_hidden_lines(out)
        self.result.text = "\n".join(out)
        return self.result

    def own_termination(self, fd: FDirective, last: int, name: str) -> None:
        """The loop of fd ends on a labelled statement that also ends an
        enclosing loop (DO 100 I / !$omp do / DO 100 J / 100 CONTINUE), which
        OPARI2 cannot take.  The loop gets an END DO of its own, then its end
        directive, and the label stays on a CONTINUE for the enclosing loop.
        Left alone (OPARI2 refuses it) when the loop's body names the label (a
        branch to it would now leave the loop), or the statement continues."""
        stmts = list(statement_lines(self.lines, self.fixed, fd.last + 1))
        do_k = stmts[0][0]
        label = next(lab for k, lab, _ in stmts if k == last)
        body = [t for k, _, t in stmts if do_k < k < last]
        after = self.lines[last + 1] if last + 1 < len(self.lines) else ""
        continued = (len(after) > 5 and after[:1] not in "cC*!" and after[5] not in " 0"
                     if self.fixed else
                     without_comment(self.lines[last])[0].rstrip().endswith("&"))
        if continued or any(re.search(r"(?<![\w.])%s(?!\w)" % label, t) for t in body):
            return
        if self.fixed and "\t" in self.lines[do_k][:6] + self.lines[last][:6]:
            return      # tab format: not rewritten (OPARI2 refuses the file)
        head, tail = (self.lines[do_k][:6], self.lines[do_k][6:]) if self.fixed \
            else ("", self.lines[do_k])
        tail, n = re.subn(r"(?i)\bdo\s*%s\s*,?\s*" % label, "do ", tail, count=1)
        if not n:
            return
        term = self.lines[last]
        if self.fixed:
            text, indent = term[6:].strip(), "      "
        else:
            m = re.match(r"(\s*)\d+\s+(.*)", term)
            indent, text = m.group(1), m.group(2).strip()
        self.replace[do_k] = [head + tail]
        out = [] if re.match(r"(?i)continue\s*(!.*)?$", text) else [indent + text]
        out += [indent + "end do"] + self.directive_lines(fd, "end " + name)
        out.append(("%5s continue" if self.fixed else "%s continue") % label)
        self.replace[last] = out

    def unreadable_extent(self, n: int, found: list[FDirective]) -> int:
        """The last line of the construct whose directive, found[n], cannot be
        read, from the directive words it starts with (-1: none known), so that
        nothing inside it is measured either."""
        fd = found[n]
        words = re.match(r"\s*([a-z_]+(?:\s+[a-z_]+)*)", fd.text, re.I)
        words = words.group(1).split() if words else []
        for k in range(len(words), 0, -1):
            try:
                d = wd.parse(" ".join(words[:k]), fortran=True)
            except wd.DirectiveError:
                continue
            if d.clauses or d.argument or not wd.takes_body(d):
                continue
            if wd.is_loop(d):
                return loop_end(self.lines, self.fixed, fd.last) or -1
            last = block_end(self.lines, self.fixed, fd.last)
            fd.d = d
            end_n = self.find_end(n, found) if last is None else self.end_right_after(last, n,
                                                                                       found)
            fd.d = None
            if end_n is not None:
                return found[end_n].last
            return -1 if last is None else last
        return -1

    def end_right_after(self, k: int, n: int, found: list[FDirective]) -> int | None:
        """Index in found of the end directive of construct n when it is the
        first directive after line k and no statement comes before it."""
        nxt = next((m for m in range(n + 1, len(found)) if found[m].first > k), None)
        if nxt is None or found[nxt].d is None or found[nxt].d.name != "end " + found[n].d.name:
            return None
        stmt = next(statement_lines(self.lines, self.fixed, k + 1), None)
        return nxt if stmt is None or stmt[0] > found[nxt].first else None

    def find_end(self, n: int, found: list[FDirective]) -> int | None:
        """Index in found of the end directive of construct n (same name, nesting)."""
        name = found[n].d.name
        depth = 0
        for m in range(n + 1, len(found)):
            d = found[m].d
            if d is None:
                continue
            if d.name == name:
                depth += 1
            elif d.words[0] == "end" and " ".join(d.words[1:]) == name:
                if depth == 0:
                    return m
                depth -= 1
        return None

    def construct(self, n: int, found: list[FDirective], consumed: set[int]) -> int:
        """The construct of directive found[n], by its leaves' treatments: left to OPARI2,
        measured by the wrapper itself, or hidden.  Returns its last line when the
        directives inside it are hidden too, else -1."""
        fd = found[n]
        d = fd.d
        if d.name == "atomic":
            return self.atomic(n, found, consumed)
        span = self.span(n, found, consumed)
        if span is None:
            return -1
        inside = {f.d.name if f.d.words[0] not in ("cancel", "cancellation") or not f.d.clauses
                  else "cancel " + f.d.clauses[0].name
                  for f in found[n + 1:] if f.d and f.first <= span.last}
        try:
            layers = wd.expand(d, inside)
        except wd.DirectiveError:
            self.note(fd.first, "this OpenMP directive is not measured (pompprof cannot "
                                "read it)")
            # nothing inside is measured either
            self.hide(fd)
            if span.end_n is not None:
                self.hide(found[span.end_n])
            return span.last
        if len(layers) == 1 and wd.treatment(layers[0], inside).action == wd.OPARI2:
            return self.opari2_construct(fd, found, span, inside)
        before, after, hide_inside = self.layer_lines(fd, layers, inside,
                                                      span.end_n is not None)
        self.replace[fd.first] = before
        self.drop.update(range(fd.first + 1, fd.last + 1))
        if span.end_n is not None:
            e = found[span.end_n]
            self.replace[e.first] = after
            self.drop.update(range(e.first + 1, e.last + 1))
        elif wd.takes_body(d):
            self.insert_after[span.last] = after + self.insert_after.get(span.last, [])
        return span.last if hide_inside else -1

    def span(self, n: int, found: list[FDirective], consumed: set[int]) -> Span | None:
        """Where the construct of found[n] ends (its end directive then consumed); None
        when it has no end to be found (the directive is then hidden)."""
        fd = found[n]
        has_body = wd.takes_body(fd.d)
        loop = wd.is_loop(fd.d)
        # a strictly structured block (BLOCK ... END BLOCK) ends the construct
        # there, its end directive optional (OpenMP 5.1)
        block_last = block_end(self.lines, self.fixed, fd.last) if has_body and not loop \
            else None
        if block_last is not None:
            end_n = self.end_right_after(block_last, n, found)
        else:
            end_n = self.find_end(n, found) if has_body else None
        last = fd.last
        if end_n is None and block_last is not None:
            last = block_last
        elif end_n is not None:
            last = found[end_n].last
            consumed.add(end_n)
        elif has_body and loop:
            last = loop_end(self.lines, self.fixed, fd.last)
            if last is None:
                self.note(fd.first, "cannot find the loop of this directive: not measured")
                self.hide(fd)
                return None
        elif has_body:
            self.hide(fd)      # a block without its end directive: not valid Fortran
            return None
        return Span(end_n, last, block_last)

    def opari2_construct(self, fd: FDirective, found: list[FDirective], span: Span,
                         inside: set[str]) -> int:
        """A construct OPARI2 measures as it is: its directives on lines OPARI2 reads,
        and an end directive where OPARI2 would not find or write the right one."""
        loop = wd.is_loop(fd.d)
        leaf = wd.for_opari2(fd.d)
        if leaf.text().lower() != " ".join(fd.text.split()).lower() or fd.commented \
                or not self.fixed and len(self.lines[fd.last]) > FREE_LIMIT:
            self.rewrite(fd, leaf.text())
        if span.end_n is not None and found[span.end_n].commented:
            self.rewrite(found[span.end_n], found[span.end_n].d.text())
        if loop and span.end_n is None \
                and ends_outer_loop(self.lines, self.fixed, fd.first, span.last):
            self.own_termination(fd, span.last, leaf.name)
        elif (loop or span.block_last is not None) and span.end_n is None:
            # OPARI2 closes a loop without its end directive as "end do"
            # (wrong for "do simd"), and knows no BLOCK: write the end
            # directive out
            self.insert_after[span.last] = self.directive_lines(fd, "end " + leaf.name) \
                + self.insert_after.get(span.last, [])
        return span.last if wd.treatment(fd.d, inside).hide_inside else -1

    def layer_lines(self, fd: FDirective, layers: list, inside: set[str],
                    has_end: bool) -> tuple[list[str], list[str], bool]:
        """The lines that stand for a combined construct's directive (before) and for
        its end (after), leaf by leaf, and whether the directives inside are hidden."""
        has_body = wd.takes_body(fd.d)
        before, after = [], []
        hide_inside = False
        for leaf in layers:
            tr = wd.treatment(leaf, inside)
            if tr.note:
                self.note(fd.first, tr.note)
            with_end = has_body and not wd.is_loop(leaf) or has_body and has_end
            if tr.action == wd.OPARI2:
                leaf = wd.for_opari2(leaf)
                before += self.directive_lines(fd, leaf.text())
                if has_body:
                    after[:0] = self.directive_lines(fd, "end " + leaf.name)
                hide_inside = hide_inside or tr.hide_inside
            elif tr.action == wd.OWN:
                begin, end = self.own_lines(fd, leaf, tr.region_type, has_body, with_end)
                before += begin
                after[:0] = end
                hide_inside = hide_inside or tr.hide_inside
            else:
                # a directive kept as it is comes back as the user wrote it
                before += self.original_lines(fd) if leaf is fd.d \
                    else self.hidden_lines(fd, leaf.text())
                if with_end:
                    after[:0] = self.hidden_lines(fd, "end " + leaf.name)
                hide_inside = hide_inside or tr.action in (wd.NOTE_ALL, wd.QUIET_ALL)
        return before, after, hide_inside

    def own_lines(self, fd: FDirective, leaf, region_type: str, has_body: bool,
                  with_end: bool) -> tuple[list[str], list[str]]:
        """A leaf the wrapper measures as an OPARI2 user region of its own: the lines
        at its directive and at its end, the region's begin and end around or inside
        the hidden directives as the construct's events need."""
        name = OWN_NAME % (len(self.result.own) + 1)
        self.result.own[name] = region_type
        hidden = self.hidden_lines(fd, leaf.text())
        hidden_end = self.hidden_lines(fd, "end " + leaf.name) if with_end else []
        begin = self.pomp(fd, "inst begin(%s)" % name)
        end = self.pomp(fd, "inst end(%s)" % name)
        if region_type == "masked":
            return hidden + begin, end + hidden_end
        if region_type == "taskgroup":
            return hidden, begin + hidden_end + end
        if has_body:
            return begin + hidden, hidden_end + end
        return begin + hidden + end, []

    def atomic(self, n: int, found: list[FDirective], consumed: set[int]) -> int:
        """An atomic construct with an end directive (capture, the block forms):
        OPARI2 closes it after its first statement, so the wrapper measures it;
        the others are OPARI2's."""
        fd = found[n]
        nxt = found[n + 1] if n + 1 < len(found) else None
        if not (nxt and nxt.d and nxt.d.name == "end atomic"):
            return -1
        consumed.add(n + 1)
        name = OWN_NAME % (len(self.result.own) + 1)
        self.result.own[name] = "atomic"
        self.replace[fd.first] = self.pomp(fd, "inst begin(%s)" % name) \
            + self.hidden_lines(fd, fd.d.text())
        self.drop.update(range(fd.first + 1, fd.last + 1))
        self.replace[nxt.first] = self.hidden_lines(nxt, "end atomic") \
            + self.pomp(nxt, "inst end(%s)" % name)
        self.drop.update(range(nxt.first + 1, nxt.last + 1))
        return -1

    def original_lines(self, fd: FDirective) -> list[str]:
        """Hidden lines that stand for fd's lines as written."""
        out = []
        for k in range(fd.first, fd.last + 1):
            out.append("!pompprof_hidden_%d" % len(self.result.hidden))
            self.result.hidden.append(self.lines[k])
        return out

    def hidden_lines(self, fd: FDirective, text: str) -> list[str]:
        out = []
        for line in self.directive_lines(fd, text):
            out.append("!pompprof_hidden_%d" % len(self.result.hidden))
            self.result.hidden.append(line)
        return out


def prepare(text: str, source: str, fixed: bool, dirs: list[str] | None = None) -> FPrepared:
    """The Fortran text (the compiler's -E output, or the source itself) ready for
    OPARI2; source names the file in markers where the text has none; dirs:
    the -I directories, where INCLUDE files are looked up."""
    if not MARKER.match(text.split("\n", 1)[0]):
        text = '# 1 "%s"\n' % escape(source) + text
    text = expand_includes(text, dirs or [])
    text = name_the_main_program(text, fixed)
    return FRewriter(text, source, fixed).run()
