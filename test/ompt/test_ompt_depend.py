#!/usr/bin/env python3
"""Dependences from OMPT equal those the wrapper records, task by task.

The same sources (test/e2e/progs/depend_graphs.c, examples/wavefront.c in its
wavefront and chains modes) built three ways: with the pompprof wrapper
(OPARI2, gcc, libgomp: the wrapper records each list item's address, size and
kind), with clang on libomp, and with plain gcc run on a preloaded libomp
(both measured through libpompprof_ompt.so: the runtime's `dependences`
callback, address and kind, no size).  Traced (POMPPROF_TRACE=1) at 1, 2 and 4
threads, and compared number by number:

* the dependences of each task, in creation order (one thread creates them
  all), and of the taskwait depend, with the region whose Enter carries them
  (the taskwait's: libomp reports a taskwait depend as a pseudo task, with
  no sync_region event; OMPT mode enters the taskwait's region itself).  Three builds have three stack layouts,
  so an address is compared by what it is: its number in the order in which
  the run first named it (two runs that name the same storage in the same
  places get the same numbers).  Kinds: `out` is compared as `inout` (gcc's
  GOMP interface and clang's both hand the runtime `out` as `inout`, so OMPT
  cannot tell them apart), and each task's items as a set (gcc hands the
  runtime `out`/`inout` items before `in` items, whatever the clause order;
  the wrapper records clause order).  Size: the wrapper's only (OMPT mode
  records 0), so it is not compared;
* the replay's dependence graph (pompprof-replay --dot), edge for edge;
* the profile's "dependences" metric per construct;
* the replay's time split: nothing undetermined in either mode.

Where the sources differ by design (test_if0_task): libomp waits for an if(0)
task's dependences as for a taskwait depend, so OMPT mode records a taskwait
depend at the task's line, the wrapper the task's dependences.

Nothing here depends on timing: a busy machine changes no figure compared.
Skips without clang, libomp or the OMPT tool (configure's OMPT tool: no)."""
import json
import os
import re
import subprocess
import sys
import tempfile
import shutil
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "trace"))
import ompt_env as E  # noqa: E402
from trace_common import dot_edges  # noqa: E402

REPLAY = os.path.join(E.TOP_BUILDDIR, "replay", "pompprof-replay")
TOP_SRCDIR = os.path.dirname(os.path.dirname(HERE))
KINDS = {1: "in", 2: "inout", 3: "inout", 4: "mutexinoutset", 5: "inoutset", 6: "unknown"}
THREADS = (1, 2, 4)


def trace_items(archive):
    """[(what, [(address, kind, size)])] in event order: ('task', ...) per
    ThreadTaskCreate with dependences, (region name, ...) per Enter carrying
    a taskwait depend's (the taskwait's region)."""
    text = subprocess.run(["otf2-print", archive], stdout=subprocess.PIPE,
                          universal_newlines=True, check=True).stdout.splitlines()
    out = []
    for k, line in enumerate(text[:-1]):
        if "ADDITIONAL ATTRIBUTES" not in text[k + 1]:
            continue
        values = {}
        for n, field, v in re.findall(r'"depend\[(\d+)\] (\w+)" <\d+>; \w+; (\d+)', text[k + 1]):
            values.setdefault(int(n), {})[field] = int(v)
        if not values:
            continue
        items = [(values[n]["address"], KINDS[values[n]["kind"]], values[n]["size"])
                 for n in sorted(values)]
        region = re.search(r'Region: "([^"]*)"', line)
        out.append(("task" if line.startswith("THREAD_TASK_CREATE") else
                     region.group(1) if region and line.startswith("ENTER") else line.split()[0],
                     items))
    return out


def canonical(items):
    """trace_items with each address replaced by its number in order of first
    appearance (in each task's items sorted by address: the order a runtime
    hands them over in may differ), each task's items a sorted list of
    (number, kind)."""
    names = {}
    out = []
    for what, deps in items:
        for a in sorted(set(a for a, _, _ in deps)):
            names.setdefault(a, len(names))
        out.append((what, sorted(set((names[a], k) for a, k, _ in deps))))
    return out


def depend_metric(cube):
    """{region name of the call path: dependences summed over its call paths
    and threads}, the paths with some only."""
    if not any(m.uniq_name == "dependences" for m in cube.metrics):
        return {}
    result = {}
    for c in cube.cnodes_in_order():
        v = sum(cube.row("dependences", c))
        if v:
            name = c.region.name if c.parent is None else "%s < %s" % (c.region.name,
                                                                     c.parent.region.name)
            result[name] = result.get(name, 0) + v
    return result


