#!/usr/bin/env python3
"""pompprof-score on a recursive program built with `pompprof --functions`
(progs/recursive.c), read against the profile:

* the same profile gives the same figures on every call: three calls print
  the same text, with and without -f (the event costs were measured when
  pompprof was built, event-costs.txt; nothing is measured anew), and the
  header says which costs it used and how the run instrumented its
  functions (the profile's pompprof::functions);
* the table per region kind and per region: the visits of rec, tiny and
  medium are the program's calls, OpenMP constructs are OMP, functions FUN,
  and each region's cost is its visits times the cost of its kind in its
  shape (rec a recursion, tiny a short function, medium and main called);
* a task costs between the calibration's two task shapes by the run's
  taskwaits per task (progs/taskshape.c in four shapes, with costs whose
  two task figures differ);
* -f FILTER marks exactly the regions the filter excludes;
* -g writes a filter in Score-P syntax that excludes exactly the functions
  with many short visits (tiny, rec) and neither medium, main nor any OpenMP
  construct, its estimate with the filter under the target (10 %); the run
  with it (POMPPROF_FILTER) measures exactly the others, and so does the
  build with it (--filter=FILE);
* the estimate's range with every event cost 3 % lower and higher;
* without event costs: one line saying where they come from, exit 1.
How close the estimate comes to the measured overhead is a figure of `make
bench-functions` (examples/bench/function_bench.py), not a test: times of a
busy machine do not make one."""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from functions_common import (  # noqa: E402
    ENV, PLUGIN, ScratchTest, build, cnodes_of, require_libdw, run, total)

TOP_BUILDDIR = os.environ["top_builddir"]
SCORE = os.path.join(TOP_BUILDDIR, "scripts", "pompprof-score")
PHASES, DEPTH = 20, 20


def calls(n):
    """Calls of rec(n) (each calls tiny once)."""
    a, b = 1, 1                     # calls of rec(0), rec(1)
    for _ in range(n - 1):
        a, b = b, 1 + a + b
    return b if n >= 1 else a


