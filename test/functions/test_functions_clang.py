#!/usr/bin/env python3
"""`pompprof --functions clang|clang++`: clang has -finstrument-functions
(and -finstrument-functions-after-inlining), but neither exclusion lists
nor GCC plugins.  The wrapper instruments with -finstrument-functions; the
library prepares the functions when the program starts (names, files and
lines from clang's DWARF 5) and leaves out at run time what clang could not
at build time: code from system headers and the C++ standard library,
pompprof's own, and clang's outlined OpenMP bodies (.omp_outlined.).

* C (progs/fig2.c): foo's and bar's visits exact, their files and lines,
  foo right below every task construct in the task trees;
* C++ (progs/names.cpp): the same functions as with gcc, named alike but
  for the lambda, which clang names `main::$_N::operator()(int) const`;
  nothing of std::, no .omp_outlined.; the program's output unchanged;
* a filter: the wrapper says once which rules clang cannot apply, naming
  each; POMPPROF_FILTER leaves exactly those functions out at run time.
Skipped without clang."""
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from functions_common import (  # noqa: E402
    ENV, PROGS, WRAPPER, ScratchTest, cnodes_of, require_libdw, run, total)

TASKS, SPIN_US = 4, 200


def functions(cube):
    return {c.region.name: c.region for c in cube.cnodes_in_order()
            if c.region.paradigm == "compiler"}


def source_line(source, start):
    with open(os.path.join(PROGS, source)) as f:
        return next(i for i, line in enumerate(f, 1) if line.startswith(start))


class Clang(ScratchTest):
    prefix = "pp_fn_clang_"

    @classmethod
    def setUpClass(cls):
        require_libdw()
        if not shutil.which("clang") or not shutil.which("clang++"):
            raise unittest.SkipTest("no clang")
        super().setUpClass()

    def build(self, compiler, source, wrapper_opts=("--functions",)):
        exe = os.path.join(self.scratch, os.path.splitext(source)[0] + "_" + compiler)
        proc = subprocess.run([WRAPPER] + list(wrapper_opts) + [
            compiler, "-fopenmp", "-O2", os.path.join(PROGS, source), "-o", exe], env=ENV,
            cwd=self.scratch, stderr=subprocess.PIPE, universal_newlines=True, check=True)
        return exe, proc.stderr

    def test_c(self):
        exe, err = self.build("clang", "fig2.c")
        self.assertEqual(err, "")
        truth = os.path.join(self.scratch, "fig2.truth")
        out, cube, err = run(self.scratch, exe, 2, TASKS, SPIN_US, env={"FIG2_TRUTH": truth})
        self.assertEqual(err, "")
        calls = 2 * (TASKS + 1)
        self.assertEqual(out, "foo %d bar %d\n" % (calls, calls))
        funs = functions(cube)
        self.assertEqual(set(funs), {"main", "foo", "bar"})
        for name, start in (("foo", "void foo("), ("bar", "double bar(")):
            self.assertEqual(total(cube, "visits", cnodes_of(cube, name)), calls, name)
            self.assertTrue(funs[name].mod.endswith("fig2.c"), funs[name].mod)
            self.assertEqual(funs[name].begin, source_line("fig2.c", start))
            self.assertGreaterEqual(funs[name].end, funs[name].begin)
        for root in cube.task_roots():
            self.assertIn("foo", [ch.region.name for ch in root.children], root.region.name)

    def test_cplusplus(self):
        exe, err = self.build("clang++", "names.cpp")
        self.assertEqual(err, "")
        plain = os.path.join(self.scratch, "names_plain")
        subprocess.run(["clang++", "-fopenmp", "-O2", os.path.join(PROGS, "names.cpp"), "-o",
                        plain], check=True)
        expected_out = subprocess.run([plain], stdout=subprocess.PIPE, universal_newlines=True,
                                      check=True).stdout
        out, cube, err = run(self.scratch, exe, 2)
        self.assertEqual((out, err), (expected_out, ""))
        names = set(functions(cube))
        lambdas = {n for n in names if re.fullmatch(r"main::\$_[0-9]+::operator\(\)\(int\) const",
                                                      n)}
        self.assertEqual(len(lambdas), 1, names)
        self.assertEqual(names - lambdas, {
            "main", "geo::Box::area(int) const", "int geo::twice<int>(int)",
            "double geo::twice<double>(double)", "geo::pick(int)", "geo::pick(double)"})
        (lam,) = lambdas
        self.assertEqual(functions(cube)[lam].begin, 34)
        self.assertEqual(functions(cube)["geo::pick(int)"].begin, 20)

    def test_filter(self):
        path = self.write("c.filter", "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE geo::pick*\n"
                          "  EXCLUDE MANGLED _ZNK3geo3Box4areaEi\nSCOREP_REGION_NAMES_END\n")
        exe, err = self.build("clang++", "names.cpp", ["--filter=" + path])
        self.assertEqual(err.count("pompprof: "), 1, err)
        self.assertIn("clang leaves no function out at build time", err)
        self.assertIn("line 2: EXCLUDE geo::pick*; line 3: EXCLUDE MANGLED _ZNK3geo3Box4areaEi",
                      err)
        out, cube, _ = run(self.scratch, exe, 2)
        self.assertIn("geo::pick(int)", functions(cube))
        out, cube, err = run(self.scratch, exe, 2, env={"POMPPROF_FILTER": path})
        self.assertEqual(err, "")
        names = set(functions(cube))
        self.assertEqual({n for n in names if "pick" in n or "area" in n}, set())
        self.assertIn("int geo::twice<int>(int)", names)


if __name__ == "__main__":
    unittest.main()
