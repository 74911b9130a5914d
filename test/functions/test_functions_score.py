#!/usr/bin/env python3
"""pompprof-score on a recursive program built with `pompprof --functions`
(progs/recursive.c), read against the profile and against reruns:

* the table per region kind and per region: the visits of rec, tiny and
  medium are the program's calls, OpenMP constructs are OMP, functions FUN;
* -f FILTER marks exactly the regions the filter excludes;
* -g writes a filter in Score-P syntax that excludes exactly the functions
  with many short visits (tiny, rec) and neither medium, main nor any OpenMP
  construct, and its estimate with the filter is under the target (10 %);
  the run with it (POMPPROF_FILTER) measures exactly the others;
* the overhead measured after the rerun (the program's own CPU time against a
  plain build's, the least of seven alternating runs each) is within a factor of 2 of
  pompprof-score's estimate for the filter.
The estimate is relative to the run's CPU time (pompprof::cpu_time), which a
busy machine does not stretch as it does the profile's wall-clock times (by 4
and more under `make -j2 check` beside a build); the program's work is sized
so that what is left of tiny and rec (a table lookup per call, about 5 % of
it) is clearly under the target and medium is not needed to reach it.
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
        """The CPU time of one run, as the program measured it."""
        truth = os.path.join(self.scratch, "cpu")
        e = dict(ENV, OMP_NUM_THREADS="1", RECURSIVE_TRUTH=truth,
                 POMPPROF_OUTPUT=tempfile.mkdtemp(dir=self.scratch, prefix="rerun"),
                 **(env or {}))
        proc = subprocess.run([exe, str(PHASES), str(DEPTH)], env=e, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, check=True)
        self.assertEqual((proc.stdout, proc.stderr), (self.out, ""))
        with open(truth) as f:
            return float(f.read())

    def cpu_seconds_rounds(self, runs, times, *cases):
        """Add runs rounds of the CPU time of each (exe, env) case to times (a
        list per case); the cases alternate within a round, so that a busier
        spell of the machine (which makes CPU time longer too: shared caches)
        falls on all of them alike."""
        for _ in range(runs):
            for i, (exe, env) in enumerate(cases):
                times[i].append(self.cpu_seconds(exe, env))

    @staticmethod
    def least(times):
        """The least of times, and how far the second least lies above it (what
        the least itself may be off by)."""
        return min(times), sorted(times)[1] - min(times)

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
        self.assertEqual(sorted(excluded), ["rec", "tiny"], written)
        before, after = map(float, re.search(r"estimated overhead ([0-9.]+) % -> ([0-9.]+) %",
                                             written).groups())
        self.assertGreater(before, 10.0, written)
        self.assertLessEqual(after, 10.0, written)
        self.assertIn("CPU time of the run", text)
        # never overwritten
        proc = subprocess.run([SCORE, self.profile_dir(), "-g", gen], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("exists", proc.stderr)

        m = re.search(r"with the filter .*: estimated cost (\S+) s, ([0-9.]+) %", text)
        estimate = float(m.group(1))
        cases = ((self.plain, None), (self.exe, {"POMPPROF_FILTER": gen}))
        times = [[], []]
        for _ in range(3):  # more rounds while the runs vary as much as the cost
            self.cpu_seconds_rounds(7, times, *cases)
            (plain, plain_off), (filtered, filtered_off) = map(self.least, times)
            # a difference of two least times is uncertain by what each may be off
            noise = plain_off + filtered_off
            if noise < estimate / 2:
                break
        measured = filtered - plain
        sys.stderr.write("estimated cost %.4f s (%s %%), measured %.4f s +- %.4f s (plain %.4f "
                         "s, filtered %.4f s)\n" % (estimate, m.group(2), measured, noise, plain,
                                                    filtered))
        self.assertGreater(estimate, 0)
        # the estimate's per-call cost comes from one calibration run whose
        # filtered figure (a difference of two loops of a few ns per call) varies
        # by a third from run to run on a busy machine: a factor of 3 either way
        # still tells a filtered function from a measured one (a factor of 20)
        self.assertGreaterEqual(measured + noise, estimate / 3, text)
        self.assertLessEqual(measured - noise, estimate * 3, text)
        # the rerun's profile has no tiny and no rec
        out, cube, _ = run(self.scratch, self.exe, 1, PHASES, DEPTH,
                           env={"POMPPROF_FILTER": gen})
        names = {c.region.name for c in cube.cnodes_in_order()}
        self.assertEqual(names & {"tiny", "rec", "medium", "main"},
                         {"tiny", "rec", "medium", "main"} - set(excluded))


if __name__ == "__main__":
    unittest.main()
