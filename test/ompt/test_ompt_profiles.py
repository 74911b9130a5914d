#!/usr/bin/env python3
"""OMPT mode end to end: programs measured through libpompprof_ompt.so with no
rebuild, on libomp, compared with OPARI2 mode of the same source.

Three builds of each program: the pompprof wrapper (OPARI2, gcc, libgomp),
clang -fopenmp (libomp) and plain gcc run with libomp preloaded.  What both
sources see must be equal, number by number:

* the task instances per construct, at 1, 2 and 4 threads (libomp reports
  every task of a one-thread team as undeferred: still instances);
* the instance trees under TASKS (visits per call path), which do not depend
  on scheduling; the stubs in the implicit tasks' trees do (which thread runs
  which task where), so only their sum is checked: at least one per instance;
* the regions' names (file and line as OPARI2 writes them), including the
  implicit barriers, named by the line where their construct ends; the lock
  routines' regions (module "OMP").

Where the sources differ, the test says why, with the counts:
* a taskloop: OPARI2 mode measures one region and no task; OMPT mode has an
  instance per task the runtime created (a small OMPT tool written here
  counts them);
* a binary without -g: names by function and offset, the same in two runs.
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
import ompt_env as E  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tools"))
import sanity_rule  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
THREADS = (1, 2, 4)
MODES = ("clang", "gcc")


def fib_calls(n):
    calls = [0, 0]
    for k in range(2, n + 1):
        calls.append(1 + calls[k - 1] + calls[k - 2])
    return calls[n]


# libomp reports no atomic, nor the flush of a gcc binary (an inline fence)
UNSEEN = re.compile(r"!\$omp (atomic|flush) @")


def tasks_paths(cube):
    return {k: v for k, v in E.paths(cube).items()
            if k.startswith("PROGRAM > TASKS") and not UNSEEN.search(k)}


def quiet(stderr):
    """stderr without the engine's note that untied tasks are measured as tied."""
    return "".join(l for l in stderr.splitlines(True) if "untied" not in l)


