"""Call trees 20,000 levels deep - a recursive function below a parallel region and a
recursive call inside a task body - written with the package's CubeWriter and read by
pompprof-report, pompprof-diff and pompprof-scaling, as commands and in this process.
Python's default recursion limit (about 1000) stays in force: every walk over a call
tree must be iterative.  The numbers are checked too: recursion counts once in the
flat profile, the diff finds the one changed call path at the bottom."""

import json
import os
import sys
import tempfile
import unittest

import toolstest as T
from pompprof_tools.cube import cubex
from pompprof_tools.cube.cubex_write import CubeWriter
from pompprof_tools.analysis.diff import Diff
from pompprof_tools.analysis.profile_model import Profile
from pompprof_tools.analysis.report import Report

DEPTH = 20000
STEP = (1e-3, 2e-3)         # exclusive time of every `rec` call, per thread
BOTTOM = (5.0, 6.0)         # exclusive time of the deepest `rec` of the main tree
EXTRA = 3.0                 # profile b: this much more at the bottom on thread 0


def write_deep_profile(path, extra=0.0):
    """program -> parallel -> rec x DEPTH; TASKS -> task -> rec x DEPTH.  Returns the
    per-thread inclusive time of the outermost `rec` of the main and of the task tree."""
    w = CubeWriter()
    w.add_attr("pompprof::program", "deep")
    reg = {}
    for key, name, role, paradigm in (
            ("program", "deep", "artificial", "measurement"),
            ("parallel", "!$omp parallel @deep.c:20", "parallel", "openmp"),
            ("rec", "rec", "function", "user"),
            ("TASKS", "TASKS", "artificial", "openmp"),
            ("task", "!$omp task @deep.c:9", "task", "openmp")):
        line = int(name.split(":")[-1]) if "@" in name else -1
        reg[key] = w.add_region(name, "deep.c" if line > 0 else "", line, line, paradigm, role)
    w.set_locations(["Master thread", "OMP thread 1"])
    visits = w.add_metric("visits", "Visits", "UINT64", "EXCLUSIVE", "occ")
    time = w.add_metric("time", "Time", "DOUBLE", "INCLUSIVE", "sec")

    def chain(parent, own, bottom):
        """DEPTH nested `rec` calls below parent; returns their inclusive times, outermost
        first (the writer stores inclusive values for an INCLUSIVE metric)."""
        nodes = []
        for _ in range(DEPTH):
            parent = w.add_cnode(reg["rec"], parent)
            nodes.append(parent)
        incl = [0.0, 0.0]
        for k, c in enumerate(reversed(nodes)):
            excl = bottom if k == 0 else own
            incl = [incl[t] + excl[t] for t in (0, 1)]
            w.set_row(time, c, incl)
            w.set_row(visits, c, [1, 1])
        return incl

    root = w.add_cnode(reg["program"])
    par = w.add_cnode(reg["parallel"], root)
    main_rec = chain(par, STEP, (BOTTOM[0] + extra, BOTTOM[1]))
    w.set_row(time, par, [main_rec[t] + 0.5 for t in (0, 1)])
    w.set_row(visits, par, [1, 1])
    tasks = w.add_cnode(reg["TASKS"], root)
    task = w.add_cnode(reg["task"], tasks)
    task_rec = chain(task, STEP, STEP)
    w.set_row(time, task, [task_rec[t] + 0.1 for t in (0, 1)])
    w.set_row(visits, task, [1, 1])
    w.set_row(time, tasks, [task_rec[t] + 0.1 for t in (0, 1)])
    w.set_row(time, root, [main_rec[t] + 0.75 for t in (0, 1)])
    w.set_row(visits, root, [1, 0])
    w.write(path)
    return main_rec, task_rec


def bottom_of_main_tree(cube):
    """(the last call path of the main tree's first chain, its depth)."""
    node, depth = cube.roots[0], 0
    while cube.main_children(node):
        node, depth = cube.main_children(node)[0], depth + 1
    return node, depth


