#!/usr/bin/env python3
"""End-to-end: every thread of a team ends the program inside a parallel
region: exit() in C (progs/exit_all.c), STOP in Fortran (progs/exit_all.f90).

glibc runs concurrent exit() calls side by side, so without care a second
thread ended the process while the first one wrote the profile, and no
profile was written.  Checked at 1, 2 and 4 threads, three runs each, against
a plain build: same stdout, stderr and exit status, and a profile that reads
back with both parallel regions of the program, each visited once by the
master thread.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import CC, ENV, OPENMP, PROGS, WRAPPER, cubex  # noqa: E402

ENV = dict(ENV)
ENV.pop("POMPPROF_OUTPUT", None)
FC = (os.environ.get("FC") or "gfortran").split()
FORTRAN = os.environ.get("FORTRAN_BINDINGS", "no") == "yes" and shutil.which(FC[0])


def parallel_lines(source):
    with open(os.path.join(PROGS, source)) as f:
        return [i for i, line in enumerate(f, 1)
                if re.match(r"\s*(#pragma omp|!\$omp) parallel\b", line, re.I)]


class ExitAll(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_exit_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def build(self, compiler, source):
        src = os.path.join(PROGS, source)
        base = os.path.join(self.scratch, os.path.splitext(source)[0])
        subprocess.run(compiler + OPENMP + [src, "-o", base + "_plain"], check=True,
                       cwd=self.scratch)
        p = subprocess.run([WRAPPER] + compiler + OPENMP + [src, "-o", base], env=ENV,
                           cwd=self.scratch, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        return base + "_plain", base

    def run_one(self, exe, threads, output=None):
        env = dict(ENV, OMP_NUM_THREADS=str(threads))
        if output:
            env["POMPPROF_OUTPUT"] = output
        p = subprocess.run([exe], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=60, cwd=self.scratch)
        return p.returncode, p.stdout, p.stderr

    def check(self, compiler, source, name):
        plain, inst = self.build(compiler, source)
        first, second = parallel_lines(source)
        for t in (1, 2, 4):
            for run in range(3):
                with self.subTest(threads=t, run=run):
                    out = os.path.join(self.scratch, "%s_%d_%d.cubex" % (name, t, run))
                    expect = self.run_one(plain, t)
                    self.assertEqual(expect[0], 3)
                    self.assertEqual(self.run_one(inst, t, out), expect)
                    cube = cubex.load(out)
                    # visits on the master thread: each region once
                    visits = {}
                    for c in cube.cnodes_in_order():
                        visits[c.region.name] = visits.get(c.region.name, 0) \
                            + cube.row("visits", c)[0]
                    for line in (first, second):
                        self.assertEqual(visits.get("!$omp parallel @%s:%d" % (source, line)), 1)

    def test_c_exit_on_every_thread(self):
        self.check(CC, "exit_all.c", "c")

    @unittest.skipUnless(FORTRAN, "no Fortran bindings")
    def test_fortran_stop_on_every_thread(self):
        self.check(FC, "exit_all.f90", "f")


if __name__ == "__main__":
    unittest.main(verbosity=2)
