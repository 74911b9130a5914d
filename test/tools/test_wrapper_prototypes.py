"""The declarations the wrapper's prelude writes into instrumented C/C++
(scripts/pompprof_tools/wrapper/prelude.py, c_depend.py) against the real ones.

The prelude cannot include OPARI2's <opari2/pomp2_lib.h> (the instrumented text is
compiled preprocessed: a second <omp.h> would clash with the user's), so it declares
the POMP2 entry points itself, in built-in types.  Compiled after OPARI2's headers
(pomp2_lib.h, pomp2_user_lib.h, found through opari2-config) and libpompprof's own
(pomp2/pp_pomp2_internal.h, pomp2/pp_pomp2_depend.h), every declaration of the
prelude, as the wrapper writes it, must be compatible with the real one: the C and
C++ compilers reject a changed parameter list or type ("conflicting types").  The
only spellings that differ are the documented ones, which the test maps to the
headers' types with the sizes asserted equal: void * for omp_lock_t * and
omp_nest_lock_t * (the prelude cannot name <omp.h>'s types), int for omp_sync_hint_t,
pompprof_depend_t for pp_depend (same layout), unsigned long long and unsigned int
for uint64_t and uint32_t.  Every name the prelude knows is OPARI2's or one of
libpompprof's own entry points, and libpompprof.so exports each.  The check itself
must fail on a wrong prototype and on a wrong layout of pompprof_depend_t."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

import toolstest as T
from pompprof_tools import build_config
from pompprof_tools.wrapper import c_depend, prelude

# libpompprof's own entry points among the prelude's names (not in OPARI2's headers)
OWN = {"Task_create_next", "Task_create_end_wait", "Init_lock_with_hint",
       "Init_nest_lock_with_hint"} | {n for n in prelude.SIGNATURES if n.endswith("_wrapped")}
# what each size assertion compares
SAME_SIZE = [("unsigned long long", "uint64_t"), ("unsigned int", "uint32_t"),
             ("pompprof_depend_t", "pp_depend")]
SAME_OFFSET = [("pompprof_depend_t", "pp_depend", f) for f in ("addr", "size", "kind")]


def opari2_cflags():
    out = subprocess.run([build_config.OPARI2_CONFIG, "--cflags"], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    return out.split()


def header_names(cflags):
    """The POMP2 functions OPARI2's headers declare (without the POMP2_ prefix)."""
    names = set()
    for header in ("opari2/pomp2_lib.h", "opari2/pomp2_user_lib.h"):
        text = subprocess.run(["cpp", "-fopenmp", "-dD"] + cflags, input="#include <%s>\n" % header,
                              stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
        names |= set(re.findall(r"\bPOMP2_(\w+)\s*\(", text))
    return names


def prelude_lines(cplusplus, signatures=None):
    """The prelude the wrapper writes for a text that calls every entry point it knows."""
    saved = dict(prelude.SIGNATURES)
    if signatures:
        prelude.SIGNATURES.update(signatures)
    try:
        body = " ".join("POMP2_%s(" % n for n in prelude.SIGNATURES) \
            + " " + " ".join(n + "(" for n in c_depend.DECLARATIONS)
        return prelude.prelude(body, [], 0, [], cplusplus)
    finally:
        prelude.SIGNATURES.clear()
        prelude.SIGNATURES.update(saved)


def in_header_types(line, cplusplus):
    """A prelude line with the documented spellings mapped to the real headers' types
    (libpompprof's own headers are C: C++ checks OPARI2's)."""
    m = re.search(r"\bPOMP2_(\w*lock\w*)\(", line)
    if m:
        lock = "omp_nest_lock_t *" if "nest" in m.group(1) else "omp_lock_t *"
        line = line.replace("(void *", "(" + lock, 1)
        if m.group(1).endswith("with_hint"):
            line = line.replace(", int)", ", omp_sync_hint_t)")
    if re.match(r"void pompprof_\w+\(", line) and not cplusplus:
        line = line.replace("pompprof_depend_t", "pp_depend") \
            .replace("unsigned long long", "uint64_t").replace("unsigned int", "uint32_t")
    return line


def unit(cplusplus, signatures=None, types=None):
    """A translation unit: the real headers, then the prelude's declarations."""
    lines = ["#include <omp.h>", "#include <stddef.h>", "#include <stdint.h>",
             "#include <opari2/pomp2_lib.h>", "#include <opari2/pomp2_user_lib.h>"]
    if not cplusplus:
        lines += ['#include "pomp2/pp_pomp2_internal.h"', '#include "pomp2/pp_pomp2_depend.h"']
    body = prelude_lines(cplusplus, signatures)
    if types:
        body = [types.get(line, line) for line in body]
    lines += [in_header_types(line, cplusplus) for line in body]
    if not cplusplus:
        lines += ["_Static_assert(sizeof(%s) == sizeof(%s), \"%s\");" % (a, b, a)
                  for a, b in SAME_SIZE]
        lines += ["_Static_assert(offsetof(%s, %s) == offsetof(%s, %s), \"%s\");"
                  % (a, f, b, f, f) for a, b, f in SAME_OFFSET]
    return "\n".join(lines) + "\n"


class Prototypes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cflags = opari2_cflags()
        cls.names = header_names(cls.cflags)

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pp_prototypes_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def compile(self, text, cplusplus):
        src = os.path.join(self.tmp, "unit.cpp" if cplusplus else "unit.c")
        with open(src, "w") as f:
            f.write(text)
        cmd = ["g++", "-std=c++17"] if cplusplus else [os.environ.get("CC", "gcc").split()[-1],
                                                     "-std=c11"]
        dirs = [T.TOP_SRCDIR] + ([T.TOP_BUILDDIR] if T.TOP_BUILDDIR else [])
        proc = subprocess.run(cmd + ["-fopenmp", "-Wall", "-Wextra", "-Werror", "-c", src,
                                     "-o", src + ".o"] + self.cflags
                              + ["-I" + d for d in dirs],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        return proc.returncode, proc.stdout

    def test_names(self):
        """Each name is OPARI2's or libpompprof's own, and OPARI2's task and region
        calls are all there."""
        known = set(prelude.SIGNATURES)
        self.assertEqual(known - self.names, OWN)
        needed = {n for n in self.names if re.match(
            r"(Task|Untied_task|Taskwait|Parallel|For|Sections?|Single|Master|Critical|Atomic|"
            r"Barrier|Implicit_barrier|Flush|Ordered|Workshare|Begin|End|Assign|USER_Assign)",
            n)}
        self.assertEqual(needed - known, set())
        for name in (n for n in OWN if n.endswith("_wrapped")):
            self.assertEqual(prelude.SIGNATURES[name], prelude.SIGNATURES[name[:-8]])

    def test_exported(self):
        lib = os.path.join(T.TOP_BUILDDIR or T.TOP_SRCDIR, ".libs", "libpompprof.so")
        if not os.path.exists(lib):
            self.skipTest("no libpompprof.so in the build tree")
        nm = subprocess.run(["nm", "-D", "--defined-only", lib], stdout=subprocess.PIPE,
                            universal_newlines=True, check=True).stdout
        exported = set(re.findall(r" T (\w+)$", nm, re.M))
        for name in prelude.SIGNATURES:
            self.assertIn("POMP2_" + name, exported)
        for name in c_depend.DECLARATIONS:
            self.assertIn(name, exported)

    def test_c(self):
        status, out = self.compile(unit(False), False)
        self.assertEqual(status, 0, out)

    def test_cplusplus(self):
        status, out = self.compile(unit(True), True)
        self.assertEqual(status, 0, out)

    def test_check_fails_on_a_wrong_prototype(self):
        h, t, s = "POMP2_Region_handle *", "POMP2_Task_handle", "const char *"
        wrong = {"Task_create_begin": "void (%s, %s *, int, %s)" % (h, t, s)}
        for cplusplus in (False, True):
            status, out = self.compile(unit(cplusplus, wrong), cplusplus)
            self.assertNotEqual(status, 0)
            self.assertIn("POMP2_Task_create_begin", out)

    def test_check_fails_on_a_wrong_layout(self):
        swapped = {line: line.replace("unsigned long long addr, size; unsigned int kind;",
                                      "unsigned int kind; unsigned long long addr, size;")
                   for line in c_depend.TYPES}
        self.assertNotEqual(list(swapped.values()), c_depend.TYPES)
        status, out = self.compile(unit(False, types=swapped), False)
        self.assertNotEqual(status, 0)
        self.assertIn("static assertion failed", out)


if __name__ == "__main__":
    unittest.main()
