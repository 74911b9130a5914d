"""Filter files in Score-P's syntax, as pompprof reads them (doc/functions.md,
"Filters"); the library (functions/pp_filter.c) and the GCC plugin read them
with the same rules and the same messages:

    SCOREP_FILE_NAMES_BEGIN
      EXCLUDE */util/*
    SCOREP_FILE_NAMES_END
    SCOREP_REGION_NAMES_BEGIN
      EXCLUDE helper_* small?
      INCLUDE helper_main
      EXCLUDE MANGLED _ZN3geo*
    SCOREP_REGION_NAMES_END

Patterns are shell wildcards (fnmatch(3): * ? [...], and a backslash takes
the next character as it is, also a blank or '#'); '#' starts a comment;
within a block the last matching rule decides (none matching: included); a
function is excluded when its file or its name is.  MANGLED switches the
rest of its rule to the link name, DEMANGLED back.

Checked: nothing is reinterpreted silently.  An unknown keyword (a word in
capitals at the start of a line that is no keyword, a word in capitals one
or two letters off a keyword anywhere, a keyword not in capitals), a rule
without patterns, a block not closed, text outside blocks, MANGLED among
file rules, a line ending in a backslash: FilterError with file and line.

Used by the wrapper (what the compiler can leave out at build time) and by
pompprof-score (-f shows a filter's effect, -g writes one)."""

from __future__ import annotations

import re
from dataclasses import dataclass

BEGIN_FILES, END_FILES = "SCOREP_FILE_NAMES_BEGIN", "SCOREP_FILE_NAMES_END"
BEGIN_REGIONS, END_REGIONS = "SCOREP_REGION_NAMES_BEGIN", "SCOREP_REGION_NAMES_END"
BLOCK_KEYWORDS = (BEGIN_FILES, END_FILES, BEGIN_REGIONS, END_REGIONS)
RULE_KEYWORDS = ("EXCLUDE", "INCLUDE", "MANGLED", "DEMANGLED")
KEYWORDS = BLOCK_KEYWORDS + RULE_KEYWORDS
CAPITALS = re.compile(r"[A-Z][A-Z_]*[A-Z]")


class FilterError(Exception):
    """A filter file that cannot be read: the message names file and line."""


@dataclass
class Rule:
    file: bool        # a file rule, else a region rule
    exclude: bool
    mangled: bool
    pattern: str
    line: int = 0     # where the pattern stands in the file

    def text(self) -> str:
        """The rule as written, for messages: `EXCLUDE MANGLED _ZN3geo*`."""
        return "%s%s %s" % ("EXCLUDE" if self.exclude else "INCLUDE",
                            " MANGLED" if self.mangled else "", self.pattern)


