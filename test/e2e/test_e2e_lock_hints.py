#!/usr/bin/env python3
"""End-to-end: the hinted OpenMP lock routines (omp_init_lock_with_hint,
omp_init_nest_lock_with_hint) in C++ (progs/lock_hints.cpp) and Fortran.

OPARI2 renames them to POMP2_Init_lock_with_hint & co.; libpompprof measures
them as regions "omp_init_lock_with_hint" and "omp_init_nest_lock_with_hint"
and calls the runtime's hinted routine, or the plain one where the runtime
has none (libgomp 12 has none: a program that calls them does not even link
without pompprof there).  Checked: the wrapper compiles the C++ file without
a note and the object calls the POMP2 entry points; the program runs at 1,
2 and 4 threads; with clang++ and libomp (when installed) its output equals
a plain build's; each init is one visit in the profile, each set_lock one
per thread.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import ENV, PROGS, WRAPPER, cubex  # noqa: E402

ENV = dict(ENV)
ENV.pop("POMPPROF_OUTPUT", None)
CXX = (os.environ.get("CXX") or "g++").split()
FC = (os.environ.get("FC") or "gfortran").split()
SOURCE = os.path.join(PROGS, "lock_hints.cpp")
FORTRAN = """program lock_hints
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: l
  integer(omp_nest_lock_kind) :: n
  integer :: count
  count = 0
  call omp_init_lock_with_hint(l, omp_sync_hint_contended)
  call omp_init_nest_lock_with_hint(n, omp_sync_hint_none)
!$omp parallel num_threads(2)
  call omp_set_lock(l)
  count = count + 1
  call omp_unset_lock(l)
!$omp end parallel
  call omp_destroy_lock(l)
  call omp_destroy_nest_lock(n)
  print '(i3)', count
end program
"""


def clang_with_libomp():
    """clang++ when it builds and runs an OpenMP program with libomp."""
    if not shutil.which("clang++"):
        return None
    scratch = tempfile.mkdtemp(prefix="pp_e2e_clang_")
    try:
        exe = os.path.join(scratch, "probe")
        p = subprocess.run(["clang++", "-fopenmp", SOURCE, "-o", exe],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if p.returncode != 0 or subprocess.run([exe], stdout=subprocess.DEVNULL).returncode:
            return None
        return ["clang++"]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


class LockHints(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_hints_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def run_in(self, cmd, env=ENV):
        return subprocess.run(cmd, cwd=self.scratch, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=120)

    def wrapped(self, compiler, source, exe):
        p = self.run_in([WRAPPER] + compiler + ["-fopenmp", "-c", source, "-o", exe + ".o"])
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        symbols = self.run_in(["nm", "-u", exe + ".o"]).stdout
        self.assertIn("init_lock_with_hint", symbols.lower())
        self.assertNotRegex(symbols, r"\bomp_init_(nest_)?lock_with_hint_?\b")
        p = self.run_in([WRAPPER] + compiler + ["-fopenmp", exe + ".o", "-o", exe])
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        return os.path.join(self.scratch, exe)

    def check_profile(self, path, threads):
        cube = cubex.load(path)
        visits = {}
        for c in cube.cnodes_in_order():
            visits[c.region.name] = visits.get(c.region.name, 0) + sum(cube.row("visits", c))
        self.assertEqual(visits.get("omp_init_lock_with_hint"), 1)
        self.assertEqual(visits.get("omp_init_nest_lock_with_hint"), 1)
        self.assertEqual(visits.get("omp_set_lock"), threads)

    def runs(self, exe, plain=None):
        for t in (1, 2, 4):
            with self.subTest(exe=os.path.basename(exe), threads=t):
                out = os.path.join(self.scratch, "%s_%d.cubex" % (os.path.basename(exe), t))
                env = dict(ENV, OMP_NUM_THREADS=str(t))
                p = self.run_in([exe], dict(env, POMPPROF_OUTPUT=out))
                self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "2\n" if "cpp" in exe
                                                                       else "  2\n", ""))
                if plain:
                    q = self.run_in([plain], env)
                    self.assertEqual((q.returncode, q.stdout, q.stderr),
                                     (p.returncode, p.stdout, p.stderr))
                self.check_profile(out, 2)

    def test_cxx_with_the_compilers_runtime(self):
        self.runs(self.wrapped(CXX, SOURCE, "hints_cpp"))

    def test_cxx_with_libomp(self):
        clang = clang_with_libomp()
        if not clang:
            self.skipTest("no clang++ with libomp")
        plain = os.path.join(self.scratch, "plain_clang_cpp")
        self.assertEqual(self.run_in(clang + ["-fopenmp", SOURCE, "-o", plain]).returncode, 0)
        self.runs(self.wrapped(clang, SOURCE, "hints_clang_cpp"), plain)

    @unittest.skipUnless(os.environ.get("FORTRAN_BINDINGS", "no") == "yes" and shutil.which(FC[0]),
                         "no Fortran bindings")
    def test_fortran(self):
        with open(os.path.join(self.scratch, "hints.f90"), "w") as f:
            f.write(FORTRAN)
        self.runs(self.wrapped(FC, "hints.f90", "hints_f"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
