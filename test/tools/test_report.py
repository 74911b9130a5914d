"""pompprof-report on the four golden profiles: its numbers match the cube_dump outputs,
SUM rows add up, the overhead split adds up, text fits 100 columns."""

import csv
import io
import json
import os
import tempfile
import unittest

import toolstest as T
from pompprof_tools.cube import cubex
from pompprof_tools.cube.cubex_write import CubeWriter

_CACHE = {}


def report_json(name, *extra):
    key = (name,) + extra
    if key not in _CACHE:
        p = T.run_tool("report", "--format", "json", T.golden(name), *extra, check=True)
        _CACHE[key] = json.loads(p.stdout)
    return _CACHE[key]


class ReportGolden(unittest.TestCase):
    def test_call_tree_matches_dump(self):
        """visits and exclusive time per call path = cube_dump -z excl -t aggr."""
        for name in T.GOLDEN_NAMES:
            d = report_json(name)
            vte = T.read_vte(name)
            rows = {r["cnode"]: r for r in d["calltree"] + d["tasktree"]}
            self.assertEqual(set(rows), set(vte["time"]), name)
            for cid, text in vte["time"].items():
                T.assert_printed(self, text, rows[cid]["excl"], "%s excl cnode %d" % (name, cid))
            for cid, text in vte["visits"].items():
                self.assertEqual(int(text), rows[cid]["visits"], "%s visits %d" % (name, cid))

    def test_task_instances_are_task_root_visits(self):
        for name in ("tasks_t1", "tasks_t2"):
            d = report_json(name)
            cube = cubex.load(T.golden(name))
            values, _ = T.read_values_csv(name)
            expected = {}
            for tr in cube.task_roots():
                n = sum(int(values[(tr.id, loc)]["visits"]) for loc in range(cube.nlocs))
                expected[tr.region.name] = expected.get(tr.region.name, 0) + n
            got = {t["name"]: t["instances"] for t in d["tasks"]}
            self.assertEqual(got, expected, name)
            self.assertEqual(sum(got.values()), 18)        # 7 + 7 + 4 tasks in tasks.c
            for t in d["tasks"]:
                self.assertLessEqual(t["min"], t["mean"] * (1 + 1e-9))
                self.assertLessEqual(t["mean"], t["max"] * (1 + 1e-9))
                self.assertEqual(t["create_count"], t["instances"], t["name"])

    def test_construct_columns_match_dump(self):
        """exitBarT of the loop = exclusive time of its implicit barrier; critical
        enterT + bodyT = execT with bodyT = the sblock; createT = create regions' time."""
        d = report_json("worksharing_t2")
        values, _ = T.read_values_csv("worksharing_t2")
        cube = cubex.load(T.golden("worksharing_t2"))
        flat = {e["name"]: e for e in d["flat"]}
        loop = flat["!$omp for @worksharing.c:13"]
        bar = [c for c in cube.cnodes.values()
               if c.region.name == "!$omp implicit barrier @worksharing.c:14"][0]
        for t in range(cube.nlocs):
            T.assert_printed(self, values[(bar.id, t)]["time"], loop["threads"][t]["exitBarT"],
                             "loop exitBarT thread %d" % t)
        crit = flat["!$omp critical @worksharing.c:15"]
        sblock = [c for c in cube.cnodes.values() if c.region.role == "critical sblock"][0]
        for t in range(cube.nlocs):
            row = crit["threads"][t]
            self.assertAlmostEqual(row["enterT"] + row["bodyT"], row["execT"])
            T.assert_printed(self, values[(sblock.id, t)]["time"], row["bodyT"], "bodyT")
        d = report_json("tasks_t2")
        values, _ = T.read_values_csv("tasks_t2")
        cube = cubex.load(T.golden("tasks_t2"))
        for task in d["tasks"]:
            loc = task["name"].split("@")[1]
            creates = [c for c in cube.cnodes.values()
                       if c.region.name == "!$omp create task @" + loc]
            expected = sum(float(values[(c.id, t)]["time"]) for c in creates
                           for t in range(cube.nlocs))
            self.assertAlmostEqual(task["create_time"], expected, delta=1e-9 * len(creates) + 1e-10)

    def test_sum_rows_are_sums(self):
        for name in T.GOLDEN_NAMES:
            for e in report_json(name)["flat"]:
                for col in e["additive"]:
                    vals = [r[col] for r in e["threads"] if r.get(col) is not None]
                    self.assertAlmostEqual(e["sum"][col], sum(vals), places=12,
                                           msg="%s %s %s" % (name, e["name"], col))

    def test_overhead_adds_up(self):
        for name in T.GOLDEN_NAMES:
            d = report_json(name)
            o = d["overhead"]
            measured = sum(r["incl"] for r in d["calltree"] if r["depth"] == 0)
            for s in [o["program"]] + o["parallel_regions"]:
                cats = sum(c["time"] for c in s["categories"].values())
                self.assertAlmostEqual(cats, s["total"], places=12, msg=name)
                self.assertAlmostEqual(sum(s["components"].values()), s["total"], places=12)
                # overhead: all but work and serial code
                self.assertAlmostEqual(s["overhead"], s["total"] - s["categories"]["work"]["time"]
                                       - s["categories"]["serial"]["time"], places=12)
                for c in s["categories"].values():
                    self.assertGreaterEqual(c["time"], -1e-12, name)
            self.assertGreaterEqual(o["program"]["total"], measured - 1e-12)
            # a parallel region's total is team size x the slowest thread's time in it
            cube = cubex.load(T.golden(name))
            for s in o["parallel_regions"]:
                row = cube.inclusive_row("time", s["cnode"])
                self.assertAlmostEqual(s["total"], cube.nlocs * max(row), places=12)

    def test_imbalance_in_worksharing_barriers(self):
        """worksharing_t2: imbalance = waiting in the barriers of for, sections, parallel;
        limited parallelism = waiting in the single's barrier (values from the dump)."""
        d = report_json("worksharing_t2")
        values, _ = T.read_values_csv("worksharing_t2")
        cube = cubex.load(T.golden("worksharing_t2"))

        def barrier_sum(parent_role):
            """sum of the printed values and of their printing tolerances"""
            texts = [values[(c.id, t)]["time"] for c in cube.cnodes.values()
                     if c.region.role == "implicit barrier" and c.parent.region.role in
                     parent_role for t in range(cube.nlocs)]
            self.assertTrue(texts)
            return sum(float(x) for x in texts), sum(T.printed_tolerance(x) for x in texts)
        cats = d["overhead"]["program"]["categories"]
        value, tol = barrier_sum(("loop", "sections", "parallel"))
        self.assertAlmostEqual(cats["imbalance"]["time"], value, delta=tol)
        value, tol = barrier_sum(("single",))
        self.assertAlmostEqual(cats["limited parallelism"]["time"], value, delta=tol)

    def test_text_and_csv(self):
        for name in T.GOLDEN_NAMES:
            p = T.run_tool("report", T.golden(name), check=True)
            lines = p.stdout.splitlines()
            self.assertTrue(all(len(ln) <= 100 for ln in lines),
                            [ln for ln in lines if len(ln) > 100][:3])
            for title in ("Flat profile", "Call tree", "Overhead analysis", "Region overview"):
                self.assertIn(title, p.stdout)
            self.assertEqual(p.stderr, "")
        p = T.run_tool("report", T.golden("tasks_t2"), check=True)
        self.assertIn("tasks.c (10-11) TASK", p.stdout)
        self.assertIn("Task trees", p.stdout)
        p = T.run_tool("report", "--format", "csv", T.golden("tasks_t2"), check=True)
        rows = list(csv.reader(io.StringIO(p.stdout)))
        tree = [r for r in rows if r[0] == "calltree" and r[4] == "visits"]
        self.assertEqual(len(tree), len(cubex.load(T.golden("tasks_t2")).cnodes))

    def test_csv_is_one_tidy_table(self):
        """Issue 23: the CSV was several tables in one file (4 to 11 fields, headers
        mid-file); now one table of six columns a csv reader loads, and --section picks
        one section's rows."""
        for name in T.GOLDEN_NAMES:
            text = T.run_tool("report", "--format", "csv", T.golden(name), check=True).stdout
            rows = list(csv.reader(io.StringIO(text)))
            self.assertEqual(rows[0], ["section", "key", "name", "row", "field", "value"])
            self.assertEqual({len(r) for r in rows}, {6}, name)
            dicts = list(csv.DictReader(io.StringIO(text)))
            self.assertEqual(len(dicts), len(rows) - 1)
            self.assertNotIn("section", [r["section"] for r in dicts])   # no header mid-file
            sections = {r["section"] for r in dicts}
            self.assertLessEqual({"header", "flat", "calltree", "overhead"}, sections)
            # the values are the JSON report's
            d = report_json(name)
            prog = [r for r in dicts if r["section"] == "overhead" and r["key"] == "program"]
            for r in prog:
                if r["field"] in d["overhead"]["program"]["categories"]:
                    self.assertEqual(float(r["value"]),
                                     d["overhead"]["program"]["categories"][r["field"]]["time"])
            only = T.run_tool("report", "--format", "csv", "--section", "overhead",
                              T.golden(name), check=True).stdout
            self.assertEqual(list(csv.DictReader(io.StringIO(only))),
                             [r for r in dicts if r["section"] == "overhead"])

    def test_top_applies_to_trees(self):
        full = report_json("tasks_t2")
        d = report_json("tasks_t2", "--top", "3")
        self.assertLess(len(d["calltree"]), len(full["calltree"]))
        top3 = sorted(full["calltree"], key=lambda r: -r["incl"])[:3]
        kept = {r["cnode"] for r in d["calltree"]}
        self.assertLessEqual({r["cnode"] for r in top3}, kept)
        for r in d["calltree"]:     # a tree still: every kept path's ancestors are kept
            self.assertTrue(all(any(x["path"] == r["path"][:k] for x in d["calltree"])
                                for k in range(1, len(r["path"]))))
        self.assertLessEqual(len(d["tasktree"]), 3 * max(len(r["path"]) for r in
                                                         full["tasktree"]))
        text = T.run_tool("report", "--top", "3", T.golden("tasks_t2"), check=True).stdout
        tree = text[text.index("Call tree"):text.index("Task trees")]
        self.assertLess(len(tree.splitlines()), 3 + 4 + 6)

    def test_top(self):
        d = report_json("worksharing_t2", "--top", "3")
        self.assertEqual(len(d["flat"]), 3)
        full = report_json("worksharing_t2")
        self.assertEqual([e["name"] for e in d["flat"]], [e["name"] for e in full["flat"][:3]])

    def test_header(self):
        d = report_json("tasks_t2")
        h = d["header"]
        self.assertEqual(h["program"], "tasks")
        self.assertEqual(h["threads"], 2)
        cube = cubex.load(T.golden("tasks_t2"))
        self.assertAlmostEqual(h["wall_time"], max(cube.inclusive_row("time", 0)))
        self.assertIn("time", h["metrics"])
        self.assertTrue(0 < h["parallel_coverage"] <= 1.0)


