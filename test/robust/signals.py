#!/usr/bin/env python3
"""SIGTERM and SIGINT delivered while a task program runs.

The program signals readiness by creating a file once it has measured a few
rounds of tasks (no sleep races); then the test sends the signal.  The
instrumented program must die of the same signal as the plain one (the exit
status a shell sees is the program's own), print the same, and leave one
complete profile of what was measured so far."""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

ru.require_all()
work = ru.workdir("signals")
src = ru.robust_src("progs", "faults.c")
plain = ru.build(src, os.path.join(work, "faults_plain"), False)
instr = ru.build(src, os.path.join(work, "faults"), True)


def run_until_signal(exe, rdir, sig, threads):
    ready = os.path.join(rdir, "ready-" + os.path.basename(exe))
    env = ru.clean_env({"OMP_NUM_THREADS": threads, "TMPDIR": os.path.join(rdir, "tmp")})
    proc = ru.spawn([exe, "wait_for_signal", ready], rdir, env)
    deadline = time.time() + 30
    while not os.path.exists(ready):
        if proc.poll() is not None:
            out, err = proc.communicate()
            ru.fail("%s ended before it was ready: status %s\n%s" % (exe, proc.returncode,
                                                                   err.decode()))
        if time.time() > deadline:
            proc.kill()
            ru.fail("%s never became ready" % exe)
        time.sleep(0.01)
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=30)
    except Exception:
        proc.kill()
        proc.communicate()
        ru.fail("%s did not end within 30 s after signal %d (flush hangs?)" % (exe, sig))
    return ru.Run(proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"))


n = 0
for threads in ("1", "2", "4"):
    for sig in (signal.SIGTERM, signal.SIGINT):
        what = "signal %d (OMP_NUM_THREADS=%s)" % (sig, threads)
        rdir = os.path.join(work, "run-%d-%s" % (sig, threads))
        os.makedirs(os.path.join(rdir, "tmp"))
        p = run_until_signal(plain, rdir, sig, threads)
        if p.returncode != -sig:
            ru.fail("%s: the plain program did not die of the signal: %s" % (what, p.describe()))
        i = run_until_signal(instr, rdir, sig, threads)
        ru.same_behaviour(p, i, what)
        prof = ru.Profile(ru.one_profile(rdir, what))
        prof.require_regions(["!$omp parallel @faults.c", "!$omp single @faults.c",
                              "!$omp task @faults.c", "!$omp taskwait @faults.c"], what)
        # at least the two rounds before 'ready' were measured: 16 tasks
        roots = [t for t in prof.task_roots() if t.region.name.startswith("!$omp task @")]
        got = sum(prof.visits(t) for t in roots)
        if got < 16:
            ru.fail("%s: only %d task instances in the profile, at least 16 ran" % (what, got))
        n += 1

print("PASS: %d signal runs: same status, profile written" % n)
ru.cleanup(work)
