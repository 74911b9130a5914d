"""OpenMP directives as text: the directive's name words, its argument (the
name of a critical, the list of a flush...) and its clauses, and how the
clauses of a combined construct go to its leaf constructs when the wrapper
splits it (OpenMP 5.1, 17.2 "Clauses on Combined and Composite Constructs").

Language-neutral: C pragmas (`#pragma omp parallel for ...`) and Fortran
directives (`!$omp parallel do ...`) share the same grammar once the prefix is
gone.  The C text after `omp` and the Fortran text after `!$omp` come in; the
functions return text to put back after the same prefix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Name words that may follow each word in a directive name (gcc 12's C, C++
# and Fortran directives).  A word not listed after the previous one starts
# the clauses ("ordered simd": simd is a clause there).
FOLLOWERS = {
    None: {"parallel", "for", "do", "simd", "sections", "section", "single", "master", "masked",
           "task", "taskloop", "taskwait", "taskyield", "taskgroup", "critical", "barrier",
           "atomic", "flush", "ordered", "cancel", "cancellation", "threadprivate", "declare",
           "end", "requires", "target", "teams", "distribute", "loop", "scan", "scope", "error",
           "nothing", "depobj", "allocate", "workshare", "metadirective", "assume", "assumes",
           "begin", "interop", "dispatch", "tile", "unroll", "allocators"},
    "parallel": {"for", "do", "sections", "master", "masked", "loop", "workshare"},
    "for": {"simd"},
    "do": {"simd"},
    "master": {"taskloop"},
    "masked": {"taskloop"},
    "taskloop": {"simd"},
    "target": {"data", "enter", "exit", "update", "parallel", "teams", "simd"},
    "enter": {"data"},
    "exit": {"data"},
    "teams": {"distribute", "loop"},
    "distribute": {"parallel", "simd"},
    "cancellation": {"point"},
    "declare": {"reduction", "simd", "target", "variant", "mapper"},
    # Fortran: "!$omp end parallel do", "!$omp end critical (name)"...
    "end": {"parallel", "do", "simd", "sections", "single", "master", "masked", "task",
            "taskloop", "taskgroup", "critical", "atomic", "ordered", "target", "teams",
            "distribute", "loop", "scope", "workshare", "declare", "section"},
}
# Directives whose parenthesized argument right after the name is not a clause.
WITH_ARGUMENT = {"critical", "flush", "threadprivate", "declare reduction", "declare variant",
                 "declare target", "declare mapper", "allocate", "depobj", "end critical",
                 "declare simd"}

# The clauses each leaf construct accepts (gcc 12, C/C++ and Fortran).
LEAF_CLAUSES = {
    "parallel": {"if", "num_threads", "default", "private", "firstprivate", "shared", "copyin",
                 "reduction", "proc_bind", "allocate"},
    "for": {"private", "firstprivate", "lastprivate", "linear", "reduction", "schedule",
            "collapse", "ordered", "nowait", "order", "allocate"},
    "simd": {"safelen", "simdlen", "linear", "aligned", "nontemporal", "private", "lastprivate",
             "reduction", "collapse", "order", "if"},
    "sections": {"private", "firstprivate", "lastprivate", "reduction", "allocate", "nowait"},
    "workshare": {"nowait"},
    "master": set(),
    "masked": {"filter"},
    "taskloop": {"if", "shared", "private", "firstprivate", "lastprivate", "reduction",
                 "in_reduction", "default", "grainsize", "num_tasks", "collapse", "final",
                 "priority", "untied", "mergeable", "nogroup", "allocate"},
    "loop": {"bind", "collapse", "order", "private", "lastprivate", "reduction"},
}
LEAF_CLAUSES["do"] = LEAF_CLAUSES["for"]
# Clauses whose list items the outer parallel must share when its default does
# not (none, Fortran's private or firstprivate): the inner leaf reads or writes
# the original item.
SHARED_ON_PARALLEL = ("firstprivate", "lastprivate", "reduction", "linear")


class DirectiveError(Exception):
    """Text the parser does not understand (the wrapper then leaves it alone)."""


@dataclass
class Clause:
    name: str
    args: str | None = None      # text inside the parentheses, as written

    def text(self) -> str:
        return self.name if self.args is None else "%s(%s)" % (self.name, self.args)

    def modifier_and_list(self) -> tuple[str | None, str]:
        """'reduction(task, +: a, b)' -> ('task, +', 'a, b'); 'if(parallel: c)' ->
        ('parallel', 'c'); a ':' inside brackets (array sections) does not count."""
        args = self.args or ""
        depth = 0
        for k, ch in enumerate(args):
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch == ":" and depth == 0 and not args[k:k + 2] == "::" \
                    and not args[k - 1:k + 1] == "::":
                return args[:k].strip(), args[k + 1:].strip()
        return None, args.strip()

    def list_bases(self) -> list[str]:
        """The variables of the clause's list (array sections by their base)."""
        before, after = self.modifier_and_list()
        # linear(list : step), aligned(list : alignment); the others put
        # their modifiers first
        items = before if self.name in ("linear", "aligned") and before is not None else after
        out = []
        for item in split_top(items, ","):
            m = re.match(r"\s*(?:(?:val|ref|uval)\s*\(\s*)?([A-Za-z_][A-Za-z0-9_]*)", item)
            if m:
                out.append(m.group(1))
        return out


