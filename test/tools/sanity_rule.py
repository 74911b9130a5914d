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

Before the values, cube_sanity checks every region some call path calls (each once;
region_findings()): its name is not empty or "UNKNOWN", does not begin with
"ANONYMOUS@" and holds no "TRUNCATED", its file ("mod") is not empty, and neither its
begin nor its end line is negative (CubeLib's -1, no line; unless `-l`).  A region that
fails one check is still checked by the others.  The call-path check ("TRACING" only
below MPI_Init or MPI_Finalize) concerns Score-P's tracing buffer flushes, which pompprof
has none of.  The README ("cube_sanity") names what pompprof's profiles are listed for:
documented() says it.
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


def region_findings(cube):
    """Set of (check, region id) cube_sanity's region checks report; check is 'name',
    'anonymous', 'truncated', 'file' or 'line'."""
    out = set()
    for r in {c.region.id: c.region for c in cube.cnodes_in_order()}.values():
        if r.name in ("", "UNKNOWN"):
            out.add(("name", r.id))
        if r.name.startswith("ANONYMOUS@"):
            out.add(("anonymous", r.id))
        if "TRUNCATED" in r.name:
            out.add(("truncated", r.id))
        if not r.mod:
            out.add(("file", r.id))
        if r.begin < 0 or r.end < 0:
            out.add(("line", r.id))
    return out


def documented(cube, check, region_id):
    """Is this region finding one the README lists: no file and line for the program
    and TASKS regions (they stand for no code), no line for the OpenMP lock routines
    and MPI functions (module "OMP" or "MPI", as in the reference profiles)?"""
    r = cube.regions[region_id]
    artificial = r.role == "artificial" and (r.name == "TASKS" or r.paradigm == "measurement")
    return artificial and check in ("file", "line") or \
        check == "line" and r.mod in ("OMP", "MPI") and r.role != "artificial"


def documented_value(cube, finding):
    """Is this value finding one the README lists: the program root's exclusive time
    (TASKS subtracted), or the max_time of a call path whose visits all lasted no time
    (OMPT mode's point events: a deferred task's creation, lock init/destroy/unset),
    whose all-zero row cube_sanity reads as -DBL_MAX?"""
    check, metric, cid, _ = finding
    c = cube.cnodes[cid]
    if metric == "time":
        return check == "exclusive" and c.parent is None
    return metric == "max_time" and not any(cube.row("max_time", c)) and \
        any(cube.row("visits", c))
