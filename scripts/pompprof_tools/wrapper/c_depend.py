"""The dependences of C/C++ tasks, recorded where they are created (doc/trace.md,
"Dependences"; doc/wrapper.md).

OPARI2's output creates a task with `POMP2_Task_create_begin(..., &pomp2_new_task, ...)`
right before the task's `#pragma omp task`; after that call this module inserts one that
hands each list item of the task's depend clauses to libpompprof: its address, its size
in bytes and its kind (pompprof_task_depend, pomp2/pp_pomp2_depend.c), in clause order.
A `taskwait depend(...)` gets pompprof_taskwait_depend before its POMP2_Taskwait_begin.

- A plain list item E: `&(E)` (`__builtin_addressof` in C++, which sees through an
  overloaded `&` and gives a reference's referent) and `sizeof(E)`.
- An array section `b[lb:len][lb2:len2]...`: the address of its first element (what the
  runtime uses), and the bytes from there to the end of its last element.
- `iterator(...)`: a loop per iterator, an item per iteration.
- `depobj` items: the object's address with kind DEPOBJ; libpompprof resolves it from what
  the `depobj` constructs put into the object, which this module follows with
  pompprof_depobj_init/_update/_destroy.

Recording evaluates each list item's expression a second time.  Where that could change
what the program computes (an increment, an assignment, a function call), the item is not
evaluated: it is recorded as unknown, with one `pompprof:` note, and the trace analysis
leaves the readiness of that task (and of its later siblings) undetermined."""

from __future__ import annotations

import re

from . import directive as wd
from .ctext import MARKER, line_origins
from .depend_items import (DEPOBJ, KINDS, SIDE_EFFECT, UNKNOWN, Unrecorded, not_recorded,
                           reason, split_colon, why_not)

CREATE = re.compile(r"^\s*POMP2_(?:Untied_task|Task)_create_begin\s*\(\s*[^,]+,\s*&\s*(\w+)\s*,")
TASKWAIT = re.compile(r"^\s*POMP2_Taskwait_begin\s*\(")
PRAGMA = re.compile(r"^\s*#\s*pragma\s+omp\s+(.*)$")

# pompprof_uintptr_t: an integer as wide as a pointer (size_t is, on every target gcc
# supports with OpenMP), named without a header: the text is compiled preprocessed.
TYPES = ["typedef __typeof__(sizeof(0)) pompprof_uintptr_t;",
         "typedef struct { unsigned long long addr, size; unsigned int kind; } "
         "pompprof_depend_t;"]
DECLARATIONS = {
    "pompprof_task_depend": "void pompprof_task_depend(POMP2_Task_handle, "
                            "const pompprof_depend_t *, unsigned int);",
    "pompprof_taskwait_depend": "void pompprof_taskwait_depend(const pompprof_depend_t *, "
                                "unsigned int);",
    "pompprof_depobj_init": "void pompprof_depobj_init(const void *, unsigned long long, "
                            "unsigned long long, unsigned int);",
    "pompprof_depobj_update": "void pompprof_depobj_update(const void *, unsigned int);",
    "pompprof_depobj_destroy": "void pompprof_depobj_destroy(const void *);",
}


def declarations(body: str) -> list[str]:
    """The prelude's lines for the calls body makes (none if it makes none)."""
    used = [d for name, d in DECLARATIONS.items() if name + "(" in body]
    return TYPES + used if used else []


def _trailing_subscripts(item: str) -> tuple[str, list[str]]:
    """item as its base and the bracket groups that end it (their insides)."""
    groups = []
    end = len(item)
    while end > 0 and item[:end].rstrip().endswith("]"):
        end = len(item[:end].rstrip()) - 1
        depth = 0
        k = end
        while k >= 0:
            if item[k] == "]":
                depth += 1
            elif item[k] == "[":
                depth -= 1
                if depth == 0:
                    break
            k -= 1
        if k < 0:
            raise Unrecorded("unbalanced brackets")
        groups.insert(0, item[k + 1:end])
        end = k
    return item[:end].strip(), groups


class Item:
    """One list item as C text: its address and size expressions."""

    def __init__(self, text: str, cplusplus: bool):
        self.text = " ".join(text.split())
        if not self.text:
            raise Unrecorded("empty")
        why = why_not(self.text)
        if why:
            raise Unrecorded(why)
        base, groups = _trailing_subscripts(self.text)
        if any(len(split_colon(g)) > 1 for g in groups):
            self.addr, self.size = self._section(base, groups)
        else:
            self.addr = self._address(self.text, cplusplus)
            self.size = "sizeof(%s)" % self.text

    @staticmethod
    def _address(e: str, cplusplus: bool) -> str:
        take = "__builtin_addressof(%s)" if cplusplus else "&(%s)"
        return "(unsigned long long)(pompprof_uintptr_t)(const volatile void *)" + take % e

    def _section(self, base: str, groups: list[str]) -> tuple[str, str]:
        first, last = "(%s)" % base, "(%s)" % base
        for g in groups:
            parts = split_colon(g)
            if len(parts) == 1:
                lb, length = parts[0].strip(), "1"
            elif len(parts) == 2:
                lb, length = parts[0].strip() or "0", parts[1].strip()
                if not length:
                    length = "(sizeof(%s) / sizeof((%s)[0]) - (%s))" % (first, first, lb)
            else:
                raise Unrecorded("a stride")
            last = "%s[(%s) + (%s) - 1]" % (last, lb, length)
            first = "%s[%s]" % (first, lb)
        addr = "(unsigned long long)(pompprof_uintptr_t)(const volatile void *)&%s" % first
        size = ("(unsigned long long)((const volatile char *)&%s - "
                "(const volatile char *)&%s) + sizeof(%s)" % (last, first, first))
        return addr, size