def translate(pattern: str) -> str:
    """fnmatch(3)'s pattern (flags 0) as a regular expression: * ? [...] [!...],
    and a backslash quotes the next character."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        i += 1
        if c == "\\" and i < n:
            out.append(re.escape(pattern[i]))
            i += 1
        elif c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[":
            j = i
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            if j >= n:                  # no closing bracket: a plain '['
                out.append(re.escape(c))
                continue
            body = pattern[i:j]
            i = j + 1
            neg = body[:1] in ("!", "^")
            if neg:
                body = body[1:]
            chars, k = [], 0
            while k < len(body):        # '-' keeps its range; a backslash quotes
                if body[k] == "\\" and k + 1 < len(body):
                    k += 1
                chars.append("-" if body[k] == "-" and body[k - 1:k] != "\\"
                             else re.escape(body[k]))
                k += 1
            out.append("[%s%s]" % ("^" if neg else "", "".join(chars)))
        else:
            out.append(re.escape(c))
    return "(?s:%s)\\Z" % "".join(out)


class Filter:
    def __init__(self, rules: list[Rule]):
        self.rules = rules
        self._compiled = [re.compile(translate(r.pattern)) for r in rules]

    def excludes(self, name: str, mangled: str = "", file: str = "") -> bool:
        file_out = name_out = False
        link = mangled or name
        for r, rx in zip(self.rules, self._compiled):
            if r.file:
                if file and rx.match(file):
                    file_out = r.exclude
            elif rx.match(link if r.mangled else name):
                name_out = r.exclude
        return file_out or name_out

    def compile_time(self) -> tuple[list[str], list[str], list[Rule]]:
        """What gcc's -finstrument-functions-exclude-*-list can leave out with
        the same result: (file substrings, function-name substrings, the rules
        that cannot be given to gcc).  Those are EXCLUDE rules `*TEXT*` (TEXT
        without wildcards, backslashes, commas or blanks) that no later
        INCLUDE rule of their block can undo: gcc matches substrings of the
        path it compiles (a suffix of the absolute path the run-time filter
        sees) and, for C, of the plain name.  The rest is left to the
        run-time filter (and, for C, to the per-unit names of
        wrapper/functions.unit_exclusions)."""
        files: list[str] = []
        names: list[str] = []
        rest: list[Rule] = []
        for kind in (True, False):
            rules = [r for r in self.rules if r.file == kind]
            for i, r in enumerate(rules):
                p = r.pattern
                inner = p[1:-1]
                if r.exclude and not r.mangled and \
                        not any(s.exclude is False for s in rules[i + 1:]) and \
                        len(p) > 2 and p[0] == "*" and p[-1] == "*" and \
                        not any(c in inner for c in "*?[]\\, \t"):
                    (files if kind else names).append(inner)
                elif r.exclude:
                    rest.append(r)
        return files, names, rest


def _words(line: str, name: str, lineno: int) -> list[str]:
    """The words of a line: split at blanks not quoted by a backslash, up to the
    first '#' not quoted by one; the backslashes stay (fnmatch reads them)."""
    words, cur, i, n = [], [], 0, len(line)
    while i < n:
        c = line[i]
        if c == "\\":
            if i + 1 >= n:
                raise FilterError("%s:%d: a line ends with a backslash (lines cannot be "
                                  "continued that way)" % (name, lineno))
            cur.append(line[i:i + 2])
            i += 2
            continue
        if c == "#":
            break
        if c in " \t\r\f\v":
            if cur:
                words.append("".join(cur))
                cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        words.append("".join(cur))
    return words


def _distance(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions)."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def keyword_problem(word: str, first_on_line: bool) -> str | None:
    """Why a word that is no keyword would be mistaken for one (None: a pattern)."""
    if word in KEYWORDS:
        return None
    upper = word.upper()
    for k in KEYWORDS:
        if upper == k:
            return "unknown keyword '%s' (keywords are written in capitals: %s)" % (word, k)
    if not CAPITALS.fullmatch(word):
        return None
    if first_on_line or word.startswith("SCOREP_") or \
            any(_distance(word, k) <= 2 for k in KEYWORDS):
        return "unknown keyword '%s'" % word
    return None


def parse(text: str, name: str = "filter") -> Filter:
    rules: list[Rule] = []
    block = None            # None, BEGIN_FILES or BEGIN_REGIONS
    block_line = 0
    rule = None             # [exclude, mangled, line, patterns so far] of the open rule

    def close_rule():
        if rule is not None and rule[3] == 0:
            raise FilterError("%s:%d: %s without patterns"
                              % (name, rule[2], "EXCLUDE" if rule[0] else "INCLUDE"))

    for lineno, line in enumerate(text.splitlines(), 1):
        for pos, w in enumerate(_words(line, name, lineno)):
            def bad(what):
                raise FilterError("%s:%d: %s" % (name, lineno, what))
            problem = keyword_problem(w, pos == 0)
            if problem:
                bad(problem)
            if w in (BEGIN_FILES, BEGIN_REGIONS):
                if block is not None:
                    bad("%s begins inside another block" % w)
                block, block_line, rule = w, lineno, None
            elif w in (END_FILES, END_REGIONS):
                opener = BEGIN_FILES if w == END_FILES else BEGIN_REGIONS
                if block != opener:
                    bad("%s without %s" % (w, opener))
                close_rule()
                block, rule = None, None
            elif block is None:
                bad("'%s' outside SCOREP_FILE_NAMES_BEGIN/END and "
                    "SCOREP_REGION_NAMES_BEGIN/END" % w)
            elif w in ("EXCLUDE", "INCLUDE"):
                close_rule()
                rule = [w == "EXCLUDE", False, lineno, 0]
            elif w in ("MANGLED", "DEMANGLED"):
                if block == BEGIN_FILES:
                    bad("%s applies to region names, not in SCOREP_FILE_NAMES_BEGIN/END" % w)
                if rule is None:
                    bad("%s before EXCLUDE or INCLUDE" % w)
                rule[1] = w == "MANGLED"
            elif rule is None:
                bad("pattern '%s' before EXCLUDE or INCLUDE" % w)
            else:
                rule[3] += 1
                rules.append(Rule(block == BEGIN_FILES, rule[0], rule[1], w, lineno))
    if block is not None:
        close_rule()
        end = END_FILES if block == BEGIN_FILES else END_REGIONS
        raise FilterError("%s:%d: %s is not closed (%s missing)" % (name, block_line, block, end))
    return Filter(rules)


def load(path: str) -> Filter:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except OSError as e:
        raise FilterError("%s: cannot be read (%s)" % (path, e.strerror)) from None
    return parse(text, path)


def quote(name: str) -> str:
    """A pattern that matches exactly name: wildcard characters as [c], blanks,
    '#' and backslashes behind a backslash, and a first letter in brackets
    where the name would be read as a keyword."""
    out = "".join("[%s]" % c if c in "*?[" else "\\" + c if c.isspace() or c in "#\\" else c
                  for c in name)
    if keyword_problem(out, False) or out in KEYWORDS:
        out = "[%s]%s" % (out[0], out[1:])
    return out


def write_excludes(names: list[str], comment: str = "") -> str:
    """A filter that excludes exactly these region names."""
    lines = ["# " + c for c in comment.splitlines()] if comment else []
    lines.append(BEGIN_REGIONS)
    for n in names:
        lines.append("  EXCLUDE " + quote(n))
    lines.append(END_REGIONS)
    return "\n".join(lines) + "\n"
