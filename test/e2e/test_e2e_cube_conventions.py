#!/usr/bin/env python3
"""Real profiles follow CubeLib's conventions for every metric type.

Programs with tasks, nested teams, worksharing and locks are built with the build-tree
wrapper (real OPARI2, gcc, libgomp), run at 1, 2 and 4 threads, and their .cubex files
are read back with the project's reader.  Checked, value by value:

* every metric's type, dtype and unit, a description, and a link into the README's
  metric table (the anchor exists there) through the installed README mirror;
* min_time holds CubeLib's empty minimum (DBL_MAX) exactly where a thread never
  visited a call path, a real minimum (<= max_time) where it did;
* TASKS carries the min and max of its subtree;
* max_active_tasks is a maximum metric with a value on every call path: the thread's
  figure in the call tree and at TASKS, the construct's at and below each construct;
* computed the way cube_sanity computes it (test/tools/sanity_rule.py), no value is
  negative except the program root's exclusive time (its task time sits both in the
  stubs and below TASKS, which cube_sanity subtracts; README "cube_sanity").
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import ENV, TOP_SRCDIR, build, cubex  # noqa: E402
sys.path.insert(0, os.path.join(TOP_SRCDIR, "test", "tools"))
import sanity_rule  # noqa: E402

DBL_MAX = sys.float_info.max

# uniq_name -> (type, dtype, unit)
METRICS = {
    "visits": ("EXCLUSIVE", "UINT64", "occ"),
    "time": ("INCLUSIVE", "DOUBLE", "sec"),
    "min_time": ("EXCLUSIVE", "MINDOUBLE", "sec"),
    "max_time": ("EXCLUSIVE", "MAXDOUBLE", "sec"),
    "max_active_tasks": ("EXCLUSIVE", "MAXDOUBLE", "occ"),
}
# program, arguments, environment, whether it runs explicit tasks
PROGRAMS = [
    ("tasks.c", [], {}, True),
    ("prof_fib.c", ["12"], {}, True),
    ("nested.c", [], {"OMP_MAX_ACTIVE_LEVELS": "2"}, True),
    ("worksharing.c", [], {}, False),
    ("locks.c", [], {}, False),
]


def readme_anchors():
    with open(os.path.join(TOP_SRCDIR, "README.md"), encoding="utf-8") as f:
        return set(re.findall(r'<a id="([^"]+)"></a>', f.read()))


def run(scratch, exe, threads, args, extra_env):
    out = tempfile.mkdtemp(dir=scratch)
    env = dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out, **extra_env)
    proc = subprocess.run([exe] + args, env=env, capture_output=True, text=True)
    if proc.returncode != 0 or proc.stderr:
        raise AssertionError("%s exited %d: %s" % (exe, proc.returncode, proc.stderr))
    return cubex.load(out)


def subtree(cube, top):
    stack, out = [top], []
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(n.children)
    return out


class Conventions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_e2e_conv_")
        cls.exes = {src: build(cls.scratch, src) for src, _, _, _ in PROGRAMS}
        cls.anchors = readme_anchors()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def check_definitions(self, cube, has_tasks):
        want = dict(METRICS)
        if not has_tasks:
            del want["max_active_tasks"]
        names = [m.uniq_name for m in cube.metrics]
        self.assertEqual(names, list(want))
        for m in cube.metrics:
            self.assertEqual((m.type, m.dtype, m.unit), want[m.uniq_name], m.uniq_name)
            self.assertTrue(m.descr.strip(), "%s has no description" % m.uniq_name)
            self.assertTrue(m.url.startswith("@mirror@README.md#"), m.url)
            self.assertIn(m.url.split("#", 1)[1], self.anchors, "README lacks " + m.url)
        self.assertEqual(cube.metric("max_time").aggregation, "max")
        self.assertEqual(cube.metric("min_time").aggregation, "min")

    def check_min_max(self, cube):
        tasks = cube.tasks_nodes()
        for c in cube.cnodes_in_order():
            if c in tasks:
                continue
            for loc, (v, mn, mx) in enumerate(zip(cube.row("visits", c), cube.row("min_time", c),
                                                  cube.row("max_time", c))):
                where = "%s loc %d" % (c.region.name, loc)
                if v == 0:
                    self.assertEqual(mn, DBL_MAX, "unvisited " + where)
                    self.assertEqual(mx, 0.0, "unvisited " + where)
                else:
                    self.assertLessEqual(mn, mx, where)
                    self.assertLess(mn, DBL_MAX, where)
        for t in tasks:
            below = subtree(cube, t)[1:]
            for loc in range(cube.nlocs):
                self.assertEqual(cube.stored("min_time", t, loc),
                                 min(cube.stored("min_time", n, loc) for n in below))
                self.assertEqual(cube.stored("max_time", t, loc),
                                 max(cube.stored("max_time", n, loc) for n in below))
            self.assertTrue(any(cube.row("max_time", t)), "TASKS max_time row is empty")

    def check_max_active(self, cube):
        (tasks,) = cube.tasks_nodes()
        thread = list(cube.row("max_active_tasks", tasks))
        self.assertTrue(all(v == int(v) for v in thread))
        self.assertGreater(max(thread), 0)
        in_tasks = set()
        for construct in tasks.children:
            own = list(cube.row("max_active_tasks", construct))
            self.assertTrue(any(own), construct.region.name)
            for loc in range(cube.nlocs):
                self.assertLessEqual(own[loc], thread[loc])
                # a thread that ran the construct had at least one instance active
                if cube.stored("visits", construct, loc):
                    self.assertGreaterEqual(own[loc], 1)
            for n in subtree(cube, construct):
                in_tasks.add(n.id)
                self.assertEqual(list(cube.row("max_active_tasks", n)), own)
        for c in cube.cnodes_in_order():
            if c.id not in in_tasks:
                self.assertEqual(list(cube.row("max_active_tasks", c)), thread, c.region.name)
        # threads combine by maximum
        self.assertEqual(cube.aggregate("max_active_tasks", thread), max(thread))

    def check_sanity(self, cube):
        found = sanity_rule.findings(cube)
        root = cube.roots[0].id
        rest = {f for f in found if f[:3] != ("exclusive", "time", root)}
        self.assertFalse(rest, "\n".join(sanity_rule.describe(cube, rest)))

    def test_programs(self):
        for src, args, env, has_tasks in PROGRAMS:
            for threads in (1, 2, 4):
                with self.subTest(program=src, threads=threads):
                    cube = run(self.scratch, self.exes[src], threads, args, env)
                    self.check_definitions(cube, has_tasks)
                    self.check_min_max(cube)
                    if has_tasks:
                        self.check_max_active(cube)
                    self.assertEqual(bool(cube.tasks_nodes()), has_tasks)
                    self.check_sanity(cube)


if __name__ == "__main__":
    unittest.main()