def _iterators(spec: str) -> list[tuple[str, str, str, str, str]]:
    """iterator(...)'s inside as (type, name, begin, end, step)."""
    out = []
    for part in wd.split_top(spec, ","):
        m = re.match(r"\s*(.*?)\b([A-Za-z_]\w*)\s*=(?!=)(.*)$", part, re.S)
        if not m:
            raise Unrecorded("an iterator")
        bounds = [b.strip() for b in split_colon(m.group(3))]
        if len(bounds) not in (2, 3):
            raise Unrecorded("an iterator")
        for b in bounds:
            why = why_not(b)
            if why:
                raise Unrecorded(why)
        out.append((m.group(1).strip() or "int", m.group(2), bounds[0], bounds[1],
                    bounds[2] if len(bounds) == 3 else "1"))
    return out


def _entry(addr: str, size: str, kind: int) -> str:
    return "{%s, %s, %du}" % (addr, size, kind)


class Recorder:
    """The code that records one construct's depend clauses."""

    def __init__(self, cplusplus: bool, call: str, where: str, notes: list[str]):
        self.cplusplus = cplusplus
        self.call = call          # "pompprof_task_depend(pomp2_new_task, " or ...
        self.where = where
        self.notes = notes
        self.pending: list[str] = []
        self.code: list[str] = []

    def note(self, item: str, why: str) -> None:
        text = not_recorded(self.where, item, why)
        if text not in self.notes:
            self.notes.append(text)

    def flush(self) -> None:
        if self.pending:
            n = len(self.pending)
            self.code.append("{ pompprof_depend_t pompprof_deps[%d] = {%s}; %spompprof_deps, "
                             "%du); }" % (n, ", ".join(self.pending), self.call, n))
            self.pending = []

    def item(self, text: str, kind: int) -> None:
        if kind == DEPOBJ:
            try:
                why = why_not(text)
                if why:
                    raise Unrecorded(why)
                self.pending.append(_entry(Item._address(" ".join(text.split()), self.cplusplus),
                                           "0", DEPOBJ))
            except Unrecorded as e:
                self.note(text, str(e))
                self.pending.append(_entry("0", "0", UNKNOWN))
            return
        try:
            it = Item(text, self.cplusplus)
            self.pending.append(_entry(it.addr, it.size, kind))
        except Unrecorded as e:
            self.note(text, reason(e))
            self.pending.append(_entry("0", "0", UNKNOWN))

    def iterated(self, iters, items: list[str], kind: int) -> None:
        self.flush()
        body = []
        for text in items:
            try:
                it = Item(text, self.cplusplus)
                body.append(_entry(it.addr, it.size, kind))
            except Unrecorded as e:
                self.note(text, reason(e))
                body.append(_entry("0", "0", UNKNOWN))
        n = len(body)
        loops = "".join("for (%s %s = (%s)(%s); %s %s (%s)(%s); %s += (%s)(%s)) " % (
            t, name, t, b, name, ">" if s.startswith("-") else "<", t, e, name, t, s)
            for t, name, b, e, s in iters)
        self.code.append("{ %s{ pompprof_depend_t pompprof_deps[%d] = {%s}; %spompprof_deps, "
                         "%du); } }" % (loops, n, ", ".join(body), self.call, n))

    def clause(self, c: wd.Clause) -> None:
        mod, items = c.modifier_and_list()
        if mod is None:
            self.note(c.text(), "no dependence type")
            return
        parts = [p.strip() for p in wd.split_top(mod, ",")]
        kind_word = parts[-1].lower() if parts else ""
        iters = None
        for p in parts[:-1]:
            m = re.match(r"iterator\s*\((.*)\)\s*$", p, re.S)
            if not m:
                self.note(c.text(), "pompprof cannot read its modifier")
                return
            try:
                iters = (iters or []) + _iterators(m.group(1))
            except Unrecorded as e:
                for text in wd.split_top(items, ","):
                    self.note(text, reason(e))
                    self.pending.append(_entry("0", "0", UNKNOWN))
                return
        kind = DEPOBJ if kind_word == "depobj" else KINDS.get(kind_word)
        if kind is None:
            self.note(c.text(), "unknown dependence type '%s'" % kind_word)
            self.pending.append(_entry("0", "0", UNKNOWN))
            return
        texts = wd.split_top(items, ",")
        if iters:
            self.iterated(iters, texts, kind)
        else:
            for text in texts:
                self.item(text, kind)

    def lines(self, d: wd.Directive) -> list[str]:
        for c in d.clauses:
            if c.name == "depend":
                self.clause(c)
        self.flush()
        return self.code


