#!/usr/bin/env python3
"""pompprof run, through the build-tree command, for programs built by gcc:

* on their own runtime (the default): libgomp, through the interposer; the
  program's stdout, stderr and exit status are its own, nothing of
  pompprof's is printed, the profile says event_source gomp;
* --runtime=llvm refuses, in one line naming them, a binary that imports
  OpenMP entry points LLVM's libomp does not export (omp_display_env), and a
  binary with a loop with scan (libomp's libgomp layer aborts on it); the
  program does not run;
* a run that measured nothing says so in one line and writes no profile:
  a program that never loaded an OpenMP runtime (it runs as it is; the line
  comes at its end, exit status kept), one that ran only
  a target region (host fallback, not measured), a clang program on libomp
  (the OMPT tool) that ran no construct;
* --verbose names the route; POMPPROF_ENABLE=0 measures and prints nothing;
  a program built with the wrapper is measured once, by OPARI2.

On main every gcc binary ran on libomp with a line on stderr, and nothing
was refused or said about an empty run: these tests fail there."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sources as S  # noqa: E402


def libomp():
    for d in ("/usr/lib/llvm-14/lib", "/usr/lib/x86_64-linux-gnu"):
        if os.path.exists(os.path.join(d, "libomp.so.5")):
            return os.path.join(d, "libomp.so.5")
    return None


@unittest.skipUnless(os.path.exists(S.GOMP_LIB), "no libpompprof_gomp.so")
class GompLauncher(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_gomp_run_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def launch(self, *args, env=None):
        e = dict(S.ENV, OMP_NUM_THREADS="2", **(env or {}))
        e.pop("OMP_TOOL_LIBRARIES", None)
        return subprocess.run([S.POMPPROF, "run"] + list(args), env=e, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, cwd=self.scratch)

    def plain(self, exe, *args):
        return subprocess.run([exe] + list(args), env=dict(S.ENV, OMP_NUM_THREADS="2"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)

    def test_own_runtime_output_and_status_untouched(self):
        exe = S.build(self.scratch, "exits.c", "plain")
        for status in ("0", "3"):
            with self.subTest(status=status):
                out = os.path.join(self.scratch, "exits" + status)
                want = self.plain(exe, status)
                p = self.launch("--output=" + out, "--", exe, status)
                self.assertEqual((p.returncode, p.stdout, p.stderr),
                                 (want.returncode, want.stdout, want.stderr))
                self.assertEqual(p.returncode, int(status))
                cube = S.cubex.load(out)
                self.assertEqual(cube.attrs.get("pompprof::event_source"), "gomp")
                names = {c.region.name for c in cube.cnodes_in_order()}
                self.assertIn("!$omp for @exits.c:11", names)

    @unittest.skipUnless(libomp(), "no libomp")
    def test_llvm_refuses_missing_entry_points(self):
        exe = S.build(self.scratch, "nothing.c", "plain")
        p = self.launch("--runtime=llvm", "--", exe, "display")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout, "")  # the program did not run
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertRegex(lines[0], r"^pompprof: .*nothing_plain cannot run on LLVM's libomp .*"
                                   r"imports .*omp_display_env@OMP_5\.1.*drop --runtime=llvm")

    @unittest.skipUnless(libomp(), "no libomp")
    def test_llvm_refuses_scan(self):
        exe = S.build(self.scratch, "scan.c", "plain", flags=("-O2",))
        p = self.launch("--runtime=llvm", "--", exe)
        self.assertEqual((p.returncode, p.stdout), (1, ""))
        self.assertRegex(p.stderr, r"^pompprof: .*scan_plain cannot run on LLVM's libomp .*"
                                   r"a loop with scan.*\n$")
        # on its own runtime it runs, measured
        out = os.path.join(self.scratch, "scan_out")
        p = self.launch("--output=" + out, "--", exe)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "55 2016\n", ""))
        # and the check accepts what libomp runs (a loop start without scan)
        ok = S.build(self.scratch, "exits.c", "plain")
        p = self.launch("--runtime=llvm", "--output=" + os.path.join(self.scratch, "llvm_ok"),
                        "--", ok)
        self.assertEqual((p.returncode, p.stdout), (0, "sum=499500\n"))

    def test_measured_nothing(self):
        serial = S.build(self.scratch, "serial.c", "plain", flags=("-O2",))
        out = os.path.join(self.scratch, "serial_out")
        p = self.launch("--output=" + out, "--", serial)
        self.assertEqual((p.returncode, p.stdout), (5, "serial\n"))
        self.assertRegex(p.stderr, r"^pompprof: nothing measured: serial_plain loaded no "
                                   r"OpenMP runtime .*; it ran unmeasured\n$")
        self.assertFalse(os.path.exists(out))
        target = S.build(self.scratch, "nothing.c", "plain")
        out = os.path.join(self.scratch, "target_out")
        p = self.launch("--output=" + out, "--", target)
        self.assertEqual((p.returncode, p.stdout), (0, "x=42\n"))
        self.assertRegex(p.stderr, r"^pompprof: nothing measured: nothing_plain ran no OpenMP "
                                   r"construct on the host outside target and teams regions "
                                   r"\(1 ran, .*\); no profile written\n$")
        self.assertFalse(os.path.exists(out) and os.listdir(out))

    @unittest.skipUnless(shutil.which("clang") and libomp() and
                         os.path.exists(os.path.join(S.TOP_BUILDDIR, ".libs",
                                                     "libpompprof_ompt.so")),
                         "no clang, libomp or OMPT tool")
    def test_measured_nothing_through_ompt(self):
        # a clang program on libomp that asks the runtime something and runs
        # no construct: the OMPT tool started, nothing measured
        src = os.path.join(self.scratch, "ask.c")
        with open(src, "w") as f:
            f.write("#include <omp.h>\n#include <stdio.h>\n"
                    "int main(void) { printf(\"%d\\n\", omp_get_max_threads() > 0); "
                    "return 3; }\n")
        exe = os.path.join(self.scratch, "ask_clang")
        subprocess.run([shutil.which("clang"), "-fopenmp", "-O2", src, "-o", exe], check=True)
        out = os.path.join(self.scratch, "ask_out")
        p = self.launch("--output=" + out, "--", exe)
        self.assertEqual((p.returncode, p.stdout), (3, "1\n"))
        self.assertEqual(p.stderr, "pompprof: nothing measured: ask_clang ran no OpenMP "
                                   "construct; no profile written\n")
        self.assertFalse(os.path.exists(out) and os.listdir(out))

    def test_verbose_and_disabled(self):
        exe = S.build(self.scratch, "exits.c", "plain")
        p = self.launch("--verbose", "--output=" + os.path.join(self.scratch, "v"), "--", exe)
        self.assertEqual(p.returncode, 0)
        self.assertIn("pompprof: %s is measured on libgomp, its entry points interposed\n" % exe,
                      p.stderr)
        self.assertIn("pompprof: LD_PRELOAD=%s" % os.path.realpath(S.GOMP_LIB),
                      p.stderr.replace(S.GOMP_LIB, os.path.realpath(S.GOMP_LIB)))
        out = os.path.join(self.scratch, "off")
        p = self.launch("--output=" + out, "--", exe, env={"POMPPROF_ENABLE": "0"})
        want = self.plain(exe)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, want.stdout, want.stderr))
        self.assertFalse(os.path.exists(out))

    def test_rebuilt_program_measured_once(self):
        exe = S.build(self.scratch, "exits.c", "opari2")
        out = os.path.join(self.scratch, "once")
        p = self.launch("--output=" + out, "--", exe)
        self.assertEqual((p.returncode, p.stdout), (0, "sum=499500\n"))
        ours = [l for l in p.stderr.splitlines() if l != "the program's own line"]
        self.assertEqual(len(ours), 1, p.stderr)  # at the start, before the program's
        self.assertRegex(ours[0], r"^pompprof: .*instrumented with OPARI2.*measured by "
                                  r"OPARI2 only")
        self.assertEqual(S.cubex.load(out).attrs.get("pompprof::event_source"), "opari2")


if __name__ == "__main__":
    unittest.main(verbosity=2)
