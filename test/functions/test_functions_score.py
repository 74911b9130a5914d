#!/usr/bin/env python3
"""pompprof-score on a recursive program built with `pompprof --functions`
(progs/recursive.c), read against the profile and against reruns:

* the table per region kind and per region: the visits of rec, tiny and
  medium are the program's calls, OpenMP constructs are OMP, functions FUN;
* -f FILTER marks exactly the regions the filter excludes;
* -g writes a filter in Score-P syntax that excludes functions with many
  short visits (tiny, rec) and neither medium, main nor any OpenMP construct;
  the run with it (POMPPROF_FILTER) measures exactly the others;
* the overhead measured after the rerun (the program's own CPU time against a
  plain build's, the least of three runs each) is within a factor of 2 of
  pompprof-score's estimate for the filter (compared in seconds: the
  estimate's percentage is of the profile's wall time, which a busy machine
  stretches).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from functions_common import (  # noqa: E402
    CC, ENV, OPENMP, PROGS, build, cnodes_of, require_libdw, run, total)

TOP_BUILDDIR = os.environ["top_builddir"]
SCORE = os.path.join(TOP_BUILDDIR, "scripts", "pompprof-score")
PHASES, DEPTH = 20, 20


def calls(n):
    """Calls of rec(n) (each calls tiny once)."""
    a, b = 1, 1                     # calls of rec(0), rec(1)
    for _ in range(n - 1):
        a, b = b, 1 + a + b
    return b if n >= 1 else a


class Score(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_libdw()
        cls.scratch = tempfile.mkdtemp(prefix="pp_fn_score_")
        cls.exe = build(cls.scratch, "recursive.c")
        cls.plain = os.path.join(cls.scratch, "recursive_plain")
        subprocess.run(CC + OPENMP + ["-O2", os.path.join(PROGS, "recursive.c"), "-o",
                                      cls.plain], check=True)
        cls.out, cls.cube, _ = run(cls.scratch, cls.exe, 1, PHASES, DEPTH)
        # the run wrote exactly one profile directory in the scratch directory
        (cls.profile,) = [os.path.join(cls.scratch, d) for d in os.listdir(cls.scratch)
                          if d.startswith("tmp")]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def profile_dir(self):
        return self.profile

    def score(self, *args):
        proc = subprocess.run([SCORE, self.profile_dir()] + list(args), cwd=self.scratch,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, env=ENV)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return proc.stdout

    def cpu_seconds(self, exe, env=None):
        """The least CPU time of three runs, as the program measured it."""
        best = None
        for i in range(3):
            truth = os.path.join(self.scratch, "cpu")
            e = dict(ENV, OMP_NUM_THREADS="1", RECURSIVE_TRUTH=truth,
                     POMPPROF_OUTPUT=tempfile.mkdtemp(dir=self.scratch, prefix="rerun"),
                     **(env or {}))
            proc = subprocess.run([exe, str(PHASES), str(DEPTH)], env=e, stdout=subprocess.PIPE,
                                  universal_newlines=True, check=True)
            self.assertEqual(proc.stdout, self.out)
            with open(truth) as f:
                t = float(f.read())
            best = t if best is None else min(best, t)
        return best

    def region_row(self, text, name):
        for line in text.splitlines():
            parts = line.split()
            if parts and parts[0] == name:
                return parts
        self.fail("no row for %s in:\n%s" % (name, text))

    def test_table(self):
        text = self.score("--top", "0")
        n = PHASES * calls(DEPTH)
        self.assertEqual(total(self.cube, "visits", cnodes_of(self.cube, "rec")), n)
        for name, visits in (("rec", n), ("tiny", n), ("medium", PHASES * 200), ("main", 1)):
            row = self.region_row(text, name)
            self.assertEqual(row[1], "FUN")
            self.assertEqual(row[2], str(visits) if visits < 1e6 else row[2])
        kinds = {line.split()[0] for line in text.splitlines() if line.split()
                 and line.split()[0] in ("ALL", "OMP", "FUN", "USR", "MPI")}
        self.assertEqual(kinds, {"ALL", "OMP", "FUN"})
        for line in text.splitlines():
            if line.startswith("!$omp"):
                self.assertIn(" OMP ", line)

    def test_filter_and_generate(self):
        flt = os.path.join(self.scratch, "mine.filter")
        with open(flt, "w") as f:
            f.write("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE t*\nSCOREP_REGION_NAMES_END\n")
        text = self.score("-f", flt, "--top", "0")
        self.assertEqual(self.region_row(text, "tiny")[1], "-")
        self.assertEqual(self.region_row(text, "rec")[1], "FUN")
        self.assertRegex(text, r"with the filter .*mine\.filter: estimated cost")

        gen = os.path.join(self.scratch, "generated.filter")
        text = self.score("-g", gen)
        with open(gen) as f:
            written = f.read()
        excluded = re.findall(r"^\s*EXCLUDE (\S+)$", written, re.M)
        # which of the two short ones depends on the times the run measured (a
        # busy machine stretches them); at least one, and nothing else
        self.assertTrue(set(excluded) & {"tiny", "rec"}, written)
        self.assertLessEqual(set(excluded), {"tiny", "rec"}, written)
        for name in excluded:
            self.assertNotIn("omp", name)
            self.assertNotIn(name, ("medium", "main"))
        # never overwritten
        proc = subprocess.run([SCORE, self.profile_dir(), "-g", gen], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("exists", proc.stderr)

        # the cost in seconds: the percentage's base, the profile's wall time,
        # grows with the machine's load, the program's CPU time does not
        m = re.search(r"with the filter .*: estimated cost (\S+) s, ([0-9.]+) %", text)
        estimate = float(m.group(1))
        plain = self.cpu_seconds(self.plain)
        filtered = self.cpu_seconds(self.exe, {"POMPPROF_FILTER": gen})
        measured = filtered - plain
        sys.stderr.write("estimated cost %.4f s (%s %%), measured %.4f s (plain %.4f s, "
                         "filtered %.4f s)\n" % (estimate, m.group(2), measured, plain, filtered))
        self.assertGreater(estimate, 0)
        self.assertGreaterEqual(measured, estimate / 2, text)
        self.assertLessEqual(measured, estimate * 2, text)
        # the rerun's profile has no tiny and no rec
        out, cube, _ = run(self.scratch, self.exe, 1, PHASES, DEPTH,
                           env={"POMPPROF_FILTER": gen})
        names = {c.region.name for c in cube.cnodes_in_order()}
        self.assertEqual(names & {"tiny", "rec", "medium", "main"},
                         {"tiny", "rec", "medium", "main"} - set(excluded))


if __name__ == "__main__":
    unittest.main()
