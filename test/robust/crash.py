#!/usr/bin/env python3
"""A program that crashes leaves its profile and trace (doc/engine.md, "Crashes").

progs/crash.c runs 200 tasks to completion in a team of 2, then crashes: inside one more
task, by a signal sent to a thread waiting in a barrier, or in serial code, by SIGSEGV,
SIGBUS, SIGFPE, SIGILL and SIGABRT; traced (POMPPROF_TRACE=1, the default 8 MiB buffer
per thread: nothing reached the disk before the crash) and not.  Built plainly and
through pompprof, each must:

- end as the plain program does: killed by the same signal, with the same core dump
  bit (a core file pattern in the run's directory), the same output, no other line;
- leave a profile whose run facts say "crash: signal SIGxxx" and that holds exactly the
  200 tasks (and the crashing task, begun, where the crash is inside one);
- traced, leave an OTF2 archive with the 200 task completions.

And: a handler the program had installed before pompprof's gets the signal after the
profile is written; with POMPPROF_CRASH_WAIT=0 the
crash writes only the trace's records still in memory (DIR/traces.raw/N.tail), which
pompprof-salvage turns into an archive with every task, saying that nothing is missing;
after SIGKILL (nothing of pompprof runs) pompprof-salvage recovers what reached the disk
and says, thread by thread, how much is missing."""

import os
import resource
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import robust_util as ru  # noqa: E402

ru.require_all()
TOP = ru.builddir()
SALVAGE = os.path.join(TOP, "salvage", "pompprof-salvage")
TASKS = 200
SIGNALS = {"segv": signal.SIGSEGV, "bus": signal.SIGBUS, "fpe": signal.SIGFPE,
           "ill": signal.SIGILL, "abort": signal.SIGABRT}
work = ru.workdir("crash")
src = ru.robust_src("progs", "crash.c")
plain = ru.build(src, os.path.join(work, "crash_plain"), False)
instr = ru.build(src, os.path.join(work, "crash"), True)
have_otf2 = subprocess.run(["sh", "-c", "command -v otf2-print"],
                           stdout=subprocess.DEVNULL).returncode == 0
if os.environ.get("CI") == "true" and not have_otf2:
    ru.fail("otf2-print (otf2-tools, which .ci/install-deps installs) is missing")


def run_raw(cmd, cwd, env):
    """(wait status, stdout, stderr) of cmd run as a shell would (default signal
    dispositions), with core files allowed in cwd: the core dump bit is in the status."""
    outs = [os.path.join(cwd, n) for n in ("stdout.txt", "stderr.txt")]
    pid = os.fork()
    if pid == 0:
        try:
            for s in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT, signal.SIGPIPE):
                signal.signal(s, signal.SIG_DFL)
            soft, hard = resource.getrlimit(resource.RLIMIT_CORE)
            want = 1 << 30 if hard == resource.RLIM_INFINITY else min(hard, 1 << 30)
            resource.setrlimit(resource.RLIMIT_CORE, (want, hard))
            os.chdir(cwd)
            for fd, path in zip((1, 2), outs):
                os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
            os.execve(cmd[0], cmd, env)
        finally:
            os._exit(127)
    deadline, status = 120, None
    for _ in range(deadline * 10):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        ru.fail("%s hangs after its crash" % cmd)
    texts = []
    for path in outs:
        with open(path, errors="replace") as f:
            texts.append(f.read())
        os.unlink(path)
    return status, texts[0], texts[1]


def remove_cores(d):
    for f in os.listdir(d):
        if f == "core" or f.startswith("core."):
            os.unlink(os.path.join(d, f))


def task_visits(prof, line_of):
    """Instances of the task construct at line line_of, summed over threads."""
    for c in prof.task_roots():
        if c.region.name.startswith("!$omp task @crash.c:%d" % line_of):
            return prof.visits(c)
    return 0


def line(text):
    with open(src) as f:
        for n, l in enumerate(f, 1):
            if text in l:
                return n
    ru.fail("no line %r in %s" % (text, src))


TASK_LINE = line("#pragma omp task shared(done)")
CRASH_TASK_LINE = line("#pragma omp task\n")


def trace_completions(d, what):
    sys.path.insert(0, os.path.join(ru.srcdir(), "test", "trace"))
    from trace_common import Events  # noqa: E402
    archive = os.path.join(d, "traces.otf2")
    if not os.path.isfile(archive):
        ru.fail("%s: no trace archive in %s (%s)" % (what, d, sorted(os.listdir(d))))
    return Events(archive).count("THREAD_TASK_COMPLETE")


