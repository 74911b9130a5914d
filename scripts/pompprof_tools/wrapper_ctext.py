"""Preprocessed C and C++ text as the wrapper reads it: where each line comes
from (the compiler's line markers), tokens, and the extent of a statement.

The wrapper runs OPARI2 on the output of `cc -E`, so every construct it sees
carries the user's file and line through the markers (`# 12 "src/x.h" 1 3`).
Rewrites before OPARI2 need two more facts: which tokens form the statement
that follows a directive (its structured block), and the spelling of a
marker that resumes a given line after a line break was inserted.  Nothing
here knows OpenMP; wrapper_directive and wrapper_rewrite do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# "# 12 "file" 1 3 4" as cpp writes it; "#line 12 "file"" as OPARI2 does.
MARKER = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"((?:\s+\d+)*)\s*$')

TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\f\v]+)
  | (?P<nl>\n)
  | (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^()\\ \t\n"]{0,16})\()
  | (?P<str>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")
  | (?P<chr>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*')
  | (?P<id>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.']|)*)
  | (?P<punct>::|->|\.\.\.|.)
""", re.X | re.S)

OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")": "(", "]": "[", "}": "{"}


class TextError(Exception):
    """The text is not the balanced C/C++ the tokenizer expects."""


@dataclass
class Origin:
    """Where a line of preprocessed text comes from."""
    file: str          # as spelled in the marker (C-escaped)
    line: int
    flags: str         # the marker's flags after the file (" 3", " 3 4"...), for resyncing

    @property
    def system(self) -> bool:
        return "3" in self.flags.split()

    @property
    def display_file(self) -> str:
        return unescape(self.file)

    def marker(self, line: int | None = None) -> str:
        """A marker that makes the next line `line` (default: this one) of this file.
        Only the system-header and extern-"C" flags carry over: 1 and 2 would
        enter or leave an include."""
        keep = " ".join(f for f in self.flags.split() if f in ("3", "4"))
        return '# %d "%s"%s' % (self.line if line is None else line, self.file,
                                (" " + keep) if keep else "")


def unescape(spelled: str) -> str:
    return re.sub(r"\\(.)", r"\1", spelled)


def escape(path: str) -> str:
    return path.replace("\\", "\\\\").replace('"', '\\"')


def line_origins(lines: list[str], default_file: str) -> list[Origin]:
    """The origin of every line (a marker line itself gets the origin it sets)."""
    out = []
    file, line, flags = escape(default_file), 1, ""
    for text in lines:
        if text.startswith("#"):
            m = MARKER.match(text)
            if m:
                file, line, flags = m.group(2), int(m.group(1)), m.group(3)
                out.append(Origin(file, line, flags))
                continue
        out.append(Origin(file, line, flags))
        line += 1
    return out


@dataclass
class Token:
    kind: str        # id, num, str, chr, punct, directive
    text: str
    start: int       # offset in the text
    end: int
    line: int        # index of its (first) line

    def is_(self, text: str) -> bool:
        return self.text == text and self.kind != "directive"


def tokenize(text: str) -> list[Token]:
    """Tokens of preprocessed text.  A line that starts with '#' is one
    'directive' token (pragmas, markers); raw string literals may span lines."""
    toks: list[Token] = []
    pos, line, at_line_start = 0, 0, True
    n = len(text)
    while pos < n:
        if at_line_start:
            j = pos
            while j < n and text[j] in " \t":
                j += 1
            if j < n and text[j] == "#":
                end = text.find("\n", j)
                end = n if end < 0 else end
                toks.append(Token("directive", text[j:end], j, end, line))
                pos = end
                continue
            at_line_start = False
        m = TOKEN.match(text, pos)
        kind = m.lastgroup if m.lastgroup != "delim" else "raw"
        if kind == "nl":
            line += 1
            at_line_start = True
        elif kind == "raw":
            close = ")" + m.group("delim") + '"'
            end = text.find(close, m.end())
            if end < 0:
                raise TextError("unterminated raw string literal")
            end += len(close)
            toks.append(Token("str", text[pos:end], pos, end, line))
            line += text.count("\n", pos, end)
            pos = end
            continue
        elif kind != "ws":
            toks.append(Token(kind, m.group(0), pos, m.end(), line))
        pos = m.end()
    return toks


class Code:
    """Tokens of one translation unit with their brackets matched."""

    def __init__(self, text: str):
        self.text = text
        self.toks = [t for t in tokenize(text)
                     if t.kind != "directive" or not MARKER.match(t.text)]
        self.match: dict[int, int] = {}
        stack: list[int] = []
        for i, t in enumerate(self.toks):
            if t.kind != "punct":
                continue
            if t.text in OPEN:
                stack.append(i)
            elif t.text in CLOSE:
                if not stack or self.toks[stack[-1]].text != CLOSE[t.text]:
                    raise TextError("unbalanced %r on line %d" % (t.text, t.line + 1))
                j = stack.pop()
                self.match[i], self.match[j] = j, i
        if stack:
            raise TextError("unbalanced %r" % self.toks[stack[-1]].text)

    def at(self, i: int, text: str) -> bool:
        return 0 <= i < len(self.toks) and self.toks[i].is_(text)

    def statement_end(self, i: int, takes_body) -> int:
        """Index of the last token of the statement that starts at token i.
        takes_body(directive_text) says whether a pragma there is a construct
        whose structured block follows (so it and the block are one statement)."""
        toks = self.toks
        if i >= len(toks):
            raise TextError("statement expected at the end of the text")
        t = toks[i]
        if t.kind == "directive":
            return self.statement_end(i + 1, takes_body) if takes_body(t.text) else i
        if t.is_("{"):
            return self.match[i]
        if t.is_("[") and self.at(i + 1, "["):           # [[attributes]] statement
            return self.statement_end(self.match[i] + 1, takes_body)
        if t.is_(";"):
            return i
        word = t.text if t.kind == "id" else ""
        if word == "if":
            j = i + 1
            if self.at(j, "constexpr") or self.at(j, "consteval"):
                j += 1
            if self.at(j, "!"):
                j += 1
            end = self.statement_end(self.match[j] + 1 if self.at(j, "(") else j, takes_body)
            if self.at(end + 1, "else"):
                end = self.statement_end(end + 2, takes_body)
            return end
        if word in ("for", "while", "switch") and self.at(i + 1, "("):
            return self.statement_end(self.match[i + 1] + 1, takes_body)
        if word == "do":
            end = self.statement_end(i + 1, takes_body)
            if self.at(end + 1, "while") and self.at(end + 2, "("):
                return self.match[end + 2] + 1
            raise TextError("do without while on line %d" % (t.line + 1))
        if word == "try" and self.at(i + 1, "{"):
            end = self.match[i + 1]
            while self.at(end + 1, "catch") and self.at(end + 2, "("):
                end = self.match[self.match[end + 2] + 1]
            return end
        if word in ("case", "default") or (t.kind == "id" and self.at(i + 1, ":")):
            j = i + 1
            while j < len(toks) and not toks[j].is_(":"):
                j += 1
            return self.statement_end(j + 1, takes_body)
        # an expression or declaration: up to the ';' outside brackets
        j = i
        while j < len(toks):
            tj = toks[j]
            if tj.kind == "punct":
                if tj.text in OPEN:
                    j = self.match[j]
                elif tj.text == ";":
                    return j
                elif tj.text in CLOSE:
                    break
            j += 1
        raise TextError("statement on line %d has no end" % (t.line + 1))