@unittest.skipUnless(E.have_ompt(), "no clang, libomp or OMPT tool")
class OmptDependences(unittest.TestCase):
    maxDiff = None
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="pp_ompt_depend_")
        cls.exe = {}
        wave = os.path.join(TOP_SRCDIR, "examples", "wavefront.c")
        for mode in ("opari2", "clang", "gcc"):
            cls.exe["graphs", mode] = E.build(cls.tmp, "depend_graphs.c", mode)
            cls.exe["wave", mode] = E.build(cls.tmp, wave, mode,
                                            flags=["-I" + os.path.dirname(wave)])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def measure(self, prog, mode, threads, args, env):
        stdout, stderr, cube, out = E.run(self.exe[prog, mode], mode, threads, args=args,
                                          extra_env=dict(env, POMPPROF_TRACE="1"),
                                          scratch=self.tmp)
        archive = os.path.join(out, "traces.otf2")
        dot = os.path.join(out, "graph.dot")
        r = subprocess.run([REPLAY, "--dot", dot, archive], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return {"stdout": stdout, "items": trace_items(archive), "edges": dot_edges(dot),
                "replay": json.loads(r.stdout), "metric": depend_metric(cube)}

    def compare(self, prog, args=(), env=None, n_tasks=None, n_edges=None):
        for threads in THREADS:
            ref = self.measure(prog, "opari2", threads, args, env or {})
            what = "%s at %d threads" % (prog, threads)
            self.assertEqual(ref["replay"]["total"]["undetermined"], 0, what)
            wrapper = canonical(ref["items"])
            n_task = sum(1 for w, _ in wrapper if w == "task")
            if n_tasks is not None:
                self.assertEqual(n_task, n_tasks, what)
            if n_edges is not None:
                self.assertEqual(len(ref["edges"]), n_edges, what)
            # the wrapper records sizes (OMPT mode cannot)
            self.assertTrue(all(s > 0 for _, deps in ref["items"] for _, _, s in deps), what)
            for mode in ("clang", "gcc"):
                got = self.measure(prog, mode, threads, args, env or {})
                how = "%s, %s on libomp" % (what, mode)
                self.assertEqual(got["stdout"], ref["stdout"], how)
                self.assertEqual(canonical(got["items"]), wrapper, how)
                self.assertTrue(all(s == 0 for _, deps in got["items"] for _, _, s in deps),
                                how)
                self.assertEqual(got["edges"], ref["edges"], how)
                self.assertEqual(got["metric"], ref["metric"], how)
                self.assertEqual(got["replay"]["total"]["undetermined"], 0, how)
                self.assertEqual(got["replay"]["depend"]["edges"],
                                 ref["replay"]["depend"]["edges"], how)

    def test_graphs(self):
        # 21 tasks with dependences and one taskwait depend; 16 edges
        # (the program's comment lists them)
        self.compare("graphs", n_tasks=21, n_edges=16)

    def test_wavefront(self):
        # 5 x 5 blocks: 25 tasks, 2 * 5 * 4 = 40 edges (up and left)
        self.compare("wave", args=(5, 2000), n_tasks=25, n_edges=40)

    def test_chains(self):
        # 3 chains of 6 tasks: 18 tasks, 3 * 5 = 15 edges
        self.compare("wave", args=(6, 2000), env={"CHAINS": "3"}, n_tasks=18, n_edges=15)

    def test_if0_task(self):
        # libomp waits for an if(0) task's dependences as for a taskwait depend
        # (a pseudo task, then the task, undeferred, without dependences): OMPT
        # mode records a taskwait depend named at the task's line, the wrapper
        # the task's dependences; the same items either way
        src = os.path.join(HERE, "progs", "if0_depend.c")
        for mode in ("opari2", "clang", "gcc"):
            self.exe["if0", mode] = E.build(self.tmp, src, mode)
        ref = self.measure("if0", "opari2", 2, (), {})
        wait = "!$omp taskwait @if0_depend.c:16"
        self.assertEqual(canonical(ref["items"]), [
            ("task", [(0, "inout")]), ("task", [(1, "inout")]), (wait, [(0, "in")]),
            ("task", [(1, "in")])])
        for mode in ("clang", "gcc"):
            got = self.measure("if0", mode, 2, (), {})
            self.assertEqual(got["stdout"], ref["stdout"], mode)
            self.assertEqual(canonical(got["items"]), [
                ("task", [(0, "inout")]), ("task", [(1, "inout")]), (wait, [(0, "in")]),
                ("!$omp taskwait @if0_depend.c:18", [(1, "in")])], mode)
            self.assertEqual(got["replay"]["total"]["undetermined"], 0, mode)


if __name__ == "__main__":
    unittest.main()