class Score(ScratchTest):
    prefix = "pp_fn_score_"

    @classmethod
    def setUpClass(cls):
        require_libdw()
        super().setUpClass()
        cls.exe = build(cls.scratch, "recursive.c")
        cls.out, cls.cube, _ = run(cls.scratch, cls.exe, 1, PHASES, DEPTH)
        cls.profile = os.path.dirname(cls.cube.path)

    def score(self, *args, env=None):
        proc = subprocess.run([SCORE, self.profile] + list(args), cwd=self.scratch,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, env=dict(ENV, **(env or {})))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return proc.stdout

    def region_row(self, text, name):
        for line in text.splitlines():
            parts = line.split()
            if parts and parts[0] == name:
                return parts
        self.fail("no row for %s in:\n%s" % (name, text))

    def costs(self):
        """The figures of the build's event-costs.txt."""
        with open(os.path.join(TOP_BUILDDIR, "event-costs.txt")) as f:
            return {p[0]: float(p[1]) for p in (line.split() for line in f)
                    if len(p) == 2 and not p[0].startswith("#")}

    def test_stable(self):
        flt = self.write("t.filter", "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE t*\n"
                         "SCOREP_REGION_NAMES_END\n")
        for args in ((), ("-f", flt)):
            texts = [self.score(*args) for _ in range(3)]
            self.assertEqual(texts[1:], texts[:1] * 2, args)
        first = texts[0].splitlines()[0]
        self.assertIn(os.path.join(TOP_BUILDDIR, "event-costs.txt"), first)
        self.assertIn("instrumented by %s" % ("gcc-plugin" if PLUGIN else "instrument-functions"),
                      first)

    def test_table(self):
        text = self.score("--top", "0")
        n = PHASES * calls(DEPTH)
        self.assertEqual(total(self.cube, "visits", cnodes_of(self.cube, "rec")), n)
        c = self.costs()
        # -finstrument-functions scales the shapes measured with the plugin
        scale = 1.0 if PLUGIN else c["function_pair_address_ns"] / c["function_pair_ns"]
        for name, visits, shape in (("rec", n, "recursion_pair_ns"), ("tiny", n, None),
                                    ("medium", PHASES * 200, "leaf_pair_ns"),
                                    ("main", 1, "leaf_pair_ns")):
            row = self.region_row(text, name)
            self.assertEqual(row[1], "FUN")
            if visits < 1e6:
                self.assertEqual(row[2], str(visits))
            if shape is None:   # a short leaf, unless a busy machine stretched its visits
                shape = "inlined_pair_ns" if float(row[4]) < 200e-9 else "leaf_pair_ns"
            # cost: visits x the cost of a call of its shape, as printed (4 digits)
            pair = c[shape] * scale
            self.assertAlmostEqual(float(row[5]), visits * pair * 1e-9,
                                   delta=visits * pair * 1e-9 * 1e-3 + 1e-12, msg=name)
        # the header names the figures of each shape
        first = text.splitlines()[0]
        for key, what in (("leaf_pair_ns", "called function"), ("recursion_pair_ns",
                                                                  "recursive one"),
                          ("inlined_pair_ns", "short one")):
            self.assertIn("%.1f ns a %s" % (c[key] * scale, what), first)
        kinds = {line.split()[0] for line in text.splitlines() if line.split()
                 and line.split()[0] in ("ALL", "OMP", "FUN", "USR", "MPI")}
        self.assertEqual(kinds, {"ALL", "OMP", "FUN"})
        for line in text.splitlines():
            if line.startswith("!$omp"):
                self.assertIn(" OMP ", line)

    def test_filter_and_generate(self):
        flt = self.write("mine.filter", "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE t*\n"
                         "SCOREP_REGION_NAMES_END\n")
        text = self.score("-f", flt, "--top", "0")
        self.assertEqual(self.region_row(text, "tiny")[1], "-")
        self.assertEqual(self.region_row(text, "rec")[1], "FUN")
        self.assertRegex(text, r"with the filter .*mine\.filter: estimated cost")

        # a target the run's estimate is above: the default, 10 %, unless this
        # machine's plain code is slow for its event costs (tiny's loop is)
        estimate = float(re.search(r"estimated cost of this run \S+ s: ([0-9.]+) %",
                                   self.score()).group(1))
        target = min(10.0, estimate / 2)
        gen = os.path.join(self.scratch, "generated.filter")
        text = self.score("-g", gen, *(() if target == 10.0 else ("--target", str(target))))
        with open(gen) as f:
            written = f.read()
        excluded = re.findall(r"^\s*EXCLUDE (\S+)$", written, re.M)
        self.assertEqual(sorted(excluded), ["rec", "tiny"], written)
        before, after = map(float, re.search(r"estimated overhead ([0-9.]+) % -> ([0-9.]+) %",
                                             written).groups())
        self.assertAlmostEqual(before, estimate, delta=0.05, msg=written)
        self.assertGreater(before, target, written)
        self.assertLessEqual(after, target, written)
        self.assertIn("(target %.1f %%)" % target, written)
        self.assertIn("CPU time of the run", text)
        # never overwritten
        proc = subprocess.run([SCORE, self.profile, "-g", gen], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, env=ENV)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("exists", proc.stderr)
        # the rerun with it at run time, and the build with it: no tiny, no rec
        kept = {"tiny", "rec", "medium", "main"} - set(excluded)
        out, cube, _ = run(self.scratch, self.exe, 1, PHASES, DEPTH,
                           env={"POMPPROF_FILTER": gen})
        self.assertEqual({c.region.name for c in cube.cnodes_in_order()}
                         & {"tiny", "rec", "medium", "main"}, kept)
        self.assertEqual(out, self.out)
        exe = build(self.scratch, "recursive.c", wrapper_opts=("--filter=" + gen,))
        out, cube, _ = run(self.scratch, exe, 1, PHASES, DEPTH)
        self.assertEqual(out, self.out)
        self.assertEqual(total(cube, "visits", cnodes_of(cube, "medium")), PHASES * 200)
        if PLUGIN:     # exact at build time
            self.assertEqual({c.region.name for c in cube.cnodes_in_order()}
                             & {"tiny", "rec", "medium", "main"}, kept)

    def test_range(self):
        """The estimate with every event cost 3 % lower and higher: around it, and
        the run's time less the scaled cost as the program's own."""
        text = self.score()
        m = re.search(r"estimated cost of this run (\S+) s: ([0-9.]+) % over the program's own "
                      r"(\S+) s \(([0-9.]+) to ([0-9.]+) % with every event cost 3 % lower or "
                      r"higher\)", text)
        self.assertIsNotNone(m, text)
        cost, pct, own, low, high = map(float, m.groups())
        run_time = cost + own
        for scale, got in ((0.97, low), (1.03, high)):
            want = 100.0 * scale * cost / (run_time - scale * cost)
            self.assertAlmostEqual(got, want, delta=0.05 + want * 2e-3)
        self.assertLess(low, pct)
        self.assertLess(pct, high)

    def test_task_shape(self):
        """A task costs between the two calibrated shapes that enclose the run's
        taskwaits per task: nqueens' (a twelfth of a taskwait per task), fib's
        (half) and health's (one), in proportion; the end's beyond them."""
        costs = self.write("shapes.txt", "function_pair_ns 20\nfiltered_pair_ns 2\n"
                           "construct_pair_ns 25\ntask_ns 60\ntaskwait_ns 20\n"
                           "task_binary_ns 40\ntask_quad_ns 80\ntask_wide_ns 70\n")
        # (children, leaves wait, depth): task instances, taskwaits, and the
        # cost of a task the shapes give at that ratio (wide 1/12 -> 70, fib
        # 1/2 -> 40, health 1 -> 80, in proportion between neighbours)
        cases = {
            (3, 0, 4): (120, 40, 52.0),     # 1/3: wide to fib, 3/5 of the way
            (2, 0, 6): (126, 63, 40.0),     # 1/2: fib's
            (2, 2, 6): (126, 95, 40.0 + 80.0 * (95 / 126 - 0.5)),   # fib to health
            (4, 1, 3): (84, 85, 80.0),      # above one: health's
            (13, 0, 2): (182, 14, 70.0),    # 1/13: below the wide shape, its figure
        }
        exe = build(self.scratch, "taskshape.c", wrapper_opts=())
        for args, (want_instances, want_waits, ns) in cases.items():
            out, cube, _ = run(self.scratch, exe, 1, *args)
            text = subprocess.run([SCORE, os.path.dirname(cube.path), "--costs", costs,
                                   "--top", "0"], stdout=subprocess.PIPE,
                                  universal_newlines=True, env=ENV, check=True).stdout
            instances = total(cube, "visits", cube.task_roots())
            waits = total(cube, "visits", [c for c in cube.cnodes_in_order()
                                           if c.region.role == "taskwait"])
            self.assertEqual(instances + 1, int(out))    # every tree call but the first
            self.assertEqual((instances, waits), (want_instances, want_waits), args)
            self.assertIn("%.1f ns a task (%.2f taskwaits per task)" % (ns, waits / instances),
                          text.splitlines()[0])
            row = [line.split() for line in text.splitlines()
                   if line.startswith("!$omp task @")][0]
            self.assertEqual(int(row[-5]), instances)
            self.assertAlmostEqual(float(row[-2]), instances * ns * 1e-9,
                                   delta=instances * ns * 1e-12 + 1e-12)

        # a file from before the wide shape was measured: fib's below half a
        # taskwait (the last run's profile: 1/13)
        old = self.write("old.txt", "function_pair_ns 20\nfiltered_pair_ns 2\n"
                         "construct_pair_ns 25\ntask_ns 60\ntaskwait_ns 20\n"
                         "task_binary_ns 40\ntask_quad_ns 80\n")
        text = subprocess.run([SCORE, os.path.dirname(cube.path), "--costs", old, "--top", "0"],
                              stdout=subprocess.PIPE, universal_newlines=True, env=ENV,
                              check=True).stdout
        self.assertIn("40.0 ns a task (%.2f taskwaits per task)" % (14 / 182),
                      text.splitlines()[0])

    def test_no_costs(self):
        proc = subprocess.run([SCORE, self.profile], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True,
                              env=dict(ENV, POMPPROF_COSTS=os.path.join(self.scratch, "none")))
        self.assertEqual((proc.returncode, proc.stdout), (1, ""))
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertIn("none: cannot be read", proc.stderr)


if __name__ == "__main__":
    unittest.main()
