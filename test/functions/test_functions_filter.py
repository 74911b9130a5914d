#!/usr/bin/env python3
"""Filters in Score-P's syntax for `pompprof --functions`, read back from the
profile:

* at run time (POMPPROF_FILTER): wildcards, a later INCLUDE undoing an
  EXCLUDE, a pattern without wildcards that leaves a longer name alone, a
  file rule, MANGLED rules on C++ link names -- exactly the named functions
  are missing, the others keep their exact visits;
* at compile time (pompprof --filter=FILE): with pompprof's GCC plugin
  exactly what the filter names is not instrumented, so it is missing even
  when the program runs without POMPPROF_FILTER; without the plugin
  (POMPPROF_GCC_PLUGIN=no: gcc's -finstrument-functions) what gcc's
  exclusion lists can say (wildcard rules *TEXT*, and C functions named
  exactly when no measured function of their unit contains the name), and
  the wrapper names, once, the rules it leaves to run time;
* a broken filter file: one line naming file and line, everything measured.
"""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from functions_common import (  # noqa: E402
    CC, CXX, ENV, OPENMP, PLUGIN, PROGS, WRAPPER, ScratchTest, build, cnodes_of, require_libdw,
    run, total)

RUNTIME_FILTER = """\
# a user's Score-P filter, unchanged
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE util_*
          helper      # helper2 stays: no wildcard
  INCLUDE util_mul
SCOREP_REGION_NAMES_END
SCOREP_FILE_NAMES_BEGIN
  EXCLUDE */filter_lib.c
SCOREP_FILE_NAMES_END
"""
COMPILE_FILTER = """\
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *util_*
SCOREP_REGION_NAMES_END
SCOREP_FILE_NAMES_BEGIN
  EXCLUDE *filter_lib*
SCOREP_FILE_NAMES_END
"""
CXX_FILTER = """\
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE MANGLED _ZN3geo4pick*
  EXCLUDE geo::Box::*
SCOREP_REGION_NAMES_END
"""
ALL = {"main", "compute", "util_add", "util_mul", "util_sub", "helper", "helper2", "lib_a",
       "lib_b"}
# the ways functions are instrumented in this build: (name, environment)
MODES = ([("plugin", {})] if PLUGIN else []) + [("gcc", {"POMPPROF_GCC_PLUGIN": "no"})]


def functions(cube):
    return {c.region.name for c in cube.cnodes_in_order() if c.region.paradigm == "compiler"}


