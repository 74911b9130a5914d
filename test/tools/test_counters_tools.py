"""Counters in pompprof-report, -diff and -scaling: a column per counter, rates of two
counters, checked number by number on small profiles written here (counters stored
exclusive as pompprof writes them, and inclusive as the reference does)."""

import json
import os
import tempfile
import unittest

import toolstest as T
from pompprof_tools.cube.cubex_write import CubeWriter

# prog -> parallel -> {work, barrier -> task stub}, TASKS -> task -> create task
NAMES = ["prog", "!$omp parallel @c.c:1", "work", "!$omp implicit barrier @c.c:9",
         "!$omp task @c.c:4", "TASKS", "!$omp task @c.c:4", "!$omp create task @c.c:6"]
PARENT = [None, 0, 1, 1, 3, 0, 5, 6]
ROLE = ["artificial", "parallel", "function", "implicit barrier", "task", "artificial", "task",
        "task create"]
# exclusive instructions and cycles per cnode and thread (2 threads); TASKS holds none
INS = [[100, 0], [10, 10], [4000, 2000], [5, 5], [0, 6000], [0, 0], [5000, 7000], [30, 40]]
CYC = [[200, 0], [20, 20], [2000, 2000], [50, 50], [0, 3000], [0, 0], [2500, 3500], [60, 80]]
VISITS = [[1, 0], [1, 1], [1, 1], [1, 1], [0, 3], [0, 0], [2, 3], [2, 3]]


def inclusive(values, c, split_tasks=True):
    """Inclusive value of cnode c (TASKS split off the root, as CubeLib does)."""
    total = list(values[c])
    for k, p in enumerate(PARENT):
        if p == c and not (split_tasks and NAMES[k] == "TASKS"):
            total = [a + b for a, b in zip(total, inclusive(values, k))]
    return total


def counter_profile(path, stored="EXCLUSIVE", threads=2, scale=1):
    w = CubeWriter()
    w.add_attr("pompprof::program", "c")
    w.set_locations(["Master thread", "OMP thread 1"][:threads])
    regions = {}
    cnodes = []
    for k, (name, role) in enumerate(zip(NAMES, ROLE)):
        if (name, role) not in regions:
            regions[(name, role)] = w.add_region(name, "c.c" if "@" in name else "", 1, 9,
                                                 "openmp", role)
        cnodes.append(w.add_cnode(regions[(name, role)],
                                  None if PARENT[k] is None else cnodes[PARENT[k]]))
    visits = w.add_metric("visits", "Visits", "UINT64", "EXCLUSIVE", "occ")
    time = w.add_metric("time", "Time", "DOUBLE", "INCLUSIVE", "sec")
    ins = w.add_metric("PAPI_TOT_INS", "PAPI_TOT_INS", "UINT64", stored, "#")
    cyc = w.add_metric("PAPI_TOT_CYC", "PAPI_TOT_CYC", "UINT64", stored, "#")
    secs = [[v * 1e-6 for v in row] for row in CYC]
    for k, c in enumerate(cnodes):
        w.set_row(visits, c, VISITS[k][:threads])
        w.set_row(time, c, inclusive(secs, k)[:threads] if NAMES[k] != "TASKS"
                  else [a + 0.0 for a in inclusive(secs, 6)[:threads]])
        for m, vals in ((ins, INS), (cyc, CYC)):
            vals = [[v * scale for v in row] for row in vals]
            row = vals[k] if stored == "EXCLUSIVE" else (
                inclusive(vals, 6) if NAMES[k] == "TASKS" else inclusive(vals, k))
            w.set_row(m, c, row[:threads])
    w.write(path)


