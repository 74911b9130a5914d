#!/usr/bin/env python3
"""End-to-end: the wrapper's passes over OPARI2's output (doc/wrapper.md, "When OPARI2's
output changes") count what they matched, read OPARI2's output whatever its spacing,
and say what they lost where its layout is one they do not read.

progs/opari2_layout.c (tasks with depend clauses, a taskwait depend, adjacent tasks,
an undeferred task) and its Fortran twins, free and fixed form, are built through the
wrapper with the real OPARI2 and with reformat_opari2.py in its place (the real OPARI2,
its output reformatted):

- real OPARI2: the build prints nothing of pompprof's; every pass matched what it
  expected ($POMPPROF_WRAPPER_COUNTS), and what it expected is what the source holds
  (depend constructs, tasks and taskwaits, Fortran tasks with depend clauses);
- other spacing, other lengths of Fortran's string pieces: the same counts, no line of
  pompprof's, the same POMP2 and pompprof calls in the program (merged calls, depend
  recording);
- layouts the passes do not read: the build succeeds and says, in one `pompprof:` line
  per pass that fell short, naming the file, what was lost: C's task guards, depend
  recording and merges, Fortran's depend recording and region string marks;

and every program prints what its plain build prints."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import CC, ENV, OPENMP, PROGS, TOP_BUILDDIR, TOP_SRCDIR  # noqa: E402
from pompprof_tools import build_config  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FC = (os.environ.get("FC") or "gfortran").split()
PYTHON = os.environ.get("PYTHON3") or sys.executable
HAVE_FORTRAN = os.environ.get("FORTRAN_BINDINGS", "no") == "yes" and shutil.which(FC[0])
# the wrapper, with OPARI2 as the first argument says
RUNNER = ("import sys; sys.path[0:0] = [sys.argv[1], sys.argv[2]]; "
          "from pompprof_tools import build_config; build_config.OPARI2 = sys.argv[3]; "
          "from pompprof_tools.wrapper.main import main; sys.exit(main(sys.argv[4:]))")
LOST = {
    "task_guards": "guards of task events (if (pomp2_if)) not recognised in OPARI2's output",
    "c_depend": "task and taskwait constructs with depend clauses not recognised in OPARI2's "
                "output",
    "adjacent": "task creations and taskwaits not recognised in OPARI2's output",
    "fortran_depend": "task and taskwait constructs with depend clauses not recognised in "
                      "OPARI2's output",
    "fortran_depend_marks": "task constructs with depend clauses not recognised in OPARI2's "
                            "output"}


def source_counts(path, fortran):
    """What the passes should find, counted in the source text."""
    with open(path) as f:
        text = f.read()
    if fortran:
        # directives with their continuation lines
        directives = re.findall(r"^!\$omp (.*(?:&\s*\n!\$omp&.*)*)", text, re.M | re.I)
        tasks = [d for d in directives if re.match(r"task\b", d)]
        waits = [d for d in directives if re.match(r"taskwait\b", d)]
        return {"fortran_depend": sum("depend(" in d for d in tasks + waits),
                "fortran_depend_marks": sum("depend(" in d for d in tasks),
                "fortran_own_regions": 0}
    tasks = re.findall(r"^#pragma omp task\b(.*)$", text, re.M)
    waits = re.findall(r"^#pragma omp taskwait\b(.*)$", text, re.M)
    return {"c_depend": sum("depend(" in d for d in tasks + waits),
            "adjacent": len(tasks) + len(waits),
            # OPARI2 2.0.7 guards each of a task's four calls (creation begin and
            # end, task begin and end)
            "task_guards": 4 * len(tasks)}


class Opari2Layout(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp_e2e_layout_")
        cls.fake = os.path.join(cls.tmp, "opari2")
        with open(cls.fake, "w") as f:
            f.write('#!/bin/sh\nexec "%s" "%s" "$@"\n'
                    % (PYTHON, os.path.join(HERE, "reformat_opari2.py")))
        os.chmod(cls.fake, 0o755)
        cls.built = {}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def build(self, source, mode):
        """Build progs/<source> with OPARI2 reformatted as mode says (None: the real
        one): (stderr lines, the passes' counts, the executable, its output)."""
        key = (source, mode)
        if key in self.built:
            return self.built[key]
        fortran = not source.endswith(".c")
        d = os.path.join(self.tmp, "%s.%s" % (source, mode))
        os.makedirs(d)
        counts = os.path.join(d, "counts")
        env = dict(ENV, POMPPROF_WRAPPER_COUNTS=counts, REAL_OPARI2=build_config.OPARI2,
                   OPARI2_REFORMAT=mode or "", POMPPROF_OUTPUT=os.path.join(d, "profile"))
        compiler = FC if fortran else CC
        cmd = [PYTHON, "-c", RUNNER, os.path.join(TOP_SRCDIR, "scripts"),
               os.path.join(TOP_BUILDDIR, "scripts"), self.fake if mode else build_config.OPARI2]
        src = os.path.join(PROGS, source)
        exe = os.path.join(d, "prog")
        proc = subprocess.run(cmd + compiler + OPENMP + [src, "-o", exe], cwd=d, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(counts) as f:
            records = [json.loads(line) for line in f]
        self.assertEqual([r["source"] for r in records], [src])
        # the program runs with the wrapper's settings too: the library knows them
        run = subprocess.run([exe], cwd=d, env=dict(env, OMP_NUM_THREADS="2"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, timeout=120, check=True)
        self.assertEqual(run.stderr, "")
        result = (proc.stderr.splitlines(), records[0]["counts"], exe, run.stdout)
        self.built[key] = result
        return result

    def plain_output(self, source):
        fortran = not source.endswith(".c")
        exe = os.path.join(self.tmp, source + ".plain")
        subprocess.run((FC if fortran else CC) + OPENMP + [os.path.join(PROGS, source), "-o", exe],
                       check=True)
        return subprocess.run([exe], env=dict(os.environ, OMP_NUM_THREADS="2"),
                              stdout=subprocess.PIPE, universal_newlines=True,
                              check=True).stdout

    @staticmethod
    def calls(exe):
        """The POMP2 and pompprof functions exe calls in libpompprof."""
        nm = subprocess.run(["nm", "-u", exe], stdout=subprocess.PIPE, check=True,
                            universal_newlines=True).stdout
        return set(re.findall(r"\b((?:POMP2|pompprof|pomp2)_\w+)", nm, re.I))

    def sources(self):
        return ["opari2_layout.c"] + (["opari2_layout.f90", "opari2_layout_fixed.f"]
                                      if HAVE_FORTRAN else [])

    def test_real_opari2(self):
        for source in self.sources():
            with self.subTest(source=source):
                stderr, counts, _, out = self.build(source, None)
                self.assertEqual(stderr, [])
                want = source_counts(os.path.join(PROGS, source), not source.endswith(".c"))
                self.assertEqual(set(counts), set(want))
                for name, c in counts.items():
                    self.assertEqual(c["matched"], c["expected"], name)
                    self.assertEqual(c["expected"], want[name], name)
                if "adjacent" in counts:
                    self.assertGreater(counts["adjacent"]["create_next"], 0)
                    self.assertGreater(counts["adjacent"]["create_end_wait"], 0)
                self.assertEqual(out, self.plain_output(source))

    def test_spacing(self):
        for source in self.sources():
            with self.subTest(source=source):
                _, real, exe_real, _ = self.build(source, None)
                stderr, counts, exe, out = self.build(source, "spacing")
                self.assertEqual(stderr, [])
                self.assertEqual(counts, real)
                self.assertEqual(self.calls(exe), self.calls(exe_real))
                self.assertEqual(out, self.plain_output(source))

    def test_layout(self):
        for source in self.sources():
            with self.subTest(source=source):
                src = os.path.join(PROGS, source)
                _, real, _, _ = self.build(source, None)
                stderr, counts, _, out = self.build(source, "layout")
                short = [name for name in LOST if name in counts
                         and counts[name]["matched"] < counts[name]["expected"]]
                self.assertEqual(sorted(short), sorted(
                    ["fortran_depend", "fortran_depend_marks"] if source.endswith(
                        (".f90", ".f")) else ["task_guards", "c_depend", "adjacent"]))
                self.assertEqual(len(stderr), len(short), stderr)
                for name in short:
                    c = counts[name]
                    self.assertEqual(c["expected"], real[name]["expected"])
                    said = "pompprof: %s: %d of %d %s" % (
                        src, c["expected"] - c["matched"], c["expected"], LOST[name])
                    self.assertEqual([line for line in stderr if line.startswith(said)],
                                     [line for line in stderr if LOST[name] in line], said)
                    self.assertTrue(any(line.startswith(said) for line in stderr), said)
                self.assertEqual(out, self.plain_output(source))


if __name__ == "__main__":
    unittest.main()
