#!/usr/bin/env python3
"""task_cost.py: what pompprof adds to every task ('make bench-task-cost').

fib without cut-off is the worst case of a task profiler: a task per call,
each doing a couple of additions.  This script measures what the profiled
build (examples/prof/fib) adds to the plain one (examples/plain/fib), per
task, three ways:

1. Instructions, whole run (start-up, profile write and all), at 1 thread,
   counted by callgrind with its cache simulator (the one cachegrind uses):
   instructions added per task, in total and by group -- the wrapper's
   inserted code (the program itself), the POMP2 layer (pomp2/), the
   engine's event path (profile/), the clock (lib/pp_timer.h), the library's
   start and end (configuration, unification, the profile write), libgomp
   and the rest (libc, the loader) -- with the data accesses, D1 and LL
   misses per task of each group, and the functions that add the most.
   Also the instructions of each POMP2 event sequence alone (enter+exit, a
   task's creation, begin and end, a taskwait), from pomp2_overhead's loops.
   Also the instructions per task of the same run in the modes that take
   the engine's general paths -- traced (POMPPROF_TRACE=1), with the clock
   instead of the TSC (POMPPROF_TIMER=clock), with a counter (a software
   event of PAPI's) -- for this build and, with
   --compare DIR, for another one, so that a change of the fast paths shows
   what it does to them ('modes').
2. Memory: peak RSS of both builds at two sizes and what the profiled build
   grows by per task between them (the engine reuses instance trees, so this
   should be about 0).
3. Wall time of the recursive examples without cut-off (fib, nqueens,
   treewalk) at 1 and 2 threads: BENCH_REPS (default 5) rounds, plain and
   profiled back to back; the paired median of prof/plain, of wall and of
   CPU time.  --compare DIR adds the profiled programs of another build to
   every round (before/after a change, against the same plain runs).

Tasks of fib(n): every call but the first is a task, and fib(n) makes
2 F(n+1) - 1 calls.  Prints figures; never fails on timing (exit status 1
only when a program fails or cannot run).  Python 3 standard library only."""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# The bar of issue 22: instructions added per task, whole run, 1 thread.
INSTR_BAR = 300
WALL_EXAMPLES = [("fib", ["30"]), ("nqueens", ["11"]), ("treewalk", ["12"])]
WALL_THREADS = (1, 2)

# callgrind event columns with --cache-sim=yes
EVENTS = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")

GROUPS = [
    ("inserted", "wrapper's inserted code (program)"),
    ("pomp2", "POMP2 layer (pomp2/)"),
    ("engine", "engine event path (profile/)"),
    ("clock", "clock (lib/pp_timer.h)"),
    ("startend", "library start and end (init, unify, write)"),
    ("libgomp", "libgomp"),
    ("other", "libc, loader, other"),
]
# profile/ files that run at start-up or at the end, not per event
START_END_FILES = ("pp_profile_unify.c", "pp_profile_output.c", "pp_profile_metrics.c",
                   "pp_profile_system.c", "pp_profile_close.c", "pp_profile_lifecycle.c",
                   "pp_profile_trace.c", "pp_profile_ctor.c", "pp_profile_regions.c",
                   "pp_profile_path.c", "pp_profile_params.c")


def fib_tasks(n):
    """Tasks created by fib(n) of examples/fib.c: all calls but the root."""
    a, b = 0, 1
    for _ in range(n + 1):
        a, b = b, a + b
    return 2 * a - 2  # a = F(n + 1)


def classify(program, ob, fl, fi, fn):
    """The group of one (object, function file, inlined file, function)."""
    base = os.path.basename(ob)
    if base == program:
        return "inserted"
    if "libpompprof" in base:
        if ("pp_timer" in fi or "ia32intrin" in fi or fn.startswith("pp_timer")):
            return "clock"
        if fn.startswith("POMP2_") or fn.startswith("pp_pomp2_") or "pomp2/" in fl:
            return "pomp2"
        if "profile/" in fl and not any(fl.endswith(f) for f in START_END_FILES):
            return "engine"
        return "startend"
    if "libgomp" in base:
        return "libgomp"
    if "vdso" in base:
        return "clock"
    return "other"