@dataclass
class Directive:
    words: list[str]
    argument: str | None = None              # "(name)" of critical etc., with parentheses
    clauses: list[Clause] = field(default_factory=list)

    @property
    def name(self) -> str:
        return " ".join(self.words)

    def clause(self, name: str) -> Clause | None:
        for c in self.clauses:
            if c.name == name:
                return c
        return None

    def has(self, name: str) -> bool:
        return self.clause(name) is not None

    def text(self) -> str:
        parts = [self.name + (self.argument or "")]
        parts += [c.text() for c in self.clauses]
        return " ".join(parts)


def split_top(text: str, sep: str) -> list[str]:
    """Split at sep outside brackets."""
    out, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            out.append(text[start:k])
            start = k + 1
    out.append(text[start:])
    return [p for p in out if p.strip()]


def _balanced(text: str, i: int) -> int:
    """Index just after the parenthesis group that opens at text[i]."""
    depth = 0
    quote = None
    for k in range(i, len(text)):
        ch = text[k]
        if quote:
            if ch == "\\":
                continue
            if ch == quote and text[k - 1] != "\\":
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return k + 1
    raise DirectiveError("unbalanced parentheses in %r" % text)


WORD = re.compile(r"\s*,?\s*([A-Za-z_][A-Za-z0-9_]*)")


def parse(body: str, fortran: bool = False) -> Directive:
    """Parse the text after "omp" (or "!$omp")."""
    text = body.strip()
    pos = 0
    words: list[str] = []
    while True:
        m = WORD.match(text, pos)
        if not m:
            break
        w = m.group(1).lower() if fortran else m.group(1)
        allowed = FOLLOWERS.get(words[-1] if words else None, set())
        if w not in allowed or (words and text[pos:m.start(1)].strip() == ","):
            break
        words.append(w)
        pos = m.end()
    if not words:
        raise DirectiveError("no directive name in %r" % body)
    d = Directive(words)
    rest = text[pos:]
    stripped = rest.lstrip()
    if stripped.startswith("(") and d.name in WITH_ARGUMENT:
        k = len(rest) - len(stripped)
        end = _balanced(rest, k)
        d.argument = rest[k:end]
        rest = rest[end:]
    pos = 0
    while True:
        while pos < len(rest) and rest[pos] in " \t,":
            pos += 1
        if pos >= len(rest):
            break
        m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(rest, pos)
        if not m:
            raise DirectiveError("unexpected %r in %r" % (rest[pos:], body))
        name = m.group(0).lower() if fortran else m.group(0)
        pos = m.end()
        k = pos
        while k < len(rest) and rest[k] in " \t":
            k += 1
        args = None
        if k < len(rest) and rest[k] == "(":
            end = _balanced(rest, k)
            args = rest[k + 1:end - 1]
            pos = end
        d.clauses.append(Clause(name, args))
    return d