def fine_grained_profile(path, ran=True):
    """A pompprof-style profile (attributes, max_active_tasks) whose tasks are tiny:
    1000 instances of 2 us work each, created at 1 us each (ran=False: a task construct
    whose call paths are there, without any instance)."""
    w = CubeWriter()
    w.add_attr("pompprof::program", "fib")
    w.add_attr("pompprof::date", "2026-01-01T00:00:00")
    w.add_attr("pompprof::wall_time", "0.5")
    reg = {}
    for name, role, par in (("fib", "artificial", "measurement"),
                            ("!$omp parallel @fib.c:20", "parallel", "openmp"),
                            ("!$omp single @fib.c:22", "single", "openmp"),
                            ("!$omp single sblock @fib.c:22", "single sblock", "openmp"),
                            ("!$omp create task @fib.c:9", "task create", "openmp"),
                            ("!$omp implicit barrier @fib.c:25", "implicit barrier", "openmp"),
                            ("!$omp task @fib.c:9", "task", "openmp"),
                            ("TASKS", "artificial", "openmp")):
        line = int(name.split(":")[-1]) if "@" in name else -1
        reg[role] = w.add_region(name, "fib.c" if line > 0 else "", line, line, par, role)
    root = w.add_cnode(0)           # region 0: the program
    par = w.add_cnode(reg["parallel"], root)
    single = w.add_cnode(reg["single"], par)
    sblock = w.add_cnode(reg["single sblock"], single)
    create = w.add_cnode(reg["task create"], sblock)
    bar = w.add_cnode(reg["implicit barrier"], single)
    stub = w.add_cnode(reg["task"], bar)
    tasks = w.add_cnode(reg["artificial"], root)
    body = w.add_cnode(reg["task"], tasks)
    w.set_locations(["Master thread", "OMP thread 1"])
    visits = w.add_metric("visits", "Visits", "UINT64", "EXCLUSIVE", "occ")
    time = w.add_metric("time", "Time", "DOUBLE", "INCLUSIVE", "sec")
    mat = w.add_metric("max_active_tasks", "max active tasks", "UINT64", "EXCLUSIVE")
    v = {root: [1, 0], par: [1, 1], single: [1, 1], sblock: [1, 0], create: [1000, 0],
         bar: [1, 1], stub: [400, 600], tasks: [0, 0], body: [400, 600]}
    t = {root: [0.4, 0.35], par: [0.35, 0.35], single: [0.35, 0.35], sblock: [0.3, 0.0],
         create: [0.001, 0.0], bar: [0.05, 0.35], stub: [0.0008, 0.0012],
         tasks: [0.0008, 0.0012], body: [0.0008, 0.0012]}
    if not ran:
        for c in (create, stub, tasks, body):
            v[c], t[c] = [0, 0], [0.0, 0.0]
    for c in v:
        w.set_row(visits, c, v[c])
        w.set_row(time, c, t[c])
    w.set_row(mat, tasks, [3, 5])
    w.write(path)


