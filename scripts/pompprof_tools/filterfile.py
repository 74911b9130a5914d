"""Filter files in Score-P's syntax, as pompprof reads them (doc/functions.md,
"Filters"); the library reads them at run time too (functions/pp_filter.c,
the same rules):

    SCOREP_FILE_NAMES_BEGIN
      EXCLUDE */util/*
    SCOREP_FILE_NAMES_END
    SCOREP_REGION_NAMES_BEGIN
      EXCLUDE helper_* small?
      INCLUDE helper_main
      EXCLUDE MANGLED _ZN3geo*
    SCOREP_REGION_NAMES_END

Patterns are shell wildcards; '#' starts a comment; within a block the last
matching rule decides (none matching: included); a function is excluded when
its file or its name is.  MANGLED rules match the link name.

Used by the wrapper (what gcc can leave out at compile time) and by
pompprof-score (-f shows a filter's effect, -g writes one)."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

KEYWORDS = ("SCOREP_FILE_NAMES_BEGIN", "SCOREP_FILE_NAMES_END",
            "SCOREP_REGION_NAMES_BEGIN", "SCOREP_REGION_NAMES_END")


class FilterError(Exception):
    """A filter file that cannot be read: the message names file and line."""


@dataclass
class Rule:
    file: bool        # a file rule, else a region rule
    exclude: bool
    mangled: bool
    pattern: str


class Filter:
    def __init__(self, rules: list[Rule]):
        self.rules = rules

    def excludes(self, name: str, mangled: str = "", file: str = "") -> bool:
        file_out = name_out = False
        link = mangled or name
        for r in self.rules:
            if r.file:
                if file and fnmatch.fnmatchcase(file, r.pattern):
                    file_out = r.exclude
            elif fnmatch.fnmatchcase(link if r.mangled else name, r.pattern):
                name_out = r.exclude
        return file_out or name_out

    def compile_time(self) -> tuple[list[str], list[str]]:
        """(file substrings, function-name substrings) that gcc's
        -finstrument-functions-exclude-*-list can leave out with the same
        result: EXCLUDE rules `*TEXT*` (TEXT without wildcards, commas or
        blanks) that no later INCLUDE rule of their block can undo.  gcc
        matches substrings of the path it compiles (a suffix of the absolute
        path the run-time filter sees) and, for C, of the plain name.  The
        rest is left to the run-time filter."""
        out: tuple[list[str], list[str]] = ([], [])
        for kind in (True, False):
            rules = [r for r in self.rules if r.file == kind]
            for i, r in enumerate(rules):
                if not r.exclude or r.mangled or any(s.exclude is False for s in rules[i + 1:]):
                    continue
                p = r.pattern
                inner = p[1:-1]
                if len(p) > 2 and p[0] == "*" and p[-1] == "*" and \
                        not any(c in inner for c in "*?[]\\, \t"):
                    out[0 if kind else 1].append(inner)
        return out


def parse(text: str, name: str = "filter") -> Filter:
    rules: list[Rule] = []
    state, in_files, rule, fresh = "outside", False, None, False
    for lineno, line in enumerate(text.splitlines(), 1):
        for w in line.split("#", 1)[0].split():
            def bad(what):
                raise FilterError("%s:%d: %s" % (name, lineno, what))
            if w in ("SCOREP_FILE_NAMES_BEGIN", "SCOREP_REGION_NAMES_BEGIN"):
                if state != "outside":
                    bad("a block begins inside another block")
                state, in_files = "block", w == "SCOREP_FILE_NAMES_BEGIN"
            elif w in ("SCOREP_FILE_NAMES_END", "SCOREP_REGION_NAMES_END"):
                if state == "outside" or (w == "SCOREP_FILE_NAMES_END") != in_files:
                    bad("a block ends that did not begin")
                if state == "rule" and fresh:
                    bad("a rule without patterns")
                state = "outside"
            elif state == "outside":
                bad("text outside SCOREP_FILE_NAMES_BEGIN/END and "
                    "SCOREP_REGION_NAMES_BEGIN/END")
            elif w in ("EXCLUDE", "INCLUDE"):
                if state == "rule" and fresh:
                    bad("a rule without patterns")
                rule, state, fresh = Rule(in_files, w == "EXCLUDE", False, ""), "rule", True
            elif w == "MANGLED" and state == "rule" and fresh and not in_files:
                rule.mangled = True
            elif state == "block":
                bad("a pattern before EXCLUDE or INCLUDE")
            else:
                fresh = False
                rules.append(Rule(rule.file, rule.exclude, rule.mangled, w))
    if state != "outside":
        raise FilterError("%s: a block is not closed (SCOREP_..._END missing)" % name)
    return Filter(rules)


def load(path: str) -> Filter:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except OSError as e:
        raise FilterError("%s: cannot be read (%s)" % (path, e.strerror)) from None
    return parse(text, path)


def write_excludes(names: list[str], comment: str = "") -> str:
    """A filter that excludes these region names: wildcard characters in them
    are escaped as [c]; blanks and '#' (which would end the pattern) become
    '?', which matches them (and, in principle, any other one character)."""
    lines = ["# " + c for c in comment.splitlines()] if comment else []
    lines.append("SCOREP_REGION_NAMES_BEGIN")
    for n in names:
        escaped = "".join("[%s]" % c if c in "*?[" else "?" if c.isspace() or c == "#" else c
                          for c in n)
        lines.append("  EXCLUDE " + escaped)
    lines.append("SCOREP_REGION_NAMES_END")
    return "\n".join(lines) + "\n"