class Filters(ScratchTest):
    prefix = "pp_fn_filter_"

    @classmethod
    def setUpClass(cls):
        require_libdw()
        super().setUpClass()

    def build_filter_prog(self, name, wrapper_opts, env=None):
        exe = os.path.join(self.scratch, name)
        proc = subprocess.run([WRAPPER] + wrapper_opts + CC + OPENMP + [
            "-O2", os.path.join(PROGS, "filter.c"), os.path.join(PROGS, "filter_lib.c"),
            "-o", exe], env=dict(ENV, **(env or {})), cwd=self.scratch, stderr=subprocess.PIPE,
            universal_newlines=True, check=True)
        return exe, proc.stderr

    def test_runtime_filter(self):
        for mode, env in MODES:
            with self.subTest(mode=mode):
                exe, _ = self.build_filter_prog("runtime_" + mode, ["--functions"], env)
                out, cube, err = run(self.scratch, exe, 2)
                self.assertEqual(functions(cube), ALL)
                self.assertEqual(err, "")
                path = self.write("runtime.filter", RUNTIME_FILTER)
                out2, cube, err = run(self.scratch, exe, 2, env={"POMPPROF_FILTER": path})
                self.assertEqual(out2, out)
                self.assertEqual(err, "")
                self.assertEqual(functions(cube), {"main", "compute", "util_mul", "helper2"})
                for name in ("compute", "util_mul", "helper2"):
                    self.assertEqual(total(cube, "visits", cnodes_of(cube, name)), 100, name)
                # what is left keeps its place: util_mul below compute
                (mul,) = cnodes_of(cube, "util_mul")
                self.assertEqual(mul.parent.region.name, "compute")

    def test_compile_time_filter(self):
        path = self.write("compile.filter", COMPILE_FILTER)
        for mode, env in MODES:
            with self.subTest(mode=mode):
                exe, err = self.build_filter_prog("compiled_" + mode, ["--filter=" + path], env)
                self.assertEqual(err, "")
                out, cube, err = run(self.scratch, exe, 1)
                self.assertEqual(err, "")
                # no POMPPROF_FILTER at run time: left out at build time
                self.assertEqual(functions(cube), {"main", "compute", "helper", "helper2"})
                # the same with the environment variables at compile time
                env2 = dict(ENV, POMPPROF_FILTER=path, POMPPROF_FUNCTIONS="1", **env)
                exe2 = os.path.join(self.scratch, "compiled2_" + mode)
                subprocess.run([WRAPPER] + CC + OPENMP + [
                    "-O2", os.path.join(PROGS, "filter.c"), os.path.join(PROGS, "filter_lib.c"),
                    "-o", exe2], env=env2, cwd=self.scratch, check=True)
                out, cube, err = run(self.scratch, exe2, 1)
                self.assertEqual(functions(cube), {"main", "compute", "helper", "helper2"})

    def test_compile_time_exact_names(self):
        """Names without wildcards.  The plugin leaves out exactly util_add and
        helper.  gcc's lists leave out util_add (no other function of the unit
        contains that string); helper is a part of helper2's name, so gcc
        cannot leave it out alone: the run-time filter does, and the wrapper
        says so."""
        path = self.write("exact.filter", "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE util_add helper\n"
                          "SCOREP_REGION_NAMES_END\n")
        for mode, env in MODES:
            with self.subTest(mode=mode):
                exe, err = self.build_filter_prog("exact_" + mode, ["--filter=" + path], env)
                out, cube, _ = run(self.scratch, exe, 1)
                if mode == "plugin":
                    self.assertEqual(err, "")
                    self.assertEqual(functions(cube), ALL - {"util_add", "helper"})
                else:
                    self.assertEqual(err.count("pompprof: "), 1, err)
                    self.assertIn("line 2: EXCLUDE util_add; line 2: EXCLUDE helper", err)
                    self.assertIn("POMPPROF_FILTER=%s" % path, err)
                    self.assertEqual(functions(cube), ALL - {"util_add"})
                out, cube, _ = run(self.scratch, exe, 1, env={"POMPPROF_FILTER": path})
                self.assertEqual(functions(cube), ALL - {"util_add", "helper"})
                self.assertEqual(total(cube, "visits", cnodes_of(cube, "helper2")), 100)

    def test_mangled_cplusplus(self):
        exe = build(self.scratch, "names.cpp", compiler=CXX.split())
        path = self.write("cxx.filter", CXX_FILTER)
        out, cube, err = run(self.scratch, exe, 2, env={"POMPPROF_FILTER": path})
        self.assertEqual(err, "")
        self.assertEqual(functions(cube), {
            "main", "int geo::twice<int>(int)", "double geo::twice<double>(double)",
            "main::{lambda(int)#1}::operator()(int) const"})
        # pompprof-score -f marks the same functions, reading the link names
        # from the unfiltered run's profile
        out, cube, err = run(self.scratch, exe, 2)
        score = os.path.join(os.environ["top_builddir"], "scripts", "pompprof-score")
        text = subprocess.run([score, os.path.dirname(cube.path), "-f", path, "--top", "0"],
                              env=ENV, stdout=subprocess.PIPE, check=True,
                              universal_newlines=True).stdout
        marked = set()
        for line in text.splitlines():
            for name in ("geo::pick(int)", "geo::pick(double)", "geo::Box::area(int) const",
                         "int geo::twice<int>(int)"):
                if line.startswith(name + " ") and line[len(name):].split()[0] == "-":
                    marked.add(name)
        self.assertEqual(marked, {"geo::pick(int)", "geo::pick(double)",
                                  "geo::Box::area(int) const"})

    def test_broken_filter(self):
        exe, _ = self.build_filter_prog("broken", ["--functions"])
        path = self.write("broken.filter", "SCOREP_REGION_NAMES_BEGIN\n  util_*\n"
                          "SCOREP_REGION_NAMES_END\n")
        out, cube, err = run(self.scratch, exe, 1, env={"POMPPROF_FILTER": path})
        self.assertEqual(err, "pompprof: POMPPROF_FILTER: %s:2: pattern 'util_*' before EXCLUDE "
                         "or INCLUDE; all instrumented functions are measured\n" % path)
        self.assertEqual(functions(cube), ALL)
        exe, err = self.build_filter_prog("broken2", ["--filter=" + path])
        self.assertIn("%s:2: pattern 'util_*' before EXCLUDE or INCLUDE" % path, err)


if __name__ == "__main__":
    unittest.main()