def check_crash(where, how, traced):
    what = "crash %s %s%s" % (where, how, " traced" if traced else "")
    rdir = os.path.join(work, "%s-%s-%d" % (where, how, traced))
    os.makedirs(rdir)
    sig = SIGNALS[how]
    args = [where, how, str(TASKS)]
    p_status, p_out, p_err = run_raw([plain] + args, rdir, ru.clean_env())
    remove_cores(rdir)
    out = os.path.join(rdir, "out")
    env = ru.clean_env({"POMPPROF_OUTPUT": out})
    if traced:
        env["POMPPROF_TRACE"] = "1"
    i_status, i_out, i_err = run_raw([instr] + args, rdir, env)
    remove_cores(rdir)
    if not os.WIFSIGNALED(p_status) or os.WTERMSIG(p_status) != sig:
        ru.fail("%s: the plain program did not die of signal %d: status %#x" % (what, sig,
                                                                               p_status))
    if (os.WIFSIGNALED(i_status), os.WTERMSIG(i_status), os.WCOREDUMP(i_status)) != \
            (True, sig, os.WCOREDUMP(p_status)):
        ru.fail("%s: status %#x with pompprof, %#x without\n%s" % (what, i_status, p_status,
                                                                  i_err))
    if i_out != p_out or i_out != "done %d\n" % TASKS:
        ru.fail("%s: stdout %r, plain %r" % (what, i_out, p_out))
    if i_err != p_err:
        ru.fail("%s: stderr %r, plain %r" % (what, i_err, p_err))
    prof = ru.Profile(os.path.join(out, "profile.cubex"))
    end = prof.cube.attrs.get("pompprof::end")
    if end != "crash: signal SIG%s" % signal.Signals(sig).name[3:]:
        ru.fail("%s: the profile's end is %r" % (what, end))
    if task_visits(prof, TASK_LINE) != TASKS:
        ru.fail("%s: %d instances of the task at line %d, not %d" % (
            what, task_visits(prof, TASK_LINE), TASK_LINE, TASKS))
    crashed = task_visits(prof, CRASH_TASK_LINE)
    if crashed != (1 if where == "task" else 0):
        ru.fail("%s: %d instances of the crashing task" % (what, crashed))
    if traced and have_otf2:
        n = trace_completions(out, what)
        if n != TASKS:
            ru.fail("%s: the trace holds %d task completions, not %d" % (what, n, TASKS))
    ru.cleanup(rdir)


runs = 0
for where in ("task", "barrier", "serial"):
    for k, how in enumerate(SIGNALS):
        check_crash(where, how, traced=(k % 2 == 0))
        runs += 1
    check_crash(where, "segv", traced=False)
    runs += 1

# a handler the program installed before pompprof's (before any library's constructor)
# gets the signal after the profile is written: it says so, status 3
rdir = os.path.join(work, "handler")
os.makedirs(rdir)
out = os.path.join(rdir, "out")
r = ru.run([instr, "handler", "segv", str(TASKS)], rdir, ru.clean_env({"POMPPROF_OUTPUT": out}))
if r.returncode != 3 or r.stdout != "done %d\nhandled\n" % TASKS or r.stderr:
    ru.fail("the program's own handler: %s" % r.describe())
prof = ru.Profile(os.path.join(out, "profile.cubex"))
if prof.cube.attrs.get("pompprof::end") != "crash: signal SIGSEGV" or \
        task_visits(prof, TASK_LINE) != TASKS:
    ru.fail("the program's own handler: the profile's end is %r, %d tasks" % (
        prof.cube.attrs.get("pompprof::end"), task_visits(prof, TASK_LINE)))
runs += 1

if have_otf2:
    # POMPPROF_CRASH_WAIT=0: only the records still in memory are written, as tails
    rdir = os.path.join(work, "nowait")
    os.makedirs(rdir)
    out = os.path.join(rdir, "out")
    r = ru.run([instr, "task", "segv", str(TASKS)], rdir,
               ru.clean_env({"POMPPROF_OUTPUT": out, "POMPPROF_TRACE": "1",
                             "POMPPROF_CRASH_WAIT": "0"}))
    if r.returncode != -signal.SIGSEGV or os.path.exists(os.path.join(out, "profile.cubex")):
        ru.fail("POMPPROF_CRASH_WAIT=0: %s; %s" % (r.describe(), os.listdir(out)))
    raw = os.path.join(out, "traces.raw")
    tails = sorted(f for f in os.listdir(raw) if f.endswith(".tail"))
    if tails != ["0.tail", "1.tail"]:
        ru.fail("POMPPROF_CRASH_WAIT=0: %s holds %s" % (raw, sorted(os.listdir(raw))))
    s = subprocess.run([SALVAGE, raw], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if s.returncode != 0 or "nothing recorded before the end is missing" not in s.stderr:
        ru.fail("pompprof-salvage of a crash's tails: %d %s" % (s.returncode, s.stderr))
    n = trace_completions(out, "salvaged crash")
    if n != TASKS:
        ru.fail("salvaged crash: %d task completions, not %d" % (n, TASKS))
    runs += 1

    # SIGKILL: what reached the disk (small buffers flush), and what is missing said
    rdir = os.path.join(work, "killed")
    os.makedirs(rdir)
    out = os.path.join(rdir, "out")
    proc = ru.spawn([instr, "wait", "segv", "4000"], rdir,
                    ru.clean_env({"POMPPROF_OUTPUT": out, "POMPPROF_TRACE": "1",
                                  "POMPPROF_TRACE_BUFFER": "16k"}))
    first = proc.stdout.readline()
    ready = proc.stdout.readline()
    if first != b"done 4000\n" or ready != b"ready\n":
        proc.kill()
        ru.fail("the program to kill did not get ready: %r %r" % (first, ready))
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    s = subprocess.run([SALVAGE, os.path.join(out, "traces.raw")], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if s.returncode != 0 or "missing: what each thread recorded after its last write" not in \
            s.stderr or "thread 0 stops" not in s.stderr:
        ru.fail("pompprof-salvage after SIGKILL: %d %s" % (s.returncode, s.stderr))
    n = trace_completions(out, "killed")
    if not 0 < n <= 4000:
        ru.fail("killed: %d task completions salvaged of 4000" % n)
    runs += 1

print("PASS: %d crashes: status, output, profile and trace as they must be" % runs)
ru.cleanup(work)
