"""sanity_rule.findings() reports what CubeLib 4.8's cube_sanity reports.

The expectations below are cube_sanity's own output (`cube_sanity -v 2`), taken once by
hand: for the reference profiles in golden/ and for small profiles written here with
chosen values, each probing one rule (TASKS subtracted from the root, an all-zero
MAXDOUBLE row reading as -DBL_MAX, -DBL_MAX stored, an inclusive value below its
children's); likewise sanity_rule.region_findings() for the region checks (a probe with
one region per check, and the reference profiles)."""

import os
import sys
import tempfile
import unittest

import toolstest as T
from pompprof_tools.cube import cubex
from pompprof_tools.cube.cubex_write import CubeWriter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sanity_rule  # noqa: E402

DBL_MAX = sys.float_info.max


def probe(path, tasks_max, a_max, a_min, root_time=3.0):
    """prog -> A, prog -> TASKS -> task on two threads; only the given rows vary."""
    w = CubeWriter()
    w.set_locations(["Master thread", "OMP thread 1"])
    vis = w.add_metric("visits", dtype="UINT64", mtype="EXCLUSIVE")
    t = w.add_metric("time", dtype="DOUBLE", mtype="INCLUSIVE")
    mn = w.add_metric("min_time", dtype="MINDOUBLE", mtype="EXCLUSIVE")
    mx = w.add_metric("max_time", dtype="MAXDOUBLE", mtype="EXCLUSIVE")
    root = w.add_cnode(w.add_region("prog", paradigm="measurement", role="artificial"))
    a = w.add_cnode(w.add_region("A"), root)
    tasks = w.add_cnode(w.add_region("TASKS", paradigm="openmp", role="artificial"), root)
    k = w.add_cnode(w.add_region("task", role="task"), tasks)
    w.set_row(vis, root, [1, 0])
    w.set_row(vis, a, [0, 1])
    w.set_row(vis, k, [1, 1])
    w.set_row(t, root, [root_time, 1.0])
    w.set_row(t, a, [1.0, 1.0])
    w.set_row(t, tasks, [2.0, 1.0])
    w.set_row(t, k, [2.0, 1.0])
    w.set_row(mx, root, [3.0, 0])
    w.set_row(mx, a, a_max)
    w.set_row(mx, tasks, tasks_max)
    w.set_row(mx, k, [2.0, 1.0])
    w.set_row(mn, root, [3.0, DBL_MAX])
    w.set_row(mn, a, a_min)
    w.set_row(mn, tasks, [2.0, 1.0])
    w.set_row(mn, k, [2.0, 1.0])
    w.write(path)
    return cubex.load(path)


class SanityRuleTest(unittest.TestCase):
    def test_probes(self):
        with tempfile.TemporaryDirectory() as d:
            cases = {
                # all-zero max_time rows (A, TASKS) read as -DBL_MAX
                "zero_rows": (([0, 0], [0, 0], [DBL_MAX, DBL_MAX]),
                              {("exclusive", "time", 0, 1), ("exclusive", "max_time", 1, 0),
                               ("exclusive", "max_time", 1, 1), ("exclusive", "max_time", 2, 0),
                               ("exclusive", "max_time", 2, 1), ("inclusive", "max_time", 1, 0),
                               ("inclusive", "max_time", 1, 1)}),
                # the root's time minus A and TASKS on thread 1: 1 - 1 - 1
                "tasks_subtracted": (([2.0, 1.0], [0, 1.0], [DBL_MAX, 1.0]),
                                     {("exclusive", "time", 0, 1)}),
                # -DBL_MAX stored where thread 0 never visited A
                "minus_dbl_max": (([2.0, 1.0], [-DBL_MAX, 1.0], [DBL_MAX, 1.0]),
                                  {("exclusive", "time", 0, 1), ("exclusive", "max_time", 1, 0),
                                   ("inclusive", "max_time", 1, 0)}),
            }
            for name, (args, want) in cases.items():
                cube = probe(os.path.join(d, name + ".cubex"), *args)
                self.assertEqual(sanity_rule.findings(cube), want, name)
            cube = probe(os.path.join(d, "root.cubex"), [2.0, 1.0], [0, 1.0], [DBL_MAX, 1.0],
                         root_time=0.5)
            self.assertEqual(sanity_rule.findings(cube),
                             {("exclusive", "time", 0, 0), ("exclusive", "time", 0, 1)})

    def test_reference_profiles(self):
        # cube_sanity on the reference's profiles: the program root's time only
        want = {"tasks_t1": {("exclusive", "time", 0, 0)},
                "tasks_t2": {("exclusive", "time", 0, 1)},
                "worksharing_t1": set(), "worksharing_t2": set()}
        for name in T.GOLDEN_NAMES:
            cube = cubex.load(T.golden(name))
            self.assertEqual(sanity_rule.findings(cube), want[name], name)

    def test_region_checks(self):
        # cube_sanity 4.8 -v 2 on this probe: each region fails the checks listed,
        # a region no call path calls is not checked
        with tempfile.TemporaryDirectory() as d:
            w = CubeWriter()
            w.set_locations(["Master thread"])
            vis = w.add_metric("visits", dtype="UINT64", mtype="EXCLUSIVE")
            root = w.add_cnode(w.add_region("prog", paradigm="measurement", role="artificial"))
            w.set_row(vis, root, [1])
            for name, mod, begin, end in (("ANONYMOUS@x.c:3", "x.c", 3, 4),
                                          ("f_TRUNCATED_g", "x.c", 5, 6), ("UNKNOWN", "x.c", 7, 8),
                                          ("", "x.c", 9, 10), ("nofile", "", 11, 12),
                                          ("noend", "x.c", 13, -1), ("ok", "x.c", 1, 2)):
                w.set_row(vis, w.add_cnode(w.add_region(name, mod, begin, end), root), [1])
            w.add_region("uncalled")
            w.write(os.path.join(d, "regions.cubex"))
            cube = cubex.load(os.path.join(d, "regions.cubex"))
            self.assertEqual(sanity_rule.region_findings(cube),
                             {("anonymous", 1), ("truncated", 2), ("name", 3), ("name", 4),
                              ("file", 5), ("file", 0), ("line", 6), ("line", 0)})
        # the reference's: the program and TASKS regions (no file, no line), the lock
        # routines (module "OMP", no line); all of them documented
        want = {"tasks": {("file", 2), ("file", 28), ("line", 2), ("line", 28)},
                "worksharing": {("file", 2), ("line", 2), ("line", 17), ("line", 18),
                                ("line", 19), ("line", 20)}}
        for name in T.GOLDEN_NAMES:
            cube = cubex.load(T.golden(name))
            found = sanity_rule.region_findings(cube)
            self.assertEqual(found, want[name.split("_")[0]], name)
            self.assertTrue(all(sanity_rule.documented(cube, k, r) for k, r in found), name)


if __name__ == "__main__":
    unittest.main()