def split_leaf(d: Directive, leaf: str, rest_words: list[str]) -> tuple[Directive, Directive]:
    """Split `leaf rest...` into the outer leaf and the rest, each with the
    clauses that belong to it.  Raises DirectiveError for a clause neither
    accepts (the construct is then left as it is)."""
    rest_leaves = [w for w in rest_words if w in LEAF_CLAUSES]
    accepts = {w: LEAF_CLAUSES[w] for w in rest_leaves}

    def inner_accepting(name: str) -> list[str]:
        return [w for w in rest_leaves if name in accepts[w]]

    outer, inner = Directive([leaf]), Directive(list(rest_words))
    shared_items: list[str] = []
    for c in d.clauses:
        mod, items = c.modifier_and_list()
        inner_ok = inner_accepting(c.name)
        outer_ok = c.name in LEAF_CLAUSES[leaf]
        if c.name == "if":
            if mod is not None and re.fullmatch(r"[A-Za-z_ ]+", mod):
                target = mod.strip()
                if target == leaf:
                    outer.clauses.append(Clause("if", items))
                elif target in rest_leaves or target in rest_words:
                    inner.clauses.append(c)
                else:
                    raise DirectiveError("if(%s: ...) on %s" % (target, d.name))
            else:
                outer.clauses.append(c)
                for w in inner_ok:
                    inner.clauses.append(Clause("if", "%s: %s" % (w, items)))
            continue
        if c.name in ("private",):
            (inner if inner_ok else outer).clauses.append(c)
            continue
        if c.name == "firstprivate":
            if any(w in ("for", "do", "sections", "taskloop") for w in inner_ok):
                inner.clauses.append(c)
                shared_items += c.list_bases()
            else:
                outer.clauses.append(c)
            continue
        if c.name in ("lastprivate", "reduction", "linear"):
            if inner_ok:
                inner.clauses.append(c)
                shared_items += c.list_bases()
            elif outer_ok:
                outer.clauses.append(c)
            else:
                raise DirectiveError("%s on %s" % (c.name, d.name))
            continue
        if c.name in ("shared", "default"):
            if outer_ok:
                outer.clauses.append(c)
            if inner_ok:
                inner.clauses.append(c)
            continue
        if c.name == "allocate":
            raise DirectiveError("allocate on a combined construct")
        if outer_ok:
            outer.clauses.append(c)
        elif inner_ok:
            inner.clauses.append(c)
        else:
            raise DirectiveError("clause %s on %s" % (c.name, d.name))
    if not default_shares(outer) and shared_items:
        names = []
        for n in shared_items:
            if n not in names:
                names.append(n)
        outer.clauses.append(Clause("shared", ", ".join(names)))
    return outer, inner


def default_shares(d: Directive) -> bool:
    """Does a variable without a data-sharing clause stay shared (no default
    clause, or default(shared))?  Not under none, private, firstprivate."""
    default = d.clause("default")
    return default is None or (default.args or "").strip().lower() == "shared"


# ---- what the wrapper does with each construct ----------------------------------------
OPARI2 = "opari2"        # OPARI2 instruments it
OWN = "own"              # OPARI2 does not know it: the wrapper instruments it itself
HIDE = "hide"            # nothing to measure (declarations, hints): kept away from OPARI2
NOTE = "note"            # not measured, with a note; constructs inside it are
NOTE_ALL = "note-all"    # not measured, with a note, and nothing inside it either
QUIET_ALL = "quiet-all"  # vector code: nothing inside measured, nothing to say

