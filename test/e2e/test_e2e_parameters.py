#!/usr/bin/env python3
"""End-to-end: parameters split task trees, counted exactly.

Programs are built with the build-tree wrapper (real OPARI2, gcc/gfortran,
libgomp), run at 1, 2 and 4 threads, and their .cubex read back:

* progs/prof_depth.c, a recursive binary task tree of depth D whose tasks call
  pompprof_parameter_int64("depth", d) (and, at the leaves, a string
  parameter): the task construct's tree has exactly 2^d instances at depth d,
  and the sum over the depths equals the instances of the same program built
  without the calls;
* the cap (POMPPROF_MAX_PARAMETER_VALUES): depths beyond it are counted
  together under "<other>", with one warning line; a bad setting is one line
  and the default;
* progs/fdepth.F90, the same tree in Fortran through the Fortran bindings.

The programs print what they print without pompprof (compared with plain
builds).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import CC, ENV, OPENMP, PROGS, WRAPPER, cubex  # noqa: E402

THREADS = (1, 2, 4)
DEPTH = 6
FORTRAN = os.environ.get("FORTRAN_BINDINGS", "no") == "yes"
FC = os.environ.get("FC") or "gfortran"


def run(argv, cwd, env=None):
    p = subprocess.run(argv, cwd=cwd, env=env or ENV, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        raise AssertionError("%s failed (%d): %s" % (" ".join(argv), p.returncode, p.stderr))
    return p


def params(cnode):
    """The cnode's parameters as {key: (type, value)}."""
    return {k: (t, v) for t, k, v in cnode.parameters}


def task_trees(cube, source):
    """The task-root cnodes of the task construct(s) in source."""
    return [c for c in cube.task_roots() if os.path.basename(c.region.mod) == source]


def instances_by_depth(cube, source):
    """{depth value (text): instances}, summed over threads and other parameters."""
    out = {}
    for c in task_trees(cube, source):
        depth = params(c).get("depth", ("", None))[1]
        out[depth] = out.get(depth, 0) + sum(cube.row("visits", c))
    return out


class Parameters(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_param_")
        src = os.path.join(PROGS, "prof_depth.c")
        cls.exe = os.path.join(cls.scratch, "depth")
        cls.unsplit = os.path.join(cls.scratch, "depth_unsplit")
        cls.plain = os.path.join(cls.scratch, "depth_plain")
        run([WRAPPER] + CC + OPENMP + ["-O2", src, "-o", cls.exe], cls.scratch)
        run([WRAPPER] + CC + OPENMP + ["-O2", "-DNO_PARAMETERS", src, "-o", cls.unsplit],
            cls.scratch)
        run(CC + OPENMP + ["-O2", "-I" + ENV["POMPPROF_INCDIR"], src, "-o", cls.plain],
            cls.scratch)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def profiled(self, exe, threads, args=(), **env):
        out = tempfile.mkdtemp(dir=self.scratch)
        p = run([exe] + [str(a) for a in args], self.scratch,
                dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out, **env))
        return p, cubex.load(out)

    def plain_output(self, exe, threads, args=()):
        return run([exe] + [str(a) for a in args], self.scratch,
                   dict(ENV, OMP_NUM_THREADS=str(threads))).stdout

    def test_binary_tree_depths(self):
        total = 2 ** (DEPTH + 1) - 1
        for threads in THREADS:
            with self.subTest(threads=threads):
                p, cube = self.profiled(self.exe, threads, [DEPTH])
                self.assertEqual(p.stdout, self.plain_output(self.plain, threads, [DEPTH]))
                self.assertEqual(p.stdout, "tasks=%d\n" % total)
                self.assertEqual(p.stderr, "")
                by_depth = instances_by_depth(cube, "prof_depth.c")
                self.assertEqual(by_depth, {str(d): 2 ** d for d in range(DEPTH + 1)})
                for c in task_trees(cube, "prof_depth.c"):
                    ps = params(c)
                    self.assertEqual(ps["depth"][0], "numeric")
                    visits = sum(cube.row("visits", c))
                    if ps["depth"][1] == str(DEPTH):
                        # the leaves took a second parameter right after the first
                        self.assertEqual(ps.get("kind"), ("string", "leaf"))
                        self.assertEqual(visits, 2 ** DEPTH)
                    else:
                        self.assertNotIn("kind", ps)
                # the sum over the depths is the unsplit count
                _, unsplit = self.profiled(self.unsplit, threads, [DEPTH])
                roots = task_trees(unsplit, "prof_depth.c")
                self.assertEqual(len(roots), 1)
                self.assertEqual(roots[0].parameters, [])
                self.assertEqual(sum(unsplit.row("visits", roots[0])), total)
                self.assertEqual(sum(by_depth.values()), total)

    def test_cap_folds_into_other(self):
        p, cube = self.profiled(self.exe, 2, [DEPTH], POMPPROF_MAX_PARAMETER_VALUES="3")
        self.assertEqual(p.stdout, "tasks=%d\n" % (2 ** (DEPTH + 1) - 1))
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertTrue(lines[0].startswith("pompprof: parameter 'depth' took more than 3 "
                                            "values"), lines[0])
        self.assertIn("POMPPROF_MAX_PARAMETER_VALUES", lines[0])
        by_depth = instances_by_depth(cube, "prof_depth.c")
        self.assertEqual(by_depth, {"0": 1, "1": 2, "2": 4, "<other>": 2 ** (DEPTH + 1) - 1 - 7})
        for c in task_trees(cube, "prof_depth.c"):
            if params(c)["depth"][1] == "<other>":
                self.assertEqual(params(c)["depth"][0], "string")

    def test_bad_cap_setting(self):
        p, cube = self.profiled(self.exe, 1, [3], POMPPROF_MAX_PARAMETER_VALUES="0")
        self.assertEqual(p.stderr, "pompprof: POMPPROF_MAX_PARAMETER_VALUES='0' is invalid "
                                   "(accepted: a whole number from 1 to 1000000); using the "
                                   "default\n")
        self.assertEqual(instances_by_depth(cube, "prof_depth.c"),
                         {str(d): 2 ** d for d in range(4)})

    @unittest.skipUnless(FORTRAN, "Fortran bindings not built")
    def test_fortran_binding(self):
        src = os.path.join(PROGS, "fdepth.F90")
        exe, plain = os.path.join(self.scratch, "fdepth"), os.path.join(self.scratch, "fplain")
        run([WRAPPER, FC] + OPENMP + [src, "-o", exe], self.scratch)
        run([FC] + OPENMP + [src, "-o", plain], self.scratch)
        for threads in THREADS:
            with self.subTest(threads=threads):
                p, cube = self.profiled(exe, threads)
                self.assertEqual(p.stdout, self.plain_output(plain, threads))
                self.assertEqual(p.stdout, "tasks=63\n")
                self.assertEqual(p.stderr, "")
                self.assertEqual(instances_by_depth(cube, "fdepth.F90"),
                                 {str(d): 2 ** d for d in range(6)})
                lang = [params(c).get("lang") for c in task_trees(cube, "fdepth.F90")
                        if params(c)["depth"][1] == "0"]
                self.assertEqual(lang, [("string", "fortran")])


if __name__ == "__main__":
    unittest.main()
