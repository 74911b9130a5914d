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


def run_until_signal(exe, rdir, sig, threads, mode="wait_for_signal"):
    ready = os.path.join(rdir, "ready-" + os.path.basename(exe))
    env = ru.clean_env({"OMP_NUM_THREADS": threads, "TMPDIR": os.path.join(rdir, "tmp")})
    proc = ru.spawn([exe, mode, ready], rdir, env)
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

# SIGTERM while the (only) thread is inside malloc most of the time: the
# profile must still be written (not on the interrupted thread, which may hold
# the allocator's lock) and the program must die of the signal, every time.
for k in range(12):
    what = "SIGTERM inside malloc, run %d" % k
    rdir = os.path.join(work, "malloc-%d" % k)
    os.makedirs(os.path.join(rdir, "tmp"))
    i = run_until_signal(instr, rdir, signal.SIGTERM, "1", mode="malloc_loop")
    if i.returncode != -signal.SIGTERM:
        ru.fail("%s: did not die of SIGTERM: %s" % (what, i.describe()))
    ru.Profile(ru.one_profile(rdir, what)).require_regions(["!$omp task @faults.c"], what)
    n += 1

# SIGTERM on the thread that is writing the profile, or exit() from another
# thread during that write, at several moments:
# no deadlock, the program still dies of SIGTERM, and the profile it was
# writing is finished first (the signal asks for exactly that profile): one
# complete profile, no temporary file left behind.
src = ru.robust_src("progs", "signal_in_write.c")
inc = ["-I" + os.path.join(ru.srcdir(), "pomp2")]
plain_w = ru.build(src, os.path.join(work, "siw_plain"), False, cflags=inc, ldflags=["-lpthread"])
instr_w = ru.build(src, os.path.join(work, "siw"), True, ldflags=["-lpthread"])
# aim into the write: time it once, then signal at 10%..90% of its duration
mdir = os.path.join(work, "write-measure")
os.makedirs(mdir)
m = ru.run([instr_w, "-1"], mdir, ru.clean_env({"TMPDIR": mdir}), timeout=60)
write_us = [int(l.split()[1]) for l in m.stderr.splitlines() if l.startswith("write_us ")]
if m.returncode != 0 or not write_us:
    ru.fail("cannot time the profile write: " + m.describe())
cases = [(d, "signal") for d in ["0"] + [str(write_us[0] * k // 10) for k in (1, 3, 5, 7, 9)] +
         ["1000000"]]
cases += [(str(write_us[0] * k // 10), "exit") for k in (0, 3, 6)]
failed = 0
for delay, how in cases:
    try:  # every case runs; ru.fail prints its line and raises SystemExit
        what = "%s while writing the profile (after %s us)" % (
            "SIGTERM" if how == "signal" else "exit() from another thread", delay)
        rdir = os.path.join(work, "write-%s-%s" % (how, delay))
        os.makedirs(os.path.join(rdir, "tmp"))
        env = ru.clean_env({"TMPDIR": os.path.join(rdir, "tmp")})
        p = ru.run([plain_w, delay, how], rdir, env, timeout=30)
        i = ru.run([instr_w, delay, how], rdir, env, timeout=30)
        want = -signal.SIGTERM if how == "signal" else 7
        if p.returncode != want:
            ru.fail("%s: the plain program did not end with %d: %s" % (what, want, p.describe()))
        ru.same_behaviour(p, i, what)
        for d, _, files in os.walk(rdir):
            for f in files:
                if ".cubex" in f and not f.endswith(".cubex"):
                    ru.fail("%s: temporary file left behind: %s" % (what, f))
        ru.Profile(ru.one_profile(rdir, what)).require_regions(["region_2999"], what)
    except SystemExit:
        failed += 1
    n += 1
if failed:
    print("FAIL: %d of %d write-time cases" % (failed, len(cases)))
    sys.exit(1)

print("PASS: %d signal runs: same status, profile written" % n)
ru.cleanup(work)
