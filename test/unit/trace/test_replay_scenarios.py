"""The replay's figures, exactly, on synthetic traces.

trace_scenarios sends hand-made event streams of two threads through the engine (fake
clock in nanoseconds) and lets it write its OTF2 trace; pompprof-replay must give the
breakdown worked out by hand for each (comments below), the task graph's work and span,
a time window, the pictures' data and a Chrome trace.  otf2-print must read every trace.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP_BUILDDIR = os.environ.get("top_builddir")
if not TOP_BUILDDIR:
    sys.exit("run through make check (top_builddir unset)")
SCENARIOS = os.path.join(TOP_BUILDDIR, "test", "unit", "trace", "trace_scenarios")
REPLAY = os.path.join(TOP_BUILDDIR, "replay", "pompprof-replay")
NS = 1e-9


def ns(seconds):
    return round(seconds / NS)


class Scenarios(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp_replay_")
        cls.archives = {}
        for name in ("idle", "critical", "depend", "tied", "graph", "kinds", "many", "mpi"):
            out = os.path.join(cls.tmp, name)
            subprocess.run([SCENARIOS, name, out], check=True)
            cls.archives[name] = os.path.join(out, "traces.otf2")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def replay(self, name, *args):
        out = subprocess.run([REPLAY] + list(args) + [self.archives[name]],
                             stdout=subprocess.PIPE, check=True).stdout
        return json.loads(out)

    def assertBreakdown(self, thread, **expected):
        got = {k: ns(v) for k, v in thread.items() if k not in ("location", "name")}
        for key, value in expected.items():
            self.assertEqual(got[key], value, "%s: %s" % (key, got))
        parts = (got["work"] + got["serial"] + got["overhead"] + got["idleness"]
                 + got["undetermined"] + got["mpi"] + got["measurement"])
        self.assertEqual(parts, got["time"])
        self.assertEqual(got["mpi_wait"] + got["mpi_transfer"], got["mpi"])

    def test_otf2_print_reads_them(self):
        for name, archive in self.archives.items():
            proc = subprocess.run(["otf2-print", archive], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(proc.stderr, "")
            lines = [l.split() for l in proc.stdout.splitlines() if l[:1].isupper()]
            for loc in ("0", "1"):
                enters = sum(1 for l in lines if l[0] == "ENTER" and l[1] == loc)
                leaves = sum(1 for l in lines if l[0] == "LEAVE" and l[1] == loc)
                self.assertEqual(enters, leaves, "%s, location %s" % (name, loc))
                self.assertGreater(enters, 0)

    def test_dependences_in_otf2(self):
        """Each list item is three attributes (depend[i] address, size, kind) of its task's
        ThreadTaskCreate; a taskwait depend's go with the taskwait's Enter."""
        text = subprocess.run(["otf2-print", self.archives["graph"]], stdout=subprocess.PIPE,
                              universal_newlines=True, check=True).stdout.splitlines()
        items = []
        for i, line in enumerate(text):
            if line.startswith(("THREAD_TASK_CREATE", "ENTER")) and i + 1 < len(text) and \
                    "ADDITIONAL ATTRIBUTES" in text[i + 1]:
                attrs = re.findall(r'\("depend\[(\d+)\] (\w+)" <\d+>; \w+; (\d+)\)', text[i + 1])
                items.append((line.split()[0], int(line.split()[2]),
                              [(int(n), k, int(v)) for n, k, v in attrs]))
        def item(n, addr, size, kind):
            return [(n, "address", addr), (n, "size", size), (n, "kind", kind)]
        x, y = 0x1000, 0x2000
        self.assertEqual(items, [
            ("THREAD_TASK_CREATE", 100, item(0, x, 8, 2)),
            ("THREAD_TASK_CREATE", 200, item(0, x, 8, 1)),
            ("THREAD_TASK_CREATE", 300, item(0, x, 8, 1)),
            ("THREAD_TASK_CREATE", 400, item(0, x, 8, 3)),
            ("THREAD_TASK_CREATE", 450, item(0, y, 8, 1) + item(1, x + 64, 16, 2)),
            ("ENTER", 500, item(0, x, 8, 1))])

    def test_metrics(self):
        out = os.path.join(self.tmp, "metrics")
        subprocess.run([SCENARIOS, "metrics", out], check=True)
        archive = os.path.join(out, "traces.otf2")
        text = subprocess.run(["otf2-print", archive], stdout=subprocess.PIPE,
                              universal_newlines=True, check=True).stdout
        metrics = [l for l in text.splitlines() if l.startswith("METRIC")]
        self.assertEqual(len(metrics), 2)
        self.assertIn("100", metrics[0])
        self.assertIn("350", metrics[1])
        self.assertIn(" 10 ", metrics[0])  # with its enter's time
        defs = subprocess.run(["otf2-print", "-G", archive], stdout=subprocess.PIPE,
                              universal_newlines=True, check=True).stdout
        self.assertIn("PAPI_TOT_INS", defs)
        self.assertIn("PAPI_L2_DCM", defs)

    def test_idle(self):
        d = self.replay("idle")
        # thread 0: serial 1000 (to the fork) and 400 (after the join), create 10, barrier
        # with the task ready 80, the task 100000, then (no task ready) after it 100,
        # second barrier 180 (idle), from the team's end to the join 100 (fork/join);
        # parallel code 10 (the single's block) + 10 (the single after it) + 10 + 100
        self.assertBreakdown(d["threads"][0], time=102000, work_task=100000, work_implicit=130,
                             serial=1400, overhead_create=10, overhead_forkjoin=100,
                             overhead_switch=80, overhead_sync=0, idleness=280, undetermined=0)
        # thread 1: barrier 30 while the task is ready (overhead), 100100 while it runs
        # (idle), then the second barrier 180; parallel code 10 + 10 + 100 and the single
        # 10 + 10 (user code: nobody blocks there); it began 50 after thread 0 and ended
        # with it: its fork/join gap (the team's longest time less its own) is 50
        self.assertBreakdown(d["threads"][1], time=100500, work=140, overhead_switch=30,
                             overhead_sync=0, overhead_forkjoin=50, idleness=100280)
        g = d["graph"]
        # the breakdown's work, serial code and creation
        self.assertEqual(ns(g["work"]), 100130 + 140 + 1400 + 10)
        self.assertEqual((ns(g["work_serial"]), ns(g["work_creation"])), (1400, 10))
        # serial 1000, the task 100000, parallel code 10 + 10 and 100, serial 400
        self.assertEqual(ns(g["span"]), 101520)
        # the task region: its creation (1000) to its end (101100): the creation and the
        # single's block 10 + 10, the task, and thread 1's 10 + 10 before the barrier
        reg = d["task_region"]
        self.assertEqual((ns(reg["from"]), ns(reg["to"])), (1000, 101100))
        self.assertEqual((ns(reg["work"]), ns(reg["span"]), reg["tasks"]), (100040, 100000, 1))
        path = {p["construct"]: ns(p["seconds"]) for p in g["span_path"]}
        self.assertEqual(path["!$omp task @synthetic.c:3"], 100000)
        self.assertEqual(g["tasks"], 1)
        self.assertEqual(d["depend"]["tasks"], 0)

    def test_idle_window(self):
        d = self.replay("idle", "--from", "0.00005", "--to", "0.0001")
        self.assertBreakdown(d["threads"][0], time=50000, work_task=50000)
        self.assertBreakdown(d["threads"][1], time=50000, idleness=50000)
        # the graph is the window's too: the task's work in it
        self.assertEqual((ns(d["graph"]["work"]), ns(d["graph"]["span"])), (50000, 50000))
        self.assertEqual((ns(d["task_region"]["from"]), ns(d["task_region"]["to"])),
                         (50000, 100000))

    def test_critical(self):
        d = self.replay("critical")
        # blocked from 300 to 50310 while two tasks (created at 200, 210) were ready
        self.assertBreakdown(d["threads"][1], overhead_sync=50010)
        self.assertBreakdown(d["threads"][0], work_task=2000, overhead_create=20)

    def test_depend(self):
        d = self.replay("depend")
        # only a task with a depend clause waited (100 to 5200): undetermined, then idle
        self.assertBreakdown(d["threads"][1], undetermined=5100, idleness=1100, overhead=0,
                             work=200)
        self.assertEqual(d["depend"]["tasks"], 1)
        self.assertEqual(d["depend"]["constructs"], ["!$omp task @synthetic.c:6"])
        self.assertEqual(d["graph"]["depend_tasks"], 1)

    def test_graph(self):
        """The diamond A -> B, C -> D on x, E alone, a taskwait depend on D (trace_scenarios.c
        gives the times): readiness from the edges, no undetermined time."""
        d = self.replay("graph")
        # thread 1: waits 100-600 while A is ready (overhead), runs A; 1600-1650 B and C
        # ready; 2650-2700 nothing ready (D waits for B), 2700-2800 D ready; after D idle
        self.assertBreakdown(d["threads"][1], work_task=3000, work_implicit=200,
                             overhead_switch=650, idleness=250, undetermined=0)
        # thread 0: taskwait depend from 500: 20 while A is ready, E, then idle until B and C
        # are ready (1600), 100 until it takes B, 100 while D is ready, idle until D ends
        # (3800), 50 until it resumes (its taskwait is ready for it alone); serial 100
        # before the fork, the join 100 after the team's end
        self.assertBreakdown(d["threads"][0], work_task=1100, work_implicit=600, serial=100,
                             overhead_create=50, overhead_forkjoin=100, overhead_switch=270,
                             idleness=2080, undetermined=0)
        dep = d["depend"]
        self.assertEqual((dep["tasks"], dep["recorded"], dep["items"], dep["edges"],
                          dep["taskwaits"]), (0, 5, 7, 4, 1))
        g = d["graph"]
        # the path: serial 100, A, C (or B), D 3000, the taskwait's end to the barrier 50,
        # the parallel's end 100, after the join 100
        self.assertEqual(ns(g["work"]), 5050)
        self.assertEqual(ns(g["span"]), 3350)
        path = [(p["construct"], ns(p["seconds"]), p["segments"]) for p in g["span_path"]]
        self.assertEqual(path[1], ("!$omp task @synthetic.c:6", 3000, 3))
        self.assertEqual((g["depend_tasks"], g["dependent_tasks"], g["dependence_edges"]),
                         (0, 5, 4))
        # ready waits: A 500, B 100, C 50, D 100, E 70
        (rw,) = d["ready_wait"]
        self.assertEqual((rw["tasks"], ns(rw["total"]), ns(rw["max"])), (5, 820, 500))

    def test_dependences_metric(self):
        """The profile counts the items where they were recorded: the creation region of
        the tasks (6 items of 5 tasks), the parallel region for the taskwait depend's one."""
        sys.path.insert(0, os.path.join(os.environ["top_srcdir"], "scripts"))
        from pompprof_tools.cube import cubex
        out = os.path.dirname(self.archives["graph"])
        cube = cubex.load(os.path.join(out, "profile.cubex"))
        per_region = {}
        for c in cube.cnodes_in_order():
            n = sum(cube.exclusive_row("dependences", c))
            if n:
                per_region[c.region.name] = per_region.get(c.region.name, 0) + n
        self.assertEqual(per_region, {"!$omp create task @synthetic.c:6": 6,
                                      "!$omp parallel @synthetic.c:1": 1})
        # a profile without dependences has no such metric
        plain = cubex.load(os.path.join(os.path.dirname(self.archives["idle"]),
                                        "profile.cubex"))
        self.assertFalse(plain.has_metric("dependences"))

    def test_dot(self):
        path = os.path.join(self.tmp, "graph.dot")
        self.replay("graph", "--dot", path)
        with open(path) as f:
            text = f.read()
        edges = re.findall(r"^  t(\d+) -> t(\d+)( \[penwidth=3\])?;$", text, re.M)
        self.assertEqual(sorted((int(a), int(b), bool(w)) for a, b, w in edges),
                         [(0, 1, False), (0, 2, True), (1, 3, False), (2, 3, True)])
        bold = re.findall(r"^  t(\d+) \[.*penwidth=3", text, re.M)
        self.assertEqual(sorted(int(b) for b in bold), [0, 2, 3])
        # collapsed: one construct, its self-edges counted (4, from A, B and C), the
        # predecessors' work 3000 ns: A's counted once though it precedes B and C
        self.replay("graph", "--dot", path, "--dot-instances", "2")
        with open(path) as f:
            text = f.read()
        self.assertIn('c0 -> c0 [label="4 x from 3 tasks, 0.003 ms", penwidth=3]', text)
        self.assertIn("5 tasks", text)
        if shutil.which("dot"):
            subprocess.run(["dot", "-Tsvg", path, "-o", path + ".svg"], check=True)

    def test_kinds(self):
        """OpenMP 5.x's rules for in, out, inoutset and mutexinoutset on one location,
        and an item of unknown storage (trace_scenarios.c, scenario_kinds)."""
        path = os.path.join(self.tmp, "kinds.dot")
        d = self.replay("kinds", "--dot", path)
        with open(path) as f:
            edges = {(int(a), int(b)) for a, b in re.findall(r"^  t(\d+) -> t(\d+)", f.read(), re.M)}
        self.assertEqual(edges, {(0, 1), (0, 2), (1, 3), (2, 3), (1, 4), (2, 4), (3, 5), (4, 5),
                                 (3, 6), (4, 6), (5, 7), (6, 7), (7, 8)})
        dep = d["depend"]
        # 9 has the unknown item, 10 comes after it: their readiness is unknown
        self.assertEqual((dep["recorded"], dep["tasks"], dep["unknown_items"], dep["items"]),
                         (9, 2, 1, 11))
        self.assertEqual(dep["constructs"], ["!$omp task @synthetic.c:6"])
        # loc 1 waits in the barrier: while 10 waits (created at 1100, begun at 11300), with
        # nothing else ready, its time is undetermined
        self.assertGreater(ns(d["threads"][1]["undetermined"]), 0)

    def test_many_items(self):
        """At most 256 items per event reach the archive; the last one's kind becomes
        unknown, and so the task's readiness."""
        text = subprocess.run(["otf2-print", self.archives["many"]], stdout=subprocess.PIPE,
                              universal_newlines=True, check=True).stdout
        attrs = [l for l in text.splitlines() if "ADDITIONAL ATTRIBUTES" in l]
        self.assertEqual(len(attrs), 1)
        kinds = re.findall(r'"depend\[(\d+)\] kind" <\d+>; UINT8; (\d+)', attrs[0])
        self.assertEqual(len(kinds), 256)
        self.assertEqual(kinds[-1], ("255", "6"))
        self.assertEqual({k for _, k in kinds[:-1]}, {"2"})
        d = self.replay("many")
        self.assertEqual((d["depend"]["tasks"], d["depend"]["items"],
                          d["depend"]["unknown_items"]), (1, 256, 1))

    def test_mpi(self):
        """MPI calls (regions of paradigm mpi) are MPI time wherever they are: in serial
        code (MPI_Init, MPI_Finalize), in an implicit task while a task is ready
        (MPI_Barrier, whose role is "barrier"), in an explicit task (MPI_Send); a process's
        trace has no partners, so none of it is waiting."""
        d = self.replay("mpi")
        # thread 0: serial 100 + 400 + 500 + 500 around MPI_Init (500) and MPI_Finalize
        # (500); implicit work 100 + 90 + 100, creation 10, the barrier 100 with the task
        # ready, the task 2000 less its MPI_Send (500), then 2000 idle; 100 from the team's
        # end to the join
        self.assertBreakdown(d["threads"][0], time=7000, work_task=1500, work_implicit=290,
                             serial=1500, overhead_create=10, overhead_forkjoin=100,
                             overhead_switch=100, idleness=2000, undetermined=0, mpi=1500,
                             mpi_wait=0, mpi_transfer=1500, measurement=0)
        # thread 1: implicit work 150 + 100, MPI_Barrier 4000 (the task ready in it: not
        # overhead), the barrier 100 idle, its fork/join gap 50
        self.assertBreakdown(d["threads"][1], time=4400, work_implicit=250, overhead=50,
                             overhead_forkjoin=50, idleness=100, mpi=4000, mpi_wait=0)
        # the graph's work holds no MPI time: the work, serial code and creation
        self.assertEqual(ns(d["graph"]["work"]), 1790 + 250 + 1500 + 10)
        self.assertEqual((d["mpi"]["sends"], d["mpi"]["receives"], d["mpi"]["ranks"]), (0, 0, 1))

    def test_tied(self):
        d = self.replay("tied")
        # thread 0: taskwait 20 while tasks are ready; 10 after task Z while its own
        # implicit task (children done at 50) is ready for it
        self.assertBreakdown(d["threads"][0], overhead_switch=30, work_task=160)
        # thread 1: the suspended task is not ready for it
        self.assertBreakdown(d["threads"][1], work_task=20)
        self.assertGreater(ns(d["threads"][1]["idleness"]), 0)

    def test_pictures(self):
        d = self.replay("idle", "--pictures", "--bins", "100")
        pic = d["pictures"]
        self.assertEqual(pic["bins"], 100)
        labels = {int(k): v for k, v in pic["labels"].items()}
        # thread 1 idles in almost every bin, thread 0 runs the task there
        runs1 = [(n, labels[l]) for _, n, l in pic["threads"][1]["runs"]]
        self.assertGreaterEqual(sum(n for n, name in runs1 if name == "idle"), 97)
        runs0 = [(n, labels[l]) for _, n, l in pic["threads"][0]["runs"]]
        self.assertGreaterEqual(sum(n for n, name in runs0 if name == "!$omp task @synthetic.c:3"),
                                97)
        # one instance: it waited 1000 to 1100 and ran 1100 to 101100
        inst = pic["instances"]
        self.assertEqual(len(inst), 1)
        frags = [(ns(a), ns(b), loc, running) for a, b, loc, running in inst[0]["fragments"]]
        self.assertEqual(frags, [(1000, 1100, 0, 0), (1100, 101100, 0, 1)])
        self.assertEqual(len(pic["ready"]), 100)
        self.assertGreater(pic["ready"][0], 0)  # the task was ready in the first bin
        self.assertEqual(sum(pic["ready"][2:]), 0)

    def test_chrome(self):
        path = os.path.join(self.tmp, "idle.json")
        self.replay("idle", "--chrome", path)
        with open(path) as f:
            events = json.load(f)["traceEvents"]
        slices = [e for e in events if e["ph"] == "X"]
        task = [e for e in slices if e["name"] == "!$omp task @synthetic.c:3"]
        self.assertEqual(len(task), 1)
        self.assertAlmostEqual(task[0]["ts"], 1.1)
        self.assertAlmostEqual(task[0]["dur"], 100.0)
        self.assertEqual(task[0]["tid"], 0)
        flows = sorted(e["ph"] for e in events if e["ph"] in "sf")
        self.assertEqual(flows, ["f", "s"])
        self.assertTrue(any(e["ph"] == "C" for e in events))
        # slices of one thread nest
        for tid in (0, 1):
            spans = sorted(((e["ts"], -e["dur"]) for e in slices if e["tid"] == tid))
            stack = []
            for ts, neg in spans:
                end = ts - neg
                while stack and stack[-1] <= ts + 1e-9:
                    stack.pop()
                if stack:
                    self.assertLessEqual(end, stack[-1] + 1e-9)
                stack.append(end)

    def test_bad_input(self):
        for args, msg in ((["--from", "x"], "--from needs"),
                          (["--from", "0.2", "--to", "0.1"], "empty"),
                          (["--bins", "0"], "--bins needs")):
            proc = subprocess.run([REPLAY] + args + [self.archives["idle"]],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True)
            self.assertEqual(proc.returncode, 1)
            self.assertIn(msg, proc.stderr)
            self.assertEqual(len(proc.stderr.splitlines()), 1)
        bogus = os.path.join(self.tmp, "bogus.otf2")
        with open(bogus, "w") as f:
            f.write("not a trace\n")
        proc = subprocess.run([REPLAY, bogus], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)


if __name__ == "__main__":
    unittest.main()
