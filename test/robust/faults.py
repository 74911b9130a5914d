#!/usr/bin/env python3
"""Faults in the profiled program: exit() inside a parallel region and inside
a task, return from main with tasks pending at the implicit barrier, no
POMP2_Finalize, abort() in a task, SIGSEGV in a parallel region.

Each case runs the program built plainly and with pompprof: stdout and exit
status (or killing signal) must be identical, nothing may hang, and where the
process could still write (every case but the crashes) exactly one complete
profile must exist: it reads back and holds the regions that ran."""

import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

ru.require_all()
work = ru.workdir("faults")
src = ru.robust_src("progs", "faults.c")
plain = ru.build(src, os.path.join(work, "faults_plain"), False)
instr = ru.build(src, os.path.join(work, "faults"), True)

# mode -> (region prefixes the profile must hold, exact task instance counts)
CASES = {
    "exit_in_parallel": (["!$omp parallel @faults.c"], None),
    "exit_in_task": (["!$omp parallel @faults.c", "!$omp task @faults.c"], None),
    "pending_tasks": (["!$omp parallel @faults.c", "!$omp single @faults.c",
                       "!$omp task @faults.c"], 16),
    "no_finalize": (["!$omp parallel @faults.c", "!$omp for @faults.c",
                     "!$omp task @faults.c", "!$omp taskwait @faults.c"], 1),
}
CRASHES = {"abort_in_task": signal.SIGABRT, "segv_in_parallel": signal.SIGSEGV}

n = 0
for threads in ("1", "2", "4"):
    for mode, (regions, ntasks) in CASES.items():
        what = "%s (OMP_NUM_THREADS=%s)" % (mode, threads)
        env = ru.clean_env({"OMP_NUM_THREADS": threads})
        rdir = os.path.join(work, "run-%s-%s" % (mode, threads))
        os.makedirs(os.path.join(rdir, "tmp"))
        env["TMPDIR"] = os.path.join(rdir, "tmp")
        p = ru.run([plain, mode], rdir, env, timeout=60)
        i = ru.run([instr, mode], rdir, env, timeout=60)
        ru.same_behaviour(p, i, what)
        if i.pompprof_lines():
            ru.fail("%s: unexpected pompprof messages: %s" % (what, i.pompprof_lines()))
        prof = ru.Profile(ru.one_profile(rdir, what))
        prof.require_regions(regions, what)
        if ntasks is not None:
            roots = [t for t in prof.task_roots() if t.region.name.startswith("!$omp task @")]
            got = sum(prof.visits(t) for t in roots)
            if got != ntasks:
                ru.fail("%s: %d task instances in the TASKS tree, the program ran %d"
                        % (what, got, ntasks))
        par = prof.nodes_named(lambda s: s.startswith("!$omp parallel @"))
        if mode in ("pending_tasks", "no_finalize"):
            visits = sum(prof.visits(c) for c in par)
            if visits != int(threads):
                ru.fail("%s: parallel region visited %d times, expected one per thread (%s)"
                        % (what, visits, threads))
        n += 1

    for mode, sig in CRASHES.items():
        what = "%s (OMP_NUM_THREADS=%s)" % (mode, threads)
        env = ru.clean_env({"OMP_NUM_THREADS": threads})
        rdir = os.path.join(work, "run-%s-%s" % (mode, threads))
        os.makedirs(rdir)
        p = ru.run([plain, mode], rdir, env, timeout=30)
        i = ru.run([instr, mode], rdir, env, timeout=30)
        if p.returncode != -sig:
            ru.fail("%s: the plain program did not die of signal %d: %s" % (what, sig,
                                                                          p.describe()))
        ru.same_behaviour(p, i, what)
        n += 1

print("PASS: %d fault runs behave the same with and without pompprof" % n)
ru.cleanup(work)
