"""pompprof-replay --levels (the zoom levels of pompprof-view's timeline), on a real
trace (examples/treewalk.c, 2 threads): each level is 4 times finer than the one before;
the ready-tasks curve of a coarser bin is the mean of its four finer bins (the levels
are one measurement at several resolutions); the runs of every level are ordered,
disjoint and inside the level; the base result (breakdown, graph, level-0 pictures) is
the same with and without levels; with levels the first instances are listed even when
there were more, each with the location that created it."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from trace_common import EXAMPLES, TOP_BUILDDIR, build, run

REPLAY = os.path.join(TOP_BUILDDIR, "replay", "pompprof-replay")


def replay(*args):
    p = subprocess.run([REPLAY] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise AssertionError("pompprof-replay %s: %s" % (" ".join(args), p.stderr))
    return json.loads(p.stdout)


class ReplayLevels(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp_levels_")
        out = os.path.join(cls.tmp, "tw")
        run(build(cls.tmp, os.path.join(EXAMPLES, "treewalk.c")), out, args=[8])
        cls.archive = os.path.join(out, "traces.otf2")
        base = ["--pictures", "--bins", "256", "--instances", "10"]
        cls.plain = replay(*base + [cls.archive])
        cls.lv = replay(*base + ["--levels", "4", cls.archive])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_levels_are_finer_by_four(self):
        pic = self.lv["pictures"]
        self.assertEqual([lv["bins"] for lv in pic["levels"]], [1024, 4096, 16384])
        self.assertNotIn("levels", self.plain["pictures"])

    def test_ready_curve_is_one_measurement(self):
        pic = self.lv["pictures"]
        curves = [pic["ready"]] + [lv["ready"] for lv in pic["levels"]]
        top = max(max(c) for c in curves)
        self.assertGreater(top, 0)
        for coarse, fine in zip(curves, curves[1:]):
            self.assertEqual(len(fine), 4 * len(coarse))
            for b, v in enumerate(coarse):
                mean = sum(fine[4 * b:4 * b + 4]) / 4
                # %.4g in the output
                self.assertAlmostEqual(v, mean, delta=2e-3 * max(abs(v), abs(mean)) + 1e-9 * top)

    def test_runs_are_ordered_and_inside(self):
        pic = self.lv["pictures"]
        labels = set(pic["labels"])
        for lv in pic["levels"]:
            self.assertEqual(len(lv["runs"]), self.lv["trace"]["threads"])
            for runs in lv["runs"]:
                self.assertEqual(len(runs) % 3, 0)
                self.assertTrue(runs)
                end = 0
                for i in range(0, len(runs), 3):
                    start, n, label = runs[i:i + 3]
                    self.assertGreaterEqual(start, end)
                    self.assertGreater(n, 0)
                    end = start + n
                    self.assertIn(str(label), labels)
                self.assertLessEqual(end, lv["bins"])

    def test_base_result_unchanged(self):
        for key in ("threads", "total", "graph", "depend", "trace"):
            self.assertEqual(self.plain[key], self.lv[key], key)
        for key in ("threads", "task_rows", "ready", "ready_depend", "bins", "from", "to"):
            self.assertEqual(self.plain["pictures"][key], self.lv["pictures"][key], key)

    def test_first_instances_with_their_creator(self):
        pic = self.lv["pictures"]
        self.assertGreater(pic["tasks_seen"], 10)
        self.assertIsNone(self.plain["pictures"]["instances"])   # more than 10: none
        self.assertEqual(len(pic["instances"]), 10)
        nthreads = self.lv["trace"]["threads"]
        for inst in pic["instances"]:
            self.assertIn(inst["creator"], range(nthreads))
            waiting = [f for f in inst["fragments"] if not f[3]]
            running = [f for f in inst["fragments"] if f[3]]
            self.assertEqual(len(waiting), 1)
            self.assertTrue(running)
            # created, then begun: the wait ends where the first fragment starts
            self.assertAlmostEqual(waiting[0][1], running[0][0], places=9)


if __name__ == "__main__":
    unittest.main()
