#!/usr/bin/env python3
"""exit() on one thread while the others run events in a tight loop.

progs/exit_race.c: every thread of a team of 4 repeats a user region with
another inside, a task and a taskwait; thread 0 calls exit(0) after some
rounds.  The profile is written by the atexit handler while the other
threads are anywhere in their loop, inside an event or between two, and may
lose their core in one (a busy loop runs beside the test on purpose).  The
engine must build the profile only from trees no thread is writing
(doc/engine.md, "Finalize and the events in flight").  Each run's profile is
read back and checked number by number for what no timing can change:

- the run ended as the program did (status 0, no output but its own) and its
  facts say "exit inside a parallel region", with all 4 threads and none
  left out (no pompprof::busy_threads);
- per thread, the inner region's visits are the outer one's or one fewer
  (an open region is closed at the end and counted), and the outer's time is
  at least the inner's; the taskwaits are the task creations or one fewer;
  over all threads the task instances are at most the creations and at
  least the creations less one per thread (a created task not yet begun);
- every visited node of every thread is whole: min <= max, and its time
  between visits x min and visits x max (a torn node breaks these).

EXIT_RACE_RUNS runs (default 200; check-tsan runs fewer: each is slower
there, and ThreadSanitizer reports any race between the engine's end and a
thread's event by itself)."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

ru.require_all()
RUNS = int(os.environ.get("EXIT_RACE_RUNS", "200"))
THREADS = 4
work = ru.workdir("exit_race")
exe = ru.build(ru.robust_src("progs", "exit_race.c"), os.path.join(work, "exit_race"), True)

EPS = 1e-9


def region_node(prof, name):
    nodes = prof.nodes_named(lambda n: n == name)
    if len(nodes) != 1:
        ru.fail("%s: %d call paths of %s (want 1)" % (prof.path, len(nodes), name))
    return nodes[0]


def region_node_prefix(prof, prefix, tasks):
    roots = set(id(c) for c in prof.task_roots())
    nodes = [c for c in prof.nodes() if c.region.name.startswith(prefix)
             and (id(c) in roots) == tasks and not prof.cube.is_tasks_node(c)]
    if len(nodes) != 1:
        ru.fail("%s: %d call paths of %s (want 1)" % (prof.path, len(nodes), prefix))
    return nodes[0]


def check_nodes_whole(prof, what):
    cube = prof.cube
    for c in prof.nodes():
        visits = cube.row("visits", c)
        times = cube.row("time", c)
        mins = cube.row("min_time", c)
        maxs = cube.row("max_time", c)
        for t in range(cube.nlocs):
            v = visits[t]
            if v == 0:
                continue
            if mins[t] > maxs[t] + EPS:
                ru.fail("%s: %s on thread %d: min %g > max %g" % (
                    what, "/".join(prof.path_names(c)), t, mins[t], maxs[t]))
            lo, hi = v * mins[t], v * maxs[t]
            if not (lo - 1e-6 * lo - EPS <= times[t] <= hi + 1e-6 * hi + EPS):
                ru.fail("%s: %s on thread %d: %d visits, time %g outside [%g, %g]" % (
                    what, "/".join(prof.path_names(c)), t, v, times[t], lo, hi))


def check(prof, what):
    cube = prof.cube
    facts = cube.attrs
    if facts.get("pompprof::end") != "exit inside a parallel region":
        ru.fail("%s: run ended %r" % (what, facts.get("pompprof::end")))
    if facts.get("pompprof::threads") != str(THREADS) or cube.nlocs != THREADS:
        ru.fail("%s: %s threads, %d locations" % (what, facts.get("pompprof::threads"),
                                                   cube.nlocs))
    if "pompprof::busy_threads" in facts:
        ru.fail("%s: threads left out: %s" % (what, facts["pompprof::busy_threads"]))
    outer = region_node(prof, "exit_race_outer")
    inner = region_node(prof, "exit_race_inner")
    vo, vi = cube.row("visits", outer), cube.row("visits", inner)
    to, ti = cube.row("time", outer), cube.row("time", inner)
    create = region_node_prefix(prof, "!$omp create task", False)
    wait = region_node_prefix(prof, "!$omp taskwait", False)
    task = region_node_prefix(prof, "!$omp task @", True)
    vc, vw = cube.row("visits", create), cube.row("visits", wait)
    for t in range(THREADS):
        if vo[t] - vi[t] not in (0, 1) or vo[t] == 0:
            ru.fail("%s: thread %d: outer %d visits, inner %d" % (what, t, vo[t], vi[t]))
        if to[t] + EPS < ti[t]:
            ru.fail("%s: thread %d: outer %g s < inner %g s" % (what, t, to[t], ti[t]))
        if vc[t] - vw[t] not in (0, 1):
            ru.fail("%s: thread %d: %d creations, %d taskwaits" % (what, t, vc[t], vw[t]))
    instances, created = sum(cube.row("visits", task)), sum(vc)
    if not created - THREADS <= instances <= created:
        ru.fail("%s: %d task instances of %d created" % (what, instances, created))
    check_nodes_whole(prof, what)


# a busy loop beside the runs: threads lose their core inside events
busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
try:
    for i in range(RUNS):
        rdir = os.path.join(work, "run-%d" % i)
        os.makedirs(rdir)
        what = "run %d" % i
        r = ru.run([exe, str(200 + 37 * (i % 13))], rdir,
                   ru.clean_env({"OMP_NUM_THREADS": str(THREADS)}), timeout=120)
        if r.returncode != 0 or r.stdout or [l for l in r.stderr.splitlines()
                                              if not l.startswith("pompprof:")]:
            ru.fail("%s: %s" % (what, r.describe()))
        prof = ru.Profile(ru.one_profile(rdir, what))
        check(prof, what)
        ru.cleanup(rdir)
finally:
    busy.kill()
    busy.wait()
print("PASS: %d runs of exit() beside events in flight: every profile whole" % RUNS)
ru.cleanup(work)
