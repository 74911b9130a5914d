#!/usr/bin/env python3
"""Untied tasks that yield and resume on another thread, measured through OMPT.

progs/untied.c times each task's own work (before and after its taskyield)
and counts the tasks that resumed on another thread.  In the profile:
* every task is one instance: none lost, none counted twice;
* the instances' time is the program's own measurement within 10 % (both are
  wall-clock time of the same intervals, so a busy machine stretches both);
* nothing on stderr (the engine follows the task; no "measured as tied");
* in the trace, a task that moved has events on two threads.
Whether libomp moves a task is its choice: each case runs until a run moved
one (at most 10 runs); a case where none ever moved is skipped, saying so.
libomp never moves a gcc binary's untied tasks (its GOMP_task runs them as
tied): those runs check the counts and times only.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ompt_env as E  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TASKS = 24
ITERS = 300000
ATTEMPTS = 10


def task_locations(archive):
    """{task id (creator, generation): locations with a switch or complete of it}."""
    out = subprocess.run(["otf2-print", archive], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    seen = {}
    for line in out.splitlines():
        if not line.startswith(("THREAD_TASK_SWITCH", "THREAD_TASK_COMPLETE")):
            continue
        loc = int(line.split()[1])
        m = re.search(r"Creating Thread: (\d+).*Generation Number: (\d+)", line)
        seen.setdefault((int(m.group(1)), int(m.group(2))), set()).add(loc)
    return seen


@unittest.skipUnless(E.have_ompt(), "no OMPT tool, libomp or clang")
class UntiedTasks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_ompt_untied_")
        src = os.path.join(HERE, "progs", "untied.c")
        cls.exe = {m: E.build(cls.scratch, src, m) for m in ("clang", "gcc")}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def check_run(self, mode, threads, trace):
        extra = {"POMPPROF_TRACE": "1"} if trace else {}
        out, err, cube, outdir = E.run(self.exe[mode], mode, threads, [TASKS, ITERS],
                                       extra_env=extra, scratch=self.scratch)
        m = re.match(r"tasks=(\d+) own=([0-9.]+) moved=(\d+)\n$", out)
        self.assertIsNotNone(m, out)
        own, moved = float(m.group(2)), int(m.group(3))
        self.assertEqual(err, "")
        (root,) = cube.task_roots()
        self.assertEqual(root.region.name, "!$omp untied task @untied.c:%d" % next(
            i for i, l in enumerate(open(os.path.join(HERE, "progs", "untied.c")), 1)
            if "#pragma omp task untied" in l))
        self.assertEqual(sum(cube.row("visits", root)), TASKS)
        measured = sum(cube.row("time", root))
        self.assertLess(abs(measured - own), 0.10 * own, (measured, own))
        return moved, outdir

    def test_moved_tasks(self):
        # a gcc binary's untied tasks stay where they began on libomp (its
        # GOMP_task runs them as tied): see test_gcc_binary
        for mode in ("clang",):
            for threads in (2, 4):
                with self.subTest(mode=mode, threads=threads):
                    for attempt in range(ATTEMPTS):
                        moved, outdir = self.check_run(mode, threads, trace=True)
                        if moved:
                            break
                    if not moved:
                        self.skipTest("libomp moved no task in %d runs" % ATTEMPTS)
                    where = task_locations(os.path.join(outdir, "traces.otf2"))
                    travelled = [t for t, locs in where.items() if len(locs) > 1]
                    self.assertGreaterEqual(len(travelled), moved, where)

    def test_gcc_binary(self):
        for threads in (2, 4):
            with self.subTest(threads=threads):
                self.check_run("gcc", threads, trace=False)

    def test_one_thread(self):
        for mode in ("clang", "gcc"):
            with self.subTest(mode=mode):
                moved, _ = self.check_run(mode, 1, trace=False)
                self.assertEqual(moved, 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
