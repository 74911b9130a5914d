#!/usr/bin/env python3
"""End-to-end: task instances OPARI2 alone would not measure, counted exactly.

Programs are built with the build-tree wrapper (real OPARI2, gcc, libgomp),
run at 1, 2 and 4 threads, and their .cubex read back:

* undeferred tasks (if(0) and an if clause that is false below a cut-off) are
  task instances executed at once by the creating thread: prof_fib.c's
  recursive fib, built with those clauses (through -D: macros in pragmas),
  must show one instance per call of each task construct;
* tasks written through _Pragma macros and in a header are measured, under
  the header's own name and line, with their exact instance counts;
* a taskloop is one region entered once; the end of a taskgroup is a region.
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
THREADS = (1, 2, 4)


def lines_of(source, pattern):
    """Line numbers of the lines of a program in PROGS that match pattern."""
    with open(os.path.join(PROGS, source)) as f:
        return [i for i, line in enumerate(f, 1) if re.search(pattern, line)]


def fib_calls(n):
    """Calls of fib with n >= 2 (each creates one instance of each task construct)."""
    calls = [0, 0]
    for k in range(2, n + 1):
        calls.append(1 + calls[k - 1] + calls[k - 2])
    return calls[n]


class Instances(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_inst_")
        cls.exe = {}
        undeferred = ["-DFIRST_TASK=if(n > 15)", "-DSECOND_TASK=if(0)"]
        for prog, source, flags in (("prof_undeferred", "prof_fib", undeferred),
                                    ("prof_macro_tasks", "prof_macro_tasks", [])):
            exe = os.path.join(cls.scratch, prog)
            p = subprocess.run([WRAPPER] + CC + OPENMP + flags
                               + ["-O2", os.path.join(PROGS, source + ".c"), "-o", exe],
                               env=ENV, cwd=cls.scratch, stderr=subprocess.PIPE,
                               universal_newlines=True)
            if p.returncode != 0:
                raise AssertionError("building %s: %s" % (prog, p.stderr))
            cls.exe[prog] = (exe, p.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def run_profiled(self, prog, threads, *args):
        out = tempfile.mkdtemp(dir=self.scratch)
        p = subprocess.run([self.exe[prog][0]] + [str(a) for a in args],
                           env=dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        return p.stdout, cubex.load(out)

    def instances(self, cube):
        return {c.region.name: sum(cube.row("visits", c)) for c in cube.task_roots()}

    def visits_of(self, cube, name):
        return sum(sum(cube.row("visits", c)) for c in cube.cnodes_in_order()
                   if c.region.name == name)

    def test_undeferred_tasks_are_instances(self):
        n = 20
        first, second = lines_of("prof_fib.c", r"^#pragma omp task ")
        for t in THREADS:
            with self.subTest(threads=t):
                out, cube = self.run_profiled("prof_undeferred", t, n)
                self.assertEqual(out, "fib(20) = 6765\n")
                self.assertEqual(self.instances(cube),
                                 {"!$omp task @prof_fib.c:%d" % first: fib_calls(n),
                                  "!$omp task @prof_fib.c:%d" % second: fib_calls(n)})
                # each was created once, and ran (every fragment of it in a stub)
                self.assertEqual(self.visits_of(cube, "!$omp create task @prof_fib.c:%d"
                                                % second), fib_calls(n))
                stubs = sum(sum(cube.row("visits", c)) for c in cube.cnodes_in_order()
                            if c.region.name == "!$omp task @prof_fib.c:%d" % second
                            and c not in cube.task_roots())
                self.assertGreaterEqual(stubs, fib_calls(n))

    def test_macro_and_header_tasks(self):
        macro, header = 30, 20
        (spawn,) = lines_of("prof_macro_tasks.c", r"^\s+SPAWN\(a\)$")[:1]
        (group_spawn,) = lines_of("prof_macro_tasks.c", r"^\s+SPAWN\(a\)$")[1:]
        (in_header,) = lines_of("prof_macro_tasks.h", r"^#pragma omp task ")
        (taskloop,) = lines_of("prof_macro_tasks.c", r"^#pragma omp taskloop")
        (taskgroup,) = lines_of("prof_macro_tasks.c", r"^#pragma omp taskgroup")
        for t in THREADS:
            with self.subTest(threads=t):
                out, cube = self.run_profiled("prof_macro_tasks", t, macro, header)
                self.assertEqual(out, "%d %d 4950\n" % (macro + 1, header))
                self.assertEqual(self.instances(cube),
                                 {"!$omp task @prof_macro_tasks.c:%d" % spawn: macro,
                                  "!$omp task @prof_macro_tasks.c:%d" % group_spawn: 1,
                                  "!$omp task @prof_macro_tasks.h:%d" % in_header: header})
                self.assertEqual(self.visits_of(cube, "!$omp taskloop @prof_macro_tasks.c:%d"
                                                % taskloop), 1)
                self.assertEqual(self.visits_of(cube, "!$omp taskgroup @prof_macro_tasks.c:%d"
                                                % taskgroup), 1)
                names = {c.region.name for c in cube.cnodes_in_order()}
                self.assertIn("!$omp parallel @prof_macro_tasks.c:%d"
                              % lines_of("prof_macro_tasks.c", r"OMP\(omp parallel\)")[0], names)

    def test_taskloop_note_at_compile_time(self):
        (taskloop,) = lines_of("prof_macro_tasks.c", r"^#pragma omp taskloop")
        notes = self.exe["prof_macro_tasks"][1].splitlines()
        self.assertEqual(len(notes), 1, notes)
        self.assertRegex(notes[0], r"^pompprof: .*prof_macro_tasks\.c:%d: taskloop is measured "
                                   r"as one region" % taskloop)


if __name__ == "__main__":
    unittest.main(verbosity=2)
