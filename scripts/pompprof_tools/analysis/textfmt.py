"""Small text-output helpers: number formatting, fixed-width tables, lines folded to the
tools' width, CSV/JSON output."""

import csv
import io
import json
import math
import os
import textwrap

WIDTH = 100


def fmt_time(x):
    """Seconds: 6 decimals from a millisecond up, 4 significant digits below (tiny task
    times stay readable), compact for large values; at most 10 characters."""
    if x is None:
        return "-"
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return str(x)
    if abs(x) < 5e-13:
        x = 0.0                 # rounding noise of inclusive - children
    if x == 0:
        return "0"
    if abs(x) >= 1e5:
        return "%.4g" % x
    if abs(x) < 1e-3:
        return "%.3e" % x
    return "%.6f" % x


UNIT_LEGEND = "counts from 10^6 up: 1.23M = 1.23 x 10^6, G = 10^9, T = 10^12, P = 10^15"
_UNITS = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"))


def fmt_count(x):
    """A count in at most 6 characters: exact below a million, else three significant
    digits with a unit (1.23M, 10.0M, 123G; UNIT_LEGEND), never cut into another number."""
    if x is None:
        return "-"
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return str(x)
    if abs(x) < 999999.5:
        if isinstance(x, float) and not x.is_integer():
            return "%.2f" % x if abs(x) < 1e3 else "%d" % round(x)
        return "%d" % x
    for scale, unit in reversed(_UNITS):
        a = abs(x) / scale
        if a >= 999.5 and unit != _UNITS[0][1]:
            continue
        if a >= 999.5:
            return "%.2e" % x           # beyond 999P
        sign = "-" if x < 0 else ""
        if round(a, 2) < 10:
            return "%s%.2f%s" % (sign, a, unit)
        if round(a, 1) < 100:
            return "%s%.1f%s" % (sign, a, unit)
        return "%s%.0f%s" % (sign, a, unit)
    return "%.2e" % x


def fmt_rate(x):
    """A ratio of two counters, e.g. instructions per cycle."""
    if x is None:
        return "-"
    if x == 0:
        return "0"
    if abs(x) >= 1000 or abs(x) < 0.001:
        return "%.2e" % x
    return "%.3g" % x


def fmt_pct(x):
    if x is None:
        return "-"
    return "%.1f" % (0.0 if abs(x) < 0.05 else x)


def clip(text, width):
    """Cut text to width characters, marking the cut with '~'."""
    if len(text) <= width:
        return text
    return text[:max(0, width - 1)] + "~"


def shorten(text, width):
    """Text in at most width characters, shortened in the middle ('..') so that its end
    stays: region names differ in their file and line (`task @strassen-task.c:123`)."""
    if len(text) <= width:
        return text
    if width < 6:
        return clip(text, width)
    keep = width - 2
    head = min(keep // 3, 12)
    tail = keep - head
    return text[:head] + ".." + text[len(text) - tail:]


def shown_path(path, width):
    """A file's name for a text line of at most width characters: relative to the current
    directory when it lies below it (what the user typed, most often), else as given; a
    name still too long is shortened in the middle ('..'), keeping its start and its end,
    the file's own name (the JSON and CSV outputs keep the whole path).  So no line
    depends on where the profiles lie."""
    text = path
    try:
        rel = os.path.relpath(path)
        if not rel.startswith(".." + os.sep) and rel != ".." and len(rel) < len(text):
            text = rel
    except ValueError:
        pass
    if len(text) <= width:
        return text
    base = os.path.basename(text)
    if len(base) + 6 >= width:
        return shorten(text, width)
    head = width - 2 - len(base) - 1
    return text[:head] + ".." + os.sep + base


def table(headers, rows, widths=None, first_left=True, width=WIDTH):
    """Format rows as a fixed-width table no wider than `width` columns.
    The first column is left-aligned and shortened in the middle to fit; the others are
    right-aligned and must fit their widths (numbers are formatted to)."""
    if widths is None:
        rows = [[str(c) for c in r] for r in rows]
        widths = [max([len(headers[i])] + [len(r[i]) for r in rows])
                  for i in range(len(headers))]
    return "\n".join(table_lines(headers, rows, widths, first_left, width))


def table_lines(headers, rows, widths, first_left=True, width=WIDTH):
    """table() line by line, for rows of any number (rows may be an iterator)."""
    widths = list(widths)
    ncol = len(headers)
    fixed = sum(widths[1:]) + (ncol - 1)
    widths[0] = max(8, min(widths[0], width - fixed))

    def line(r):
        r = [str(c) for c in r]
        parts = [shorten(c, w).rjust(w) if len(c) > w else c.rjust(w)
                 for c, w in zip(r, widths)]
        if first_left:
            parts[0] = shorten(r[0], widths[0]).ljust(widths[0])
        return " ".join(parts).rstrip()

    yield line(headers)
    yield "-" * min(width, sum(widths) + ncol - 1)
    for r in rows:
        yield line(r)


def csv_text(rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def json_text(obj):
    return json.dumps(obj, indent=1, sort_keys=False) + "\n"


def short_name(name):
    """Region name without the `!$omp ` prefix, for narrow columns."""
    return name[6:] if name.startswith("!$omp ") else name


def heading(title):
    return "\n%s\n%s" % (title, "=" * min(WIDTH, len(title)))


def fold(words, first="", indent="", sep=" ", width=WIDTH):
    """first and the words joined by sep, over as many lines as it takes, a word never
    cut: a word that would pass width begins the next line, after indent and without the
    sep before it (never the first word: a line holds at least one).  A list of lines;
    the words carry their own punctuation (`a,` or `/ b`)."""
    lines, line, empty = [], first, True
    for word in words:
        if empty:
            line = line + sep + word if line else word
        elif len(line) + len(sep) + len(word) > width:
            lines.append(line)
            line = indent + word
        else:
            line += sep + word
        empty = False
    lines.append(line)
    return lines


def wrapped(lines, indent: int = 2) -> list[str]:
    """Sentences (warnings, facts) folded to the tools' width at their spaces, the
    continuation lines indented; a word longer than a line is cut."""
    out = []
    for line in lines:
        out.extend(textwrap.wrap(line, WIDTH, subsequent_indent=" " * indent,
                                 break_on_hyphens=False) or [""])
    return out
