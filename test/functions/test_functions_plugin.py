#!/usr/bin/env python3
"""pompprof's GCC plugin applies a filter exactly at build time: a function
it leaves out holds no instrumentation call, read back from the program's
code with objdump -d, and is not in the profile (the program runs without
POMPPROF_FILTER); every other function is measured, with its exact visits.

* C++ (progs/exact.cpp): a filter naming a template function
  (`double geo::scale<double>(double)` with its blank quoted, and
  `int geo::scale<int>(int)` as a MANGLED link name), a member
  (`geo::Grid::cell_sum*`) and a function with a lambda inside
  (`geo::apply_all*`, which names the lambda too: a lambda is its call
  operator, `geo::apply_all(...)::{lambda(int&)#1}::operator()(int&) const`,
  named after its enclosing function); without the filter the same
  functions do hold the calls (the check can fail);
* a pattern naming the enclosing function exactly leaves its lambda in;
* Fortran (progs/names.f90): a contained procedure by its profile name
  (shapes::grow::inner) and a module procedure by its link name
  (MANGLED __shapes_MOD_area);
* file rules (SCOREP_FILE_NAMES) are test_functions_filter's;
* a line with -flto is instrumented with -finstrument-functions (the plugin
  cannot add its registration to a unit streamed for link-time
  optimisation), said once, and measured.
Skipped when the build has no plugin."""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from functions_common import (  # noqa: E402
    CC, CXX, ENV, FC, OPENMP, PLUGIN, PROGS, WRAPPER, ScratchTest, cnodes_of, run, total)

ENTRIES = ("__pompprof_func_enter", "__cyg_profile_func_enter")
CXX_FILTER = """\
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE double\\ geo::scale<double>(double)
  EXCLUDE MANGLED _ZN3geo5scaleIiEET_S1_
  EXCLUDE geo::Grid::cell_sum*
  EXCLUDE geo::apply_all*
SCOREP_REGION_NAMES_END
"""
LEFT_OUT = {"double geo::scale<double>(double)", "int geo::scale<int>(int)",
            "geo::Grid::cell_sum() const",
            "geo::apply_all(std::vector<int, std::allocator<int> >&)",
            "geo::apply_all(std::vector<int, std::allocator<int> >&)"
            "::{lambda(int&)#1}::operator()(int&) const"}
MEASURED = {"main", "geo::Grid::size() const", "geo::offset(int)"}


def functions_calling(exe, entries=ENTRIES):
    """{function (demangled, a [clone .cold] part under its own name): the
    number of calls of the instrumentation's entry in its code}."""
    text = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", exe],
                          stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
    calls, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            current = re.sub(r" \[clone \.cold\]$", "", m.group(1))
            calls.setdefault(current, 0)
        elif current and "call" in line and any("<%s@plt>" % e in line for e in entries):
            calls[current] += 1
    return calls


