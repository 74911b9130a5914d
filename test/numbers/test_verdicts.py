#!/usr/bin/env python3
"""Every verdict earned (issue 34, points 1, 3 and 6): on real programs built and run
with the build tree,

* the granularity verdict of a C++ particle code built with `pompprof --functions`, whose
  tasks only call member functions, counts the functions' time as the task's work (it
  said "coarsen" of 0.7 ms tasks, reading the task's exclusive time); it states its
  numbers, and the view's table says the same;
* under `pompprof run` (OMPT: a creation takes no measured time) a quicksort with untied
  tasks and a taskloop gets "not measured", never a verdict;
* a tiled Cholesky's tasks have 1, 2, 2 and 3 dependence items per instance (potrf,
  trsm, syrk, gemm), counted where the items are recorded, at the creation (it said 0);
* pompprof-scaling gives no work inflation verdict on runs of different inputs, and on
  runs of one input says what its verdict rests on;
* POT's quadrant is not given when undetermined time could change it, and states the
  numbers it rests on otherwise."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numbers_env as E  # noqa: E402
from pompprof_tools.cube.cubex_write import CubeWriter  # noqa: E402

sys.path.insert(0, os.path.join(E.TOP_SRCDIR, "test", "ompt"))
import ompt_env  # noqa: E402


def task_by_line(rep, line):
    (t,) = [t for t in rep["tasks"] if t["name"].endswith(":%d" % line)]
    return t


class Verdicts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp_verdicts_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_functions_are_the_tasks_work(self):
        exe = E.build(self.tmp, "particles.cpp", functions=True)
        plain = E.build(self.tmp, "particles.cpp", wrapper=False, name="particles_plain")
        out = os.path.join(self.tmp, "particles.run")
        self.assertEqual(E.run(exe, out, [2048, 256, 2]),
                         subprocess.run([plain, "2048", "256", "2"], stdout=subprocess.PIPE,
                                        universal_newlines=True, env=E.ENV).stdout)
        rep = E.report(out)
        (t,) = rep["tasks"]
        callees = {c["name"]: c for c in t["callees"]}
        self.assertIn("System::forces(int, int)", callees)
        # the task's own code is a few instructions: nearly all its time is in the
        # functions, which are its work
        functions = sum(c["incl"] for c in callees.values())
        self.assertLess(t["mean_excl"] * t["instances"], 0.05 * functions)
        self.assertAlmostEqual(t["mean_work"] * t["instances"], t["time"], delta=1e-9 + 1e-6 * t["time"])
        self.assertGreaterEqual(t["mean_work"] * t["instances"], functions * (1 - 1e-9))
        # 2048 particles x 512 others each: far more than 10 creations
        self.assertEqual(t["granularity"], "fine")
        self.assertFalse(t["too_fine"])
        self.assertAlmostEqual(t["ratio"], t["mean_work"] / t["mean_create"])
        text = E.tool("report", out).stdout
        verdicts = text.split("Task granularity")[1].split("Overhead")[0].split("\n")[1:]
        self.assertNotIn("coarsen", "\n".join(verdicts))
        self.assertIn("%s task @particles.cpp:%d: work %s s/instance = %.1fx creation (%s s); fine"
                      % (t["id"], int(t["name"].split(":")[-1]), _time(t["mean_work"]), t["ratio"],
                         _time(t["mean_create"])), text)
        csv = E.report_csv(out)
        self.assertEqual(csv[("tasks", t["id"], "", "granularity")], "fine")
        self.assertEqual(float(csv[("tasks", t["id"], "", "mean_work")]), t["mean_work"])

    @unittest.skipUnless(ompt_env.have_ompt(), "no OMPT tool, libomp or clang")
    def test_no_verdict_without_creation_times(self):
        exe = E.build(self.tmp, "quicksort.c", wrapper=False, name="quicksort_plain")
        out = os.path.join(self.tmp, "qs.run")
        env = dict(E.ENV, OMP_NUM_THREADS="2")
        p = subprocess.run([os.path.join(E.SCRIPTS, "pompprof"), "run", "--output=" + out, "--",
                            exe, "100000", "2000"], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=600)
        self.assertEqual((p.returncode, p.stdout.split(",")[0]), (0, "sorted"), p.stderr)
        rep = E.report(out)
        ran = [t for t in rep["tasks"] if t["instances"]]
        # the two untied constructs and the taskloop's tasks
        self.assertGreaterEqual(len(ran), 3)
        for t in ran:
            self.assertEqual(t["create_time"], 0.0, t["name"])
            self.assertEqual(t["granularity"], "not measured", t["name"])
            self.assertIsNone(t["ratio"])
            self.assertGreater(t["mean_work"], 0)
        text = E.tool("report", out).stdout
        verdicts = text.split("Task granularity")[1].split("Overhead analysis")[0]
        self.assertEqual(verdicts.count("creation not measured: no verdict"), len(ran))
        self.assertNotIn("fine", verdicts)
        self.assertNotIn("> 10x", verdicts)
        self.assertIn("OMPT", verdicts)

    def test_dependences_per_instance(self):
        exe = E.build(self.tmp, "cholesky.c")
        out = os.path.join(self.tmp, "cholesky.run")
        self.assertIn("error below 1e-8", E.run(exe, out, [5, 16]))
        rep = E.report(out)
        csv = E.report_csv(out)
        counts = {"potrf": 5, "trsm": 10, "syrk": 10, "gemm": 10}
        for kernel, items in (("potrf", 1), ("trsm", 2), ("syrk", 2), ("gemm", 3)):
            (line,) = E.pragma_lines("cholesky.c", kernel)
            t = task_by_line(rep, line)
            self.assertEqual(t["instances"], counts[kernel], kernel)
            self.assertEqual(t["counters_per_instance"]["Dependences"], items, kernel)
            self.assertEqual(float(csv[("tasks", t["id"], "", "Dependences/i")]), items)
        text = E.tool("report", out).stdout
        table = text.split("Tasks (seconds)")[1].split("\n\n")[0]
        self.assertIn("Dependences/i", table)
        (gemm,) = E.pragma_lines("cholesky.c", "gemm")
        row = next(ln for ln in table.splitlines() if ln.split()[2:3] == ["@cholesky.c:%d" % gemm]
                   or ln.split()[1:2] == ["task"] and ln.split()[2].endswith(":%d" % gemm))
        self.assertEqual(row.split()[-1], "3")

    def test_no_inflation_verdict_on_other_inputs(self):
        a, b = os.path.join(self.tmp, "s1.cubex"), os.path.join(self.tmp, "s2.cubex")
        small_profile(a, 1, "p 10", 1.0)
        small_profile(b, 2, "p 20", 3.0)       # twice the input, three times the work
        p = E.tool("scaling", a, b)
        self.assertNotIn("WORK INFLATION", p.stdout)
        self.assertIn("work inflation not judged: the runs had different arguments", p.stdout)
        self.assertIn("1.000000 s (1), 3.000000 s (2)", p.stdout)
        d = __import__("json").loads(E.tool("scaling", "--format", "json", a, b).stdout)
        self.assertFalse(d["work_inflation"]["judged"])
        # one input: the verdict, with its figures and what they are
        b = os.path.join(self.tmp, "s3.cubex")
        small_profile(b, 2, "p 10", 3.0)
        p = E.tool("scaling", a, b)
        self.assertIn("WORK INFLATION: the work in parallel code (user code and task bodies, "
                      "functions included) summed over threads grew 3.00x from 1.000000 s (1) to "
                      "3.000000 s (2), same program and arguments", " ".join(p.stdout.split()))

    def test_pot_quadrant_only_when_determined(self):
        out = os.path.join(self.tmp, "depend")
        subprocess.run([E.SCENARIOS, "depend", out], check=True)
        d = E.timeline(out)
        # thread 1 waited 5100 ns with only a task of unrecorded dependences created:
        # idleness or overhead, which decides the quadrant
        self.assertGreater(d["total"]["undetermined"], 0.5 * d["total"]["time"])
        self.assertIsNone(d["pot"]["quadrant"])
        self.assertIn("not determined", d["pot"]["advice"])
        text = E.tool("timeline", out).stdout
        self.assertIn("POT quadrant: not determined: ", text)
        # a quadrant states its numbers: the shares of the team's time (serial code left out)
        out = os.path.join(self.tmp, "idle")
        subprocess.run([E.SCENARIOS, "idle", out], check=True)
        d = E.timeline(out)
        t = d["total"]
        team = t["time"] - t["serial"] - t["measurement"]
        self.assertAlmostEqual(d["pot"]["team_time"], team)
        self.assertAlmostEqual(d["pot"]["idleness_share"], t["idleness"] / team)
        self.assertEqual(d["pot"]["quadrant"], "high idleness, low overhead")
        text = E.tool("timeline", out).stdout
        self.assertIn("idleness %.4f s = %.1f %%, overhead %.4f s = %.1f %% of the team's %.4f s"
                      % (t["idleness"], 100 * t["idleness"] / team, t["overhead"],
                         100 * t["overhead"] / team, team), text)


def _time(v):
    from pompprof_tools.analysis import textfmt
    return textfmt.fmt_time(v)


def small_profile(path, threads, command_line, work):
    """A profile of program p at threads threads (command line as given) whose parallel
    region's threads work `work` seconds in all."""
    w = CubeWriter()
    w.add_attr("pompprof::program", "p")
    w.add_attr("pompprof::command_line", command_line)
    w.add_attr("pompprof::wall_time", str(work / threads))
    root = w.add_cnode(w.add_region("p", "", -1, -1, "measurement", "artificial"))
    par = w.add_cnode(w.add_region("!$omp parallel @p.c:3", "p.c", 3, 3, "openmp", "parallel"),
                      root)
    body = w.add_cnode(w.add_region("work", "p.c", 5, 9, "compiler", "function"), par)
    w.set_locations(["thread %d" % t for t in range(threads)])
    visits = w.add_metric("visits", "Visits", "UINT64", "EXCLUSIVE", "occ")
    time = w.add_metric("time", "Time", "DOUBLE", "INCLUSIVE", "sec")
    each = work / threads
    for c, v, t in ((root, [1] + [0] * (threads - 1), [each] * threads),
                    (par, [1] * threads, [each] * threads), (body, [1] * threads, [each] * threads)):
        w.set_row(visits, c, v)
        w.set_row(time, c, t)
    w.write(path)


if __name__ == "__main__":
    unittest.main(verbosity=2)