@unittest.skipUnless(E.have_ompt(), "no OMPT tool, libomp or clang")
class OmptProfiles(unittest.TestCase):
    maxDiff = None
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="pp_ompt_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def run_mode(self, exe, mode, threads, args=(), **kw):
        return E.run(exe, mode, threads, args, scratch=self.scratch, **kw)

    def same_instances(self, mode, got, want, source):
        """Check the instances per construct; False when a gcc build's differ as
        libomp's GOMP layer makes them differ (then only their sum is checked)."""
        if mode == "gcc" and got != want:
            # libomp's GOMP_task now and then reports the address the enclosing
            # GOMP_parallel stored (the parallel's line): those few instances are
            # named after that line; none is lost
            (par,) = [i for i, l in enumerate(open(os.path.join(E.PROGS, source)), 1)
                      if l.startswith("#pragma omp parallel")]
            self.assertEqual(sum(got.values()), sum(want.values()))
            self.assertLessEqual(set(got), set(want) | {"!$omp task @%s:%d" % (source, par)})
            return False
        self.assertEqual(got, want)
        return True

    def test_fib_as_in_opari2_mode(self):
        n = 12
        exe = {m: E.build(self.scratch, "prof_fib.c", m) for m in ("opari2",) + MODES}
        out, err, ref, _ = self.run_mode(exe["opari2"], "opari2", 2, [n])
        self.assertEqual(err, "")
        ref_tasks = tasks_paths(ref)
        ref_names = {c.region.name for c in ref.cnodes_in_order() if c.parent is not None}
        first, second = (i for i, l in enumerate(open(os.path.join(E.PROGS, "prof_fib.c")), 1)
                         if l.startswith("#pragma omp task "))
        for mode in MODES:
            for t in THREADS:
                with self.subTest(mode=mode, threads=t):
                    o, e, cube, _ = self.run_mode(exe[mode], mode, t, [n])
                    self.assertEqual((o, e), (out, ""))
                    want = {"!$omp task @prof_fib.c:%d" % first: fib_calls(n),
                            "!$omp task @prof_fib.c:%d" % second: fib_calls(n)}
                    if not self.same_instances(mode, E.instances(cube), want, "prof_fib.c"):
                        continue

                    self.assertEqual(tasks_paths(cube), ref_tasks)
                    names = {c.region.name for c in cube.cnodes_in_order()
                             if c.parent is not None}
                    # Every name is OPARI2 mode's.  Implicit barriers libomp does
                    # not report are missing: at one thread it runs a team's
                    # barriers as no-ops (the parallel's, at 1 thread); its
                    # GOMP_parallel (gcc) joins the team without reporting the
                    # parallel's barrier.  With clang at 2 and 4 threads: all.
                    self.assertLessEqual(names, ref_names)
                    missing = ref_names - names
                    self.assertEqual({x for x in missing if "implicit barrier" not in x}, set())
                    if mode == "clang" and t > 1:
                        self.assertEqual(missing, set())
                    self.assertLessEqual(len(missing), (t == 1) + (mode == "gcc"))
                    stubs = sum(sum(cube.row("visits", c)) for c in cube.cnodes_in_order()
                                if c.region.name.startswith("!$omp task @")
                                and c not in cube.task_roots())
                    self.assertGreaterEqual(stubs, 2 * fib_calls(n))

    def test_tasks_program_instances(self):
        exe = {m: E.build(self.scratch, "tasks.c", m) for m in ("opari2",) + MODES}
        out, err, ref, _ = self.run_mode(exe["opari2"], "opari2", 2)
        want = E.instances(ref)
        self.assertEqual(sum(want.values()), 2 * fib_calls(12) + 1 + 1 + 20)
        for mode in MODES:
            for t in THREADS:
                with self.subTest(mode=mode, threads=t):
                    o, e, cube, _ = self.run_mode(exe[mode], mode, t)
                    self.assertEqual(o, out)
                    if self.same_instances(mode, E.instances(cube), want, "tasks.c"):
                        self.assertEqual(tasks_paths(cube), tasks_paths(ref))
                    # the untied task may resume elsewhere: the engine says so, nothing else
                    self.assertEqual(quiet(e), "" if t == 1 else quiet(e))
                    self.assertNotIn("abort", e)

    def counted_by_runtime(self, exe, mode, threads, args):
        """The explicit tasks the runtime created, counted by the test's own tool."""
        tool = os.path.join(self.scratch, "task_counter.so")
        if not os.path.exists(tool):
            subprocess.run([E.CLANG, "-shared", "-fPIC", "-fopenmp",
                            os.path.join(HERE, "progs", "task_counter.c"), "-o", tool], check=True)
        env = dict(E.ENV, OMP_NUM_THREADS=str(threads), OMP_TOOL_LIBRARIES=tool)
        if mode == "gcc":
            env["LD_PRELOAD"] = E.libomp()
        p = subprocess.run([exe] + [str(a) for a in args], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, check=True)
        return sum(int(l.split()[1]) for l in p.stderr.splitlines() if l.startswith("tasks "))

    def test_taskloop_tasks_are_instances(self):
        src = os.path.join(HERE, "progs", "taskloop.c")
        n = 1000
        exe = {m: E.build(self.scratch, src, m) for m in ("opari2",) + MODES}
        # OPARI2 mode: the taskloops are regions; no task of theirs is an instance
        _, _, ref, _ = self.run_mode(exe["opari2"], "opari2", 2, [n])
        self.assertEqual(E.instances(ref), {})
        for mode in MODES:
            for t in THREADS:
                with self.subTest(mode=mode, threads=t):
                    created = self.counted_by_runtime(exe[mode], mode, t, [n])
                    # grainsize 7 and 100 over 1000 iterations, num_tasks 13
                    self.assertGreaterEqual(created, 1000 // 7 + 1000 // 100 + 13)
                    o, e, cube, _ = self.run_mode(exe[mode], mode, t, [n])
                    self.assertEqual((o, e), ("499500 499500 1000\n", ""))
                    self.assertEqual(sum(E.instances(cube).values()), created)

    def test_names_without_debug_information(self):
        exe = os.path.join(self.scratch, "fib_nog")
        subprocess.run([E.CLANG, "-fopenmp", "-O2", os.path.join(E.PROGS, "prof_fib.c"),
                        "-o", exe], check=True)
        names = []
        for _ in range(2):
            _, e, cube, _ = self.run_mode(exe, "clang", 2, [10])
            self.assertEqual(e, "")
            names.append(sorted(r.name for r in cube.regions.values()))
        self.assertEqual(names[0], names[1])
        tasks = [n for n in names[0] if n.startswith("!$omp task @")]
        self.assertEqual(len(tasks), 2, names[0])
        for n in tasks:
            self.assertRegex(n, r"^!\$omp task @fib\+0x[0-9a-f]+$")

    def test_worksharing_and_locks_as_in_opari2_mode(self):
        # Visits per call path equal OPARI2 mode's (clang, 2 threads), except:
        # - atomic and section: libomp reports neither (no such nodes);
        # - implicit barriers: libomp adds some OPARI2 mode does not have (a
        #   single with copyprivate waits at one; reductions wait in the
        #   parallel's), so OMPT mode may only have more of them;
        # - libomp reports omp_test_lock and omp_test_nest_lock as the set
        #   calls: their visits are counted under omp_set_lock/_nest_lock.
        #   locks.c spins on omp_test_lock until it succeeds, so how many
        #   test calls a run makes depends on the contention of that run: the
        #   set call's path then has the OPARI2 run's set visits plus at least
        #   one successful test per thread (the two runs differ in the rest).
        threads = 2
        unseen = re.compile(r"!\$omp (atomic|section) @")
        for source in ("worksharing.c", "locks.c"):
            with self.subTest(source=source):
                ref_exe = E.build(self.scratch, source, "opari2")
                exe = E.build(self.scratch, source, "clang")
                out, _, ref, _ = self.run_mode(ref_exe, "opari2", 2)
                o, e, cube, _ = self.run_mode(exe, "clang", 2)
                self.assertEqual((o, e), (out, ""))
                want = {k: v for k, v in E.paths(ref).items() if not unseen.search(k)}
                at_least = set()
                for test, call in (("omp_test_lock", "omp_set_lock"),
                                   ("omp_test_nest_lock", "omp_set_nest_lock")):
                    for k in [k for k in want if k.endswith("> " + test)]:
                        self.assertGreaterEqual(want.pop(k), threads, k)
                        set_path = k[:-len(test)] + call
                        want[set_path] = want.get(set_path, 0) + threads
                        at_least.add(set_path)
                got = E.paths(cube)
                for k, v in want.items():
                    if "implicit barrier" in k or k in at_least:
                        self.assertGreaterEqual(got.get(k, 0), v, k)
                    else:
                        self.assertEqual(got.get(k), v, k)
                extra = set(got) - set(want)
                self.assertEqual({k for k in extra if "implicit barrier" not in k}, set())
                # the lock routines' regions are OPARI2 mode's (module "OMP", no
                # line), so cube_sanity lists them alike (test/tools/sanity_rule.py)
                def lock_routines(c):
                    return {n.region.name: (n.region.mod, n.region.begin, n.region.end,
                                            n.region.paradigm, n.region.role)
                            for n in c.cnodes_in_order() if n.region.role == "wrapper"}
                routines, ref_routines = lock_routines(cube), lock_routines(ref)
                self.assertEqual(routines, {k: ref_routines.get(k) for k in routines})
                self.assertEqual(bool(routines), source == "locks.c")
                # cube_sanity finds no negative value but those the README names
                # (the zero-length point events' max_time among them)
                self.assertEqual([f for f in sanity_rule.findings(cube)
                                  if not sanity_rule.documented_value(cube, f)], [])

    def test_diff_matches_the_two_sources(self):
        # pompprof-diff of an OPARI2 profile and an OMPT profile of one source
        # (the programs named alike): every call path of the one is in the
        # other, but for stubs (where tasks ran depends on the runtime)
        exe = {}
        for mode in ("opari2", "clang"):
            d = os.path.join(self.scratch, "diff_" + mode)
            os.makedirs(d, exist_ok=True)
            exe[mode] = os.path.join(d, "fib")
            os.rename(E.build(d, "prof_fib.c", mode), exe[mode])
        _, _, _, a = self.run_mode(exe["opari2"], "opari2", 2, [12])
        _, _, _, b = self.run_mode(exe["clang"], "clang", 2, [12])
        p = subprocess.run([os.path.join(E.TOP_BUILDDIR, "scripts", "pompprof-diff"), a, b,
                            "--format", "json", "--metric", "visits"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, env=E.ENV)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        rows = json.loads(p.stdout)["rows"]
        matched = [r for r in rows if not r["status"]]
        alone = [r for r in rows if r["status"]]
        self.assertGreaterEqual(len(matched), 15)
        for r in alone:
            self.assertEqual(r["tree"], "call", r)
            self.assertRegex(r["path"][-1], r"^!\$omp task @prof_fib\.c:\d+$", r)

    def test_one_construct_from_two_call_sites(self):
        # spawn() is inlined into first() and second(): two code addresses of one
        # task construct, one region (and one merged tree under TASKS)
        src = os.path.join(HERE, "progs", "twosites.c")
        line = next(i for i, l in enumerate(open(src), 1) if l.startswith("#pragma omp task"))
        exe = E.build(self.scratch, src, "clang")
        for t in THREADS:
            with self.subTest(threads=t):
                o, e, cube, _ = self.run_mode(exe, "clang", t)
                self.assertEqual((o, e), ("20\n", ""))
                got = E.instances(cube)
                name = "!$omp task @twosites.c:%d" % line
                self.assertEqual([c.region.name for c in cube.task_roots()].count(name), 1)
                self.assertEqual(sum(got.values()), 15)
                # libomp now and then reports the first task a function creates at
                # the address of the call that led there (named after that line):
                # such an instance is counted, under that name
                self.assertGreaterEqual(got[name], 13)
                # cube_sanity lists the creations' max_time (points: no time) and
                # the root's time, nothing else (README "cube_sanity")
                found = sanity_rule.findings(cube)
                self.assertEqual([f for f in found if not sanity_rule.documented_value(cube, f)],
                                 [])
                if t > 1:   # one thread: libomp defers no task, creations last
                    self.assertTrue(any(f[1] == "max_time" for f in found))

    def test_workers_wait_no_longer_than_their_team(self):
        # libomp reports a worker's end of the team's barrier when the worker
        # is woken for the next region, or never after the last one: the
        # serial sleeps between and after the regions are no barrier time
        exe = E.build(self.scratch, os.path.join(HERE, "progs", "gaps.c"), "clang")
        o, e, cube, _ = self.run_mode(exe, "clang", 2)
        slept = float(o.split("slept=")[1])
        self.assertEqual(e, "")
        barrier = [c for c in cube.cnodes_in_order()
                   if c.region.name.startswith("!$omp implicit barrier @gaps.c:")]
        self.assertEqual(sum(sum(cube.row("visits", c)) for c in barrier), 6)
        worker = sum(cube.row("time", c)[1] for c in barrier)
        # the worker's barriers end with their teams: within the master's time in
        # the parallel regions (a bound no load can break); without the cap the
        # sleeps between and after them would be barrier time
        par = [c for c in cube.cnodes_in_order() if c.region.name.startswith("!$omp parallel @")]
        teams = sum(cube.inclusive_row("time", c)[0] for c in par)
        self.assertLessEqual(worker, 1.01 * teams + 1e-3, (worker, teams, slept))
        # the program's root: the master's time; the worker's, its teams' only
        root = cube.cnodes_in_order()[0]
        self.assertLessEqual(cube.inclusive_row("time", root)[1], 1.01 * teams + 1e-3)
        if os.environ.get("PP_TEST_TIMING") == "1":
            # and the teams are short beside the sleeps (a third of which, the last
            # sleep alone, the barrier time would be without the cap)
            self.assertLess(worker, 0.15 * slept, (worker, slept))
            self.assertLess(cube.inclusive_row("time", root)[1], 0.15 * slept)

    def test_disabled(self):
        exe = E.build(self.scratch, "prof_fib.c", "clang", name="off")
        out = tempfile.mkdtemp(dir=self.scratch)
        p = subprocess.run([exe, "10"], env=dict(E.ENV, OMP_TOOL_LIBRARIES=E.TOOL,
                                                  POMPPROF_ENABLE="0", POMPPROF_OUTPUT=out),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "fib(10) = 55\n", ""))
        self.assertEqual(os.listdir(out), [])

    def test_opari2_build_is_measured_once(self):
        exe = E.build(self.scratch, "prof_fib.c", "opari2", name="once")
        env = {"OMP_TOOL_LIBRARIES": E.TOOL, "LD_PRELOAD": E.libomp()}
        o, e, cube, out = self.run_mode(exe, "opari2", 2, [10], extra_env=env)
        self.assertEqual(o, "fib(10) = 55\n")
        lines = e.splitlines()
        self.assertEqual(len(lines), 1, e)
        self.assertRegex(lines[0], r"^pompprof: .*measured by OPARI2 only")
        self.assertEqual(os.listdir(out), ["profile.cubex"])
        self.assertIn("!$omp implicit barrier @prof_fib.c:36",
                      {r.name for r in cube.regions.values()})


if __name__ == "__main__":
    unittest.main(verbosity=2)
