"""Round trip C writer -> Python reader (shared by the test_cube_roundtrip*.py tests).

cube_roundtrip_write (built by `make check`) writes profile shapes with pp_cube and, for
each, a JSON file with the definitions and every non-zero value it was given (a value
never set reads as the metric's empty value: DBL_MAX for MINDOUBLE, else 0).  This
module reads each .cubex with scripts/pompprof_tools/cube/cubex.py and compares definitions
and every stored (metric, cnode, location) value with the JSON, number by number.
"""

import json
import os
import subprocess
import sys
import tempfile


def _paths():
    here = os.path.dirname(os.path.abspath(__file__))
    srcdir = os.environ.get("top_srcdir") or os.path.join(here, "..", "..", "..")
    builddir = os.environ.get("top_builddir") or srcdir
    return srcdir, os.path.join(builddir, "test", "unit", "cube", "cube_roundtrip_write")


def _compare(shape, exp, cube, problems):
    def bad(msg):
        problems.append("%s: %s" % (shape, msg))

    metrics = {m.id: m for m in cube.metrics}
    if sorted(metrics) != [m["id"] for m in exp["metrics"]]:
        bad("metric ids %s" % sorted(metrics))
        return
    for m in exp["metrics"]:
        got = metrics[m["id"]]
        parent = got.parent.id if got.parent is not None else -1
        if (got.uniq_name, got.dtype, got.type, parent) != (m["uniq_name"], m["dtype"],
                                                            m["type"], m["parent"]):
            bad("metric %d is %r" % (m["id"], (got.uniq_name, got.dtype, got.type, parent)))
    for r in exp["regions"]:
        got = cube.regions.get(r["id"])
        if got is None or (got.name, got.mod, got.begin, got.end, got.role) != (
                r["name"], r["mod"], r["begin"], r["end"], r["role"]):
            bad("region %d is %r" % (r["id"], got and (got.name, got.mod, got.begin, got.end)))
    if len(cube.cnodes) != len(exp["cnodes"]):
        bad("%d cnodes, expected %d" % (len(cube.cnodes), len(exp["cnodes"])))
        return
    for entry in exp["cnodes"]:
        cid, parent, region = entry[:3]
        got = cube.cnodes[cid]
        gparent = got.parent.id if got.parent is not None else -1
        params = [("string", entry[3], entry[4])] if len(entry) > 3 else []
        if (gparent, got.region.id, got.parameters) != (parent, region, params):
            bad("cnode %d is %r" % (cid, (gparent, got.region.id, got.parameters)))
    # children keep definition order (the row order depends on it)
    for c in cube.cnodes.values():
        ids = [ch.id for ch in c.children]
        if ids != sorted(ids):
            bad("children of cnode %d out of order: %s" % (c.id, ids))
    locs = [(loc.id, loc.name, loc.rank) for loc in cube.locations]
    want = [(loc["id"], loc["name"], loc["rank"]) for loc in exp["locations"]]
    if locs != want:
        bad("locations %r, expected %r" % (locs[:4], want[:4]))
        return
    values = {(m, c, l): v for m, c, l, v in exp["values"]}
    wrong = 0
    for m in exp["metrics"]:
        # a value never set reads as the metric's empty value (cube-writer/pp_cube.h)
        unset = sys.float_info.max if m["dtype"] == "MINDOUBLE" else 0
        for cid in range(len(exp["cnodes"])):
            row = cube.row(m["id"], cid)
            for loc in range(len(want)):
                v = values.get((m["id"], cid, loc), unset)
                if row[loc] != v:
                    wrong += 1
                    if wrong <= 5:
                        bad("metric %s cnode %d location %d: read %r, wrote %r"
                            % (m["uniq_name"], cid, loc, row[loc], v))
    if wrong > 5:
        bad("... %d wrong values in all" % wrong)


def main(shapes):
    srcdir, writer = _paths()
    sys.path.insert(0, os.path.join(srcdir, "scripts"))
    try:
        from pompprof_tools.cube import cubex
    except ImportError as e:
        print("SKIP: the Python reader is not available (%s)" % e)
        return 77
    if not os.access(writer, os.X_OK):
        print("FAIL: %s is not built (make check builds it)" % writer)
        return 1
    problems = []
    with tempfile.TemporaryDirectory(prefix="pp_cube_roundtrip.") as tmp:
        subprocess.run([writer, tmp] + shapes, check=True)
        for shape in shapes:
            with open(os.path.join(tmp, shape + ".json"), encoding="utf-8") as f:
                exp = json.load(f)
            try:
                cube = cubex.load(os.path.join(tmp, shape + ".cubex"))
            except Exception as e:   # report any reader failure as one line
                problems.append("%s: reader failed: %s: %s"
                                % (shape, type(e).__name__, str(e)[:200]))
                continue
            _compare(shape, exp, cube, problems)
            print("%s: %d cnodes x %d locations x %d metrics compared"
                  % (shape, len(exp["cnodes"]), len(exp["locations"]), len(exp["metrics"])))
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0
