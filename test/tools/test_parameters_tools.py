"""Parameters in pompprof-report, -diff and -scaling, checked number by number on small
profiles written here: a task construct split by a `depth` parameter (and, at the
deepest level, a `kind` parameter too), as pompprof_parameter_int64/_string make it.

* report: a row per combination of values under the construct; the "by parameter"
  table (instances, mean, total, %, cumulative %) per parameter, values in order; the
  cut-off advice (the depth from which on a task with all below it is < 10x creation);
  call paths shown as `name (depth=2)`;
* diff: call paths matched by their parameters, whatever order a file lists them in;
  -o keeps the parameters;
* scaling: per-value rows of the split construct, matched across thread counts.
"""

import csv
import io
import json
import os
import tempfile
import unittest

import toolstest as T
from pompprof_tools.cube import cubex
from pompprof_tools.cube.cubex_write import CubeWriter

TASK = "!$omp task @t.c:5"
CREATE = "!$omp create task @t.c:5"
WAIT = "!$omp taskwait @t.c:9"
# task roots: (parameters in file order, instances, total time in s)
ROOTS_A = [
    ([("numeric", "depth", "0")], 1, 8.0e-6),
    ([("numeric", "depth", "1")], 2, 6.0e-6),
    ([("numeric", "depth", "2")], 4, 4.0e-6),
    ([("numeric", "depth", "3")], 3, 0.6e-6),
    ([("numeric", "depth", "3"), ("string", "kind", "leaf")], 5, 1.0e-6),
]
CREATE_TIME = 1.5e-6    # 15 creations: 0.1 us each, so the bound is 1 us


