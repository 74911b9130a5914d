#!/usr/bin/env python3
"""Incremental builds through the wrapper rebuild exactly what a plain build does.

One small project (a.c includes x.h, b.c includes x.h and y.h, c.c neither)
is built with make and -MMD, with automake, and with CMake's Make and Ninja
generators (CC="pompprof gcc", and pompprof plus ccache as the compiler
launcher); `pompprof ccache gcc` directly too.  Every compiler call goes
through a logging stand-in, so for each build the test knows exactly which
sources were compiled:

* the first build compiles all three and the program runs, writing a profile;
* a second build compiles nothing;
* touching y.h recompiles b.c only, touching x.h a.c and b.c only;
* the dependency files name the user's files, never a temporary one;
* with ccache, a clean rebuild is served from the cache, instrumented.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_env  # noqa: E402
from e2e_env import WRAPPER  # noqa: E402

CC = e2e_env.CC[-1]
ENV = dict(e2e_env.ENV, LC_ALL="C")
for var in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "CFLAGS", "CPPFLAGS", "LDFLAGS"):
    ENV.pop(var, None)

SOURCES = {
    "src/x.h": "#define X 1\n",
    "src/y.h": "#define Y 2\n",
    "src/a.c": '#include "x.h"\nint fa(void);\nint fa(void)\n{\n    int s = 0;\n'
               "#pragma omp parallel reduction(+ : s)\n    s += X;\n    return s;\n}\n",
    "src/b.c": '#include "x.h"\n#include "y.h"\nint fb(void);\nint fb(void)\n{\n    int s = 0;\n'
               "#pragma omp parallel for reduction(+ : s)\n    for (int i = 0; i < 10; i++)\n"
               "        s += X + Y;\n    return s;\n}\n",
    "src/c.c": "#include <stdio.h>\nint fa(void);\nint fb(void);\nint main(void)\n{\n"
               '    printf("%d %d\\n", fa() > 0, fb());\n    return 0;\n}\n',
}
# Every compiler call is logged (one line per call) before the wrapper runs it.
LOGGER = """#!/bin/sh
printf '%s\\n' "$*" >>"$PP_LOG"
exec "{wrapper}" "$@"
"""


def have(program):
    return shutil.which(program) is not None


class Project:
    """The project in a directory of its own, and the log of compiler calls."""

    def __init__(self, root):
        self.root = root
        for path, text in SOURCES.items():
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        self.log = os.path.join(root, "calls.log")
        self.logger = os.path.join(root, "pp-cc")
        with open(self.logger, "w") as f:
            f.write(LOGGER.format(wrapper=WRAPPER))
        os.chmod(self.logger, 0o755)
        self.env = dict(ENV, PP_LOG=self.log, CCACHE_DIR=os.path.join(root, "ccache"),
                        POMPPROF_OUTPUT=os.path.join(root, "profiles"))

    def run(self, cmd, cwd=None):
        p = subprocess.run(cmd, cwd=cwd or self.root, env=self.env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode != 0:
            raise AssertionError("%s failed (%d):\n%s" % (" ".join(cmd), p.returncode, p.stdout))
        return p.stdout

    def compiled(self, cmd, cwd=None):
        """Run a build step; the set of sources it compiled."""
        if os.path.exists(self.log):
            os.unlink(self.log)
        self.run(cmd, cwd)
        if not os.path.exists(self.log):
            return set()
        with open(self.log) as f:
            calls = [line.split() for line in f]
        return {os.path.basename(a) for c in calls if "-c" in c for a in c
                if re.search(r"[abc]\.c$", a)}

    def touch(self, path):
        """Make path newer than every file built so far (and not in the future)."""
        newest = max(os.stat(os.path.join(d, f)).st_mtime_ns
                     for d, _, files in os.walk(self.root) for f in files)
        while time.time_ns() <= newest + 10_000_000:
            time.sleep(0.01)
        os.utime(os.path.join(self.root, path))


class BuildSystems(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_build_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def project(self, name):
        root = os.path.join(self.scratch, name)
        os.makedirs(root)
        return Project(root)

    def check_incremental(self, p, build, program, depfiles=None, deps_text=None):
        self.assertEqual(p.compiled(build), {"a.c", "b.c", "c.c"})
        out = p.run([program])
        self.assertEqual(out, "1 30\n")
        self.assertTrue(glob.glob(os.path.join(p.root, "profiles", "*.cubex"))
                        or os.path.isfile(os.path.join(p.root, "profiles")),
                        "no profile written")
        self.assertEqual(p.compiled(build), set(), "a no-op rebuild compiled something")
        p.touch("src/y.h")
        self.assertEqual(p.compiled(build), {"b.c"})
        p.touch("src/x.h")
        self.assertEqual(p.compiled(build), {"a.c", "b.c"})
        self.assertEqual(p.compiled(build), set())
        if depfiles:
            texts = []
            for d in glob.glob(os.path.join(p.root, depfiles), recursive=True):
                with open(d) as f:
                    texts.append(f.read())
        else:
            texts = [deps_text()]
        self.assertTrue(texts, "no dependency files %s" % depfiles)
        for text in texts:
            self.assertNotIn("pompprof-", text)
        # the files the plain build would name: b's own source and both headers
        b_deps = [t for t in texts if re.search(r"\bb\.c\b", t)]
        self.assertTrue(b_deps)
        for t in b_deps:
            self.assertRegex(t, r"src/x\.h")
            self.assertRegex(t, r"src/y\.h")

    def test_make_with_mmd(self):
        p = self.project("make")
        with open(os.path.join(p.root, "Makefile"), "w") as f:
            f.write("CFLAGS = -O2 -fopenmp -MMD -MP -Isrc\nOBJS = src/a.o src/b.o src/c.o\n"
                    "demo: $(OBJS)\n\t$(CC) $(CFLAGS) $(OBJS) -o $@\n-include $(OBJS:.o=.d)\n")
        self.check_incremental(p, ["make", "CC=%s %s" % (p.logger, CC)], "./demo", "src/*.d")

    @unittest.skipUnless(have("autoreconf") and have("automake"), "no autotools")
    def test_automake(self):
        p = self.project("automake")
        with open(os.path.join(p.root, "configure.ac"), "w") as f:
            f.write("AC_INIT([ppdemo], [1.0])\nAM_INIT_AUTOMAKE([foreign subdir-objects])\n"
                    "AC_PROG_CC\nAC_OPENMP\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n")
        with open(os.path.join(p.root, "Makefile.am"), "w") as f:
            f.write("bin_PROGRAMS = demo\ndemo_SOURCES = src/a.c src/b.c src/c.c src/x.h src/y.h\n"
                    "demo_CFLAGS = $(OPENMP_CFLAGS)\n")
        p.run(["autoreconf", "-fi"])
        p.run(["./configure", "CC=%s %s" % (p.logger, CC)])
        self.check_incremental(p, ["make"], "./demo", "src/.deps/*.Po")

    def cmake(self, p, generator, extra):
        with open(os.path.join(p.root, "CMakeLists.txt"), "w") as f:
            f.write("cmake_minimum_required(VERSION 3.16)\nproject(ppdemo C)\n"
                    "find_package(OpenMP REQUIRED)\n"
                    "add_executable(demo src/a.c src/b.c src/c.c)\n"
                    "target_include_directories(demo PRIVATE src)\n"
                    "target_link_libraries(demo PRIVATE OpenMP::OpenMP_C)\n")
        build = os.path.join(p.root, "build")
        os.makedirs(build)
        p.run(["cmake", "-G", generator] + extra + [".."], cwd=build)
        return build

    @unittest.skipUnless(have("cmake"), "no cmake")
    def test_cmake_make(self):
        p = self.project("cmake-make")
        p.env["CC"] = "%s %s" % (p.logger, CC)
        build = self.cmake(p, "Unix Makefiles", [])
        self.check_incremental(p, ["make", "-C", build], os.path.join(build, "demo"),
                               "build/**/*.c.o.d")

    @unittest.skipUnless(have("cmake") and have("ninja") and have("ccache"),
                         "no cmake, ninja or ccache")
    def test_cmake_ninja_with_ccache_launcher(self):
        p = self.project("cmake-ninja")
        build = self.cmake(p, "Ninja", ["-DCMAKE_C_COMPILER=" + CC,
                                        "-DCMAKE_C_COMPILER_LAUNCHER=%s;ccache" % p.logger,
                                        "-DCMAKE_C_LINKER_LAUNCHER=" + p.logger])
        self.check_incremental(p, ["ninja", "-C", build], os.path.join(build, "demo"),
                               deps_text=lambda: p.run(["ninja", "-C", build, "-t", "deps"]))
        # a clean rebuild comes from ccache, and its objects are instrumented
        p.run(["ninja", "-C", build, "clean"])
        p.run(["ccache", "-z"])
        self.assertEqual(p.compiled(["ninja", "-C", build]), {"a.c", "b.c", "c.c"})
        stats = p.run(["ccache", "--print-stats"])
        hits = sum(int(v) for k, v in re.findall(r"^(\w*cache_hit)\s+(\d+)", stats, re.M))
        self.assertGreaterEqual(hits, 3, stats)
        self.assertIn("POMP2_Parallel_fork",
                      p.run(["nm", os.path.join(build, "CMakeFiles/demo.dir/src/a.c.o")]))
        os.rename(os.path.join(p.root, "profiles"), os.path.join(p.root, "profiles.first"))
        self.assertEqual(p.run([os.path.join(build, "demo")]), "1 30\n")

    @unittest.skipUnless(have("ccache"), "no ccache")
    def test_pompprof_ccache_gcc(self):
        p = self.project("ccache")
        cmd = [WRAPPER, "ccache", CC, "-fopenmp", "-O2", "-Isrc", "-c", "src/b.c", "-o", "b.o"]
        p.run(cmd)
        first = p.run(["nm", "b.o"])
        self.assertIn("POMP2_Parallel_fork", first)
        p.run(["ccache", "-z"])
        os.unlink(os.path.join(p.root, "b.o"))
        p.run(cmd)
        stats = p.run(["ccache", "--print-stats"])
        hits = sum(int(v) for k, v in re.findall(r"^(\w*cache_hit)\s+(\d+)", stats, re.M))
        self.assertGreaterEqual(hits, 1, stats)
        self.assertEqual(p.run(["nm", "b.o"]), first)


if __name__ == "__main__":
    unittest.main(verbosity=2)