def parse_callgrind(path, program, group_of=classify):
    """Self cost per (group, function) of a callgrind output file.

    Returns {(group, function): [costs in EVENTS order]}; group_of(program,
    object, file, inlined file, function) names the groups (classify: the
    rebuild's; ompt_bench.py has its own).  The format:
    'ob=', 'fl=', 'fi=', 'fe=', 'fn=' set the object, file, inlined file and
    function of the cost lines that follow ('(id) name' defines a
    compressed name, '(id)' refers to it); a 'calls=' line is followed by a
    line with the callee's inclusive cost, which is not self cost."""
    names = {"ob": {}, "fl": {}, "fn": {}}
    kind_of = {"ob": "ob", "cob": "ob", "fl": "fl", "fi": "fl", "fe": "fl",
               "cfi": "fl", "cfl": "fl", "fn": "fn", "cfn": "fn"}
    events = list(EVENTS)
    cur = {"ob": "", "fl": "", "fi": "", "fn": ""}
    totals = {}
    skip_next = False
    key = None
    name_re = re.compile(r"^\((\d+)\)(?: (.*))?$")

    def resolve(kind, value):
        m = name_re.match(value)
        if not m:
            return value
        table = names[kind_of[kind]]
        if m.group(2) is not None:
            table[m.group(1)] = m.group(2)
        return table.get(m.group(1), value)

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            c = line[0]
            if c.isdigit() or c in "+-*":
                if skip_next:
                    skip_next = False
                    continue
                if key is None:
                    key = (group_of(program, cur["ob"], cur["fl"], cur["fi"], cur["fn"]),
                           re.sub(r"'\d+$", "", cur["fn"]))
                parts = line.split()[1:]
                acc = totals.setdefault(key, [0] * len(EVENTS))
                for i, v in enumerate(parts):
                    if i < len(events):
                        acc[EVENTS.index(events[i])] += int(v)
                continue
            if line.startswith("events:"):
                events = line.split()[1:]
                continue
            if line.startswith("calls="):
                skip_next = True
                continue
            if "=" not in line:
                continue
            spec, value = line.split("=", 1)
            if spec not in kind_of:
                continue
            name = resolve(spec, value)
            if spec == "ob":
                cur["ob"] = name
            elif spec == "fl":
                cur["fl"] = cur["fi"] = name
            elif spec in ("fi", "fe"):
                cur["fi"] = name
            elif spec == "fn":
                cur["fn"] = name
                cur["fi"] = cur["fl"]
            if spec in ("ob", "fl", "fi", "fe", "fn"):
                key = None
    return totals


def run_callgrind(exe, n, outdir, label, settings=None, cache_sim=True):
    out = os.path.join(outdir, "callgrind.%s" % label)
    env = dict(os.environ, OMP_NUM_THREADS="1",
               POMPPROF_OUTPUT=os.path.join(outdir, "profile-%s" % label))
    for var in ("POMPPROF_TRACE", "POMPPROF_METRICS", "POMPPROF_ENABLE", "POMPPROF_TIMER"):
        env.pop(var, None)
    env.update(settings or {})
    cmd = ["valgrind", "--tool=callgrind", "--cache-sim=%s" % ("yes" if cache_sim else "no"),
           "--callgrind-out-file=" + out, exe, str(n)]
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode != 0 or "OK" not in r.stdout.split():
        raise RuntimeError("%s under callgrind failed (status %d): %s" % (
            exe, r.returncode, r.stderr.strip().splitlines()[-1:] or ""))
    return out


# (counters: a software event PAPI reads here; where PAPI cannot, the run
# warns once and the row is the profile's)
MODES = [("profile", {}), ("traced", {"POMPPROF_TRACE": "1"}),
         ("clock timer", {"POMPPROF_TIMER": "clock"}),
         ("counters", {"POMPPROF_METRICS": "perf::PAGE-FAULTS"})]


def callgrind_total(path):
    """The instructions of a callgrind run (its summary line)."""
    with open(path) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError("no summary in %s" % path)


