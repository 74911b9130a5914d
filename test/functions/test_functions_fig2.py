#!/usr/bin/env python3
"""The task-profiling paper's Fig. 2 with compiler-instrumented functions
(progs/fig2.c, built with `pompprof --functions`): tasks call foo, are
suspended inside it (at a task creation or a taskwait) while another task
calls foo on the same thread, and resume inside it; foo calls bar.

At 1, 2 and 4 threads, against what the program measured itself:
* the visits of foo and bar are exact;
* foo's and bar's exclusive times are within 10% of their own spin time;
* no suspended time is counted: at 1 thread every child task runs while its
  parent is suspended in foo, so the taskwaits and task creations inside the
  task trees hold (almost) nothing, and foo's inclusive time in the task trees
  stays within the work of foo and bar;
* the time checks: every run, at least the program's own time less the
  margin (a busy machine only adds time).  The upper bounds (within the
  margin; the scheduling points in the task trees near nothing) only under
  `make check-timing` (CHECK_TIMING=1), never in `make check`: a thread
  that loses its core between foo's entry and its first clock read, or
  around a task creation, adds time that is rightly foo's and that the
  program cannot see (seen once in 12 runs of this test beside a parallel
  build: foo 12 % above, at 4 threads on 2 cores); there a case runs again,
  up to 3 runs, until one holds every upper bound -- an engine that counted
  suspended time fails them all;
* every node in the task trees is foo, bar or an OpenMP construct, foo sits
  right below each task construct, and the child tasks' stubs hang below the
  taskwait inside the implicit task's foo (its scheduling point);
* no exclusive time is negative;
* the trace (POMPPROF_TRACE=1) has their enters and leaves, the report lists
  them by task construct.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from functions_common import (  # noqa: E402
    ENV, PROGS, build, cnodes_of, in_tasks, require_libdw, run, total)

TASKS, SPIN_US = 6, 2000


def source_line(start):
    """The line of progs/fig2.c that starts with start."""
    with open(os.path.join(PROGS, "fig2.c")) as f:
        return next(i for i, line in enumerate(f, 1) if line.startswith(start))


class Fig2(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_libdw()
        cls.scratch = tempfile.mkdtemp(prefix="pp_fn_fig2_")
        cls.exe = build(cls.scratch, "fig2.c")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def check(self, threads):
        """One run, everything but the upper time bounds checked; with
        CHECK_TIMING=1 up to 3 runs, until one holds the upper bounds too."""
        timing = os.environ.get("CHECK_TIMING") == "1"
        excesses = []
        for attempt in range(3 if timing else 1):
            excess = self.check_run(threads, attempt)
            if not excess or not timing:
                return
            excesses.append(excess)
        self.fail("at %d threads, every run above the bounds: %s" % (threads, excesses))

    def check_run(self, threads, attempt):
        """One run: everything but the upper time bounds asserted; the upper
        bounds it exceeds, as messages."""
        truth_file = os.path.join(self.scratch, "truth%d.%d" % (threads, attempt))
        out, cube, err = run(self.scratch, self.exe, threads, TASKS, SPIN_US,
                             env={"FIG2_TRUTH": truth_file})
        self.assertEqual(err, "")
        calls = 2 * (TASKS + 1)
        self.assertEqual(out, "foo %d bar %d\n" % (calls, calls))
        with open(truth_file) as f:
            foo_n, foo_s, bar_n, bar_s, task_s = f.read().split()
        foo_s, bar_s, task_s = float(foo_s), float(bar_s), float(task_s)
        foo, bar = cnodes_of(cube, "foo"), cnodes_of(cube, "bar")
        self.assertTrue(foo and bar)
        # names, files and lines from the debug information
        for c in foo + bar:
            self.assertTrue(c.region.mod.endswith("fig2.c"), c.region.mod)
            self.assertEqual(c.region.paradigm, "compiler")
            self.assertEqual(c.region.role, "function")
        self.assertEqual(foo[0].region.begin, source_line("void foo("))
        self.assertEqual(bar[0].region.begin, source_line("double bar("))
        # visits exact
        self.assertEqual(total(cube, "visits", foo), int(foo_n))
        self.assertEqual(total(cube, "visits", bar), int(bar_n))
        excess = []
        # time: each function's own work
        for name, cn, truth in (("foo", foo, foo_s), ("bar", bar, bar_s)):
            got = total(cube, "time", cn)
            what = "%s at %d threads: %g s in the profile, %g s measured by the program" % (
                name, threads, got, truth)
            self.assertGreater(got / truth, 0.90, what)
            if got / truth > 1.10:
                excess.append(what)
        # the task trees: each construct's root has foo right below it
        for root in cube.task_roots():
            self.assertIn("foo", [ch.region.name for ch in root.children], root.region.name)
        for c in cube.cnodes_in_order():
            if in_tasks(cube, c) and not cube.is_tasks_node(c):
                self.assertTrue(c.region.paradigm == "openmp" or c.region.name in ("foo", "bar"),
                                c.region.name)
            for v in cube.exclusive_row("time", c):
                self.assertGreaterEqual(v, -1e-12, c.region.name)
        # the implicit task's foo: its taskwait holds stubs of the tasks that ran there
        (main_foo,) = cnodes_of(cube, "foo", where=False)
        waits = [ch for ch in main_foo.children if ch.region.role == "taskwait"]
        self.assertEqual(len(waits), 1)
        if threads == 1:
            # one thread: every task ran while the implicit task waited in foo
            stubs = [ch for ch in waits[0].children if ch.region.role == "task"]
            self.assertEqual(total(cube, "visits", stubs) >= 2 * TASKS + 1, True)
            # suspended time is not counted: the scheduling points inside
            # the task trees held the thread only while it ran other tasks
            sched = [c for c in cube.cnodes_in_order() if in_tasks(cube, c)
                     and c.region.role in ("taskwait", "task create")]
            work = foo_s + bar_s
            held = total(cube, "time", sched, "inclusive")
            if held >= 0.02 * work:
                excess.append("scheduling points in the task trees: %g s of %g s work"
                              % (held, work))
            # foo in the task trees: the work of foo and bar inside the tasks,
            # without the child tasks that ran while it was suspended
            in_tree = total(cube, "time", cnodes_of(cube, "foo", where=True), "inclusive")
            what = ("foo in the task trees: %g s, the tasks' own work of foo and bar %g s"
                    % (in_tree, task_s))
            self.assertGreater(in_tree / task_s, 0.95, what)
            if in_tree / task_s > 1.05:
                excess.append(what)
        return excess

    def test_report_by_callee(self):
        """pompprof-report: every task construct lists foo and bar with their visits,
        foo holding (nearly) all of the construct's time."""
        out, cube, err = run(self.scratch, self.exe, 2, TASKS, 200)
        report = os.path.join(os.environ["top_builddir"], "scripts", "pompprof-report")
        js = subprocess.run([report, "--format", "json", cube.path], env=ENV, check=True,
                            stdout=subprocess.PIPE, universal_newlines=True).stdout
        tasks = {t["name"]: t for t in json.loads(js)["tasks"]}
        self.assertEqual(len(tasks), 2)
        for t in tasks.values():
            callees = {c["name"]: c for c in t["callees"]}
            self.assertEqual(set(callees), {"foo", "bar"})
            self.assertEqual(callees["foo"]["visits"], t["instances"])
            self.assertEqual(callees["bar"]["visits"], t["instances"])
            self.assertGreater(callees["foo"]["pct"], 95.0)
        text = subprocess.run([report, cube.path], env=ENV, check=True, stdout=subprocess.PIPE,
                              universal_newlines=True).stdout
        self.assertIn("Task constructs by callee", text)
        self.assertIn("FUNCTION", text)

    def test_trace(self):
        """POMPPROF_TRACE=1: the trace has an enter and a leave of foo and bar per call."""
        if not shutil.which("otf2-print"):
            self.skipTest("no otf2-print (Debian: otf2-tools)")
        out, cube, err = run(self.scratch, self.exe, 2, 2, 100, env={"POMPPROF_TRACE": "1"})
        anchor = os.path.join(os.path.dirname(cube.path), "traces.otf2")
        if "no tracing" in err or not os.path.exists(anchor):
            self.skipTest("this pompprof has no OTF2 tracing")
        text = subprocess.run(["otf2-print", anchor], stdout=subprocess.PIPE, check=True,
                              universal_newlines=True).stdout
        calls = 2 * (2 + 1)
        for name in ("foo", "bar"):
            for event in ("ENTER", "LEAVE"):
                n = sum(1 for line in text.splitlines()
                        if line.startswith(event) and 'Region: "%s"' % name in line)
                self.assertEqual(n, calls, "%s %s" % (event, name))

    def test_one_thread(self):
        self.check(1)

    def test_two_threads(self):
        self.check(2)

    def test_four_threads(self):
        self.check(4)


if __name__ == "__main__":
    unittest.main()
