"""The pompprof-timeline command: its three formats agree number by number, the
pictures and the Chrome trace are written and well-formed, --from/--to narrow the
breakdown, and bad input of any kind gets one line and exit status 1 (2 for usage),
including a missing matplotlib and a missing replay program."""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

from trace_common import (E2E_PROGS, ENV, PROGS, TIMELINE, TOP_BUILDDIR, TOP_SRCDIR, Events, build,
                          run)

SCENARIOS = os.path.join(TOP_BUILDDIR, "test", "unit", "trace", "trace_scenarios")
# a chain of N dependent tasks, N named as the parameter "tasks"
PARAM_PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#ifdef POMPPROF_INSTRUMENTED
#include <pompprof.h>
#else
#define pompprof_parameter_int64(name, value) ((void)0)
#endif
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4;
    double s = 0;
#pragma omp parallel
#pragma omp single
    {
        pompprof_parameter_int64("tasks", n);
        for (int i = 0; i < n; i++) {
#pragma omp task depend(inout: s) shared(s)
            for (volatile int k = 0; k < 20000; k++)
                s += 1e-9;
        }
    }
    puts(s > 0 ? "1" : "0");
    return 0;
}
"""


def tool(*args, env=None, python=None):
    cmd = ([python, "-c", "import sys; sys.path[0:0] = %r; from pompprof_tools.analysis.timeline "
            "import entry; sys.exit(entry())" % [os.path.join(TOP_BUILDDIR, "scripts"),
                                                os.path.join(TOP_SRCDIR, "scripts")]]
           if python else [TIMELINE])
    return subprocess.run(cmd + list(args), env=dict(ENV, **(env or {})),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


class TimelineTool(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp_timeline_")
        cls.synthetic = os.path.join(cls.tmp, "idle")
        subprocess.run([SCENARIOS, "idle", cls.synthetic], check=True)
        cls.real = os.path.join(cls.tmp, "tasks.trace")
        run(build(cls.tmp, os.path.join(E2E_PROGS, "tasks.c")), cls.real)
        for d in (cls.synthetic, cls.real):
            Events(os.path.join(d, "traces.otf2"))  # otf2-print reads them

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_formats_agree(self):
        j = tool(self.synthetic, "--format", "json")
        c = tool(self.synthetic, "--format", "csv")
        t = tool(self.synthetic)
        for p in (j, c, t):
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stderr, "")
        data = json.loads(j.stdout)
        self.assertNotIn("pictures", data)
        rows = list(csv.DictReader(io.StringIO(c.stdout)))
        self.assertEqual([r["thread"] for r in rows], ["0", "1", "total"])
        for r, th in zip(rows, data["threads"] + [data["total"]]):
            for key in ("time", "work", "serial", "overhead", "idleness", "undetermined",
                        "measurement"):
                self.assertAlmostEqual(float(r[key]), th[key], places=12)
        self.assertAlmostEqual(data["threads"][1]["idleness"], 100280e-9, places=12)
        self.assertIn("Breakdown", t.stdout)
        self.assertIn("%.4f" % data["threads"][1]["idleness"], t.stdout)
        self.assertIn("parallelism", t.stdout)

    def test_pot_quadrant(self):
        # the idle scenario: thread 1 waits about 100 us of 200 with nothing ready; the
        # shares are of the team's time (serial code, 1400 ns, left out)
        p = tool(self.synthetic, "--format", "json")
        pot = json.loads(p.stdout)["pot"]
        self.assertEqual(pot["quadrant"], "high idleness, low overhead")
        self.assertAlmostEqual(pot["idleness_share"], (280 + 100280) / (102000 + 100500 - 1400),
                               places=6)
        self.assertIn("more (finer) tasks", pot["advice"])
        t = tool(self.synthetic)
        self.assertIn("POT quadrant: high idleness, low overhead", t.stdout)

    def test_dependences(self):
        graph = os.path.join(self.tmp, "graph")
        subprocess.run([SCENARIOS, "graph", graph], check=True)
        dot = os.path.join(self.tmp, "graph.dot")
        t = tool(graph, "--dot", dot)
        self.assertEqual(t.returncode, 0, t.stderr)
        self.assertIn("Dependences: 5 tasks with 7 recorded list items, 4 edges between "
                      "siblings, 1 taskwait depend", t.stdout)
        # ready waits 500, 100, 50, 100, 70 ns
        self.assertRegex(t.stdout, r"!\$omp task @synthetic.c:6 +5 tasks  mean 0.000000 s  "
                                   r"max 0.00000[01] s  total 0.000001 s")
        self.assertIn("4 dependence edges", t.stdout)
        self.assertNotIn("lower bound", t.stdout)
        with open(dot) as f:
            self.assertEqual(f.read().count(" -> "), 4)
        bad = tool(graph, "--dot", dot, "--dot-instances", "0")
        self.assertEqual(bad.returncode, 2)

    def test_heatmap(self):
        graph = os.path.join(self.tmp, "graph_h")
        subprocess.run([SCENARIOS, "graph", graph], check=True)
        svg = os.path.join(self.tmp, "heat.svg")
        p = tool("--heatmap", svg, "10=" + self.synthetic, "2=" + graph)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(ET.parse(svg).getroot().tag.endswith("svg"))
        rows = [l.split() for l in p.stdout.splitlines()[2:]]
        self.assertEqual([r[:2] for r in rows], [["2", "2"], ["10", "2"]])
        data = json.loads(tool(graph, "--format", "json").stdout)
        self.assertEqual(rows[0][3], "%.4f" % data["total"]["work"])
        with open(svg) as f:
            text = f.read()
        for title in ("work", "idleness", "overhead"):
            self.assertIn(title + " (s, all threads)", text)
        dup = tool("--heatmap", svg, "2=" + self.synthetic, "2=" + graph)
        self.assertEqual(dup.returncode, 1)
        self.assertIn("two runs with parameter 2 and 2 threads", dup.stderr)
        self.assertEqual(len(dup.stderr.splitlines()), 1)
        self.assertEqual(tool(self.synthetic, graph).returncode, 2)
        none = tool("--heatmap", svg, "--param", "tasks", self.synthetic)
        self.assertEqual(none.returncode, 1)
        self.assertIn("--param tasks: the profile in %s has no such parameter" % self.synthetic,
                      none.stderr)

    def test_heatmap_param(self):
        """--param: each run's value from its profile (pompprof_parameter_int64)."""
        src = os.path.join(self.tmp, "param_tasks.c")
        with open(src, "w") as f:
            f.write(PARAM_PROGRAM)
        exe = build(self.tmp, src)
        runs = []
        for threads, n in ((1, 3), (2, 3), (1, 12), (2, 12)):
            out = os.path.join(self.tmp, "param.%d.%d" % (threads, n))
            run(exe, out, threads=threads, args=(n,))
            runs.append(out)
        svg = os.path.join(self.tmp, "param.svg")
        p = tool("--heatmap", svg, "--param", "tasks", *runs)
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = [l.split()[:2] for l in p.stdout.splitlines()[2:]]
        self.assertEqual(rows, [["3", "1"], ["3", "2"], ["12", "1"], ["12", "2"]])

    def test_window(self):
        p = tool(self.synthetic, "--format", "json", "--from", "0.00005", "--to", "0.0001")
        self.assertEqual(p.returncode, 0, p.stderr)
        data = json.loads(p.stdout)
        self.assertAlmostEqual(data["threads"][0]["work_task"], 50000e-9, places=12)
        self.assertAlmostEqual(data["window"]["from"], 0.00005, places=12)

    def test_pictures_and_chrome(self):
        svg, png = os.path.join(self.tmp, "t.svg"), os.path.join(self.tmp, "t.png")
        speed, chrome = os.path.join(self.tmp, "s.svg"), os.path.join(self.tmp, "c.json")
        p = tool(self.real, "--svg", svg, "--png", png, "--speedup", speed, "--chrome", chrome)
        self.assertEqual(p.returncode, 0, p.stderr)
        root = ET.parse(svg).getroot()
        self.assertTrue(root.tag.endswith("svg"))
        text = open(svg).read()
        for title in ("thread view", "task view", "ready tasks"):
            self.assertIn(title, text)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertTrue(ET.parse(speed).getroot().tag.endswith("svg"))
        with open(chrome) as f:
            events = json.load(f)["traceEvents"]
        tasks = [e for e in events if e.get("cat") == "task" and e["ph"] == "X"]
        self.assertGreaterEqual(len(tasks), 486)

    def test_readable_pictures(self):
        """Issue 23: the task view's title overlaps no legend, bin averages are not
        labelled as maxima, and regions get colours far apart."""
        sys.path[0:0] = [os.path.join(TOP_BUILDDIR, "scripts"), os.path.join(TOP_SRCDIR, "scripts")]
        import argparse
        from pompprof_tools.analysis import timeline, timeline_plot as tp
        args = argparse.Namespace(window_from=None, window_to=None, bins=400, chrome=None)
        data = timeline.run_replay(os.path.join(self.real, "traces.otf2"), args, True)
        fig = tp.timeline_figure(data)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        ax_thr, ax_task, ax_ready = fig.axes[:3]
        title = ax_task._left_title.get_window_extent(renderer)
        # within its own axes' width: the legends sit to the right of the axes
        self.assertLessEqual(title.x1, ax_task.get_window_extent(renderer).x1)
        for ax in (ax_thr, ax_ready):
            leg = ax.get_legend()
            if leg is not None:
                self.assertFalse(title.overlaps(leg.get_window_extent(renderer)))
        labels = [t.get_text() for t in ax_task.get_yticklabels()]
        self.assertTrue(labels)
        self.assertFalse([x for x in labels if "<=" in x], labels)

        def rgb(h):
            return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))

        def dist(a, b):     # "redmean" approximation of perceived distance
            (r1, g1, b1), (r2, g2, b2) = rgb(a), rgb(b)
            rm = (r1 + r2) / 2
            return ((2 + rm / 256) * (r1 - r2) ** 2 + 4 * (g1 - g2) ** 2
                    + (2 + (255 - rm) / 256) * (b1 - b2) ** 2) ** 0.5
        colours = list(tp.PALETTE) + list(tp.CATEGORY_COLORS.values())
        least = min(dist(a, b) for i, a in enumerate(colours) for b in colours[i + 1:])
        self.assertGreater(least, 60)      # the old palette had two at 28

    def test_parameters_travel(self):
        """Issue 23: parameter values are in the trace (OTF2 parameter events), the
        Chrome export (a slice's args) and the pictures (an instance's label)."""
        out = os.path.join(self.tmp, "params.trace")
        run(build(self.tmp, os.path.join(PROGS, "params.c")), out)
        archive = os.path.join(out, "traces.otf2")
        p = subprocess.run(["otf2-print", archive], stdout=subprocess.PIPE,
                           universal_newlines=True)
        depths = re.findall(r'PARAMETER_INT64 .*Parameter: "depth" <\d+>, Value: (\d+)', p.stdout)
        kinds = re.findall(r'PARAMETER_STRING .*Parameter: "kind" <\d+>, Value: "(\w+)"', p.stdout)
        # fib(7): 41 calls, each names its depth (0 to 6); every first-task body its kind
        self.assertGreaterEqual(len(depths), 41)
        self.assertEqual(sorted({int(d) for d in depths}), list(range(7)))
        self.assertEqual(set(kinds), {"big", "small"})
        chrome = os.path.join(self.tmp, "params.json")
        q = tool(out, "--chrome", chrome)
        self.assertEqual(q.returncode, 0, q.stderr)
        with open(chrome) as f:
            events = json.load(f)["traceEvents"]
        tasks = [e for e in events if e.get("cat") == "task" and e["ph"] == "X"]
        self.assertTrue(tasks)
        for e in tasks:
            self.assertRegex(e["args"].get("parameters", ""), r"depth=[1-6]\b", e)
        self.assertTrue(any("kind=small" in e["args"]["parameters"] for e in tasks))
        sys.path[0:0] = [os.path.join(TOP_BUILDDIR, "scripts"), os.path.join(TOP_SRCDIR, "scripts")]
        import argparse
        from pompprof_tools.analysis import timeline, timeline_plot as tp
        args = argparse.Namespace(window_from=None, window_to=None, bins=200, chrome=None)
        data = timeline.run_replay(archive, args, True)
        params = [i["parameters"] for i in data["pictures"]["instances"]]
        self.assertTrue(all(re.search(r"depth=\d", x) for x in params), params)
        fig = tp.timeline_figure(data)
        labels = [t.get_text() for t in fig.axes[1].get_yticklabels()]
        self.assertTrue(any("depth=" in x for x in labels), labels)

    def test_bad_input(self):
        missing = os.path.join(self.tmp, "nothing-here")
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty, exist_ok=True)
        bogus = os.path.join(self.tmp, "bogus.otf2")
        with open(bogus, "w") as f:
            f.write("not OTF2\n")
        # what a traced run that crashed leaves: raw thread files and the reserve
        crashed = os.path.join(self.tmp, "crashed")
        os.makedirs(os.path.join(crashed, "traces.raw"), exist_ok=True)
        for name, size in (("0.raw", 4096), ("1.raw", 2048), ("reserve", 1 << 20)):
            with open(os.path.join(crashed, "traces.raw", name), "wb") as f:
                f.write(b"\0" * size)
        cases = [((missing,), "no such file"), ((empty,), "holds no trace"),
                 ((crashed,), "2 raw thread files of 0.0 MiB (about 376 events flushed to "
                  "disk"),
                 ((crashed,), "and a 1.0 MiB space reserve in %s" % os.path.join(crashed,
                                                                                 "traces.raw")),
                 ((self.synthetic, "--from", "5"), "the window from --from 5 is empty"),
                 ((bogus,), bogus),
                 ((self.synthetic, "--from", "1", "--to", "2"), "empty"),
                 ((self.synthetic, "--svg", self.tmp), "is a directory"),
                 ((self.synthetic, "--png", "/nonexistent/dir/x.png"), "cannot write")]
        for args, msg in cases:
            p = tool(*args)
            self.assertEqual(p.returncode, 1, (args, p.stderr))
            self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
            self.assertTrue(p.stderr.startswith("pompprof-timeline: "), p.stderr)
            self.assertIn(msg, p.stderr)
            self.assertEqual(p.stdout, "")
            self.assertNotIn("run the program with POMPPROF_TRACE=1", p.stderr
                             if args == (crashed,) else "")
            if "--to" not in args:      # a bound never given is never shown
                self.assertNotIn("--to", p.stderr)
        # several traces (reruns into one directory): the newest, said on stderr
        rerun = os.path.join(self.tmp, "rerun")
        shutil.copytree(self.synthetic, rerun)
        shutil.copy(os.path.join(rerun, "traces.otf2"), os.path.join(rerun, "traces.0.otf2"))
        os.utime(os.path.join(rerun, "traces.0.otf2"), (1, 1))
        p = tool(rerun, "--format", "json")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("holds 2 traces; reading the newest, traces.otf2", p.stderr)
        self.assertTrue(json.loads(p.stdout)["trace"]["archive"].endswith("/traces.otf2"))
        for args in (("--to", "-1"), ("--from", "2", "--to", "1"), ("--bins", "3"),
                     ("--speedup", "x.pdf"), ("--format", "xml")):
            p = tool(self.synthetic, *args)
            self.assertEqual(p.returncode, 2, (args, p.stderr))

    def test_missing_replay(self):
        p = tool(self.synthetic, env={"POMPPROF_REPLAY": "/nonexistent/pompprof-replay"})
        self.assertEqual(p.returncode, 1)
        self.assertEqual(len(p.stderr.splitlines()), 1)
        self.assertIn("built without OTF2", p.stderr)

    def test_missing_matplotlib(self):
        """An interpreter that cannot import matplotlib (here: any on PATH that lacks it)
        says so in one line when pictures are asked for, and works without them."""
        python = None
        for cand in ("python3", "python3.11", "python3.12", "python3.13"):
            path = shutil.which(cand)
            if path and subprocess.run([path, "-c", "import matplotlib"],
                                       stderr=subprocess.DEVNULL).returncode != 0:
                python = path
                break
        if not python:
            self.skipTest("every Python here imports matplotlib")
        p = tool(self.synthetic, "--png", os.path.join(self.tmp, "x.png"), python=python)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
        self.assertIn("python3-matplotlib", p.stderr)
        p = tool(self.synthetic, "--format", "json", python=python)
        self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    sys.exit(unittest.main())
