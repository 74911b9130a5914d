#!/usr/bin/env python3
"""pompprof run: the launcher of OMPT mode, through the build-tree command.

* a gcc binary (libgomp) runs on the preloaded libomp with --runtime=llvm,
  its output, exit status and stderr untouched, and its profile written
  where --output says, with every task instance (on its own runtime, the
  default, test/gomp/test_gomp_launcher.py);
* a clang binary runs as it is (no line);
* --trace writes the OTF2 trace beside the profile;
* a clang binary's target region run on the host: its teams not measured,
  nothing on stderr; a clang binary that never starts libomp (SIMD only):
  one line says that nothing was measured;
* bad usage: one line and a non-zero status.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ompt_env as E  # noqa: E402

POMPPROF = os.path.join(E.TOP_BUILDDIR, "scripts", "pompprof")


@unittest.skipUnless(E.have_ompt(), "no OMPT tool, libomp or clang")
class Launcher(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_ompt_run_")
        cls.exe = {m: E.build(cls.scratch, "prof_fib.c", m) for m in ("gcc", "clang")}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def launch(self, *args, env_extra=None):
        env = dict(E.ENV, OMP_NUM_THREADS="2")
        env.update(env_extra or {})
        env.pop("OMP_TOOL_LIBRARIES", None)
        return subprocess.run([POMPPROF, "run"] + list(args), env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, cwd=self.scratch,
                              timeout=300)

    def test_gcc_binary_runs_on_libomp(self):
        out = os.path.join(self.scratch, "gcc_out")
        p = self.launch("--runtime=llvm", "--output=" + out, "--", self.exe["gcc"], "12")
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "fib(12) = 144\n", ""))
        cube = E.cubex.load(out)
        self.assertEqual(sum(E.instances(cube).values()), 2 * 232)

    def test_clang_binary_runs_as_it_is(self):
        out = os.path.join(self.scratch, "clang_out")
        p = self.launch("--output=" + out, "--trace", self.exe["clang"], "12")
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "fib(12) = 144\n", ""))
        self.assertEqual(sum(E.instances(E.cubex.load(out)).values()), 2 * 232)
        self.assertTrue(os.path.exists(os.path.join(out, "traces.otf2")))

    def test_clang_target_fallback_and_no_runtime_start(self):
        # progs/target_fallback.c: the teams of a target region run on the host are not
        # measured, nothing of them on stderr (was: "switch to task ... not active");
        # built with -DSIMD_ONLY only a SIMD loop, libomp never starts: one line says so
        # (was: no profile and no word)
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "progs",
                           "target_fallback.c")
        exe = E.build(self.scratch, src, "clang")
        simd = E.build(self.scratch, src, "clang", ["-DSIMD_ONLY"], name="simd_only")
        for threads in ("1", "2", "4"):
            with self.subTest(threads=threads):
                out = os.path.join(self.scratch, "fallback_" + threads)
                p = self.launch("--output=" + out, "--", exe,
                                env_extra={"OMP_NUM_THREADS": threads})
                self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "3 1\n", ""))
                cube = E.cubex.load(out)
                names = {r.name for r in cube.regions.values()}
                self.assertEqual(E.instances(cube), {"!$omp task @target_fallback.c:26": 1})
                teams = r"!\$omp (teams|distribute|target)"
                self.assertFalse([n for n in names if re.match(teams, n)], names)
                out = os.path.join(self.scratch, "simd_" + threads)
                p = self.launch("--output=" + out, "--", simd,
                                env_extra={"OMP_NUM_THREADS": threads})
                self.assertEqual((p.returncode, p.stdout), (0, "6\n"))
                self.assertRegex(p.stderr, r"^pompprof: nothing measured: simd_only_clang ran "
                                           r"no OpenMP construct \(the OpenMP runtime never "
                                           r"started\); no profile written\n$")
                self.assertFalse(os.path.exists(out) and os.listdir(out))

    def test_bad_usage(self):
        for args, status in ((["--runtime=intel", "--", "true"], 2), ([], 2),
                             (["--", os.path.join(self.scratch, "missing")], 127)):
            with self.subTest(args=args):
                p = self.launch(*args)
                self.assertEqual(p.returncode, status)
                self.assertEqual(p.stdout, "")
                self.assertTrue(p.stderr.startswith("pompprof: ") or p.stderr.startswith("usage"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
