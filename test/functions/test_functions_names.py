#!/usr/bin/env python3
"""Function names, files and lines in the profile of programs built with
`pompprof --functions` (read back with the tools' reader):

* C++ (progs/names.cpp): a member function, a namespace, a template
  instantiated twice, a lambda inside a task, overloads -- demangled, each at
  its declaring line, with its link name as the region's mangled name;
  nothing of the C++ standard library (std::sort,
  std::vector) and nothing of pompprof's own (POMP2_Init_reg_*) appears;
* Fortran (progs/names.f90): module procedures as module::name, a contained
  procedure as module::host::name, each at its line (with pompprof's GCC
  plugin the names come from the compiler, without it from the debug
  information: the same names either way);
* the functions called inside the task appear below the task's construct in
  the task trees, and the program's output is that of a plain build;
* every function has its first and last line (C++ main, which gcc splits into
  main and main.cold, ends at its closing brace), so CubeLib's cube_sanity
  lists no region but those the README names (test/tools/sanity_rule.py).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import sanity_rule  # noqa: E402
from functions_common import (  # noqa: E402
    CC, OPENMP, PLUGIN, PROGS, build, cnodes_of, in_tasks, require_libdw, run)


def function_regions(cube):
    """{name: (file's base name, line)} of the measured functions."""
    out = {}
    for c in cube.cnodes_in_order():
        r = c.region
        if r.paradigm == "compiler":
            out[r.name] = (os.path.basename(r.mod), r.begin)
    return out


def undocumented_region_findings(cube):
    return ["%s: %s" % (check, cube.regions[rid].name)
            for check, rid in sanity_rule.region_findings(cube)
            if not sanity_rule.documented(cube, check, rid)]


class Names(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_libdw()
        cls.scratch = tempfile.mkdtemp(prefix="pp_fn_names_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def plain_output(self, source, compiler):
        exe = os.path.join(self.scratch, "plain_" + os.path.splitext(source)[0])
        subprocess.run(compiler + OPENMP + [os.path.join(PROGS, source), "-o", exe], check=True,
                       cwd=self.scratch)
        return subprocess.run([exe], stdout=subprocess.PIPE, universal_newlines=True,
                              check=True).stdout

    def check_task_callees(self, cube, names):
        (root,) = cube.task_roots()
        below = set()
        stack = list(root.children)
        while stack:
            c = stack.pop()
            below.add(c.region.name)
            stack.extend(c.children)
        for n in names:
            self.assertIn(n, below)
            self.assertTrue(all(in_tasks(cube, c) for c in cnodes_of(cube, n)), n)

    def test_cplusplus(self):
        cxx = (os.environ.get("CXX") or "g++").split()
        exe = build(self.scratch, "names.cpp", compiler=cxx)
        out, cube, err = run(self.scratch, exe, 2)
        self.assertEqual(out, self.plain_output("names.cpp", cxx))
        self.assertEqual(err, "")
        expected = {
            "main": ("names.cpp", 24),
            "geo::Box::area(int) const": ("names.cpp", 11),
            "int geo::twice<int>(int)": ("names.cpp", 15),
            "double geo::twice<double>(double)": ("names.cpp", 15),
            "geo::pick(int)": ("names.cpp", 20),
            "geo::pick(double)": ("names.cpp", 21),
            "main::{lambda(int)#1}::operator()(int) const": ("names.cpp", 34),
        }
        self.assertEqual(function_regions(cube), expected)
        self.check_task_callees(cube, [n for n in expected if n != "main"])
        # the link names, for MANGLED filter rules (pompprof-score -f reads them)
        mangled = {c.region.name: c.region.mangled_name for c in cube.cnodes_in_order()}
        self.assertEqual(mangled["geo::pick(int)"], "_ZN3geo4pickEi")
        self.assertEqual(mangled["geo::Box::area(int) const"], "_ZNK3geo3Box4areaEi")
        self.assertEqual(mangled["main::{lambda(int)#1}::operator()(int) const"],
                         "_ZZ4mainENKUliE_clEi")
        self.assertEqual(mangled["main"], "main")
        ends = {c.region.name: c.region.end for c in cube.cnodes_in_order()}
        self.assertEqual(ends["main"], 43)
        self.assertEqual(ends["int geo::twice<int>(int)"], 18)
        self.assertEqual(undocumented_region_findings(cube), [])

    def test_fortran(self):
        fc = (os.environ.get("FC") or "gfortran").split()
        if os.environ.get("FORTRAN_BINDINGS", "yes") != "yes":
            self.skipTest("built without the Fortran bindings")
        exe = build(self.scratch, "names.f90", compiler=fc)
        out, cube, err = run(self.scratch, exe, 2)
        self.assertEqual(out, self.plain_output("names.f90", fc))
        self.assertEqual(err, "")
        got = function_regions(cube)
        # gfortran's main (which calls the program) is a function of the binary:
        # instrumented by -finstrument-functions, not by the plugin
        if not PLUGIN:
            self.assertEqual(got.pop("main")[0], "names.f90")
        self.assertEqual(got, {"names": ("names.f90", 21),
                               "shapes::area": ("names.f90", 5),
                               "shapes::grow": ("names.f90", 10),
                               "shapes::grow::inner": ("names.f90", 14)})
        self.assertEqual({c.region.name: c.region.end for c in cube.cnodes_in_order()}["names"],
                         35)
        self.assertEqual(undocumented_region_findings(cube), [])
        self.check_task_callees(cube, ["shapes::area", "shapes::grow", "shapes::grow::inner"])

    def test_c_without_openmp_units(self):
        """A unit without OpenMP is compiled with the functions instrumented and
        the program linked with libpompprof: its functions are in the profile."""
        exe = build(self.scratch, "fig2.c", compiler=CC)
        out, cube, _ = run(self.scratch, exe, 1, 1, 10)
        self.assertIn("foo", function_regions(cube))
        noomp = os.path.join(self.scratch, "noomp.c")
        with open(noomp, "w") as f:
            f.write("#include <stdio.h>\nstatic int sq(int x) { return x * x; }\n"
                    "int main(void) { printf(\"%d\\n\", sq(7)); return 0; }\n")
        exe = os.path.join(self.scratch, "noomp")
        from functions_common import ENV, WRAPPER
        subprocess.run([WRAPPER, "--functions"] + CC + [noomp, "-o", exe], env=ENV, check=True)
        out, cube, _ = run(self.scratch, exe, 1)
        self.assertEqual(out, "49\n")
        self.assertEqual(function_regions(cube), {"main": ("noomp.c", 3), "sq": ("noomp.c", 2)})
        # compiled apart, linked by a line without --functions: the objects'
        # calls of __cyg_profile_func_enter bring libpompprof in
        obj = os.path.join(self.scratch, "noomp.o")
        subprocess.run([WRAPPER, "--functions"] + CC + ["-c", noomp, "-o", obj], env=ENV,
                       check=True)
        exe2 = os.path.join(self.scratch, "noomp2")
        subprocess.run([WRAPPER] + CC + [obj, "-o", exe2], env=ENV, check=True)
        out, cube, _ = run(self.scratch, exe2, 1)
        self.assertEqual(out, "49\n")
        self.assertEqual(function_regions(cube), {"main": ("noomp.c", 3), "sq": ("noomp.c", 2)})


if __name__ == "__main__":
    unittest.main()
