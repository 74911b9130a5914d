"""A hand-written stacked-area chart as standalone SVG (no libraries)."""

import math

COLORS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
          "#b07aa1", "#ff9da7")


def _esc(text):
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def nice_ceiling(x):
    """1, 2, 2.5 or 5 times a power of ten, >= x (for the y axis)."""
    if x <= 0:
        return 1.0
    p = 10 ** math.floor(math.log10(x))
    for f in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if f * p >= x * (1 - 1e-12):
            return f * p
    return 10 * p


def stacked_area(xlabels, series, title, xlabel, ylabel, width=760, height=460):
    """xlabels: category labels of the x axis (e.g. thread counts);
    series: [(name, [value per x])], stacked bottom to top.  Returns SVG text."""
    left, right, top, bottom = 80, 200, 50, 60
    pw, ph = width - left - right, height - top - bottom
    n = len(xlabels)
    totals = [sum(max(0.0, s[1][i]) for s in series) for i in range(n)]
    ymax = nice_ceiling(max(totals) if totals else 1.0)

    def xpos(i):
        return left + (pw / 2.0 if n == 1 else pw * i / (n - 1))

    def ypos(v):
        return top + ph - ph * v / ymax

    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">'
           % (width, height, width, height),
           '<rect x="0" y="0" width="%d" height="%d" fill="white"/>' % (width, height),
           '<text x="%d" y="24" font-size="15" font-weight="bold">%s</text>'
           % (left, _esc(title))]
    # stacked areas (a single x gets a bar 40 px wide)
    base = [0.0] * n
    for k, (name, vals) in enumerate(series):
        upper = [base[i] + max(0.0, vals[i]) for i in range(n)]
        if n == 1:
            x0, x1 = xpos(0) - 20, xpos(0) + 20
            pts = [(x0, ypos(base[0])), (x1, ypos(base[0])), (x1, ypos(upper[0])),
                   (x0, ypos(upper[0]))]
        else:
            pts = ([(xpos(i), ypos(upper[i])) for i in range(n)]
                   + [(xpos(i), ypos(base[i])) for i in reversed(range(n))])
        out.append('<polygon fill="%s" fill-opacity="0.85" stroke="none" points="%s">'
                   '<title>%s</title></polygon>'
                   % (COLORS[k % len(COLORS)],
                      " ".join("%.1f,%.1f" % p for p in pts), _esc(name)))
        base = upper
    # axes, ticks and grid
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
               % (left, top + ph, left + pw, top + ph))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
               % (left, top, left, top + ph))
    for j in range(6):
        v = ymax * j / 5
        y = ypos(v)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#cccccc" '
                   'stroke-dasharray="3,3"/>' % (left, y, left + pw, y))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>'
                   % (left - 6, y + 4, _esc("%.3g" % v)))
    for i, lab in enumerate(xlabels):
        x = xpos(i)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>'
                   % (x, top + ph, x, top + ph + 5))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
                   % (x, top + ph + 20, _esc(lab)))
    out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
               % (left + pw / 2.0, height - 15, _esc(xlabel)))
    out.append('<text x="18" y="%.1f" text-anchor="middle" transform="rotate(-90 18 %.1f)">'
               '%s</text>' % (top + ph / 2.0, top + ph / 2.0, _esc(ylabel)))
    # legend, top entry = top of the stack
    lx = left + pw + 20
    for k, (name, _) in reversed(list(enumerate(series))):
        y = top + 10 + 22 * (len(series) - 1 - k)
        out.append('<rect x="%d" y="%d" width="14" height="14" fill="%s"/>'
                   % (lx, y, COLORS[k % len(COLORS)]))
        out.append('<text x="%d" y="%d">%s</text>' % (lx + 20, y + 12, _esc(name)))
    out.append("</svg>")
    return "\n".join(out) + "\n"