class DeepTree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.a = os.path.join(cls.tmp.name, "a.cubex")
        cls.b = os.path.join(cls.tmp.name, "b.cubex")
        cls.main_rec, cls.task_rec = write_deep_profile(cls.a)
        write_deep_profile(cls.b, extra=EXTRA)
        cls.profile_a, cls.profile_b = Profile(cls.a), Profile(cls.b)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_recursion_limit_is_the_default(self):
        # the point of this file: nothing may raise it to get through
        self.assertLessEqual(sys.getrecursionlimit(), 1000)
        self.assertLess(sys.getrecursionlimit(), DEPTH)

    def test_reader_sees_the_whole_depth(self):
        cube = cubex.load(self.a)
        deepest, depth = bottom_of_main_tree(cube)
        self.assertEqual(depth, DEPTH + 1)      # program, parallel, DEPTH x rec
        self.assertEqual(deepest.depth, DEPTH + 1)
        self.assertEqual(len(cube.cnodes), 2 * DEPTH + 4)
        self.assertAlmostEqual(cube.exclusive("time", deepest, 0), BOTTOM[0], places=9)
        # CubeLib's rule: the root's inclusive value leaves out the task tree
        self.assertEqual(cube.inclusive("visits", cube.roots[0], 1), DEPTH + 1)

    def test_report_counts_recursion_once(self):
        data = Report(self.profile_a, paths=False).build()
        self.assertEqual(len(data["calltree"]), DEPTH + 2)
        self.assertEqual(max(r["depth"] for r in data["calltree"]), DEPTH + 1)
        self.assertEqual(len(data["tasktree"]), DEPTH + 2)   # TASKS, task, DEPTH x rec
        (rec,) = [e for e in data["flat"] if e["name"] == "rec"]
        for t in (0, 1):
            row = rec["threads"][t]
            self.assertEqual(row["execC"], 2 * DEPTH)
            # the outermost call of each chain only, not the sum over all nesting levels
            self.assertAlmostEqual(row["execT"], self.main_rec[t] + self.task_rec[t], places=6)
        expected = (DEPTH - 1) * STEP[0] + BOTTOM[0] + DEPTH * STEP[0]
        self.assertAlmostEqual(rec["threads"][0]["execT"], expected, places=6)

    def test_report_command(self):
        # text (json and csv spell out every call path: output quadratic in the depth)
        p = T.run_tool("report", self.a)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertGreater(len(p.stdout.splitlines()), 2 * DEPTH)  # a line per call path

    def test_diff_finds_the_bottom(self):
        d = Diff(self.profile_a, self.profile_b)
        rows = d.sorted_rows()
        self.assertEqual(len(rows), 2 * (2 * DEPTH + 4))          # time and visits
        # exclusive = inclusive - children: the callers' deltas are rounding noise
        changed = [r for r in rows if abs(r["delta"]) > 1e-9]
        self.assertEqual(len(changed), 1)
        (top,) = d.spelled_out(rows[:1])
        self.assertEqual(top["path"], ["deep", "!$omp parallel @deep.c:20"] + ["rec"] * DEPTH)
        self.assertEqual((top["metric"], top["delta"]), ("time", EXTRA))
        incl = Diff(self.profile_a, self.profile_b, inclusive=True).rows()
        moved = [r for r in incl if r["metric"] == "time" and abs(r["delta"] - EXTRA) < 1e-6]
        self.assertEqual(len(moved), DEPTH + 2)     # the bottom and all its callers

    def test_diff_command_and_output(self):
        out = os.path.join(self.tmp.name, "d.cubex")
        p = T.run_tool("diff", "--format", "json", "--top", "2", self.a, self.b, "-o", out)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        rows = json.loads(p.stdout)["rows"]
        self.assertEqual(len(rows[0]["path"]), DEPTH + 2)
        self.assertEqual(rows[0]["delta"], EXTRA)
        self.assertAlmostEqual(rows[1]["delta"], 0.0, places=9)
        text = T.run_tool("diff", self.a, self.b)
        self.assertEqual((text.returncode, text.stderr), (0, ""))
        self.assertIn("more rows; use --top", text.stdout)
        back = cubex.load(out)
        deepest, depth = bottom_of_main_tree(back)
        self.assertEqual(depth, DEPTH + 1)
        self.assertEqual(list(back.exclusive_row("time", deepest)), [EXTRA, 0.0])

    def test_scaling_command(self):
        p = T.run_tool("scaling", "--format", "json", self.a, self.b)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        rows = json.loads(p.stdout)["profiles"]
        self.assertEqual([r["threads"] for r in rows], [2, 2])


if __name__ == "__main__":
    T.main()