LOOP_WORDS = ("for", "do", "simd", "taskloop", "loop", "distribute")
# Combined constructs OPARI2 2.0.7 splits itself, with the clauses it knows how to split.
OPARI2_COMBINED = {("parallel", "for"), ("parallel", "do"), ("parallel", "sections"),
                   ("parallel", "workshare")}
OPARI2_COMBINED_CLAUSES = {"if", "num_threads", "default", "private", "firstprivate",
                           "lastprivate", "shared", "copyin", "reduction", "schedule",
                           "collapse", "ordered", "proc_bind", "nowait"}
STANDALONE = {"barrier", "taskwait", "taskyield", "flush", "cancel", "cancellation point",
              "threadprivate", "requires", "error", "nothing", "depobj", "allocate", "scan",
              "target enter data", "target exit data", "target update", "section"}


@dataclass
class Treatment:
    action: str
    region_type: str | None = None   # the regionType of a construct the wrapper instruments
    note: str | None = None          # what the user is told (not measured, how measured)
    hide_inside: bool = False        # constructs inside the body stay unmeasured too


def takes_body(d: Directive) -> bool:
    """Is a structured block (or loop) part of this directive?"""
    if d.words[0] in ("declare", "end", "begin") or d.name in STANDALONE:
        return False
    if d.words[0] == "ordered":
        return not (d.has("depend") or d.has("doacross"))
    return True


def is_loop(d: Directive) -> bool:
    return any(w in LOOP_WORDS for w in d.words)


def _classic_clauses(d: Directive) -> bool:
    """Only clauses (and no modifiers) that OPARI2 2.0.7 sends to the right leaf.
    Under Fortran's default(private|firstprivate) the parallel must share what
    the loop's lastprivate or reduction writes back, which OPARI2 leaves out."""
    if not default_shares(d) and any(d.has(n) for n in ("lastprivate", "reduction")):
        return False
    for c in d.clauses:
        if c.name not in OPARI2_COMBINED_CLAUSES:
            return False
        mod, _ = c.modifier_and_list()
        if mod is not None and (c.name in ("if", "lastprivate")
                                or (c.name == "reduction" and "," in mod)):
            return False
    return True


# A pseudo directive in a construct's `inside`: its loop is a C++ range-based for.
RANGE_FOR = "range-for"


def needs_own_barrier(d: Directive, inside: set[str]) -> bool:
    """OPARI2 gives loops and sections `nowait` and a barrier of its own, which a
    task reduction forbids and which would disable `cancel for|sections`."""
    task_reduction = any(c.name == "reduction" and [m.strip() for m in split_top(
        c.modifier_and_list()[0] or "", ",")][:1] == ["task"] for c in d.clauses)
    return task_reduction or any("cancel " + w in inside for w in ("for", "do", "sections"))


def expand(d: Directive, inside: set[str] = frozenset()) -> list[Directive]:
    """The leaf (or OPARI2-combined) constructs a directive stands for, outermost
    first.  inside: the directives in the construct's block ("cancel for"...)."""
    w = d.words
    if len(w) > 1 and w[0] == "parallel" and w[1] in LEAF_CLAUSES:
        if (w[0], w[1]) in OPARI2_COMBINED and len(w) == 2 and _classic_clauses(d) \
                and not needs_own_barrier(d, inside) and RANGE_FOR not in inside:
            return [d]
        outer, inner = split_leaf(d, "parallel", w[1:])
        return [outer] + expand(inner, inside)
    if len(w) > 1 and w[0] in ("master", "masked") and w[1] == "taskloop":
        outer, inner = split_leaf(d, w[0], w[1:])
        return [outer] + expand(inner, inside)
    return [d]