def depth_profile(path, roots, threads=1, creations=15):
    """prog -> {create task, taskwait -> task stub}, TASKS -> one task root per entry of
    roots; every value split evenly over the threads."""
    w = CubeWriter()
    w.add_attr("pompprof::program", "t")
    w.set_locations(["Master thread", "OMP thread 1", "OMP thread 2"][:threads])
    reg = {name: w.add_region(name, "t.c" if "@" in name else "", 5 if "t.c:5" in name else 9,
                              9, "openmp", role)
           for name, role in (("t", "artificial"), (TASK, "task"), (CREATE, "task create"),
                              (WAIT, "taskwait"), ("TASKS", "artificial"))}
    visits = w.add_metric("visits", "Visits", "UINT64", "EXCLUSIVE", "occ")
    time = w.add_metric("time", "Time", "DOUBLE", "INCLUSIVE", "sec")
    tmin = w.add_metric("min_time", "Min", "MINDOUBLE", "EXCLUSIVE", "sec")
    tmax = w.add_metric("max_time", "Max", "MAXDOUBLE", "EXCLUSIVE", "sec")

    def split(v):
        return [v / threads] * threads

    def split_count(v):
        return [v // threads + (1 if k < v % threads else 0) for k in range(threads)]

    task_time = sum(t for _, _, t in roots)
    task_inst = sum(i for _, i, _ in roots)
    root = w.add_cnode(reg["t"])
    create = w.add_cnode(reg[CREATE], root)
    wait = w.add_cnode(reg[WAIT], root)
    stub = w.add_cnode(reg[TASK], wait)
    tasks = w.add_cnode(reg["TASKS"], root)
    rows = {root: ([1] * threads, split(1e-6 + CREATE_TIME + 0.4e-6 + task_time)),
            create: (split_count(creations), split(CREATE_TIME)),
            wait: ([1] * threads, split(0.4e-6 + task_time)),
            stub: (split_count(task_inst), split(task_time)),
            tasks: ([0] * threads, split(task_time))}
    for params, inst, t in roots:
        c = w.add_cnode(reg[TASK], tasks, params)
        rows[c] = (split_count(inst), split(t))
        w.set_row(tmin, c, [t / inst] * threads)
        w.set_row(tmax, c, [t / inst] * threads)
    for c, (v, t) in rows.items():
        w.set_row(visits, c, v)
        w.set_row(time, c, t)
    w.write(path)


class ParametersInTools(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.a = os.path.join(cls.tmp.name, "a.cubex")
        depth_profile(cls.a, ROOTS_A)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def report(self, path):
        return json.loads(T.run_tool("report", "--format", "json", path, check=True).stdout)

    def test_rows_per_value(self):
        d = self.report(self.a)
        (t,) = d["tasks"]
        self.assertEqual(t["instances"], 15)
        vals = {v["params"]: v for v in t["values"]}
        self.assertEqual(list(vals), ["depth=0", "depth=1", "depth=2", "depth=3",
                                      "depth=3, kind=leaf"])
        for params, inst, time in ROOTS_A:
            v = vals[", ".join("%s=%s" % (k, x) for _, k, x in params)]
            self.assertEqual(v["instances"], inst)
            self.assertAlmostEqual(v["time"], time, places=15)
            self.assertAlmostEqual(v["mean"], time / inst, places=15)
            self.assertAlmostEqual(v["min"], time / inst, places=15)
            self.assertAlmostEqual(v["max"], time / inst, places=15)

    def test_by_parameter_table(self):
        d = self.report(self.a)
        by = {e["parameter"]: e for e in d["by_parameter"]}
        self.assertEqual(sorted(by), ["depth", "kind"])
        depth = by["depth"]
        self.assertEqual(depth["name"], TASK)
        total = 19.6e-6
        self.assertAlmostEqual(depth["total"], total, places=15)
        want = [("0", 1, 8.0e-6), ("1", 2, 6.0e-6), ("2", 4, 4.0e-6), ("3", 8, 1.6e-6)]
        self.assertEqual([r["value"] for r in depth["rows"]], [w[0] for w in want])
        cum = 0.0
        for r, (value, inst, time) in zip(depth["rows"], want):
            cum += 100.0 * time / total
            self.assertEqual(r["instances"], inst)
            self.assertAlmostEqual(r["time"], time, places=15)
            self.assertAlmostEqual(r["mean"], time / inst, places=15)
            self.assertAlmostEqual(r["pct"], 100.0 * time / total, places=9)
            self.assertAlmostEqual(r["cum_pct"], cum, places=9)
        self.assertNotIn("without", depth)
        kind = by["kind"]
        self.assertEqual([(r["value"], r["instances"]) for r in kind["rows"]], [("leaf", 5)])
        self.assertEqual(kind["without"]["instances"], 10)
        self.assertAlmostEqual(kind["without"]["time"], 18.6e-6, places=15)

    def test_cutoff_advice(self):
        d = self.report(self.a)
        cut = next(e for e in d["by_parameter"] if e["parameter"] == "depth")["cutoff"]
        # from depth 3 on: 1.6 us / 8 instances = 0.2 us < 10 x 0.1 us; depth 2 with all
        # below it: 5.6 us / 4 = 1.4 us, not
        self.assertEqual((cut["value"], cut["above"], cut["kept"], cut["instances"]),
                         ("3", "2", 7, 15))
        self.assertAlmostEqual(cut["granularity"], 0.2e-6, places=15)
        self.assertAlmostEqual(cut["mean_create"], 0.1e-6, places=15)
        text = T.run_tool("report", self.a, check=True).stdout
        self.assertIn("cut off at depth=3 (tasks down to depth=2: 7 of 15)", text)
        self.assertIn("from depth=3 on, a task with all it spawns takes 2.000e-07 s < 10x its "
                      "creation (1.000e-07 s)", text)
        self.assertIn("TASK @t.c:5 (depth=3, kind=leaf)".lower(), text.lower())
        self.assertIn("by depth", text)
        self.assertTrue(all(len(line) <= 100 for line in text.splitlines()))
        # a shorter creation moves the cut-off down; a longer one leaves no depth worth it
        for creations, value in ((150, None), (3, "2")):
            path = os.path.join(self.tmp.name, "c%d.cubex" % creations)
            depth_profile(path, ROOTS_A, creations=creations)
            e = next(e for e in self.report(path)["by_parameter"] if e["parameter"] == "depth")
            self.assertEqual(e.get("cutoff", {}).get("value"), value)

    def test_parameter_rows_in_value_order(self):
        """Issue 23: a construct reached deepest-first listed its rows 3, 2, 1, 0 where
        another listed 0, 1, 2, 3; the trees now list every construct's values in
        ascending order, and keep every call path."""
        path = os.path.join(self.tmp.name, "reversed.cubex")
        depth_profile(path, list(reversed(ROOTS_A)))
        d = self.report(path)
        rows = [r["params"] for r in d["tasktree"] if r.get("params")]
        self.assertEqual(rows, ["depth=0", "depth=1", "depth=2", "depth=3",
                                "depth=3, kind=leaf"])
        self.assertEqual(len(d["tasktree"]), len(self.report(self.a)["tasktree"]))
        text = T.run_tool("report", path, check=True).stdout
        tree = text[text.index("Task trees"):]
        order = [tree.index("(depth=%d" % k) for k in range(4)]
        self.assertEqual(order, sorted(order))

    def test_csv_sections(self):
        text = T.run_tool("report", "--format", "csv", self.a, check=True).stdout
        rows = list(csv.DictReader(io.StringIO(text)))
        by = [r for r in rows if r["section"] == "by_parameter" and r["field"] == "instances"]
        self.assertEqual([(r["row"], r["value"]) for r in by],
                         [("depth=0", "1"), ("depth=1", "2"), ("depth=2", "4"),
                          ("depth=3", "8"), ("kind=leaf", "5")])
        values = [r for r in rows if r["section"] == "task_values" and r["field"] == "instances"]
        self.assertEqual([(r["row"], r["value"]) for r in values],
                         [("depth=0", "1"), ("depth=1", "2"), ("depth=2", "4"), ("depth=3", "3"),
                          ("depth=3, kind=leaf", "5")])

    def test_diff_matches_parameters(self):
        b_roots = [(p, i, t * (1.5 if p[0][2] == "2" else 1.0)) for p, i, t in ROOTS_A]
        b_roots[-1] = (list(reversed(b_roots[-1][0])),) + b_roots[-1][1:]  # kind, then depth
        b_roots.append(([("numeric", "depth", "4")], 16, 0.8e-6))
        b = os.path.join(self.tmp.name, "b.cubex")
        depth_profile(b, b_roots)
        out = os.path.join(self.tmp.name, "d.cubex")
        d = json.loads(T.run_tool("diff", "--format", "json", "-o", out, self.a, b,
                                  check=True).stdout)
        rows = {(tuple(r["path"]), r["metric"]): r for r in d["rows"]}
        tasks = ("t", "TASKS")
        two = rows[(tasks + (TASK + " (depth=2)",), "time")]
        self.assertAlmostEqual(two["delta"], 2.0e-6, places=15)
        self.assertEqual(two["status"], "")
        leaf = rows[(tasks + (TASK + " (depth=3, kind=leaf)",), "time")]
        self.assertAlmostEqual(leaf["delta"], 0.0, places=15)
        self.assertEqual(leaf["status"], "")
        four = rows[(tasks + (TASK + " (depth=4)",), "visits")]
        self.assertEqual((four["a"], four["b"], four["status"]), (0, 16, "only in b"))
        # the difference as a profile keeps the parameters
        cube = cubex.load(out)
        params = sorted(tuple(sorted(c.parameters)) for c in cube.task_roots())
        self.assertEqual(params, sorted([tuple(sorted(p)) for p, _, _ in ROOTS_A]
                                        + [(("numeric", "depth", "4"),)]))

    def test_scaling_rows_per_value(self):
        two = os.path.join(self.tmp.name, "two.cubex")
        depth_profile(two, ROOTS_A, threads=2)
        d = json.loads(T.run_tool("scaling", "--format", "json", self.a, two,
                                  check=True).stdout)
        for params, inst, time in ROOTS_A:
            name = "%s (%s)" % (TASK, ", ".join("%s=%s" % (k, v) for _, k, v in params))
            rows = d["tasks"][name]
            self.assertEqual([r["threads"] for r in rows], [1, 2])
            self.assertEqual([r["instances"] for r in rows], [inst, inst])
            for r in rows:
                self.assertAlmostEqual(r["time"], time, places=15)
        text = T.run_tool("scaling", self.a, two, check=True).stdout
        self.assertIn("(depth=3, kind=leaf)", text)


if __name__ == "__main__":
    unittest.main()
