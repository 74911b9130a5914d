#!/usr/bin/env python3
"""A program without OpenMP whose OpenMP code is in a plugin it opens with
dlopen (progs/plugin_host.c, progs/plugin.c: how a Python extension built with
gcc -fopenmp is opened), under the libgomp interposer:

* `pompprof run` measures it from the plugin's first entry point: output and
  status as plain, nothing on stderr, and the profile equal, call path for
  call path and instance for instance, to that of the same host linked with
  the plugin (libgomp loaded at start), at 1 and 2 threads;
* two threads that call the plugin first at the same moment are both
  measured whole;
* the same with the plugin's own copy of libgomp under another name, as
  Python wheels bundle it (before: SIGSEGV);
* a child of a measured program inherits LD_PRELOAD: the interposer preloaded
  in the plugin host runs it as plain and measures it (before: libgomp opened
  local to the plugin was out of the interposer's reach, and the first
  construct called a null pointer: SIGSEGV);
* a plugin built by clang (LLVM's libomp, opened late) runs as plain, its
  lock routines passed on (before: SIGSEGV), and one line says it was not
  measured; a program that never loads an OpenMP runtime runs as plain,
  writes no profile, and says so in exactly one line at its end."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sources as S  # noqa: E402

FIB = "9"


def compile_(args, scratch):
    p = subprocess.run(["gcc", "-g", "-O2"] + args, cwd=scratch, env=S.ENV,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        raise AssertionError("gcc %s: %s" % (" ".join(args), p.stderr))


@unittest.skipUnless(os.path.exists(S.GOMP_LIB), "no libpompprof_gomp.so")
class GompDlopen(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_gomp_dlopen_")
        progs = S.GOMP_PROGS
        cls.plugin = os.path.join(cls.scratch, "libplugin.so")
        cls.host = os.path.join(cls.scratch, "host_dl")
        cls.linked = os.path.join(cls.scratch, "host_linked")
        compile_(["-fopenmp", "-shared", "-fPIC", os.path.join(progs, "plugin.c"), "-o",
                  cls.plugin], cls.scratch)
        compile_([os.path.join(progs, "plugin_host.c"), "-o", cls.host, "-ldl"], cls.scratch)
        compile_(["-DLINKED", os.path.join(progs, "plugin_host.c"), cls.plugin,
                  "-Wl,-rpath," + cls.scratch, "-o", cls.linked], cls.scratch)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def execute(self, cmd, threads, out, env=None):
        e = dict(S.ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out, **(env or {}))
        e.pop("OMP_TOOL_LIBRARIES", None)
        return subprocess.run(cmd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, cwd=self.scratch, timeout=300)

    def profile(self, out):
        return S.Profile(S.cubex.load(out))

    def test_plugin_measured_as_linked(self):
        for threads in (1, 2):
            with self.subTest(threads=threads):
                plain = self.execute([self.host, self.plugin, FIB], threads, "unused")
                self.assertEqual(plain.returncode, 0, plain.stdout)
                out = os.path.join(self.scratch, "dl_%d" % threads)
                got = self.execute([S.POMPPROF, "run", "--", self.host, self.plugin, FIB],
                                   threads, out)
                self.assertEqual((got.returncode, got.stdout, got.stderr),
                                 (0, plain.stdout, ""))
                ref_out = os.path.join(self.scratch, "linked_%d" % threads)
                ref = self.execute([S.POMPPROF, "run", "--", self.linked, "-", FIB], threads,
                                   ref_out)
                self.assertEqual((ref.returncode, ref.stdout, ref.stderr), (0, plain.stdout, ""))
                a, b = self.profile(ref_out), self.profile(out)
                self.assertEqual(b.calls, a.calls)
                self.assertEqual(b.tasks, a.tasks)
                self.assertEqual(b.instances, a.instances)
                # fib(9) makes 2 tasks per call with n >= 2
                self.assertEqual(sum(b.instances.values()), 108)
                self.assertTrue(any("critical @plugin.c" in p for p in b.calls), b.calls)

    @unittest.skipUnless(shutil.which("patchelf"), "no patchelf")
    def test_bundled_libgomp(self):
        # a Python wheel's way (auditwheel): the plugin brings its own copy of
        # libgomp, renamed libgomp-<hash>.so.1, found beside it (before: SIGSEGV)
        bundle = os.path.join(self.scratch, "bundle")
        os.makedirs(bundle, exist_ok=True)
        ldd = subprocess.run(["ldd", self.plugin], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
        libgomp = [ln.split("=>")[1].split()[0] for ln in ldd.splitlines()
                   if "libgomp.so.1 =>" in ln][0]
        copy_name = "libgomp-5f3e9a1c.so.1.0.0"
        copy = os.path.join(bundle, copy_name)
        plugin = os.path.join(bundle, "libplugin.so")
        shutil.copy(libgomp, copy)
        shutil.copy(self.plugin, plugin)
        for cmd in (["--set-soname", copy_name, copy],
                    ["--replace-needed", "libgomp.so.1", copy_name, plugin],
                    ["--set-rpath", "$ORIGIN", plugin]):
            subprocess.run(["patchelf"] + cmd, check=True)
        plain = self.execute([self.host, plugin, FIB], 2, "unused")
        self.assertEqual(plain.returncode, 0, plain.stdout)
        out = os.path.join(self.scratch, "bundled")
        got = self.execute([S.POMPPROF, "run", "--", self.host, plugin, FIB], 2, out)
        self.assertEqual((got.returncode, got.stdout, got.stderr), (0, plain.stdout, ""))
        ref_out = os.path.join(self.scratch, "bundled_ref")
        self.execute([S.POMPPROF, "run", "--", self.linked, "-", FIB], 2, ref_out)
        a, b = self.profile(ref_out), self.profile(out)
        self.assertEqual((b.calls, b.tasks, b.instances), (a.calls, a.tasks, a.instances))

    def test_two_threads_start_it(self):
        # two threads make the plugin's first calls at once: one decides the
        # late start while the other waits, so both are measured whole
        # (before: the other thread's calls passed by, unmeasured)
        host = os.path.join(self.scratch, "threads_host")
        compile_([os.path.join(S.GOMP_PROGS, "plugin_threads.c"), "-o", host, "-ldl",
                  "-pthread"], self.scratch)
        for attempt in range(3):
            out = os.path.join(self.scratch, "threads_%d" % attempt)
            got = self.execute([S.POMPPROF, "run", "--", host, self.plugin], 2, out)
            self.assertEqual((got.returncode, got.stdout, got.stderr), (0, "34 34\n", ""))
            b = self.profile(out)
            parallel = sum(v for path, v in b.calls.items()
                           if path.rsplit(" > ", 1)[-1].startswith("!$omp parallel"))
            self.assertEqual((parallel, sum(b.instances.values())), (2 * 2, 2 * 108))
            self.assertEqual(b.calls.get("omp_init_lock"), 2)

    def test_child_of_measured_program(self):
        out = os.path.join(self.scratch, "child")
        plain = self.execute([self.host, self.plugin, FIB], 2, "unused")
        got = self.execute([self.host, self.plugin, FIB], 2, out, env={"LD_PRELOAD": S.GOMP_LIB})
        self.assertEqual((got.returncode, got.stdout, got.stderr), (0, plain.stdout, ""))
        self.assertEqual(sum(self.profile(out).instances.values()), 108)

    @unittest.skipUnless(shutil.which("clang"), "no clang")
    def test_plugin_on_libomp(self):
        # a plugin built by clang brings LLVM's libomp, local to it: its lock
        # routines reach the interposer, which passes them on (before: a null
        # pointer, SIGSEGV); libomp opened late is not measured, as one line says
        plugin = os.path.join(self.scratch, "libplugin_clang.so")
        p = subprocess.run(["clang", "-fopenmp", "-O2", "-shared", "-fPIC",
                            os.path.join(S.GOMP_PROGS, "plugin.c"), "-o", plugin],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        plain = self.execute([self.host, plugin, FIB], 2, "unused")
        self.assertEqual(plain.returncode, 0, plain.stdout)
        out = os.path.join(self.scratch, "libomp")
        got = self.execute([S.POMPPROF, "run", "--", self.host, plugin, FIB], 2, out)
        self.assertEqual((got.returncode, got.stdout), (0, plain.stdout))
        self.assertRegex(got.stderr, r"^pompprof: nothing measured: host_dl loaded LLVM's libomp "
                                     r"after its start, .*; no profile written\n$")
        self.assertFalse(os.path.exists(out))

    def test_never_loaded(self):
        out = os.path.join(self.scratch, "never")
        got = self.execute([S.POMPPROF, "run", "--", self.host], 2, out)
        self.assertEqual((got.returncode, got.stdout), (0, "no plugin\n"))
        self.assertRegex(got.stderr, r"^pompprof: nothing measured: host_dl loaded no OpenMP "
                                     r"runtime \(libgomp or libomp\); it ran unmeasured\n$")
        self.assertFalse(os.path.exists(out))
        # a script: no program to look into; it runs as it is, and one line says
        # where pompprof run goes instead
        script = os.path.join(self.scratch, "run.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\necho script\nexit 3\n")
        os.chmod(script, 0o755)
        got = self.execute([S.POMPPROF, "run", "--", script], 2, out)
        self.assertEqual((got.returncode, got.stdout), (3, "script\n"))
        self.assertRegex(got.stderr, r"^pompprof: nothing measured: .*run.sh is no dynamically "
                                     r"linked program .*put pompprof run in front of the "
                                     r"OpenMP program it starts\)\n$")


if __name__ == "__main__":
    unittest.main()
