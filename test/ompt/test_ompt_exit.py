#!/usr/bin/env python3
"""exit() inside a task's body, OMPT mode (progs/if0_chain.c exit: a task
that makes a chain of three undeferred tasks, the last calling exit()),
clang and gcc binaries on libomp, at 1, 2 and 4 threads: the exit status and
output are the program's, nothing on stderr, and the profile has every
instance and creation of the chain.

Before: the layer held the last task's creation and begin until the
thread's next event, which never came (2 instances and 2 creations of 3);
and at 2 and more threads a worker whose first event came after the run had
ended was numbered from the handle the engine gives while measurement is
off: "pompprof: more than 4095 threads: ... thread 16777214" on stderr.

The run ends on another thread, or by a crash, while an undeferred task's
body runs (progs/if0_held.c: a thread of the program's own calls exit()
once the body runs; with "crash" the body raises SIGSEGV): the task's
creation and begin, which the layer holds back until the task's next event,
are recorded by the end (pp_ompt_held_at_end): both instances and creations
of the construct at 1, 2 and 4 threads.  Before: the second was missing
(the exiting thread's exit handler settles only its own held events, and a
crash none)."""
import os
import re
import shutil
import signal
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ompt_env as E  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "progs", "if0_chain.c")
with open(SOURCE) as f:
    CHAIN_LINE, OUTER_LINE = [i for i, line in enumerate(f, 1)
                              if re.match(r"#pragma omp task\b", line)]
OUTER = "!$omp task @if0_chain.c:%d" % OUTER_LINE
CHAIN = "!$omp task @if0_chain.c:%d" % CHAIN_LINE
CREATE_CHAIN = "!$omp create task @if0_chain.c:%d" % CHAIN_LINE


@unittest.skipUnless(E.have_ompt(), "no OMPT tool, libomp or clang")
class ExitInTask(unittest.TestCase):
    def test_exit_inside_an_undeferred_task(self):
        scratch = tempfile.mkdtemp(prefix="pp_ompt_exit_")
        try:
            for mode in ("clang", "gcc"):
                exe = E.build(scratch, SOURCE, mode)
                for t in (1, 2, 4):
                    with self.subTest(mode=mode, threads=t):
                        p, out = E.run_any(exe, mode, t, ["exit"], scratch=scratch)
                        self.assertEqual((p.returncode, p.stdout, p.stderr),
                                         (3, "the task runs\n", ""))
                        cube = E.cubex.load(out)
                        self.assertEqual(E.instances(cube), {OUTER: 1, CHAIN: 3})
                        self.assertEqual(E.visits_ending(cube, CREATE_CHAIN), 3)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def test_end_while_another_thread_holds(self):
        source = os.path.join(HERE, "progs", "if0_held.c")
        with open(source) as f:
            line = [i for i, text in enumerate(f, 1) if "#pragma omp task if (0)" in text][0]
        task = "!$omp task @if0_held.c:%d" % line
        create = "!$omp create task @if0_held.c:%d" % line
        scratch = tempfile.mkdtemp(prefix="pp_ompt_held_")
        try:
            for mode in ("clang", "gcc"):
                exe = E.build(scratch, source, mode, ("-pthread",))
                for args, status, text in (((), 3, "the task runs\n"),
                                           (("crash",), -signal.SIGSEGV,
                                            "the task crashes\n")):
                    for t in (1, 2, 4):
                        with self.subTest(mode=mode, args=args, threads=t):
                            p, out = E.run_any(exe, mode, t, args, scratch=scratch)
                            self.assertEqual((p.returncode, p.stdout), (status, text),
                                             p.stderr)
                            if not args:
                                self.assertEqual(p.stderr, "")
                            cube = E.cubex.load(out)
                            self.assertEqual(E.instances(cube), {task: 2})
                            self.assertEqual(E.visits_ending(cube, create), 2)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
