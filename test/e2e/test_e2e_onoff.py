#!/usr/bin/env python3
"""End-to-end: switching measurement off and on reaches every thread's fast path.

The event path's prologue reads one thread-local pointer, which switching
measurement off clears on every live thread (profile/pp_profile_state.c).
prof_onoff.c creates tasks of three constructs in three phases with a team
(the second phase with measurement off), then lets POSIX threads enter a
region and end before measurement is switched off and on again.  The
profile, read back, must count exactly the tasks of phases 1 and 3, no task
of phase 2 (none of its construct's instances, at 1, 2 and 4 threads), every
visit of the ended threads, none made while off, and one after on; the
program's output must not change.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import PROGS, build, cubex, ENV  # noqa: E402


def task_lines():
    with open(os.path.join(PROGS, "prof_onoff.c")) as f:
        return [i for i, line in enumerate(f, 1) if re.match(r"^#pragma omp task$", line)]


class OnOff(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_onoff_")
        cls.exe = build(cls.scratch, "prof_onoff.c")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_switches(self):
        n, ended = 120, 6
        first, second, third = task_lines()
        for threads in (1, 2, 4):
            with self.subTest(threads=threads):
                out = tempfile.mkdtemp(dir=self.scratch)
                p = subprocess.run([self.exe, str(n), str(ended)],
                                   env=dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   universal_newlines=True)
                self.assertEqual((p.returncode, p.stderr, p.stdout),
                                 (0, "", "%d %d %d\n" % (n, n, n)))
                cube = cubex.load(out)
                instances = {c.region.name: sum(cube.row("visits", c)) for c in cube.task_roots()}
                name = "!$omp task @prof_onoff.c:%d"
                self.assertEqual(instances.get(name % first), n)
                self.assertEqual(instances.get(name % third), n)
                self.assertEqual(instances.get(name % second, 0), 0)
                visits = {}
                for c in cube.cnodes_in_order():
                    visits[c.region.name] = visits.get(c.region.name, 0) + sum(cube.row("visits", c))
                self.assertEqual(visits.get("short-lived thread"), 5 * ended)
                self.assertEqual(visits.get("while off", 0), 0)
                self.assertEqual(visits.get("after on"), 1)
                self.assertEqual(visits.get("!$omp create task @prof_onoff.c:%d" % second, 0), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
