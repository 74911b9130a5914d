"""The list items the wrapper records at task creation, item by item, against the
addresses, sizes and kinds the programs compute themselves (DEPEND_ITEMS): members, 2-D
sections, a section without its length, iterators, depobj, C++ members through this, a
section of a member array, a reference; fixed-form Fortran (a section whose recording
call takes three lines).  An item with side effects (a[i++]) or a call is
not evaluated a second time: recorded unknown, one `pompprof:` note at the build, and
the program computes what its plain build computes.  The inserted code compiles under
the strict warning flags with -Werror (doc/wrapper.md).  The wrapper's counts
($POMPPROF_WRAPPER_COUNTS) say that every task and taskwait construct with depend
clauses got its recording (and, in Fortran, its mark)."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from trace_common import CC, ENV, OPENMP, PROGS, WRAPPER, Events, run

STRICT_C = ["-Wall", "-Wextra", "-Wmissing-prototypes", "-Wstrict-prototypes",
            "-Wold-style-definition", "-Wmissing-declarations", "-Wshadow", "-Werror"]
STRICT_CXX = ["-Wall", "-Wextra", "-Wmissing-declarations", "-Wshadow", "-Werror"]


def recorded(archive):
    """The items of each ThreadTaskCreate, in the order of the events (one creator)."""
    proc = subprocess.run(["otf2-print", archive], stdout=subprocess.PIPE,
                          universal_newlines=True, check=True)
    lines = proc.stdout.splitlines()
    out = []
    for k, line in enumerate(lines):
        if not line.startswith("THREAD_TASK_CREATE"):
            continue
        attrs = lines[k + 1] if k + 1 < len(lines) and "ADDITIONAL" in lines[k + 1] else ""
        values = {}
        for n, field, v in re.findall(r'"depend\[(\d+)\] (\w+)" <\d+>; \w+; (\d+)', attrs):
            values.setdefault(int(n), {})[field] = int(v)
        out.append([(values[n]["address"], values[n]["size"], values[n]["kind"])
                    for n in sorted(values)])
    return out


def depend_constructs(path):
    """(tasks and taskwaits, tasks) with depend clauses in the source at path."""
    with open(path) as f:
        text = f.read()
    if path.endswith((".f", ".f90")):
        # a directive with its continuation lines
        found = re.findall(r"^[!cC*]\$omp (task\b.*(?:\n[!cC*]\$omp&.*)*)", text, re.M)
    else:
        found = re.findall(r"^\s*#pragma omp (task\b.*)$", text, re.M)
    with_depend = [d for d in found if "depend(" in d]
    return len(with_depend), sum(1 for d in with_depend if not d.startswith("taskwait"))


def expected(path):
    tasks = {}
    with open(path) as f:
        for line in f:
            t, addr, size, kind = (int(x) for x in line.split())
            tasks.setdefault(t, []).append((addr, size, kind))
    return [tasks[t] for t in sorted(tasks)]


class DependItems(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pp_depend_items_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def check(self, source, compiler, flags, notes):
        exe = os.path.join(self.tmp, "prog")
        src = os.path.join(PROGS, source)
        counts = os.path.join(self.tmp, "counts")
        build = subprocess.run([WRAPPER] + compiler + OPENMP + flags + [src, "-o", exe],
                               env=dict(ENV, POMPPROF_WRAPPER_COUNTS=counts), cwd=self.tmp,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
        self.assertEqual(build.returncode, 0, build.stderr)
        self.assertEqual(build.stderr.splitlines(), notes)
        with open(counts) as f:
            passes = json.loads(f.read())["counts"]
        constructs, tasks = depend_constructs(src)
        self.assertGreater(tasks, 1)
        sites = passes["c_depend" if "c_depend" in passes else "fortran_depend"]
        self.assertEqual(sites, {"expected": constructs, "matched": constructs})
        if "fortran_depend_marks" in passes:
            self.assertEqual(passes["fortran_depend_marks"], {"expected": tasks, "matched": tasks})
        subprocess.run(compiler + OPENMP + flags + [src, "-o", exe + "_plain"], env=ENV,
                       check=True)
        items = os.path.join(self.tmp, "items")
        out = os.path.join(self.tmp, "trace")
        proc = run(exe, out, env={"DEPEND_ITEMS": items})
        plain = run(exe + "_plain", out + ".plain", trace=False)
        self.assertEqual(sorted(proc.stdout.splitlines()), sorted(plain.stdout.splitlines()))
        Events(os.path.join(out, "traces.otf2"))  # otf2-print reads it
        self.assertEqual(recorded(os.path.join(out, "traces.otf2")), expected(items))
        return proc.stdout

    def test_c(self):
        src = os.path.join(PROGS, "depend_items.c")
        stdout = self.check("depend_items.c", CC, STRICT_C, [
            "pompprof: %s:63: the dependence on 'a[i++]' is not recorded (its expression has "
            "side effects): the trace cannot say when this task was ready" % src])
        self.assertIn("i=1 ", stdout)

    def test_fortran_fixed(self):
        if os.environ.get("FORTRAN_BINDINGS") != "yes":
            self.skipTest("no Fortran bindings in this build")
        fc = (os.environ.get("FC") or "gfortran").split()
        self.check("fdepend_items.f", fc, ["-Wall", "-Werror"], [])

    def test_cplusplus(self):
        cxx = [re.sub(r"gcc", "g++", w) for w in CC]
        src = os.path.join(PROGS, "depend_members.cpp")
        self.check("depend_members.cpp", cxx, STRICT_CXX, [
            "pompprof: %s:60: the dependence on 'a[twice(1)]' is not recorded (its expression "
            "calls a function, which may have side effects): the trace cannot say when this "
            "task was ready" % src])


if __name__ == "__main__":
    unittest.main()