class CountersInTools(unittest.TestCase):
    def report(self, path):
        return json.loads(T.run_tool("report", "--format", "json", path, check=True).stdout)

    def test_report_columns_and_rates(self):
        with tempfile.TemporaryDirectory() as tmp:
            for stored in ("EXCLUSIVE", "INCLUSIVE"):
                path = os.path.join(tmp, stored + ".cubex")
                counter_profile(path, stored)
                d = self.report(path)
                h = d["header"]
                self.assertEqual([c["name"] for c in h["counters"]],
                                 ["PAPI_TOT_INS", "PAPI_TOT_CYC"])
                self.assertEqual([r["label"] for r in h["rates"]], ["IPC"])
                flat = {e["name"]: e for e in d["flat"]}
                work = flat["work"]
                self.assertIn("PAPI_TOT_INS", work["columns"])
                self.assertIn("IPC", work["columns"])
                self.assertEqual([r["PAPI_TOT_INS"] for r in work["threads"]], [4000, 2000])
                self.assertEqual([r["IPC"] for r in work["threads"]], [2.0, 1.0])
                self.assertEqual(work["sum"]["PAPI_TOT_INS"], 6000)
                self.assertAlmostEqual(work["sum"]["IPC"], 1.5)
                # the task construct: inclusive counts of its tree, per thread
                task = flat["!$omp task @c.c:4"]
                self.assertEqual([r["PAPI_TOT_INS"] for r in task["threads"]], [5030, 7040])
                # call tree: inclusive, summed over threads; the root without TASKS
                tree = {(r["name"], r["depth"]): r for r in d["calltree"] + d["tasktree"]}
                root = tree[("prog", 0)]
                self.assertEqual(root["counters"]["PAPI_TOT_INS"], 100 + 20 + 6000 + 10 + 6000)
                self.assertEqual(tree[("TASKS", 1)]["counters"]["PAPI_TOT_INS"], 12070)
                self.assertAlmostEqual(tree[("work", 2)]["rates"]["IPC"], 1.5)
                (t,) = d["tasks"]
                self.assertEqual(t["counters"]["PAPI_TOT_INS"], 12070)
                self.assertAlmostEqual(t["counters_per_instance"]["PAPI_TOT_INS"], 12070 / 5)
                text = T.run_tool("report", path, check=True).stdout
                self.assertIn("TOT_INS = PAPI_TOT_INS", text)
                self.assertIn("IPC = PAPI_TOT_INS / PAPI_TOT_CYC", text)
                self.assertRegex(text, r"(?m)^thread .*TOT_INS +TOT_CYC +IPC$")

    def test_large_counts_keep_their_magnitude(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "big.cubex")
            counter_profile(path, scale=10000)      # work: 40,000,000 instructions
            text = T.run_tool("report", path, check=True).stdout
            self.assertRegex(text, r"(?m)^Master thread .* 40\.0M +20\.0M +2$")
            self.assertIn("1.23M = 1.23 x 10^6", text)
            self.assertNotIn("~", text)

    def test_diff_and_scaling(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "a.cubex"), os.path.join(tmp, "b.cubex")
            counter_profile(a)
            counter_profile(b, stored="INCLUSIVE", threads=1, scale=2)
            d = json.loads(T.run_tool("diff", "--format", "json", a, b, check=True).stdout)
            self.assertIn("PAPI_TOT_INS", d["metrics"])
            rows = {("/".join(r["path"]), r["metric"]): r for r in d["rows"]}
            work = rows[("prog/!$omp parallel @c.c:1/work", "PAPI_TOT_INS")]
            self.assertEqual((work["a"], work["b"], work["delta"]), (6000, 8000, 2000))
            ipc = rows[("prog/!$omp parallel @c.c:1/work", "IPC")]
            self.assertAlmostEqual(ipc["a"], 1.5)
            self.assertAlmostEqual(ipc["b"], 2.0)
            s = json.loads(T.run_tool("scaling", "--format", "json", a, b, check=True).stdout)
            self.assertEqual(s["counters"], ["PAPI_TOT_INS", "PAPI_TOT_CYC"])
            one, two = s["profiles"]                 # sorted by thread count
            self.assertEqual(one["counters"]["PAPI_TOT_INS"], 2 * (100 + 10 + 4000 + 5))
            self.assertEqual(two["counters"]["PAPI_TOT_INS"], 100 + 20 + 6000 + 10 + 6000)
            self.assertAlmostEqual(two["rates"]["IPC"], 12130 / 7340)
            text = T.run_tool("scaling", a, b, check=True).stdout
            self.assertIn("Counters (whole program, summed over threads)", text)


if __name__ == "__main__":
    unittest.main()
