#!/usr/bin/env python3
"""Instrumented functions where a measurement that locks, allocates, loads a
library or reads a file on its event path could deadlock or crash
(progs/safe.c, built with `pompprof --functions`), each run under a time
limit and checked against the counts the program keeps itself:

* a signal handler (SIGUSR1, raised 2,000 times) that calls another
  instrumented function, and one of SIGALRM delivered by a timer every
  100 us while work() runs 20,000 times: every call measured, exactly;
* the first calls of 512 functions, one in each delivery of a timer signal
  (every 50 us) while the program does nothing but allocate and free
  memory: a first call that took a lock or allocated (as before the
  preparation at start) would interrupt malloc holding its lock, sooner or
  later, and wait for it forever; every call measured, exactly;
* fork(): the parent's calls measured, exactly, the child's not, and only
  the parent writes a profile;
* an atexit handler: its calls measured, exactly (the library's own handler,
  registered at its start, runs after it); a destructor that calls the
  function after the profile is written: measured or not, nothing else;
* a library loaded with dlopen after the start, unloaded and loaded again:
  built with pompprof's GCC plugin its functions are measured, exactly
  (registered by the library's constructor); built with
  -finstrument-functions (prepared when the program starts) they are not,
  and one line says so.
Each case three ways where the build has them: the GCC plugin, gcc's
-finstrument-functions (POMPPROF_GCC_PLUGIN=no), and clang's."""
import glob
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from functions_common import (  # noqa: E402
    CC, ENV, OPENMP, PLUGIN, PROGS, WRAPPER, ScratchTest, cnodes_of, require_libdw, total)
from e2e_env import cubex  # noqa: E402

N = 20000
LIB_N = 1000
LIMIT = 120  # seconds: a deadlock, not a slow machine


def modes():
    out = [("plugin", CC, {})] if PLUGIN else []
    out.append(("gcc", CC, {"POMPPROF_GCC_PLUGIN": "no"}))
    if shutil.which("clang"):
        out.append(("clang", ["clang"], {}))
    return out


class Safe(ScratchTest):
    prefix = "pp_fn_safe_"

    @classmethod
    def setUpClass(cls):
        require_libdw()
        super().setUpClass()
        cls.exes = {}
        for mode, cc, env in modes():
            e = dict(ENV, **env)
            exe = os.path.join(cls.scratch, "safe_" + mode)
            lib = os.path.join(cls.scratch, "libsafe_%s.so" % mode)
            flags = OPENMP if mode != "clang" else ["-fopenmp"]
            subprocess.run([WRAPPER, "--functions"] + cc + flags + [
                "-O2", os.path.join(PROGS, "safe.c"), "-o", exe, "-ldl"], env=e, check=True)
            subprocess.run([WRAPPER, "--functions"] + cc + [
                "-O2", "-shared", "-fPIC", os.path.join(PROGS, "safe_lib.c"), "-o", lib],
                env=e, check=True)
            cls.exes[mode] = (exe, lib)

    def run_case(self, mode, *args):
        """Run; (stdout, stderr, the profile, the counts the program wrote)."""
        exe, _ = self.exes[mode]
        out_dir = os.path.join(self.scratch, "out_%s_%s" % (mode, args[0]))
        truth = out_dir + ".truth"
        env = dict(ENV, OMP_NUM_THREADS="2", POMPPROF_OUTPUT=out_dir, SAFE_TRUTH=truth)
        try:
            proc = subprocess.run([exe] + [str(a) for a in args], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True, timeout=LIMIT)
        except subprocess.TimeoutExpired:
            self.fail("%s %s: no end within %d s (deadlocked?)" % (mode, args, LIMIT))
        self.assertEqual((proc.returncode, proc.stdout), (0, "safe %s done\n" % args[0]),
                         proc.stderr)
        counts = {}
        with open(truth) as f:
            for line in f:
                name, n = line.split()
                counts[name] = int(n)
        # one profile: a fork child writes none
        self.assertEqual(len(glob.glob(os.path.join(out_dir, "*.cubex"))), 1)
        return proc.stdout, proc.stderr, cubex.load(out_dir), counts

    def visits(self, cube, name):
        return total(cube, "visits", cnodes_of(cube, name))

    def test_signal_handlers(self):
        for mode in self.exes:
            with self.subTest(mode=mode):
                out, err, cube, counts = self.run_case(mode, "signal", N)
                self.assertEqual(err, "")
                self.assertEqual(counts["on_usr1"], N // 10)
                self.assertGreater(counts["on_alarm"], 0)
                for name in ("work", "on_usr1", "in_handler", "on_alarm"):
                    self.assertEqual(self.visits(cube, name), counts[name], name)
                for c in cnodes_of(cube, "in_handler"):
                    self.assertEqual(c.parent.region.name, "on_usr1")

    def test_first_calls_in_handler(self):
        for mode in self.exes:
            with self.subTest(mode=mode):
                out, err, cube, counts = self.run_case(mode, "firsts", 512)
                self.assertEqual(err, "")
                self.assertEqual(counts["firsts"], 512)
                firsts = [c for c in cube.cnodes_in_order()
                          if re.fullmatch(r"first_[0-9]+", c.region.name)]
                self.assertEqual(len({c.region.name for c in firsts}), 512)
                self.assertEqual(total(cube, "visits", firsts), 512)
                for c in firsts:
                    self.assertEqual(c.parent.region.name, "on_alarm_first")

    def test_fork(self):
        for mode in self.exes:
            with self.subTest(mode=mode):
                out, err, cube, counts = self.run_case(mode, "fork", N)
                self.assertEqual(err, "")
                self.assertEqual(counts["work"], 2 * N)     # the parent's own calls
                self.assertEqual(self.visits(cube, "work"), 2 * N)

    def test_atexit(self):
        for mode in self.exes:
            with self.subTest(mode=mode):
                out, err, cube, counts = self.run_case(mode, "atexit", N)
                self.assertEqual(err, "")
                self.assertEqual(counts["late"], N)
                in_handler = [c for c in cnodes_of(cube, "late")
                              if c.parent.region.name == "at_exit_handler"]
                self.assertEqual(total(cube, "visits", in_handler), N)
                # the destructor's call, after the profile was written or not
                self.assertLessEqual(self.visits(cube, "late"), N + 1)

    def test_dlopen(self):
        for mode in self.exes:
            with self.subTest(mode=mode):
                _, lib = self.exes[mode]
                out, err, cube, counts = self.run_case(mode, "dlopen", lib, LIB_N)
                self.assertEqual(counts["lib_call"], 2 * LIB_N)
                if mode == "plugin":
                    self.assertEqual(err, "")
                    for name in ("lib_call", "lib_inner"):
                        self.assertEqual(self.visits(cube, name), counts[name], name)
                        (region,) = {c.region for c in cnodes_of(cube, name)}
                        self.assertTrue(region.mod.endswith("safe_lib.c"), region.mod)
                    for c in cnodes_of(cube, "lib_inner"):
                        self.assertEqual(c.parent.region.name, "lib_call")
                else:
                    self.assertEqual(cnodes_of(cube, "lib_call") + cnodes_of(cube, "lib_inner"),
                                     [])
                    self.assertEqual(err.count("pompprof: "), 1, err)
                    self.assertIn("2 functions of modules loaded after the start", err)


if __name__ == "__main__":
    unittest.main()
