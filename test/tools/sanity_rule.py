"""What CubeLib 4.8's `cube_sanity` reports as negative values, computed with the
project's own reader (scripts/pompprof_tools/cube/cubex.py), so the tests need no CubeLib.

cube_sanity copies the profile into a cube of its own before it checks values, and the
copy differs from what the Cube GUI shows in two ways (both found by writing profiles
with chosen values and running cube_sanity 4.8 on them; test_sanity_rule.py keeps those
cases and the reference profiles' findings):

* the copy's call tree keeps `TASKS` as an ordinary child of the program root, so the
  root's exclusive value of an INCLUSIVE metric is its stored value minus the stored
  values of *all* its children, TASKS included (the GUI splits TASKS off and does not
  subtract it);
* only non-zero values are copied, so a row (one call path, all threads) whose values
  are all zero reads as the metric's empty value: -DBL_MAX for a MAXDOUBLE metric,
  which counts as negative, DBL_MAX for MINDOUBLE, 0 otherwise.

For every metric with data, call path and thread, the "exclusive" check takes the
exclusive value (EXCLUSIVE metrics: the stored value; INCLUSIVE: stored minus the
children's stored values) and the "inclusive" check its aggregate over the subtree (sum,
or min/max for MIN/MAXDOUBLE); a value below -1e-12 is reported.
"""

import sys

THRESHOLD = 1e-12
_EMPTY = {"sum": 0.0, "min": sys.float_info.max, "max": -sys.float_info.max}


def findings(cube):
    """Set of (check, metric uniq_name, cnode id, location id) cube_sanity reports;
    check is 'exclusive' or 'inclusive'.  Linear in the profile's size."""
    out = set()
    order = cube.cnodes_in_order()          # pre-order of the whole tree, TASKS included
    for m in cube.metrics:
        if m.type not in ("INCLUSIVE", "EXCLUSIVE", "SIMPLE"):
            continue
        empty = _EMPTY[m.aggregation]
        excl = {}
        for c in order:
            row = [float(v) for v in cube.row(m, c)]
            if m.type != "EXCLUSIVE":
                for ch in c.children:
                    for i, v in enumerate(cube.row(m, ch)):
                        row[i] -= v
            if all(v == 0 for v in row):
                row = [empty] * len(row)
            excl[c.id] = row
            out.update(("exclusive", m.uniq_name, c.id, i) for i, v in enumerate(row)
                       if v < -THRESHOLD)
        comb = {"sum": lambda a, b: a + b, "min": min, "max": max}[m.aggregation]
        incl = {}
        for c in reversed(order):           # children before their parents
            row = list(excl[c.id])
            for ch in c.children:
                row = [comb(a, b) for a, b in zip(row, incl[ch.id])]
            incl[c.id] = row
            out.update(("inclusive", m.uniq_name, c.id, i) for i, v in enumerate(row)
                       if v < -THRESHOLD)
    return out


def describe(cube, found):
    """One line per finding, as a reader of cube_sanity's output would want it."""
    return ["%s %s at %s (cnode %d), location %d" % (check, metric, cube.cnodes[cid].region.name,
                                                     cid, loc)
            for check, metric, cid, loc in sorted(found)]