def _depobj(d: wd.Directive, cplusplus: bool, where: str, notes: list[str]) -> list[str]:
    obj = (d.argument or "").strip()[1:-1].strip()
    if not obj or SIDE_EFFECT.search(obj):
        return []
    ref = Item._address(obj, cplusplus).replace("(unsigned long long)(pompprof_uintptr_t)", "", 1)
    for c in d.clauses:
        if c.name == "depend":
            mod, items = c.modifier_and_list()
            kind = KINDS.get((mod or "").strip().lower())
            try:
                if kind is None:
                    raise Unrecorded("pompprof cannot read its type")
                it = Item(items, cplusplus)
                return ["pompprof_depobj_init(%s, %s, %s, %du);" % (ref, it.addr, it.size, kind)]
            except Unrecorded as e:
                notes.append("%s: the dependence that depobj '%s' holds is not recorded (%s)"
                             % (where, obj, reason(e)))
                return ["pompprof_depobj_init(%s, 0ull, 0ull, %du);" % (ref, UNKNOWN)]
        if c.name == "update":
            kind = KINDS.get((c.args or "").strip().lower(), UNKNOWN)
            return ["pompprof_depobj_update(%s, %du);" % (ref, kind)]
        if c.name == "destroy":
            return ["pompprof_depobj_destroy(%s);" % ref]
    return []


def recorded(d: wd.Directive | None) -> bool:
    """Whether directive d is one whose dependences are recorded."""
    return d is not None and d.words[0] in ("task", "taskwait") and d.has("depend")


def _parsed(pragma: str) -> wd.Directive | None:
    try:
        return wd.parse(pragma)
    except wd.DirectiveError:
        return None


def constructs(text: str) -> int:
    """How many constructs of text (the C/C++ text OPARI2 gets: its hidden
    directives are not `#pragma omp`) have dependences to record."""
    return sum(1 for line in text.split("\n")
               if PRAGMA.match(line) and recorded(_parsed(PRAGMA.match(line).group(1))))


CALL_TEXT = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|[()]|;')


def call_end(lines: list[str], k: int) -> int:
    """The line where the call statement beginning at line k ends (its `;`):
    OPARI2 2.0.7 writes its calls on one line, which this does not count on."""
    depth = 0
    for n in range(k, min(k + 8, len(lines))):
        for m in CALL_TEXT.finditer(lines[n]):
            t = m.group(0)
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            elif t == ";" and depth <= 0:
                return n
    return k


def insert(out: str, main_file: str, cplusplus: bool, notes: list[str], tally=None,
           expected: int = 0) -> str:
    """OPARI2's output (its markers naming the user's files) with the recording calls;
    into tally (a tally.Tally), how many of the expected constructs (constructs() of
    the text OPARI2 got) got them."""
    lines = out.split("\n") if "depend" in out else []
    origins = line_origins(lines, main_file)
    result: list[str] = []
    sites = 0
    k = 0
    while k < len(lines):
        line = lines[k]
        m = CREATE.match(line)
        wait = not m and TASKWAIT.match(line)
        if m or wait:
            end = call_end(lines, k)
            j = end + 1
            while j < len(lines) and MARKER.match(lines[j]):
                j += 1
            p = PRAGMA.match(lines[j]) if j < len(lines) else None
            d = _parsed(p.group(1)) if p else None
            if recorded(d):
                o = origins[j]
                where = "%s:%d" % (o.display_file, o.line)
                call = "pompprof_taskwait_depend(" if wait else \
                    "pompprof_task_depend(%s, " % m.group(1)
                code = Recorder(cplusplus, call, where, notes).lines(d)
                call_lines = lines[k:end + 1]
                result += code + call_lines if wait else call_lines + code
                sites += 1
                k = end + 1
                continue
        result.append(line)
        k += 1
        p = PRAGMA.match(line)
        if p and re.match(r"depobj\b", p.group(1).strip()):
            d = _parsed(p.group(1))
            if d is None:
                continue
            o = origins[k - 1]
            code = _depobj(d, cplusplus, "%s:%d" % (o.display_file, o.line), notes)
            if code:
                result += code + [o.marker(o.line + 1)]
    if tally is not None:
        tally.add("c_depend", expected, sites, "task and taskwait constructs with depend clauses",
                  "their dependences are not recorded, and the trace cannot say when those "
                  "tasks were ready")
    return "\n".join(result) if lines else out
