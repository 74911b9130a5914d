"""Dependent tasks, measured: ground truth for the dependences the wrapper records and the
graph pompprof-replay builds from them, on real programs at 1, 2 and 4 threads.

* examples/wavefront.c in chains mode (CHAINS=8, 20 tasks each) and as an 8 x 8
  wavefront: the program writes when each task ran; the work and the span of the known
  graph with those durations give the true parallelism.  The replay's task work and the
  tasks' stretch of its span's path must match them within 15%, and so their ratio the
  true parallelism; the nominal one (8, and 64 / 15 = 4.27) too when the tasks kept
  equal durations (a loaded machine can stretch some of them).  The run's own figures add
  its serial parts and the task creations;
* test/e2e/progs/depend_graphs.c: in/out/inout, mutexinoutset, depobj (init, update,
  destroy), iterator, a 2-D array section, a section and an element at one address, a
  taskwait depend: the replay's edges equal the known graph, edge for edge; and the same
  for Fortran (fdepend_graphs.f90: sections, a 2-D section, a whole array, an element,
  mutexinoutset, taskwait depend);
* no undetermined time, and every program prints what its plain build prints;
* the profile's metric "dependences" counts the recorded list items."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from trace_common import EXAMPLES, TOP_BUILDDIR, TOP_SRCDIR, build, dot_edges, run
from pompprof_tools.cube import cubex

REPLAY = os.path.join(TOP_BUILDDIR, "replay", "pompprof-replay")
GRAPHS = os.path.join(TOP_SRCDIR, "test", "e2e", "progs", "depend_graphs.c")
STEPS = 250000  # about 1 ms of work per task here
FGRAPHS = os.path.join(TOP_SRCDIR, "test", "e2e", "progs", "fdepend_graphs.f90")
FGRAPH_EDGES = {(0, 1), (0, 2), (1, 3), (2, 3), (4, 5), (4, 6), (5, 7), (6, 7), (8, 9),
                (10, 11), (12, 13)}
GRAPH_EDGES = {(0, 1), (0, 2), (1, 3), (2, 3), (4, 5), (4, 6), (5, 7), (6, 7), (8, 9),
               (8, 10), (9, 11), (10, 11), (12, 13), (12, 14), (15, 16), (17, 18)}


def replay(out, *args):
    import json
    proc = subprocess.run([REPLAY] + list(args) + [os.path.join(out, "traces.otf2")],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, check=True)
    return json.loads(proc.stdout)


class Depend(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_trace_depend_")
        cls.wave = build(cls.scratch, os.path.join(EXAMPLES, "wavefront.c"))
        cls.wave_plain = build(cls.scratch, os.path.join(EXAMPLES, "wavefront.c"),
                               profiled=False)
        cls.graphs = build(cls.scratch, GRAPHS)
        cls.graphs_plain = build(cls.scratch, GRAPHS, profiled=False)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def traced(self, exe, plain, name, threads, args=(), env=None):
        """Run exe traced and its plain build (which writes its times file, if any, beside
        the traced run's); both print the same."""
        out = os.path.join(self.scratch, "%s.%d" % (name, threads))
        proc = run(exe, out, threads=threads, args=args, env=env)
        args = [a + ".plain" if str(a).endswith(".times") else a for a in args]
        ref = run(plain, out + ".plain", threads=threads, args=args, env=env, trace=False)
        self.assertEqual(proc.stdout, ref.stdout)
        return out

    def truth(self, times, chains):
        """(work, span) of the known graph with the durations the program measured."""
        dur = {}
        with open(times) as f:
            for line in f:
                i, j, t0, t1 = line.split()
                dur[int(i), int(j)] = float(t1) - float(t0)
        rows = 1 + max(i for i, _ in dur)
        cols = 1 + max(j for _, j in dur)
        if chains:
            lengths = [sum(dur[i, j] for j in range(cols)) for i in range(rows)]
            span = max(lengths)
            even = min(lengths) >= 0.85 * span
        else:
            longest = {}
            for i in range(rows):
                for j in range(cols):
                    longest[i, j] = dur[i, j] + max(longest.get((i - 1, j), 0),
                                                    longest.get((i, j - 1), 0))
            span = longest[rows - 1, cols - 1]
            even = min(dur.values()) >= 0.7 * max(dur.values())
        return sum(dur.values()), span, even

    def check_wave(self, chains, threads):
        name = "chains" if chains else "wavefront"
        times = os.path.join(self.scratch, "%s.%d.times" % (name, threads))
        n = 20 if chains else 8
        out = self.traced(self.wave, self.wave_plain, name, threads, args=(n, STEPS, times),
                          env={"CHAINS": "8"} if chains else {})
        d = replay(out)
        g = d["graph"]
        work, span, even = self.truth(times, chains)
        # the tasks' share: their work (the breakdown's task work) and their stretch of
        # the span's path; the run's figures add its serial parts (start-up, the check
        # after the parallel region), which a loaded machine can stretch at will
        path = {p["construct"]: p["seconds"] for p in g["span_path"]}
        task = [k for k in path if k.startswith("!$omp task @wavefront.c")]
        self.assertEqual(len(task), 1, path)
        task_work, task_span = d["total"]["work_task"], path[task[0]]
        what = "%s at %d threads: work %.4f (true %.4f), span %.4f (true %.4f)" % (
            name, threads, task_work, work, task_span, span)
        # the tasks' work and span enclose the durations the program measured; within
        # 15 % of them (and the parallelism with them) in make check-timing only: a busy
        # machine stretches a task's time beyond its measured part, and one task's
        # stretch changes the span and the parallelism
        self.assertGreaterEqual(task_work, 0.99 * work, what)
        self.assertGreaterEqual(task_span, 0.99 * span, what)
        parallelism = task_work / task_span
        if os.environ.get("PP_TEST_TIMING") == "1":
            self.assertAlmostEqual(task_work / work, 1, delta=0.15, msg=what)
            self.assertAlmostEqual(task_span / span, 1, delta=0.15, msg=what)
            self.assertAlmostEqual(parallelism / (work / span), 1, delta=0.15, msg=what)
            nominal = 8 if chains else 64 / 15
            if even:
                self.assertAlmostEqual(parallelism / nominal, 1, delta=0.15, msg=what)
        # the whole run: at least the tasks' work and their stretch of the span (the
        # creating thread's work, running beside the tasks, may raise its parallelism)
        self.assertGreaterEqual(g["work"], 0.99 * task_work)
        self.assertGreaterEqual(g["span"], 0.99 * task_span)
        self.assertEqual(g["dependence_edges"], 8 * 19 if chains else 2 * 8 * 7)
        self.assertEqual(g["depend_tasks"], 0)
        self.assertEqual(d["total"]["undetermined"], 0)
        self.assertEqual(d["depend"]["recorded"], 160 if chains else 64)
        (rw,) = d["ready_wait"]
        self.assertEqual(rw["tasks"], 160 if chains else 64)

    def test_chains(self):
        for threads in (1, 2, 4):
            self.check_wave(True, threads)

    def test_wavefront(self):
        for threads in (1, 2, 4):
            self.check_wave(False, threads)

    def test_sparselu(self):
        """The blocked sparse LU with depend clauses: as plain, every readiness known."""
        src = os.path.join(EXAMPLES, "sparselu.c")
        exe, plain = build(self.scratch, src), build(self.scratch, src, profiled=False)
        out = self.traced(exe, plain, "sparselu", 2, args=(12, 16, "depend"))
        dot = os.path.join(out, "graph.dot")
        d = replay(out, "--dot", dot, "--dot-instances", "50")
        self.assertEqual(d["total"]["undetermined"], 0)
        self.assertEqual(d["depend"]["tasks"], 0)
        self.assertGreater(d["depend"]["recorded"], 200)
        self.assertGreater(d["depend"]["edges"], d["depend"]["recorded"])
        with open(dot) as f:
            text = f.read()
        # collapsed: the four constructs (lu0, fwd, bdiv, bmod)
        self.assertEqual(len(re.findall(r"^  c\d+ \[label=", text, re.M)), 4)

    def test_graphs_fortran(self):
        if os.environ.get("FORTRAN_BINDINGS") != "yes":
            self.skipTest("no Fortran bindings in this build")
        exe = build(self.scratch, FGRAPHS)
        plain = build(self.scratch, FGRAPHS, profiled=False)
        for threads in (1, 2, 4):
            out = self.traced(exe, plain, "fgraphs", threads)
            dot = os.path.join(out, "graph.dot")
            d = replay(out, "--dot", dot)
            self.assertEqual(dot_edges(dot), FGRAPH_EDGES, "%d threads" % threads)
            dep = d["depend"]
            self.assertEqual((dep["tasks"], dep["recorded"], dep["items"], dep["unknown_items"],
                              dep["taskwaits"], dep["edges"]), (0, 16, 17, 0, 1, 11))
            self.assertEqual(d["total"]["undetermined"], 0)

    def test_graphs(self):
        for threads in (1, 2, 4):
            out = self.traced(self.graphs, self.graphs_plain, "graphs", threads)
            dot = os.path.join(out, "graph.dot")
            d = replay(out, "--dot", dot)
            self.assertEqual(dot_edges(dot), GRAPH_EDGES, "%d threads" % threads)
            dep = d["depend"]
            self.assertEqual((dep["tasks"], dep["recorded"], dep["items"], dep["unknown_items"],
                              dep["taskwaits"], dep["edges"]), (0, 21, 25, 0, 1, 16))
            self.assertEqual(d["total"]["undetermined"], 0)
            profile = [f for f in os.listdir(out) if f.endswith(".cubex")][0]
            cube = cubex.load(os.path.join(out, profile))
            total = sum(sum(cube.exclusive_row("dependences", c)) for c in cube.cnodes_in_order())
            self.assertEqual(total, 25)


if __name__ == "__main__":
    unittest.main()
