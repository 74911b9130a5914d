"""The pompprof-timeline command: its three formats agree number by number, the
pictures and the Chrome trace are written and well-formed, --from/--to narrow the
breakdown, and bad input of any kind gets one line and exit status 1 (2 for usage),
including a missing matplotlib and a missing replay program."""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

from trace_common import E2E_PROGS, ENV, TIMELINE, TOP_BUILDDIR, TOP_SRCDIR, Events, build, run

SCENARIOS = os.path.join(TOP_BUILDDIR, "test", "unit", "trace", "trace_scenarios")


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
            for key in ("time", "work", "overhead", "idleness", "undetermined"):
                self.assertAlmostEqual(float(r[key]), th[key], places=12)
        self.assertAlmostEqual(data["threads"][1]["idleness"], 100290e-9, places=12)
        self.assertIn("Breakdown", t.stdout)
        self.assertIn("%.4f" % data["threads"][1]["idleness"], t.stdout)
        self.assertIn("parallelism", t.stdout)

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

    def test_bad_input(self):
        missing = os.path.join(self.tmp, "nothing-here")
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty, exist_ok=True)
        two = os.path.join(self.tmp, "two")
        os.makedirs(two, exist_ok=True)
        for name in ("traces.otf2", "traces.1.otf2"):
            shutil.copy(os.path.join(self.synthetic, "traces.otf2"), os.path.join(two, name))
        bogus = os.path.join(self.tmp, "bogus.otf2")
        with open(bogus, "w") as f:
            f.write("not OTF2\n")
        cases = [((missing,), "no such file"), ((empty,), "holds no trace"),
                 ((two,), "several traces"), ((bogus,), bogus),
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