class Plugin(ScratchTest):
    prefix = "pp_fn_plugin_"

    @classmethod
    def setUpClass(cls):
        if not PLUGIN:
            raise unittest.SkipTest("this build has no GCC plugin")
        super().setUpClass()

    def build(self, source, compiler, flt, name):
        exe = os.path.join(self.scratch, name)
        opts = ["--filter=" + self.write(name + ".filter", flt)] if flt else ["--functions"]
        proc = subprocess.run([WRAPPER] + opts + compiler + OPENMP + [
            "-O2", os.path.join(PROGS, source), "-o", exe], env=ENV, cwd=self.scratch,
            stderr=subprocess.PIPE, universal_newlines=True, check=True)
        self.assertEqual(proc.stderr, "")
        return exe

    def functions(self, cube):
        return {c.region.name for c in cube.cnodes_in_order() if c.region.paradigm == "compiler"}

    def test_cplusplus(self):
        plain = self.build("exact.cpp", CXX.split(), None, "exact_all")
        filtered = self.build("exact.cpp", CXX.split(), CXX_FILTER, "exact_filtered")
        # without the filter every function of the program holds its entry call
        calls = functions_calling(plain)
        for name in LEFT_OUT | MEASURED:
            self.assertGreaterEqual(calls.get(name, 0), 1, name)
        out_all, cube, err = run(self.scratch, plain, 2)
        self.assertEqual(self.functions(cube), LEFT_OUT | MEASURED | {"geo::Grid::~Grid()"})
        # with it, the functions it names hold none; the others still do
        calls = functions_calling(filtered)
        for name in LEFT_OUT:
            # no code of its own (inlined, now that nothing stops it) holds no call either
            self.assertEqual(calls.get(name, 0), 0, name)
        self.assertIn("geo::Grid::cell_sum() const", calls)      # noinline: code of their own
        self.assertIn("geo::apply_all(std::vector<int, std::allocator<int> >&)", calls)
        for name in MEASURED:
            self.assertGreaterEqual(calls.get(name, 0), 1, name)
        out, cube, err = run(self.scratch, filtered, 2)
        self.assertEqual((out, err), (out_all, ""))
        self.assertEqual(self.functions(cube), MEASURED | {"geo::Grid::~Grid()"})
        self.assertEqual(total(cube, "visits", cnodes_of(cube, "geo::offset(int)")), 1)
        # the task that called them: what was below them is below it now
        (offset,) = cnodes_of(cube, "geo::offset(int)")
        self.assertEqual(offset.parent.region.role, "task")

    def test_enclosing_function_exactly(self):
        """A lambda is a function of its own: naming its enclosing function
        exactly (blanks quoted) leaves the lambda measured."""
        flt = ("SCOREP_REGION_NAMES_BEGIN\n"
               "  EXCLUDE geo::apply_all(std::vector<int,\\ std::allocator<int>\\ >&)\n"
               "SCOREP_REGION_NAMES_END\n")
        exe = self.build("exact.cpp", CXX.split(), flt, "exact_lambda")
        lam = ("geo::apply_all(std::vector<int, std::allocator<int> >&)"
               "::{lambda(int&)#1}::operator()(int&) const")
        calls = functions_calling(exe)
        self.assertEqual(calls["geo::apply_all(std::vector<int, std::allocator<int> >&)"], 0)
        self.assertGreaterEqual(calls[lam], 1)
        out, cube, err = run(self.scratch, exe, 1)
        self.assertEqual(total(cube, "visits", cnodes_of(cube, lam)), 4)
        self.assertNotIn("geo::apply_all(std::vector<int, std::allocator<int> >&)",
                         self.functions(cube))

    def test_fortran(self):
        if os.environ.get("FORTRAN_BINDINGS", "yes") != "yes":
            self.skipTest("built without the Fortran bindings")
        flt = ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE shapes::grow::inner\n"
               "  EXCLUDE MANGLED __shapes_MOD_area\nSCOREP_REGION_NAMES_END\n")
        exe = self.build("names.f90", FC.split(), flt, "names_filtered")
        calls = functions_calling(exe)
        inner = [n for n in calls if re.fullmatch(r"inner\.[0-9]+", n)]
        self.assertEqual([calls[n] for n in inner], [0] * len(inner))
        self.assertEqual(calls["__shapes_MOD_area"], 0)
        self.assertGreaterEqual(calls["__shapes_MOD_grow"], 1)
        self.assertGreaterEqual(calls["MAIN__"], 1)
        out, cube, err = run(self.scratch, exe, 2)
        self.assertEqual(self.functions(cube), {"names", "shapes::grow"})
        self.assertEqual(total(cube, "visits", cnodes_of(cube, "shapes::grow")), 1)


    def test_lto(self):
        exe = os.path.join(self.scratch, "fig2_lto")
        proc = subprocess.run([WRAPPER, "--functions"] + CC + OPENMP + [
            "-O2", "-flto", os.path.join(PROGS, "fig2.c"), "-o", exe], env=ENV,
            cwd=self.scratch, stderr=subprocess.PIPE, universal_newlines=True, check=True)
        self.assertEqual(proc.stderr.count("pompprof: "), 1, proc.stderr)
        self.assertIn("-flto: the functions are instrumented with -finstrument-functions",
                      proc.stderr)
        self.assertEqual(functions_calling(exe, ("__pompprof_func_enter",)).get("foo", 0), 0)
        out, cube, err = run(self.scratch, exe, 1, 2, 10)
        self.assertEqual(total(cube, "visits", cnodes_of(cube, "foo")), 6)


if __name__ == "__main__":
    unittest.main()
