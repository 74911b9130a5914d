"""pompprof-diff: zero for a profile with itself, per-path differences equal the golden
dumps' differences, -o writes a .cubex that reads back, never overwrites."""

import json
import os
import re
import tempfile
import unittest

import toolstest as T
from pompprof_tools.cube import cubex
from pompprof_tools.analysis.profile_model import Profile


def diff_json(a, b, *extra):
    p = T.run_tool("diff", "--format", "json", a, b, *extra, check=True)
    return json.loads(p.stdout)


def vte_by_path(name):
    """{(path, metric): value text} from the golden exclusive dump."""
    cube = cubex.load(T.golden(name))
    vte = T.read_vte(name)
    out = {}
    for cid, c in cube.cnodes.items():
        path, n = [], c
        while n is not None:
            path.append(n.region.name)
            n = n.parent
        for metric in ("time", "visits"):
            out[(tuple(reversed(path)), metric)] = vte[metric][cid]
    return out


class DiffTest(unittest.TestCase):
    def test_self_diff_is_zero_and_output_reads_back(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name in T.GOLDEN_NAMES:
                out = os.path.join(tmp, name + "-diff.cubex")
                d = diff_json(T.golden(name), T.golden(name), "-o", out)
                cube = cubex.load(T.golden(name))
                self.assertEqual(len(d["rows"]), len(cube.cnodes) * len(d["metrics"]))
                self.assertIn("time", d["metrics"])
                for r in d["rows"]:
                    self.assertEqual(r["delta"], 0.0, r)
                    self.assertEqual(r["status"], "")
                back = cubex.load(out)
                self.assertEqual(len(back.cnodes), len(cube.cnodes))
                self.assertEqual(back.nlocs, cube.nlocs)
                self.assertEqual(len(back.tasks_nodes()), len(cube.tasks_nodes()))
                for m in back.metrics:
                    for c in back.cnodes:
                        self.assertEqual(set(back.row(m, c)), {0.0}, (name, m, c))
                # the diff profile is no run: the report says what it is (issue 23)
                p = T.run_tool("report", out)
                self.assertEqual(p.returncode, 1)
                self.assertIn("is a difference profile written by pompprof-diff", p.stderr)

    def test_differences_match_dumps(self):
        for prog in ("tasks", "worksharing"):
            a, b = prog + "_t1", prog + "_t2"
            d = diff_json(T.golden(a), T.golden(b))
            va, vb = vte_by_path(a), vte_by_path(b)
            rows = {(tuple(r["path"]), r["metric"]): r for r in d["rows"]}
            checked = 0
            for key, r in rows.items():
                if key[1] not in ("time", "visits"):
                    continue
                ta, tb = va.get(key), vb.get(key)
                if ta is not None:
                    T.assert_printed(self, ta, r["a"], "%s a %s" % (prog, key))
                if tb is not None:
                    T.assert_printed(self, tb, r["b"], "%s b %s" % (prog, key))
                tol = sum(T.printed_tolerance(x) for x in (ta, tb) if x is not None)
                expected = (float(tb) if tb else 0.0) - (float(ta) if ta else 0.0)
                self.assertAlmostEqual(r["delta"], expected, delta=tol)
                if key[1] == "time":
                    self.assertAlmostEqual(r["delta_mean"], r["b"] / 2 - r["a"], places=12)
                else:   # counts keep count semantics: no per-thread means (issue 23)
                    self.assertNotIn("delta_mean", r)
                self.assertEqual(r["pct"], 100.0 * r["delta"] / r["a"] if r["a"] else None)
                status = "only in a" if tb is None else "only in b" if ta is None else ""
                self.assertEqual(r["status"], status, key)
                checked += 1
            self.assertEqual(checked, len(set(va) | set(vb)))
        # tasks: the t2 run executed tasks in the single's barrier, t1 did not
        self.assertTrue(any(r["status"] == "only in b" for r in
                            diff_json(T.golden("tasks_t1"), T.golden("tasks_t2"))["rows"]))

    def test_output_holds_the_differences(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "d.cubex")
            T.run_tool("diff", T.golden("worksharing_t1"), T.golden("worksharing_t2"), "-o", out,
                       check=True)
            a, b, d = (Profile(T.golden("worksharing_t1")), Profile(T.golden("worksharing_t2")),
                       Profile(out))
            self.assertEqual(d.nthreads, 1)         # thread counts differ: one "sum" location
            pa = {n.path: n for n in a.main_nodes + a.task_nodes}
            pb = {n.path: n for n in b.main_nodes + b.task_nodes}
            for n in d.main_nodes + d.task_nodes:
                ea = sum(pa[n.path].excl) if n.path in pa else 0.0
                eb = sum(pb[n.path].excl) if n.path in pb else 0.0
                self.assertAlmostEqual(n.excl[0], eb - ea, places=12)
                ia = sum(pa[n.path].incl) if n.path in pa else 0.0
                ib = sum(pb[n.path].incl) if n.path in pb else 0.0
                self.assertAlmostEqual(n.incl[0], ib - ia, places=12)

    def test_never_overwrites(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "exists.cubex")
            with open(out, "w") as f:
                f.write("keep me")
            p = T.run_tool("diff", T.golden("tasks_t1"), T.golden("tasks_t1"), "-o", out)
            self.assertEqual(p.returncode, 1)
            self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
            self.assertTrue(p.stderr.startswith("pompprof-diff: "))
            with open(out) as f:
                self.assertEqual(f.read(), "keep me")
            self.assertEqual(sorted(os.listdir(tmp)), ["exists.cubex"])   # no temp left

    def test_ranked_by_total_change_with_distinct_paths(self):
        # issue 23: with different thread counts the rows were ranked by the change of
        # the per-thread mean (threads trading work came first); now by the total
        d = diff_json(T.golden("tasks_t1"), T.golden("tasks_t2"))
        for metric in d["metrics"]:
            deltas = [abs(r["delta"]) for r in d["rows"] if r["metric"] == metric]
            self.assertEqual(deltas, sorted(deltas, reverse=True), metric)
        p = T.run_tool("diff", T.golden("tasks_t1"), T.golden("tasks_t2"), "--top", "400",
                       check=True)
        shown = {}
        table = p.stdout[:p.stdout.index("call paths (from the root")]
        for m in re.finditer(r"(?m)^ +(\d+) (.+?) +(call|TASKS) +\S+ ", table):
            shown.setdefault((m.group(3), m.group(2)), set()).add(m.group(1))
        self.assertTrue(shown)
        for (tree, label), numbers in shown.items():
            self.assertEqual(len(numbers), 1, "%s paths %s print as %r" % (tree, numbers, label))
        header = [ln for ln in p.stdout.splitlines() if ln.startswith("   # call path")][0]
        self.assertIn(" % ", header)

    def test_text_output(self):
        p = T.run_tool("diff", T.golden("tasks_t1"), T.golden("tasks_t2"), "--top", "10",
                       check=True)
        lines = p.stdout.splitlines()
        self.assertTrue(all(len(ln) <= 100 for ln in lines))
        self.assertIn("d.mean", p.stdout)
        self.assertIn("more rows", p.stdout)


if __name__ == "__main__":
    T.main()
