#!/usr/bin/env python3
"""One classification of a thread's time (issue 34, points 4 and 5; doc/trace.md):
pompprof-report (Python, from the profile) and pompprof-timeline (the C replay, from the
trace of the same run) put every stretch of time in the same class.

* On the synthetic event streams of trace_scenarios (exact times in nanoseconds, profile
  and trace of the same events; one with MPI calls in serial code, in an implicit task
  and in an explicit one) the classes agree to the nanosecond: total, work, task
  creation, waiting, MPI time, and serial code with fork/join (a profile reads no clock at a fork,
  so the forking thread's part of fork/join is in its serial time there: the two sums
  agree, doc/trace.md says why).
* On a real tiled Cholesky (serial set-up and check around a parallel region of
  dependent tasks) the same sums agree within the clock's rounding; the serial start is
  serial, not idleness; the trace's own flushes are measurement, apart from overhead.
* --from/--to restrict the task graph too; the task region (first creation to last
  end) has its own parallelism; the graph's work is the breakdown's work plus serial code
  plus task creation, as the output says.
* Collapsed dependence graphs count each predecessor's work once per pair of
  constructs, as the instance graph gives it."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numbers_env as E  # noqa: E402

if not E.have_replay():
    print("SKIP: built without OTF2: no traces")
    sys.exit(77)

WAIT_CATEGORIES = ("synchronization", "imbalance", "limited parallelism")
WAIT_PARTS = ("overhead_switch", "overhead_sync", "idleness", "undetermined")


def sums(rep, tl):
    """The sums both tools give of one run: (report's, timeline's) per quantity."""
    cats = rep["overhead"]["program"]["categories"]
    comp = rep["overhead"]["program"]["components"]
    t = tl["total"]
    return {
        "time": (rep["overhead"]["program"]["total"], t["time"]),
        "work": (cats["work"]["time"], t["work"]),
        "task creation": (comp["create"], t["overhead_create"]),
        "waiting": (sum(cats[c]["time"] for c in WAIT_CATEGORIES), sum(t[k] for k in WAIT_PARTS)),
        "serial and fork/join": (cats["serial"]["time"] + comp["forkjoin"],
                                 t["serial"] + t["overhead_forkjoin"] + t["measurement"]),
        "MPI": (cats["MPI communication"]["time"], t["mpi"]),
    }


class ClassesAgree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp_classes_")
        exe = E.build(cls.tmp, "cholesky.c")
        cls.run_dir = os.path.join(cls.tmp, "cholesky.run")
        # a buffer that never fills: the trace's only own time is its start
        E.run(exe, cls.run_dir, [6, 32], trace=True, env={"POMPPROF_TRACE_BUFFER": "64M"})
        cls.flushed = os.path.join(cls.tmp, "flushed.run")
        E.run(exe, cls.flushed, [6, 32], trace=True, env={"POMPPROF_TRACE_BUFFER": "16k"})
        cls.rep = E.report(cls.run_dir)
        cls.tl = E.timeline(cls.run_dir)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_synthetic_streams_agree_to_the_nanosecond(self):
        for name in ("idle", "critical", "depend", "tied", "graph", "kinds", "mpi"):
            out = os.path.join(self.tmp, name)
            subprocess.run([E.SCENARIOS, name, out], check=True)
            for what, (r, t) in sums(E.report(out), E.timeline(out)).items():
                self.assertEqual(round(r * 1e9), round(t * 1e9), "%s: %s" % (name, what))

    def test_a_real_run_agrees(self):
        for what, (r, t) in sums(self.rep, self.tl).items():
            self.assertAlmostEqual(r, t, delta=2e-6 + 1e-6 * r, msg=what)
        # the timeline's columns add up to each thread's time
        parts = ("work", "serial", "overhead", "idleness", "undetermined", "mpi", "measurement")
        for th in self.tl["threads"] + [self.tl["total"]]:
            self.assertAlmostEqual(sum(th[k] for k in parts), th["time"], delta=1e-8)
            self.assertAlmostEqual(th["overhead"], th["overhead_create"] + th["overhead_forkjoin"]
                                   + th["overhead_switch"] + th["overhead_sync"], delta=1e-8)

    def test_serial_start_is_serial(self):
        """The stretch between the program's start and its team's fork (building the
        matrix) is serial code in both tools: not the team's work, not idleness."""
        t = self.tl["total"]
        self.assertGreater(t["serial"], 0)
        self.assertGreater(self.rep["overhead"]["program"]["categories"]["serial"]["time"], 0)
        # the window up to the master's fork (otf2-print gives its time)
        text = subprocess.run(["otf2-print", os.path.join(self.run_dir, "traces.otf2")],
                              stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
        stamps = [(ln.split()[0], ln.split()[1], int(ln.split()[2])) for ln in text.splitlines()
                  if len(ln.split()) > 2 and ln.split()[0].isupper() and ln.split()[2].isdigit()]
        first = min(t for _, _, t in stamps)
        fork = next(t for e, loc, t in stamps if e == "THREAD_FORK" and loc == "0")
        before = E.timeline(self.run_dir, "--to", repr((fork - first) / self.tl["trace"]["resolution"]))
        th0 = before["threads"][0]
        self.assertGreater(th0["serial"], 0)
        self.assertEqual((th0["idleness"], th0["undetermined"], th0["work"], th0["overhead"]),
                         (0, 0, 0, 0))
        # all of it: serial code and the trace's start
        self.assertAlmostEqual(th0["serial"] + th0["measurement"], th0["time"], delta=1e-8)
        # POT's quadrant leaves serial code and the trace's own time out
        pot = self.tl["pot"]
        self.assertAlmostEqual(pot["team_time"], t["time"] - t["serial"] - t["measurement"])

    def test_flushes_are_measurement(self):
        d = E.timeline(self.flushed)
        t = d["total"]
        self.assertGreater(t["measurement"], 0)
        self.assertNotIn("overhead_flush", t)
        self.assertAlmostEqual(t["overhead"], t["overhead_create"] + t["overhead_forkjoin"]
                               + t["overhead_switch"] + t["overhead_sync"], delta=1e-9)
        text = E.tool("timeline", self.flushed).stdout
        self.assertIn("measure", text.split("\n")[3])          # a column of its own
        self.assertIn("measurement %.1f %%" % (100 * t["measurement"] / t["time"]), text)

    def test_the_graph_follows_the_window(self):
        g, reg = self.tl["graph"], self.tl["task_region"]
        t = self.tl["total"]
        # what the graph's work holds, as it says (each printed with 9 digits)
        self.assertAlmostEqual(g["work"], t["work"] + t["serial"] + t["overhead_create"],
                               delta=1e-8 * g["work"] + 1e-11)
        self.assertAlmostEqual(g["work_creation"], t["overhead_create"], delta=1e-12)
        self.assertAlmostEqual(g["work_serial"], t["serial"], delta=1e-12)
        # the task region: within the trace, less work, more parallelism (no serial code)
        self.assertGreater(reg["from"], 0)
        self.assertLess(reg["to"], self.tl["trace"]["seconds"])
        self.assertEqual(reg["work_serial"], 0)
        self.assertLess(reg["work"], g["work"])
        self.assertGreater(reg["parallelism"], g["parallelism"])
        self.assertEqual(reg["tasks"], self.tl["graph"]["tasks"])
        # --from/--to the task region's bounds: the graph is the task region's
        w = E.timeline(self.run_dir, "--from", repr(reg["from"]), "--to", repr(reg["to"]))
        # (the window's seconds rounded to ticks: a tick or two apart)
        tick = 2.0 / self.tl["trace"]["resolution"]
        self.assertAlmostEqual(w["graph"]["work"], reg["work"], delta=2 * tick + 1e-6 * reg["work"])
        self.assertAlmostEqual(w["graph"]["span"], reg["span"], delta=2 * tick + 1e-6 * reg["span"])
        text = E.tool("timeline", self.run_dir).stdout
        self.assertIn("task region (%.4f to %.4f s" % (reg["from"], reg["to"]), text)
        self.assertIn("parallelism %.2f" % reg["parallelism"], text)
        self.assertIn("(task creation %.6f s and serial code %.6f s included)"
                      % (g["work_creation"], g["work_serial"]), text)

    def test_collapsed_edges_count_each_task_once(self):
        archive = os.path.join(self.run_dir, "traces.otf2")
        inst = E.replay(archive, "--graph", "100000")["task_graph"]
        coll = E.replay(archive, "--graph", "1")["task_graph"]
        self.assertFalse(inst["dependences"]["collapsed"])
        self.assertTrue(coll["dependences"]["collapsed"])
        nodes, names = inst["dependences"]["nodes"], inst["constructs"]
        want = {}
        for a, b, _ in inst["dependences"]["edges"]:
            key = (names[nodes[a][0]], names[nodes[b][0]])
            e = want.setdefault(key, [0, {}])
            e[0] += 1
            e[1][a] = nodes[a][6]           # a predecessor's work, once
        cnodes = coll["dependences"]["nodes"]
        got = {(coll["constructs"][cnodes[a][0]], coll["constructs"][cnodes[b][0]]):
               (count, work, preds) for a, b, count, work, preds, _ in coll["dependences"]["edges"]}
        self.assertEqual(set(got), set(want))
        repeated = 0
        for key, (count, preds) in want.items():
            self.assertEqual(got[key][0], count, key)
            self.assertEqual(got[key][2], len(preds), key)
            self.assertAlmostEqual(got[key][1], sum(preds.values()), delta=1e-9, msg=key)
            repeated += count > len(preds)
        self.assertGreater(repeated, 0)     # some predecessor has several successors there
        dot = os.path.join(self.tmp, "c.dot")
        E.tool("timeline", self.run_dir, "--dot", dot, "--dot-instances", "1")
        with open(dot) as f:
            text = f.read()
        for (count, work, preds) in got.values():
            self.assertIn('label="%d x from %d tasks, %s ms"' % (count, preds, "%.3g" % (1e3 * work)),
                          text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