def treatment(d: Directive, inside: set[str] = frozenset()) -> Treatment:
    """How one leaf (or OPARI2-combined) construct is measured."""
    w, name = d.words, d.name
    if w[0] in ("declare", "end", "begin", "requires", "error", "nothing", "depobj",
                "allocate", "scan", "cancel", "cancellation", "threadprivate", "assume",
                "assumes", "allocators"):
        return Treatment(HIDE)
    if w[0] in ("target", "teams", "distribute"):
        where = "offload " if w[0] == "target" else ""
        standalone = name in STANDALONE
        return Treatment(NOTE if standalone else NOTE_ALL,
                         note="%s'%s' is not measured%s" % (
                             where, name, "" if standalone else ", nor anything inside it"))
    if w[0] == "loop":
        return Treatment(NOTE_ALL, note="'loop' is not measured (OPARI2 does not know it), "
                                        "nor anything inside it; the enclosing region is")
    if w[0] == "scope":
        return Treatment(NOTE, note="'scope' is not measured; the constructs inside it are")
    if w[0] == "simd":
        return Treatment(QUIET_ALL)
    if w[0] == "taskloop":
        return Treatment(OWN, "taskloop", hide_inside="simd" in w,
                         note="taskloop is measured as one region (creating its tasks and "
                              "waiting for them); its tasks are not measured one by one")
    if w[0] == "taskgroup":
        return Treatment(OWN, "taskgroup")
    if w[0] == "taskyield":
        return Treatment(OWN, "taskyield")
    if w[0] == "masked":
        return Treatment(OWN, "masked")
    if w[0] == "ordered":
        if d.has("simd"):
            return Treatment(QUIET_ALL)
        if not takes_body(d):
            return Treatment(OWN, "ordered")
        return Treatment(OPARI2)
    if w[-1] in ("for", "do", "sections") and needs_own_barrier(d, inside):
        # measured as one region, its implicit barrier included
        return Treatment(OWN, ("sections" if w[-1] == "sections" else "for") + "+barrier",
                         hide_inside="simd" in w)
    if w[-1] in ("for", "do") and RANGE_FOR in inside:
        # OPARI2 cannot find the end of a range-based for
        return Treatment(OWN, "for", hide_inside="simd" in w)
    if w[0] in ("parallel", "for", "do", "sections", "section", "single", "master", "critical",
                "atomic", "task", "taskwait", "barrier", "flush", "workshare"):
        inside = "simd" in w or any(
            (c.name == "order" and "concurrent" in (c.args or ""))
            or (c.name == "reduction" and "inscan" in (c.modifier_and_list()[0] or ""))
            for c in d.clauses)
        return Treatment(OPARI2, hide_inside=inside)
    return Treatment(NOTE, note="'%s' is not measured (unknown to pompprof)" % name)


def for_opari2(d: Directive) -> Directive:
    """The directive as OPARI2 can read it: an if clause's modifier naming this very
    construct is dropped (same meaning, OPARI2 copies the expression verbatim), and
    untied comes last (OPARI2 removes it, and with it the first letter of the
    clause after it)."""
    out = Directive(list(d.words), d.argument, [])
    for c in d.clauses:
        mod, items = c.modifier_and_list()
        if c.name == "if" and mod is not None and mod.strip() in d.words:
            out.clauses.append(Clause("if", items))
        else:
            out.clauses.append(c)
    out.clauses.sort(key=lambda c: c.name == "untied")
    return out


# Facts about a construct that OPARI2's region string does not carry; the wrapper
# appends them as extra key=value fields (unknown keys are ignored by readers).
TASK_FACTS = {"depend": "hasDepend", "detach": "hasDetach", "priority": "hasPriority",
              "final": "hasFinal", "mergeable": "hasMergeable", "in_reduction": "hasInReduction"}


def facts(d: Directive) -> dict[str, str]:
    if d.words[0] != "task":
        return {}
    return {key: "1" for clause, key in TASK_FACTS.items() if d.has(clause)}
