#!/usr/bin/env python3
"""End-to-end: fork() in a profiled program (progs/fork.c).

A child of fork() measures nothing and writes no profile, whether it leaves
through exit() (also when forked inside a parallel region) or dies of
SIGTERM, and prints nothing of pompprof's; a program it exec()s writes a
profile of its own work.  Checked at 1, 2 and 4 threads against a plain
build: same output and exit status, nothing on stderr, exactly two profiles
(the parent's, the exec'd child's), each with its own process's regions only.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import CC, ENV, OPENMP, PROGS, WRAPPER, cubex  # noqa: E402

SOURCE = os.path.join(PROGS, "fork.c")
ENV = dict(ENV)
ENV.pop("POMPPROF_OUTPUT", None)


def parallel_lines():
    with open(SOURCE) as f:
        return [i for i, line in enumerate(f, 1) if line.startswith("#pragma omp parallel")]


class Fork(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_fork_")
        cls.plain = os.path.join(cls.scratch, "fork_plain")
        cls.inst = os.path.join(cls.scratch, "fork")
        subprocess.run(CC + OPENMP + [SOURCE, "-o", cls.plain], check=True)
        subprocess.run([WRAPPER] + CC + OPENMP + [SOURCE, "-o", cls.inst], env=ENV, check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def run_in(self, exe, threads, cwd):
        p = subprocess.Popen([exe], cwd=cwd, env=dict(ENV, OMP_NUM_THREADS=str(threads)),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
        out, err = p.communicate(timeout=60)
        return p.pid, p.returncode, out, err

    def test_children_write_no_copy_of_the_parent(self):
        exec_line, main_line, single_line = parallel_lines()
        for t in (1, 2, 4):
            with self.subTest(threads=t):
                cwd = tempfile.mkdtemp(dir=self.scratch)
                _, p_rc, p_out, p_err = self.run_in(self.plain, t, cwd)
                pid, rc, out, err = self.run_in(self.inst, t, cwd)
                self.assertEqual((rc, out, err), (p_rc, p_out, p_err))
                self.assertIn("child 4 status %d\n" % (128 + 15), out)
                dirs = sorted(glob.glob(os.path.join(cwd, "pompprof-fork-*")))
                self.assertEqual(len(dirs), 2, dirs)
                mine = [d for d in dirs if d.endswith("-%d" % pid)]
                self.assertEqual(len(mine), 1, dirs)
                other = [d for d in dirs if d not in mine][0]
                parent = cubex.load(mine[0])
                child = cubex.load(other)

                def visits(cube):
                    out = {}
                    for c in cube.cnodes_in_order():
                        m = re.match(r"!\$omp parallel @fork\.c:(\d+)$", c.region.name)
                        if m:
                            out[int(m.group(1))] = out.get(int(m.group(1)), 0) \
                                + sum(cube.row("visits", c))
                    return out
                # every thread of the parent's teams once, the exec'd child's
                # region never; the exec'd child: its own region only
                self.assertEqual(visits(parent), {main_line: t, single_line: t})
                self.assertEqual(visits(child), {exec_line: t})


if __name__ == "__main__":
    unittest.main(verbosity=2)