class ReportSynthetic(unittest.TestCase):
    def test_no_granularity_verdict_without_instances(self):
        """Issue 23: "all task constructs are > 10x their creation cost" was printed for
        a task table without a single instance."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "none.cubex")
            fine_grained_profile(path, ran=False)
            d = json.loads(T.run_tool("report", "--format", "json", path, check=True).stdout)
            self.assertTrue(d["tasks"])
            self.assertEqual([t["instances"] for t in d["tasks"]], [0])
            text = T.run_tool("report", path, check=True).stdout
            self.assertNotIn("Task granularity", text)
            path = os.path.join(tmp, "some.cubex")
            fine_grained_profile(path)
            self.assertIn("Task granularity", T.run_tool("report", path, check=True).stdout)

    def test_granularity_advice_and_attributes(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "profile.cubex")
            fine_grained_profile(path)
            d = json.loads(T.run_tool("report", "--format", "json", tmp, check=True).stdout)
            h = d["header"]
            self.assertEqual((h["program"], h["date"], h["wall_time"]),
                             ("fib", "2026-01-01T00:00:00", 0.5))
            self.assertEqual(h["max_active_tasks"], [3, 5])
            (task,) = d["tasks"]
            self.assertEqual(task["instances"], 1000)
            self.assertAlmostEqual(task["mean_excl"], 2e-6)
            self.assertAlmostEqual(task["mean_create"], 1e-6)
            self.assertTrue(task["too_fine"])
            self.assertEqual(task["granularity"], "coarsen")
            self.assertEqual(len(d["advice"]), 1)
            text = T.run_tool("report", path, check=True).stdout
            self.assertIn("Task granularity (", text)
            self.assertIn("work 2.000e-06 s/instance = 2.0x creation (1.000e-06 s); coarsen", text)
            # limited parallelism: the waiting in the single's barrier minus task time
            cats = d["overhead"]["program"]["categories"]
            self.assertAlmostEqual(cats["limited parallelism"]["time"], 0.05 + 0.35 - 0.002)


if __name__ == "__main__":
    T.main()
