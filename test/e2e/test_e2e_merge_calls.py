#!/usr/bin/env python3
"""End-to-end: the wrapper's merged calls for adjacent task events
(scripts/pompprof_tools/wrapper/adjacent.py, doc/wrapper.md "Adjacent task events")
measure what the separate calls measure.

progs/merge_calls.c (a recursion of three tasks and a taskwait, a loop body of four
tasks and a taskwait, undeferred tasks next to deferred ones, tasks inside tasks, untied
tasks) is built plain, through the wrapper (the pass on) and through the wrapper with
POMPPROF_MERGE_CALLS=0, each with -Wall -Wextra -Wshadow -Werror: every build is silent,
the merged one calls POMP2_Task_create_next and POMP2_Task_create_end_wait and the other
does not. At 1 and 2 threads both print what the plain build prints and their profiles
(read back with pompprof_tools.cube) are the same node by node with the same visits: at
1 thread the whole call tree; at 2 threads, where the thread that runs a task differs
from run to run, the tree without the stubs of executed tasks, and the stubs' visits per
construct. The same through the engine's general bodies (POMPPROF_TIMER=clock), and
traced (POMPPROF_TRACE=1): the same events in the same order. The pass's counts
($POMPPROF_WRAPPER_COUNTS): every task and taskwait of the source read, merges made;
with the pass off, no count.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import CC, ENV, OPENMP, PROGS, WRAPPER, cubex  # noqa: E402

SOURCE = os.path.join(PROGS, "merge_calls.c")
FLAGS = ["-O2", "-Wall", "-Wextra", "-Wshadow", "-Werror"]
MERGED = {"POMP2_Task_create_next", "POMP2_Task_create_end_wait"}
N = 12


def calls(n, inner_only):
    """Calls of nodes(n), all or those with n >= 3 (the instances of each of its tasks)."""
    if n < 3:
        return 0 if inner_only else 1
    return 1 + sum(calls(n - k, inner_only) for k in (1, 2, 3))


def first_task_line():
    """The line of the first task construct of nodes() in progs/merge_calls.c."""
    with open(SOURCE) as f:
        return next(i for i, line in enumerate(f, 1) if "omp task shared(a) firstprivate(n)"
                    in line)


def tree(cube, stubs_apart):
    """{call path: visits over all threads}, and with stubs_apart the tasks executed
    below a scheduling point (the stubs, not the roots of the task tree) left out of
    it and counted by construct instead: {construct's line: visits}."""
    paths, stubs = {}, {}

    def walk(node, key):
        visits = sum(cube.row("visits", node))
        if stubs_apart and node.region.role.endswith("task") \
                and not cube.is_tasks_node(node.parent):
            stubs[node.region.begin] = stubs.get(node.region.begin, 0) + visits
        else:
            key += ((node.region.name if node.parent else "<program>", node.region.begin),)
            paths[key] = paths.get(key, 0) + visits
        for child in node.children:
            walk(child, key)

    for root in cube.roots:
        walk(root, ())
    return paths, stubs


class MergeCalls(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_merge_")
        cls.exe = {}
        cls.counts = {}
        for build, command, env in (
                ("plain", CC + OPENMP, ENV),
                ("merged", [WRAPPER] + CC + OPENMP, ENV),
                ("unmerged", [WRAPPER] + CC + OPENMP, dict(ENV, POMPPROF_MERGE_CALLS="0"))):
            # the same program name in each build, so the profiles' roots are the same
            os.mkdir(os.path.join(cls.scratch, build))
            exe = os.path.join(cls.scratch, build, "merge_calls")
            counts = os.path.join(cls.scratch, build, "counts")
            p = subprocess.run(command + FLAGS + [SOURCE, "-o", exe],
                               env=dict(env, POMPPROF_WRAPPER_COUNTS=counts), cwd=cls.scratch,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
            cls.exe[build] = (exe, p.returncode, p.stdout + p.stderr)
            if os.path.exists(counts):
                with open(counts) as f:
                    cls.counts[build] = [json.loads(line) for line in f]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def run_build(self, build, threads, **settings):
        """stdout and profile of a run (and the directory of its output)."""
        exe, status, messages = self.exe[build]
        self.assertEqual((status, messages), (0, ""), build)
        out = tempfile.mkdtemp(dir=self.scratch)
        p = subprocess.run([exe, str(N)], env=dict(ENV, OMP_NUM_THREADS=str(threads),
                                                    POMPPROF_OUTPUT=out, **settings),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""), build)
        return p.stdout, None if build == "plain" else cubex.load(out), out

    def test_builds_silent_and_merged_calls_used(self):
        for build in ("plain", "merged", "unmerged"):
            self.assertEqual(self.exe[build][1:], (0, ""), build)
        for build, want in (("merged", MERGED), ("unmerged", set())):
            nm = subprocess.run(["nm", "-u", self.exe[build][0]], stdout=subprocess.PIPE,
                                universal_newlines=True, check=True).stdout
            self.assertEqual(set(re.findall(r"\bPOMP2_Task_create_(?:next|end_wait)\b", nm)),
                             want, build)
            self.assertIn("POMP2_Task_create_begin", nm)

    def test_counts(self):
        with open(SOURCE) as f:
            constructs = len(re.findall(r"^\s*#pragma omp (?:task|taskwait)\b", f.read(), re.M))
        self.assertEqual([r["source"] for r in self.counts["merged"]], [SOURCE])
        adjacent = self.counts["merged"][0]["counts"]["adjacent"]
        self.assertEqual((adjacent["expected"], adjacent["matched"]), (constructs, constructs))
        self.assertGreater(adjacent["create_next"], 0)
        self.assertGreater(adjacent["create_end_wait"], 0)
        self.assertNotIn("adjacent", self.counts["unmerged"][0]["counts"])

    def test_same_output_and_profiles(self):
        for threads in (1, 2):
            with self.subTest(threads=threads):
                plain = self.run_build("plain", threads)[0]
                self.assertTrue(plain.startswith("nodes %d " % calls(N, False)), plain)
                trees = {}
                for build in ("merged", "unmerged"):
                    out, cube, _ = self.run_build(build, threads)
                    self.assertEqual(out, plain, build)
                    trees[build] = tree(cube, stubs_apart=threads > 1)
                    # the instances of the first task of nodes(): one per call with n >= 3
                    first = [sum(cube.row("visits", t)) for t in cube.task_roots()
                             if t.region.begin == first_task_line()]
                    self.assertEqual(sum(first), calls(N, True), build)
                merged, unmerged = trees["merged"], trees["unmerged"]
                self.assertGreater(len(unmerged[0]), 40)
                self.assertEqual(set(merged[0]), set(unmerged[0]))
                for path, visits in unmerged[0].items():
                    self.assertEqual(merged[0][path], visits, path)
                self.assertEqual(merged[1], unmerged[1])
                if threads > 1:
                    self.assertGreater(sum(unmerged[1].values()), 0)

    def test_general_path(self):
        """The engine's general bodies (the clock instead of the TSC) give the same."""
        trees = [tree(self.run_build(build, 1, POMPPROF_TIMER="clock")[1], False)
                 for build in ("merged", "unmerged")]
        self.assertGreater(len(trees[1][0]), 40)
        self.assertEqual(trees[0], trees[1])

    def test_trace_same_events(self):
        """Traced, the same events in the same order (times aside)."""
        if not shutil.which("otf2-print"):
            self.skipTest("no otf2-print")
        events = []
        for build in ("merged", "unmerged"):
            _, _, out = self.run_build(build, 1, POMPPROF_TRACE="1")
            archive = os.path.join(out, "traces.otf2")
            if not os.path.exists(archive):
                self.skipTest("libpompprof built without OTF2")
            p = subprocess.run(["otf2-print", archive], stdout=subprocess.PIPE,
                               universal_newlines=True, check=True)
            # EVENT LOCATION TIME attributes: all but the time
            events.append([(f[0], f[1], f[3] if len(f) > 3 else "") for f in
                           (line.split(None, 3) for line in p.stdout.splitlines())
                           if len(f) >= 3 and f[0].isupper() and f[1].isdigit()])
        self.assertGreater(len(events[1]), 5000)
        self.assertEqual(events[0], events[1])


if __name__ == "__main__":
    unittest.main()
