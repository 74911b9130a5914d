#!/usr/bin/env python3
"""A construct reached through a tail call is named after the function that
holds it, for both event sources that measure unchanged binaries (the
shared naming layer, callsite/pp_callsite_tail.c).

fibtail.c's wait_all() holds only a taskwait; at -O2 both gcc and clang
compile its call of the runtime as a jump, so the return address the
runtime sees is in fib, after fib's call of wait_all (line 21).  Measured:
- gcc -g, on libgomp (the interposer): "taskwait @fibtail.c:9", by gcc's
  DWARF call-site entries (DW_AT_call_tail_call);
- clang -g, on libomp (OMPT): "taskwait @fibtail.c:9" too, although clang
  writes no call-site entry for wait_all's jump (the call in fib is decoded,
  wait_all's lines hold one taskwait directive);
- without -g (either compiler): "taskwait @wait_all (position lost to a
  tail call)" -- never fib's line or fib+offset.

Before: gcc -g gave "taskwait @fibtail.c:21" (fib's call of wait_all) and
clang "taskwait @fibtail.c:21" or "@fib+0x..." on main's tree."""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sources as S  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(S.HERE), "ompt"))
import ompt_env as E  # noqa: E402


def taskwaits(cube):
    return sorted({n for n in S.Profile(cube).roles if "taskwait" in n})


class TailCalledTaskwait(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = S.scratch_dir("pp_tail_")

    @classmethod
    def tearDownClass(cls):
        S.remove(cls.scratch)

    def build(self, cc, flags, name):
        exe = os.path.join(self.scratch, name)
        src = os.path.join(S.GOMP_PROGS, "fibtail.c")
        subprocess.run(cc + ["-fopenmp", "-O2"] + flags + [src, "-o", exe], check=True,
                       env=S.ENV)
        return exe

    def measured(self, exe):
        r = S.run(exe, "gomp", 2, args=(10,), scratch=self.scratch)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "fib(10) = 55\n", ""))
        self.assertIsNotNone(r.cube)
        return taskwaits(r.cube)

    def check(self, cc, name):
        self.assertEqual(self.measured(self.build(cc, ["-g"], name)),
                         ["!$omp taskwait @fibtail.c:9"])
        names = self.measured(self.build(cc, [], name + "_nog"))
        self.assertEqual(names, ["!$omp taskwait @wait_all (position lost to a tail call)"])
        self.assertFalse(any(re.search(r"fib|:21\b", n) for n in names), names)

    @unittest.skipUnless(os.path.exists(S.GOMP_LIB) or E.have_ompt(), "no way to measure gcc's")
    def test_gcc_on_libgomp(self):
        self.check(S.CC, "fibtail_gcc")

    @unittest.skipUnless(E.have_ompt(), "no clang, libomp or OMPT tool")
    def test_clang_through_ompt(self):
        self.check([E.CLANG], "fibtail_clang")


if __name__ == "__main__":
    unittest.main(verbosity=2)
