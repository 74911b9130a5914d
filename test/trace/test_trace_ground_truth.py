"""Ground truth for pompprof-timeline, on real programs at 2 threads (test/trace/progs,
built with OPARI2 through the wrapper, traced with POMPPROF_TRACE=1).

Breakdown, each within 15%:
* gt_idle: one thread runs a single 100 ms task while the other waits in a barrier:
  work about 0.1 s on the first, idleness about 0.1 s on the second;
* gt_critical: a thread blocked 50 ms in a critical section held by the other while
  tasks are ready: overhead about 0.05 s on it (what the program measured of its wait
  while a task was ready; the rest of its wait, every task started, is idleness);
* fib_cutoff (examples/): work + overhead + idleness equals each thread's measured time
  (the profile's, from the same run); inside the parallel region (the window from the
  master's fork to its join) at least 80 % of the work is the tasks'.
Task graph:
* gt_tree, a binary task tree of depth 8 with 256 leaves of 2 ms: work about 0.512 s
  (15%), parallelism at most work / longest leaf (about 256) and at least half of
  leaves / the longest path as the program measured it (the span adds the creation path
  to the longest leaf), the span path summing to the span;
* gt_chain, 50 tasks each spinning 2 ms, creating the next and waiting for it:
  parallelism about 1 (20%).

Every trace is also read by otf2-print.  A loaded machine can deschedule a spinning thread past its deadline, so every program
also reports what its spins really took (GT_REPORT); the trace is compared with those
figures, and with the nominal ones whenever the spins kept time (within 5%).
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from trace_common import EXAMPLES, PROGS, TOP_BUILDDIR, Events, build, read_report, run, timeline
from pompprof_tools.cube import cubex


REPLAY = os.path.join(TOP_BUILDDIR, "replay", "pompprof-replay")
# upper wall-clock bounds: only in make check-timing (PP_TEST_TIMING=1); a busy machine
# stretches the intervals a trace sees beyond what the program's clock saw, never less
TIMING = os.environ.get("PP_TEST_TIMING") == "1"


def near(value, expected, tolerance):
    return abs(value - expected) <= tolerance * abs(expected)


class GroundTruth(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_trace_gt_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def traced(self, name, source=None, args=()):
        """Build and run name; returns (timeline JSON, GT_REPORT values, output dir)."""
        exe = build(self.scratch, source or os.path.join(PROGS, name + ".c"))
        out = os.path.join(self.scratch, name + ".trace")
        report = os.path.join(self.scratch, name + ".report")
        run(exe, out, args=args, env={"GT_REPORT": report})
        ev = Events(os.path.join(out, "traces.otf2"))  # otf2-print reads it
        for loc in ev.locations():
            self.assertEqual(ev.count("ENTER", loc), ev.count("LEAVE", loc))
        values = read_report(report) if os.path.exists(report) else {}
        return timeline(out), values, out

    def check(self, what, value, measured, nominal, tolerance):
        """value is at least what the program measured (less the tolerance); in
        make check-timing also at most, and near the nominal figure."""
        self.assertGreaterEqual(value, (1 - tolerance) * measured,
                                "%s: %.6f, the program measured %.6f" % (what, value, measured))
        if TIMING:
            self.assertTrue(near(value, measured, tolerance),
                            "%s: %.6f, the program measured %.6f" % (what, value, measured))
            if near(measured, nominal, 0.05):
                self.assertTrue(near(value, nominal, tolerance),
                                "%s: %.6f, expected %.6f" % (what, value, nominal))

    def test_idle(self):
        d, rep, out = self.traced("gt_idle")
        threads = d["threads"]
        runner = max(threads, key=lambda t: t["work_task"])
        waiter = min(threads, key=lambda t: t["work_task"])
        self.check("task work of the thread that ran it", runner["work_task"], rep["task"], 0.1,
                   0.15)
        # the waiting thread's idleness while the task ran (before it, the runtime may
        # have taken its time to start the second thread: idleness too, of the other)
        frags = self.task_fragments(out)
        begin, end = frags[0][0], frags[-1][1]
        w = timeline(out, "--from", repr(begin), "--to", repr(end))
        waiter_w = w["threads"][waiter["location"]]
        self.check("idleness of the other thread", waiter_w["idleness"], rep["task"], 0.1, 0.15)
        self.assertGreaterEqual(waiter["idleness"], waiter_w["idleness"])
        if TIMING:
            self.assertLess(waiter_w["overhead"], 0.1 * waiter_w["idleness"])

    def task_fragments(self, out):
        """The fragments [start, end] (seconds) in which the run's one task ran."""
        proc = subprocess.run([REPLAY, "--pictures", os.path.join(out, "traces.otf2")],
                              stdout=subprocess.PIPE, check=True, universal_newlines=True)
        inst = json.loads(proc.stdout)["pictures"]["instances"]
        self.assertEqual(len(inst), 1)
        return [(a, b) for a, b, _, running in inst[0]["fragments"] if running]

    def test_critical(self):
        d, rep, _ = self.traced("gt_critical")
        blocked = d["threads"][1]
        # overhead while a task was ready; what a descheduled thread 1 waited
        # beyond that (every task started) is idleness.  The program's clock
        # reads lie outside the events around the critical section (before its
        # enter, after its acquire, inside the task after its begin), so on a
        # loaded machine a thread descheduled between a read and an event makes
        # the program's windows longer than the trace's by any amount: the
        # comparisons with them are make check-timing's; make check keeps what
        # no load changes -- the wait is there, and it is the critical's.
        self.assertLessEqual(rep["blocked_ready"], rep["blocked"])
        if TIMING:
            self.check("overhead of the blocked thread", blocked["overhead"],
                       rep["blocked_ready"], 0.05, 0.15)
            self.assertGreaterEqual(blocked["overhead"] + blocked["idleness"],
                                    0.85 * rep["blocked"])
        elif rep["blocked_ready"] > 0.01:
            self.assertGreater(blocked["overhead"], 0)
        self.assertGreater(blocked["overhead_sync"], 0.8 * blocked["overhead"])

    def test_cutoff_adds_up(self):
        d, _, out = self.traced("fib_cutoff", os.path.join(EXAMPLES, "fib_cutoff.c"),
                                args=(34, 10))
        # the profile's time of each thread with its fork/join wait (the report's T: a
        # worker's wait for the team lies outside its measured time, in both tools)
        cats = json.loads(subprocess.run(
            [os.path.join(TOP_BUILDDIR, "scripts", "pompprof-report"), "--format", "json", out],
            stdout=subprocess.PIPE, check=True).stdout)["overhead"]["program"]["categories"]
        measured = [sum(c["threads"][t] for c in cats.values()) for t in range(len(d["threads"]))]
        self.assertEqual(len(cubex.load(out).locations), len(d["threads"]))
        for t, profile_time in zip(d["threads"], measured):
            parts = (t["work"] + t["serial"] + t["overhead"] + t["idleness"] + t["undetermined"]
                     + t["measurement"])
            self.assertTrue(near(parts, profile_time, 0.15),
                            "thread %s: %.6f vs the profile's %.6f" % (t["location"], parts,
                                                                       profile_time))
            self.assertAlmostEqual(parts, t["time"], delta=1e-6)
        # Inside the parallel region the work is the tasks'.  Before the fork and
        # after the join the initial thread runs serial code (a class of its own),
        # and so is any time a loaded machine deschedules it there (33 ms of 0.11 s
        # in one run beside a build), so the check looks at the region's window.
        fork, join = self.parallel_window(out, d["trace"]["resolution"])
        inside = timeline(out, "--from", repr(fork), "--to", repr(join))["total"]
        self.assertGreater(inside["work_task"], 0.8 * inside["work"], (fork, join, inside))

    def parallel_window(self, out, resolution):
        """Seconds from the trace's start to the master's fork and join."""
        text = subprocess.run(["otf2-print", os.path.join(out, "traces.otf2")],
                              stdout=subprocess.PIPE, universal_newlines=True,
                              check=True).stdout
        first, fork, join = None, None, None
        for line in text.splitlines():
            parts = line.split(None, 3)
            if len(parts) < 3 or not parts[0].isupper() or not parts[2].isdigit():
                continue
            t = int(parts[2])
            first = t if first is None else min(first, t)
            if parts[1] == "0" and parts[0] == "THREAD_FORK" and fork is None:
                fork = t
            if parts[1] == "0" and parts[0] == "THREAD_JOIN":
                join = t
        self.assertIsNotNone(fork)
        self.assertIsNotNone(join)
        return (fork - first) / resolution, (join - first) / resolution

    def test_tree(self):
        d, rep, _ = self.traced("gt_tree")
        g = d["graph"]
        self.assertEqual(g["tasks"], 2 * 256 - 2)
        self.check("work", g["work"], rep["leaf_sum"], 0.512, 0.15)
        self.assertGreaterEqual(g["span"], rep["leaf_max"])
        # The span is the longest leaf plus the creation path down to it
        # (eight levels of task creation, and whatever a loaded machine adds
        # there: a parent descheduled before creating a child, 74 ms in one run
        # beside a build), so the parallelism is at most work / longest leaf
        # (the trace's work is the leaves' within the 15 % checked above; the
        # inner tasks' code and what a loaded machine adds there are work too,
        # 10 % in one run), and a tree's stays of the order of leaves / the
        # longest path the program measured itself (a graph that lost the
        # tree's shape would give about 1 or 2): at least half of it.
        self.assertLessEqual(g["parallelism"], g["work"] / rep["leaf_max"] * 1.001)
        self.assertGreaterEqual(rep["path_max"], rep["leaf_max"])
        self.assertGreaterEqual(g["parallelism"], rep["leaf_sum"] / rep["path_max"] * 0.5,
                                "parallelism %.1f, leaves/longest path %.1f, span %.6f s, "
                                "longest path %.6f s" % (g["parallelism"],
                                                         rep["leaf_sum"] / rep["path_max"],
                                                         g["span"], rep["path_max"]))
        # the span path accounts for the span
        self.assertTrue(near(sum(p["seconds"] for p in g["span_path"]), g["span"], 0.01),
                        (g["span_path"], g["span"]))
        constructs = {p["construct"] for p in g["span_path"]}
        self.assertTrue(any(c.startswith("!$omp task @gt_tree.c") for c in constructs),
                        constructs)
        bounds = {s["threads"]: s for s in g["speedup"]}
        self.assertEqual(sorted(bounds), [2 ** k for k in range(1, 11)])
        self.assertAlmostEqual(bounds[2]["upper"], 2, places=3)
        self.assertLessEqual(bounds[1024]["upper"], g["parallelism"] * 1.001)
        for s in g["speedup"]:
            self.assertLessEqual(s["lower"], s["upper"] * 1.0001)

    def test_chain(self):
        d, rep, _ = self.traced("gt_chain")
        g = d["graph"]
        self.assertEqual(g["tasks"], 50)
        # the spins are the floor; the tasks' own time (what a loaded machine
        # adds around the spins included) is what the trace must show
        self.assertGreaterEqual(rep["own_sum"], rep["link_sum"])
        self.assertGreaterEqual(g["work"], 0.95 * rep["link_sum"])
        self.check("work", g["work"], rep["own_sum"], 0.1, 0.15)
        self.assertTrue(near(g["parallelism"], 1.0, 0.2), g["parallelism"])
        path = [p for p in g["span_path"] if p["construct"].startswith("!$omp task @gt_chain.c")]
        self.assertTrue(near(sum(p["seconds"] for p in path), rep["own_sum"], 0.15),
                        (sum(p["seconds"] for p in path), rep["own_sum"]))


if __name__ == "__main__":
    unittest.main()
