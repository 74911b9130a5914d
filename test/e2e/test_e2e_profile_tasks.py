#!/usr/bin/env python3
"""End-to-end checks of the task profiling algorithm on real programs.

Each program is built with the build-tree `pompprof` wrapper (real OPARI2, gcc,
libgomp), run with 1, 2 and 4 threads, and its .cubex is read back with the
tools' reader.  What is checked, number by number:

* every task construct's root under TASKS has as many visits (summed over the
  threads) as the program created instances of it;
* stub visits equal the fragments (tasks that never suspend: one fragment per
  instance; tasks with a taskwait: at least one per instance);
* summed over the threads, the time in the task roots matches the time in the
  stubs within a few percent;
* no exclusive time is negative anywhere;
* a task that spins a known duration gets at least that time (within 10% in
  make check-timing: a busy machine stretches any interval, never shrinks one);
* the memory of a run does not grow with the number of tasks.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import CC, ENV, OPENMP, PROGS, WRAPPER, cubex  # noqa: E402
THREADS = (1, 2, 4)
# upper wall-clock bounds: only in make check-timing (PP_TEST_TIMING=1)
TIMING = os.environ.get("PP_TEST_TIMING") == "1"


def pragma_lines(source, directive):
    """Line numbers of `#pragma omp <directive>` in a program of PROGS."""
    with open(os.path.join(PROGS, source)) as f:
        return [i for i, line in enumerate(f, 1)
                if line.split()[:3] == ["#pragma", "omp", directive]]


def fib_task_calls(n):
    """Calls of fib with n >= 2: each creates one instance of each task construct."""
    calls = [0, 0]
    for k in range(2, n + 1):
        calls.append(1 + calls[k - 1] + calls[k - 2])
    return calls[n]


class ProfiledProgram:
    """One program built with the wrapper in a scratch directory."""

    def __init__(self, scratch, source):
        self.scratch = scratch
        self.exe = os.path.join(scratch, os.path.splitext(source)[0])
        subprocess.run([WRAPPER] + CC + OPENMP + ["-O2", os.path.join(PROGS, source),
                                                  "-o", self.exe],
                       env=ENV, check=True, cwd=scratch)

    def run(self, threads, *args, extra_env=None):
        """Run; return (stdout, loaded profile, peak RSS in KiB)."""
        out_dir = tempfile.mkdtemp(dir=self.scratch)
        env = dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out_dir, **(extra_env or {}))
        proc = subprocess.Popen([self.exe] + [str(a) for a in args], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # Reap the child ourselves: wait4 gives this child's own peak RSS.
        stdout, stderr = proc.stdout.read(), proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        proc.stdout.close()
        proc.stderr.close()
        if proc.returncode != 0 or stderr:
            raise AssertionError("%s exited %d, stderr: %r" % (self.exe, proc.returncode, stderr))
        return stdout.decode(), cubex.load(out_dir), usage.ru_maxrss


def task_roots_by_name(cube):
    return {c.region.name: c for c in cube.task_roots()}


def stubs_by_name(cube):
    """Task-region cnodes in the main tree (below the program root, not TASKS)."""
    found = {}

    def walk(c):
        for ch in cube.main_children(c):
            if ch.region.role in ("task", "untied task"):
                found.setdefault(ch.region.name, []).append(ch)
            walk(ch)

    for root in cube.roots:
        walk(root)
    return found


def total(cube, metric, cnode, kind="inclusive"):
    row = cube.inclusive_row(metric, cnode) if kind == "inclusive" else cube.row(metric, cnode)
    return sum(row)


class TaskProfiles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_prof_")
        cls.fib = ProfiledProgram(cls.scratch, "prof_fib.c")
        cls.spin = ProfiledProgram(cls.scratch, "prof_spin.c")
        cls.many = ProfiledProgram(cls.scratch, "prof_many.c")
        cls.nested = ProfiledProgram(cls.scratch, "nested.c")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def assert_no_negative_exclusive(self, cube):
        for c in cube.cnodes_in_order():
            for loc, v in enumerate(cube.exclusive_row("time", c)):
                self.assertGreaterEqual(v, -1e-12, "negative exclusive time %g at %s loc %d"
                                        % (v, c.region.name, loc))

    def test_fib_instances_fragments_and_times(self):
        n = 14
        calls = fib_task_calls(n)
        for threads in THREADS:
            with self.subTest(threads=threads):
                out, cube, _ = self.fib.run(threads, n)
                self.assertEqual(out, "fib(%d) = 377\n" % n)
                self.assertEqual(len(cube.locations), threads)
                roots = task_roots_by_name(cube)
                self.assertEqual(sorted(roots), ["!$omp task @prof_fib.c:%d" % line
                                                 for line in pragma_lines("prof_fib.c", "task")])
                stubs = stubs_by_name(cube)
                for name, root in roots.items():
                    instances = total(cube, "visits", root, "stored")
                    self.assertEqual(instances, calls, name)
                    fragments = sum(total(cube, "visits", s, "stored") for s in stubs[name])
                    # every instance runs at least once; a resumption after a
                    # taskwait is one more fragment
                    self.assertGreaterEqual(fragments, instances, name)
                    root_time = total(cube, "time", root)
                    stub_time = sum(total(cube, "time", s) for s in stubs[name])
                    self.assertGreater(root_time, 0, name)
                    self.assertAlmostEqual(stub_time / root_time, 1.0, delta=0.05,
                                           msg="%s: stubs %g s vs roots %g s"
                                           % (name, stub_time, root_time))
                    # each construct's instances create and wait in their own tree
                    child_names = {ch.region.name for ch in root.children}
                    (taskwait_line,) = pragma_lines("prof_fib.c", "taskwait")
                    self.assertIn("!$omp taskwait @prof_fib.c:%d" % taskwait_line, child_names)
                self.assert_no_negative_exclusive(cube)

    def test_spin_tasks_time_attributed(self):
        tasks, us = 8, 5000
        for threads in THREADS:
            with self.subTest(threads=threads):
                truth_file = os.path.join(self.scratch, "spin-truth-%d" % threads)
                out, cube, _ = self.spin.run(threads, tasks, us,
                                             extra_env={"SPIN_REPORT": truth_file})
                with open(truth_file) as f:
                    body_seconds = float(f.read())
                self.assertEqual(out, "%d tasks done\n" % tasks)
                (name, root), = task_roots_by_name(cube).items()
                self.assertEqual(total(cube, "visits", root, "stored"), tasks)
                stubs = stubs_by_name(cube)[name]
                # tasks without scheduling points run in exactly one fragment
                self.assertEqual(sum(total(cube, "visits", s, "stored") for s in stubs), tasks)
                expected = tasks * us * 1e-6
                self.assertGreaterEqual(body_seconds, expected)
                root_time = total(cube, "time", root)
                # the task's time encloses its body (the program's clock, converted)
                self.assertGreaterEqual(root_time, 0.98 * body_seconds,
                                        "spin tasks: %g s in the profile, %g s in the task "
                                        "bodies" % (root_time, body_seconds))
                if TIMING:
                    self.assertLessEqual(root_time, 1.10 * body_seconds)
                stub_time = sum(total(cube, "time", s) for s in stubs)
                self.assertAlmostEqual(stub_time / root_time, 1.0, delta=0.03)
                # min/max per instance bracket the spin duration
                tmin = min(v for v in cube.row("min_time", root) if v > 0)
                tmax = max(cube.row("max_time", root))
                self.assertGreaterEqual(tmin, 0.9 * us * 1e-6)
                if TIMING:
                    self.assertLess(tmax, 0.9 * body_seconds)
                # workers hang below the fork path: program -> parallel on every thread
                par = [c for c in cube.cnodes_in_order() if c.region.role == "parallel"]
                self.assertEqual(len(par), 1)
                self.assertIsNone(par[0].parent.parent)
                self.assertEqual(list(cube.row("visits", par[0])), [1] * threads)
                self.assert_no_negative_exclusive(cube)

    def test_nested_parallel_hangs_below_the_fork_path(self):
        out, cube, _ = self.nested.run(2, extra_env={"OMP_MAX_ACTIVE_LEVELS": "2"})
        self.assertEqual(out, "consistent=1\n")
        # 2 outer threads, each master of an inner team of 2: 4 locations
        self.assertEqual(len(cube.locations), 4)
        outer = [c for c in cube.cnodes_in_order() if c.region.role == "parallel"
                 and c.parent.parent is None]
        inner = [c for c in cube.cnodes_in_order() if c.region.role == "parallel"
                 and c.parent.region.role == "parallel"]
        self.assertEqual(len(outer), 1)
        self.assertEqual(len(inner), 1)
        self.assertIs(inner[0].parent, outer[0])
        # every location executed the inner region once, inside the outer one
        self.assertEqual(list(cube.row("visits", inner[0])), [1, 1, 1, 1])
        self.assertEqual(sorted(cube.row("visits", outer[0])), [0, 0, 1, 1])
        # no parallel region anywhere else: no worker tree was left unattached
        for c in cube.cnodes_in_order():
            if c.region.role == "parallel":
                self.assertIn(c, outer + inner)
        # the inner team's tasks: 2 inner regions x 2 threads create 4 tasks
        (root,) = cube.task_roots()
        self.assertEqual(total(cube, "visits", root, "stored"), 4)
        for loc in range(4):
            self.assertGreaterEqual(cube.inclusive("time", outer[0], loc),
                                    cube.inclusive("time", inner[0], loc))
        self.assert_no_negative_exclusive(cube)

    def test_memory_does_not_grow_with_tasks(self):
        _, small_cube, small_rss = self.many.run(2, 100000)
        _, big_cube, big_rss = self.many.run(2, 1000000)
        (root,) = big_cube.task_roots()
        self.assertEqual(total(big_cube, "visits", root, "stored"), 1000000)
        self.assertLess(big_rss, small_rss * 1.10 + 1024,
                        "peak RSS %d KiB with 1M tasks vs %d KiB with 100k" % (big_rss, small_rss))


if __name__ == "__main__":
    unittest.main(verbosity=2)