def modes(builddir, compare, n, tmp):
    tasks = fib_tasks(n)
    print("== Cost per task in the general modes: fib(%d), 1 thread, whole run" % n)
    print("(callgrind; profiled minus plain build, divided by the %d tasks)" % tasks)
    builds = [("this", builddir)] + ([("other", compare)] if compare else [])
    plain = callgrind_total(run_callgrind(os.path.join(builddir, "examples", "plain", "fib"),
                                          n, tmp, "modes-plain", cache_sim=False))
    print("%-14s" % "mode" + "".join("%12s" % label for label, _ in builds))
    for mode, settings in MODES:
        row = "%-14s" % mode
        for label, d in builds:
            out = run_callgrind(os.path.join(d, "examples", "prof", "fib"), n, tmp,
                                "modes-%s-%s" % (label, mode.replace(" ", "_")), settings,
                                cache_sim=False)
            row += "%12.1f" % ((callgrind_total(out) - plain) / tasks)
        print(row)
    print()


def sum_by(totals, pick):
    res = {}
    for key, costs in totals.items():
        k = pick(key)
        acc = res.setdefault(k, [0] * len(EVENTS))
        for i, v in enumerate(costs):
            acc[i] += v
    return res


def instructions(builddir, n, tmp, top):
    plain = os.path.join(builddir, "examples", "plain", "fib")
    prof = os.path.join(builddir, "examples", "prof", "fib")
    tasks = fib_tasks(n)
    print("== Cost per task: fib(%d), no cut-off, 1 thread, whole run: %d tasks"
          % (n, tasks))
    print("(callgrind --cache-sim=yes; profiled minus plain build, divided by the tasks)")
    out_p = run_callgrind(plain, n, tmp, "plain")
    out_q = run_callgrind(prof, n, tmp, "prof")
    tot_p = parse_callgrind(out_p, "fib")
    tot_q = parse_callgrind(out_q, "fib")
    grp_p = sum_by(tot_p, lambda k: k[0])
    grp_q = sum_by(tot_q, lambda k: k[0])
    zero = [0] * len(EVENTS)
    idx = {e: i for i, e in enumerate(EVENTS)}

    def per_task(costs_q, costs_p, *names):
        return sum(costs_q[idx[e]] - costs_p[idx[e]] for e in names) / tasks

    header = "%-45s %9s %9s %9s %9s" % ("group", "instr", "data acc", "D1 miss", "LL miss")
    print(header)
    print("-" * len(header))
    rows = [(g, label) for g, label in GROUPS] + [(None, "total")]
    for g, label in rows:
        if g is None:
            q = [sum(v[i] for v in grp_q.values()) for i in range(len(EVENTS))]
            p = [sum(v[i] for v in grp_p.values()) for i in range(len(EVENTS))]
            print("-" * len(header))
        else:
            q, p = grp_q.get(g, zero), grp_p.get(g, zero)
        print("%-45s %9.1f %9.1f %9.2f %9.3f" % (
            label, per_task(q, p, "Ir"), per_task(q, p, "Dr", "Dw"),
            per_task(q, p, "D1mr", "D1mw"), per_task(q, p, "ILmr", "DLmr", "DLmw")))
    total = per_task([sum(v[0] for v in grp_q.values())] + zero[1:],
                     [sum(v[0] for v in grp_p.values())] + zero[1:], "Ir")
    plain_ir = sum(v[0] for v in grp_p.values()) / tasks
    print("plain build: %.1f instructions per task; profiled: %.1f added (bar: at most %d: %s)"
          % (plain_ir, total, INSTR_BAR, "met" if total <= INSTR_BAR else "MISSED"))

    # the functions that add the most (self cost, per task)
    fn_p = sum_by(tot_p, lambda k: k)
    fn_q = sum_by(tot_q, lambda k: k)
    diffs = []
    for k in set(fn_p) | set(fn_q):
        d = (fn_q.get(k, zero)[0] - fn_p.get(k, zero)[0]) / tasks
        if abs(d) >= 0.5:
            diffs.append((d, k))
    diffs.sort(reverse=True)
    print("\nfunctions adding the most instructions per task (self, inlined code included):")
    for d, (g, fn) in diffs[:top]:
        print("  %8.1f  %-10s %s" % (d, g, fn))
    return total


