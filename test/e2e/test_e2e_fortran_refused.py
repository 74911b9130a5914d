#!/usr/bin/env python3
"""End-to-end: a Fortran file OPARI2 must refuse and no rewrite can repair
(progs/fortran_unrepairable.f90: the user's own region, !$pomp inst begin,
has no end).

All or nothing: the build succeeds, with one pompprof line that names the
file and line and advises in Fortran terms (end directives, program units;
not C's braced blocks); the object calls nothing of POMP2, the link says
that no construct of the program is measured, the program prints and exits
as a plain build at 1, 2 and 4 threads, says nothing about
tasks it cannot find, and its profile holds no construct of the file.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import ENV, OPENMP, PROGS, WRAPPER, cubex  # noqa: E402

ENV = dict(ENV)
ENV.pop("POMPPROF_OUTPUT", None)
FC = (os.environ.get("FC") or "gfortran").split()
SOURCE = "fortran_unrepairable.f90"


@unittest.skipUnless(os.environ.get("FORTRAN_BINDINGS", "no") == "yes" and shutil.which(FC[0]),
                     "no Fortran bindings")
class Refused(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_refused_")
        shutil.copy(os.path.join(PROGS, SOURCE), cls.scratch)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def run_in(self, cmd, env=ENV):
        return subprocess.run(cmd, cwd=self.scratch, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=120)

    def test_all_or_nothing_with_fortran_advice(self):
        with open(os.path.join(PROGS, SOURCE)) as f:
            line = next(i for i, t in enumerate(f, 1) if t.startswith("!$pomp inst begin"))
        p = self.run_in([WRAPPER] + FC + OPENMP + ["-c", SOURCE, "-o", "inst.o"])
        self.assertEqual(p.returncode, 0, p.stderr)
        notes = p.stderr.splitlines()
        self.assertEqual(len(notes), 1, p.stderr)
        self.assertTrue(notes[0].startswith("pompprof: %s:%d: OPARI2 cannot instrument this ("
                                            % (SOURCE, line)), notes[0])
        self.assertIn("compiled without measurement", notes[0])
        self.assertIn("!$omp end", notes[0])
        self.assertIn("!$pomp inst end", notes[0])
        self.assertIn("program unit", notes[0])
        self.assertNotIn("brace", notes[0])
        symbols = self.run_in(["nm", "inst.o"]).stdout
        self.assertFalse(re.search(r"pomp2_|pomp_tpd", symbols, re.I), symbols)

        self.assertEqual(self.run_in(FC + OPENMP + [SOURCE, "-o", "plain"]).returncode, 0)
        # the link says that nothing of the program is measured
        p = self.run_in([WRAPPER] + FC + OPENMP + ["inst.o", "-o", "inst"])
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
        self.assertTrue(p.stderr.startswith("pompprof: no OpenMP construct of inst is measured"),
                        p.stderr)
        for t in (1, 2, 4):
            with self.subTest(threads=t):
                env = dict(ENV, OMP_NUM_THREADS=str(t))
                out = os.path.join(self.scratch, "t%d.cubex" % t)
                plain = self.run_in(["./plain"], env)
                inst = self.run_in(["./inst"], dict(env, POMPPROF_OUTPUT=out))
                self.assertEqual((inst.returncode, inst.stdout, inst.stderr),
                                 (plain.returncode, plain.stdout, plain.stderr))
                names = [r.name for r in cubex.load(out).regions.values()]
                self.assertEqual([n for n in names if SOURCE in n], [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
