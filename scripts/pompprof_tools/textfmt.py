"""Small text-output helpers: number formatting, fixed-width tables, CSV/JSON output."""

import csv
import io
import json
import math

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


def fmt_count(x):
    if x is None:
        return "-"
    if isinstance(x, float) and not x.is_integer():
        return "%.2f" % x
    return "%d" % x


def fmt_pct(x):
    if x is None:
        return "-"
    return "%.1f" % (0.0 if abs(x) < 0.05 else x)


def clip(text, width):
    """Cut text to width characters, marking the cut with '~'."""
    if len(text) <= width:
        return text
    return text[:max(0, width - 1)] + "~"


def table(headers, rows, widths=None, first_left=True, width=WIDTH):
    """Format rows as a fixed-width table no wider than `width` columns.
    The first column is left-aligned and clipped to fit; the others right-aligned."""
    cells = [[str(c) for c in r] for r in rows]
    ncol = len(headers)
    if widths is None:
        widths = [max([len(headers[i])] + [len(r[i]) for r in cells]) for i in range(ncol)]
    else:
        widths = list(widths)
    fixed = sum(widths[1:]) + (ncol - 1)
    widths[0] = max(8, min(widths[0], width - fixed))
    out = []

    def line(r):
        parts = []
        for i, c in enumerate(r):
            if i == 0 and first_left:
                parts.append(clip(c, widths[0]).ljust(widths[0]))
            else:
                parts.append(clip(c, widths[i]).rjust(widths[i]))
        return " ".join(parts).rstrip()

    out.append(line(headers))
    out.append("-" * min(width, sum(widths) + ncol - 1))
    for r in cells:
        out.append(line(r))
    return "\n".join(out)


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