# pomp2_overhead's loops: (function, what one iteration is, iterations
# at a scale s: a warm-up of n / 10 + 1 and 7 timed runs of n, n = 1e7 s + 1
# or 1e6 s + 1; see pomp2_overhead.c)
EVENT_LOOPS = [("loop_enter_exit", "region enter+exit pair (atomic)", 1e7),
               ("loop_task", "task create_begin+begin+end+create_end", 1e6),
               ("loop_taskwait", "taskwait begin+end, no children", 1e6)]
EVENT_SCALE = 0.001


def events(builddir, tmp):
    """Instructions per POMP2 event sequence: pomp2_overhead's loops under
    callgrind, each counted alone (--toggle-collect), divided by the
    iterations: the per-event figures, free of the machine's load."""
    exe = os.path.join(builddir, "examples", "bench", "pomp2_overhead")
    print("\n== Instructions per event: POMP2 entry points called directly, 1 thread")
    print("(examples/bench/pomp2_overhead under callgrind, library and adapter included)")
    for fn, label, big in EVENT_LOOPS:
        out = os.path.join(tmp, "callgrind.%s" % fn)
        env = dict(os.environ, OMP_NUM_THREADS="1", POMPPROF_OUTPUT=fresh_dir(tmp))
        r = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=" + fn,
                            "--callgrind-out-file=" + out, exe, str(EVENT_SCALE)],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           universal_newlines=True)
        if r.returncode != 0:
            raise RuntimeError("pomp2_overhead under callgrind failed (status %d)"
                               % r.returncode)
        n = int(big * EVENT_SCALE) + 1
        iterations = n // 10 + 1 + 7 * n
        ir = 0
        with open(out) as f:
            for line in f:
                if line.startswith("summary:"):
                    ir = int(line.split()[1])
        print("  %-45s %8.1f instructions" % (label, ir / iterations))


def peak_rss(rss_run, argv, env, tmp):
    res = os.path.join(tmp, "maxrss")
    with open(os.devnull, "wb") as null:
        status = subprocess.call([rss_run, res] + argv, env=env, stdout=null)
    if status != 0:
        raise RuntimeError("%s exited with status %d" % (" ".join(argv), status))
    with open(res) as f:
        return int(f.read().split()[0])


def memory(builddir, sizes, tmp):
    rss_run = os.path.join(builddir, "examples", "bench", "rss_run")
    print("\n== Memory: peak RSS of fib at 1 thread (KiB)")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    rows = []
    for n in sizes:
        p = peak_rss(rss_run, [os.path.join(builddir, "examples", "plain", "fib"), str(n)],
                     env, tmp)
        env["POMPPROF_OUTPUT"] = fresh_dir(tmp)
        q = peak_rss(rss_run, [os.path.join(builddir, "examples", "prof", "fib"), str(n)],
                     env, tmp)
        rows.append((n, fib_tasks(n), p, q))
        print("  fib(%d), %9d tasks: plain %6d, profiled %6d (+%d)" % (n, fib_tasks(n), p, q,
                                                                      q - p))
    (n1, t1, p1, q1), (n2, t2, p2, q2) = rows[0], rows[-1]
    grow = ((q2 - p2) - (q1 - p1)) * 1024.0 / (t2 - t1)
    print("  growth of the added memory from fib(%d) to fib(%d): %.4f bytes per task"
          % (n1, n2, grow))


