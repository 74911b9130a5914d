"""The events of real traces, counted against the programs and their profiles.

Each program is built through the wrapper (OPARI2, gcc, libgomp), run with
POMPPROF_TRACE=1, and its archive read back with otf2-print (Debian otf2-tools), which
must read it without an error:
* tasks.c: one create and one complete per task instance the program makes, every
  switch to an explicit task is a fragment the profile shows as a stub visit, fork/join
  and team begin/end per thread, enter/leave balanced per location;
* locks.c: an acquire and a release per lock taken (set, successful test, nest locks);
* depend.c, fdepend.f90: tasks with depend clauses keep the mark in their region
  description, and their dependences are recorded (nothing undetermined);
* the definitions: one location per thread, the profile's regions, the flush region;
* PAPI counter values when POMPPROF_METRICS is set (perf::PAGE-FAULTS, a software event
  that counts in VMs too; skipped where PAPI cannot count);
* the program prints exactly what it prints untraced.
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from trace_common import E2E_PROGS, PROGS, Events, build, fib_task_calls, run, timeline
from pompprof_tools.cube import cubex

TASK_ID = re.compile(r"Creating Thread: (\d+).*Generation Number: (\d+)")



class TraceEvents(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_trace_ev_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def traced(self, source, name, threads=2, env=None):
        exe = build(self.scratch, source)
        out = os.path.join(self.scratch, name + ".trace")
        proc = run(exe, out, threads=threads, env=env)
        plain = run(build(self.scratch, source, profiled=False), out + ".plain", threads=threads,
                    trace=False)
        self.assertEqual(proc.stdout, plain.stdout)
        return out, Events(os.path.join(out, "traces.otf2"))

    def assertBalanced(self, ev):
        for loc in ev.locations():
            self.assertEqual(ev.count("ENTER", loc), ev.count("LEAVE", loc), "location %d" % loc)

    def test_tasks(self):
        out, ev = self.traced(os.path.join(E2E_PROGS, "tasks.c"), "tasks")
        # fib(12): two tasks per call with n >= 2; then the if(0) task (the wrapper
        # measures undeferred tasks), an untied task and 20 more
        instances = 2 * fib_task_calls(12) + 1 + 1 + 20
        self.assertEqual(ev.count("THREAD_TASK_CREATE"), instances)
        self.assertEqual(ev.count("THREAD_TASK_COMPLETE"), instances)
        created = {TASK_ID.search(a).groups() for e, _, a in ev.rows if e == "THREAD_TASK_CREATE"}
        completed = {TASK_ID.search(a).groups() for e, _, a in ev.rows
                     if e == "THREAD_TASK_COMPLETE"}
        self.assertEqual(len(created), instances)  # ids unique across threads
        self.assertEqual(created, completed)
        self.assertBalanced(ev)
        self.assertEqual(len(ev.locations()), 2)
        self.assertEqual(ev.count("THREAD_FORK"), 1)
        self.assertEqual(ev.count("THREAD_JOIN"), 1)
        for loc in (0, 1):
            self.assertEqual(ev.count("THREAD_TEAM_BEGIN", loc), 1)
            self.assertEqual(ev.count("THREAD_TEAM_END", loc), 1)
        # each switch to an explicit task starts a fragment: a stub visit in the profile
        to_explicit = sum(1 for e, _, a in ev.rows
                          if e == "THREAD_TASK_SWITCH" and TASK_ID.search(a).groups() in created)
        cube = cubex.load(out)
        stub_visits = 0

        def walk(c):
            nonlocal stub_visits
            for ch in cube.main_children(c):
                if ch.region.role in ("task", "untied task"):
                    stub_visits += int(sum(cube.row("visits", ch)))
                walk(ch)
        for root in cube.roots:
            walk(root)
        self.assertEqual(to_explicit, stub_visits)
        self.assertGreaterEqual(to_explicit, instances)

    def test_locks(self):
        _, ev = self.traced(os.path.join(E2E_PROGS, "locks.c"), "locks")
        threads = 2
        # 100 set_lock, 2 set_nest_lock, one successful test of each kind, per thread
        self.assertEqual(ev.count("THREAD_ACQUIRE_LOCK"), 104 * threads)
        self.assertEqual(ev.count("THREAD_RELEASE_LOCK"), 104 * threads)
        for loc in range(threads):
            self.assertEqual(ev.count("THREAD_ACQUIRE_LOCK", loc), 104)
        self.assertBalanced(ev)
        self.assertEqual(ev.count("THREAD_FORK"), 2)

    def test_depend(self):
        out, ev = self.traced(os.path.join(PROGS, "depend.c"), "depend")
        self.assertEqual(ev.count("THREAD_TASK_CREATE"), 3)
        defs = subprocess.run(["otf2-print", "-G", os.path.join(out, "traces.otf2")],
                              stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
        marked = [l for l in defs.splitlines()
                  if l.startswith("REGION") and 'Descr.: "depend"' in l]
        # the two task constructs with depend clauses and their creation regions
        self.assertEqual(len(marked), 4, marked)
        d = timeline(out)
        # their dependences are recorded (3 items, one edge): nothing undetermined
        self.assertEqual((d["depend"]["tasks"], d["depend"]["recorded"], d["depend"]["items"],
                          d["depend"]["edges"]), (0, 2, 3, 1))
        self.assertEqual(d["depend"]["constructs"], [])
        self.assertEqual(d["total"]["undetermined"], 0)

    def test_depend_fortran(self):
        if os.environ.get("FORTRAN_BINDINGS") != "yes":
            self.skipTest("no Fortran bindings in this build")
        out, ev = self.traced(os.path.join(PROGS, "fdepend.f90"), "fdepend")
        self.assertEqual(ev.count("THREAD_TASK_CREATE"), 3)
        d = timeline(out)
        # recorded, the continued directive's too: one edge, nothing undetermined
        self.assertEqual((d["depend"]["tasks"], d["depend"]["recorded"], d["depend"]["items"],
                          d["depend"]["edges"]), (0, 2, 2, 1))
        self.assertEqual(d["total"]["undetermined"], 0)

    def test_definitions(self):
        out, ev = self.traced(os.path.join(E2E_PROGS, "tasks.c"), "defs", threads=3)
        defs = subprocess.run(["otf2-print", "-G", os.path.join(out, "traces.otf2")],
                              stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
        lines = defs.splitlines()
        self.assertEqual(sum(1 for l in lines if l.startswith("LOCATION ")), 3)
        self.assertEqual(sum(1 for l in lines if l.startswith("SYSTEM_TREE_NODE ")), 1)
        regions = [l for l in lines if l.startswith("REGION ")]
        self.assertTrue(any('"pompprof trace flush"' in l for l in regions))
        cube = cubex.load(out)
        names = {r.name for r in cube.regions.values()}
        for name in names - {"TASKS"}:
            self.assertTrue(any('Name: "%s"' % name in l for l in regions), name)
        self.assertEqual(len(ev.locations()), 3)

    def test_metrics(self):
        probe = run(build(self.scratch, os.path.join(E2E_PROGS, "tasks.c")),
                    os.path.join(self.scratch, "papi_probe"), env={"POMPPROF_METRICS": "perf::PAGE-FAULTS"},
                    trace=False, check=False)
        if probe.returncode != 0 or "pompprof:" in probe.stderr:
            self.skipTest("PAPI cannot count perf::PAGE-FAULTS here: %s" % probe.stderr.strip())
        _, ev = self.traced(os.path.join(E2E_PROGS, "tasks.c"), "metrics",
                            env={"POMPPROF_METRICS": "perf::PAGE-FAULTS"})
        for loc in ev.locations():
            self.assertGreaterEqual(ev.count("METRIC", loc), ev.count("ENTER", loc))
            # a thread's page faults only grow, and some were counted
            values = [int(re.search(r"; (\d+)\)$", a).group(1))
                      for e, l, a in ev.rows if e == "METRIC" and l == loc]
            self.assertEqual(values, sorted(values))
            self.assertGreater(values[-1], 0)
        self.assertBalanced(ev)


if __name__ == "__main__":
    unittest.main()
