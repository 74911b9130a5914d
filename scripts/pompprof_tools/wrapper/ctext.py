"""Preprocessed C and C++ text as the wrapper reads it: where each line comes
from (the compiler's line markers), tokens, and the extent of a statement.

The wrapper runs OPARI2 on the output of `cc -E`, so every construct it sees
carries the user's file and line through the markers (`# 12 "src/x.h" 1 3`).
Rewrites before OPARI2 need two more facts: which tokens form the statement
that follows a directive (its structured block), and the spelling of a
marker that resumes a given line after a line break was inserted.  Nothing
here knows OpenMP; directive.py and rewrite.py do.
"""

from __future__ import annotations

import bisect
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
    """All tokens of preprocessed text (line markers left out).  A line that
    starts with '#' is one 'directive' token; raw string literals may span lines."""
    sc = Code(text).scan(0)
    while sc.tok(len(sc.toks)) is not None:
        pass
    return sc.toks


RAW_STRING = re.compile(r'(?:u8|u|U|L)?R"([^()\\ \t\n"]{0,16})\(.*?\)\1"', re.S)


class Code:
    """One translation unit: its directive lines, and statements read on demand.

    Reading the whole text into tokens costs as much as the compile for a file
    that includes the C++ library; OpenMP code is a small part of it.  So the
    directive lines are found line by line, and a statement is tokenized from
    where it starts to where it ends (Scanner), with its brackets matched."""

    def __init__(self, text: str):
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        # multi-line raw string literals may hold lines that look like directives
        self.raw_spans = [m.span() for m in RAW_STRING.finditer(text)] if 'R"' in text else []
        self.directives: list[Token] = []
        for m in re.finditer(r"^[ \t]*(#[^\n]*)", text, re.M):
            if self.in_raw_string(m.start()) or MARKER.match(m.group(1)):
                continue
            self.directives.append(Token("directive", m.group(1), m.start(1), m.end(1),
                                         self.line_of(m.start(1))))

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset) - 1

    def in_raw_string(self, offset: int) -> bool:
        return any(a < offset < b for a, b in self.raw_spans)

    def scan(self, offset: int) -> "Scanner":
        """The tokens after offset (which ends a directive line)."""
        return Scanner(self, offset)


class Scanner:
    """Tokens from an offset on, made as they are needed; marker lines skipped,
    other directive lines one token each; brackets matched on demand."""

    def __init__(self, code: Code, offset: int):
        self.code = code
        self.toks: list[Token] = []
        self.pos = offset
        self.line = code.line_of(offset)
        self.at_line_start = offset == 0 or code.text[offset - 1] == "\n"
        self._match: dict[int, int] = {}

    def _more(self) -> bool:
        text, n = self.code.text, len(self.code.text)
        while self.pos < n:
            pos = self.pos
            if self.at_line_start:
                j = pos
                while j < n and text[j] in " \t":
                    j += 1
                if j < n and text[j] == "#":
                    end = text.find("\n", j)
                    end = n if end < 0 else end
                    self.pos = end
                    if not MARKER.match(text[j:end]):
                        self.toks.append(Token("directive", text[j:end], j, end, self.line))
                        return True
                    continue
                self.at_line_start = False
            m = TOKEN.match(text, pos)
            kind = m.lastgroup if m.lastgroup != "delim" else "raw"
            if kind == "nl":
                self.line += 1
                self.at_line_start = True
                self.pos = m.end()
            elif kind == "ws":
                self.pos = m.end()
            elif kind == "raw":
                close = ")" + m.group("delim") + '"'
                end = text.find(close, m.end())
                if end < 0:
                    raise TextError("unterminated raw string literal")
                end += len(close)
                self.toks.append(Token("str", text[pos:end], pos, end, self.line))
                self.line += text.count("\n", pos, end)
                self.pos = end
                return True
            else:
                self.toks.append(Token(kind, m.group(0), pos, m.end(), self.line))
                self.pos = m.end()
                return True
        return False

    def tok(self, i: int) -> Token | None:
        while len(self.toks) <= i:
            if not self._more():
                return None
        return self.toks[i]

    def at(self, i: int, text: str) -> bool:
        t = self.tok(i) if i >= 0 else None
        return t is not None and t.is_(text)

    def match(self, i: int) -> int:
        """Index of the bracket that closes the one at i."""
        if i in self._match:
            return self._match[i]
        if self.tok(i) is None or self.toks[i].text not in OPEN:
            raise TextError("no bracket to match")
        stack = [self.toks[i].text]
        j = i
        while stack:
            j += 1
            t = self.tok(j)
            if t is None:
                raise TextError("unbalanced %r on line %d" % (self.toks[i].text,
                                                                self.toks[i].line + 1))
            if t.kind != "punct":
                continue
            if t.text in OPEN:
                stack.append(t.text)
            elif t.text in CLOSE:
                if stack[-1] != CLOSE[t.text]:
                    raise TextError("unbalanced %r on line %d" % (t.text, t.line + 1))
                stack.pop()
        self._match[i] = j
        return j

    def statement_end(self, i: int, takes_body) -> int:
        """Index of the last token of the statement that starts at token i.
        takes_body(directive_text) says whether a pragma there is a construct
        whose structured block follows (so it and the block are one statement)."""
        t = self.tok(i)
        if t is None:
            raise TextError("statement expected at the end of the text")
        if t.kind == "directive":
            return self.statement_end(i + 1, takes_body) if takes_body(t.text) else i
        if t.is_("{"):
            return self.match(i)
        if t.is_("[") and self.at(i + 1, "["):           # [[attributes]] statement
            return self.statement_end(self.match(i) + 1, takes_body)
        if t.is_(";"):
            return i
        word = t.text if t.kind == "id" else ""
        if word == "if":
            j = i + 1
            if self.at(j, "constexpr") or self.at(j, "consteval"):
                j += 1
            if self.at(j, "!"):
                j += 1
            end = self.statement_end(self.match(j) + 1 if self.at(j, "(") else j, takes_body)
            if self.at(end + 1, "else"):
                end = self.statement_end(end + 2, takes_body)
            return end
        if word in ("for", "while", "switch") and self.at(i + 1, "("):
            return self.statement_end(self.match(i + 1) + 1, takes_body)
        if word == "do":
            end = self.statement_end(i + 1, takes_body)
            if self.at(end + 1, "while") and self.at(end + 2, "(") \
                    and self.at(self.match(end + 2) + 1, ";"):
                return self.match(end + 2) + 1
            raise TextError("do without while on line %d" % (t.line + 1))
        if word == "try" and self.at(i + 1, "{"):
            end = self.match(i + 1)
            while self.at(end + 1, "catch") and self.at(end + 2, "("):
                end = self.match(self.match(end + 2) + 1)
            return end
        if word in ("case", "default") or (t.kind == "id" and self.at(i + 1, ":")):
            j = i + 1
            while self.tok(j) is not None and not self.toks[j].is_(":"):
                j += 1
            return self.statement_end(j + 1, takes_body)
        # an expression or declaration: up to the ';' outside brackets
        j = i
        while True:
            tj = self.tok(j)
            if tj is None:
                break
            if tj.kind == "punct":
                if tj.text in OPEN:
                    j = self.match(j)
                elif tj.text == ";":
                    return j
                elif tj.text in CLOSE:
                    break
            j += 1
        raise TextError("statement on line %d has no end" % (t.line + 1))