def wall(builddir, reps, tmp, compare=None):
    """Paired medians of profiled / plain, wall and CPU time (user + system,
    from rss_run: less sensitive to other processes on a busy machine).
    compare: another build directory whose profiled programs run in the same
    rounds, against the same plain run (before/after a change)."""
    rss_run = os.path.join(builddir, "examples", "bench", "rss_run")
    builds = [("", builddir)] + ([("other", compare)] if compare else [])
    print("\n== Wall time, recursive examples without cut-off: paired median of %d runs"
          % reps)
    print("(each round runs plain, then the profiled build%s; ratio = profiled / plain of"
          " the round)" % (" and the one of --compare (other)" if compare else ""))
    header = "%-10s %-5s %3s %-6s %8s %8s %7s %9s %8s" % (
        "example", "input", "thr", "build", "plain s", "prof s", "ratio", "overhead", "cpu ovh")
    print(header)
    print("-" * len(header))
    for name, args in WALL_EXAMPLES:
        for threads in WALL_THREADS:
            env = dict(os.environ, OMP_NUM_THREADS=str(threads))
            plain_t, res = [], {label: ([], [], []) for label, _ in builds}
            for _ in range(reps):
                a, a_cpu = timed(rss_run, os.path.join(builddir, "examples", "plain", name),
                                 args, env, tmp)
                plain_t.append(a)
                for label, d in builds:
                    env["POMPPROF_OUTPUT"] = fresh_dir(tmp)
                    b, b_cpu = timed(rss_run, os.path.join(d, "examples", "prof", name), args,
                                     env, tmp)
                    res[label][0].append(b)
                    res[label][1].append(b / a)
                    res[label][2].append(b_cpu / a_cpu if a_cpu > 0 else float("nan"))
            for label, _ in builds:
                times, ratios, cpu = res[label]
                r = statistics.median(ratios)
                print("%-10s %-5s %3d %-6s %8.3f %8.3f %7.2f %8.0f%% %7.0f%%" % (
                    name, " ".join(args), threads, label or "this", statistics.median(plain_t),
                    statistics.median(times), r, (r - 1) * 100,
                    (statistics.median(cpu) - 1) * 100))
            sys.stdout.flush()


def fresh_dir(tmp):
    """An empty directory for one run's profile (removed at the end)."""
    return tempfile.mkdtemp(dir=tmp)


def timed(rss_run, exe, args, env, tmp):
    """One run under rss_run: (wall seconds, CPU seconds)."""
    res = os.path.join(tmp, "cpu")
    start = time.perf_counter()
    r = subprocess.run([rss_run, res, exe] + args, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, universal_newlines=True)
    t = time.perf_counter() - start
    if r.returncode != 0 or "OK" not in r.stdout.split():
        raise RuntimeError("%s %s failed (status %d)" % (exe, " ".join(args), r.returncode))
    with open(res) as f:
        return t, float(f.read().split()[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", default=".")
    ap.add_argument("--n", type=int, default=22, help="fib size under callgrind (22)")
    ap.add_argument("--top", type=int, default=15, help="functions listed (15)")
    ap.add_argument("--only", action="append",
                    choices=["instructions", "events", "modes", "memory", "wall"])
    ap.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", "5")))
    ap.add_argument("--compare", metavar="BUILDDIR",
                    help="also time the profiled programs of this build, and count their "
                    "instructions in the general modes (before/after)")
    args = ap.parse_args()
    builddir = os.path.abspath(args.builddir)
    parts = args.only or ["instructions", "events", "modes", "memory", "wall"]
    tmp = tempfile.mkdtemp(prefix="pompprof-taskcost.")
    try:
        if "instructions" in parts:
            if shutil.which("valgrind"):
                instructions(builddir, args.n, tmp, args.top)
            else:
                print("== Cost per task: skipped (no valgrind)")
        if "events" in parts:
            if shutil.which("valgrind"):
                events(builddir, tmp)
            else:
                print("== Instructions per event: skipped (no valgrind)")
        if "modes" in parts:
            if shutil.which("valgrind"):
                modes(builddir, os.path.abspath(args.compare) if args.compare else None,
                      args.n, tmp)
            else:
                print("== Cost per task in the general modes: skipped (no valgrind)")
        if "memory" in parts:
            memory(builddir, (args.n, args.n + 5), tmp)
        if "wall" in parts:
            wall(builddir, max(1, args.reps), tmp,
                 os.path.abspath(args.compare) if args.compare else None)
    except (RuntimeError, OSError) as e:
        print("task_cost.py: %s" % e, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
