#!/usr/bin/env python3
"""trace_bench.py: the 'make bench' figures of tracing (POMPPROF_TRACE=1).

1. The event path: ns per event with tracing next to the profile-only cost, bytes per
   event in the OTF2 files and in the raw buffers, time to write the archive
   (test/unit/trace/bench_trace).
2. Overhead of the examples with tracing: fib without cut-off (a task per call) and the
   cut-off examples, plain vs profile only vs profile + trace, median of BENCH_REPS
   runs (default 3), interleaved.
3. Analysing a trace of more than 10 million events: wall time and peak RSS of
   pompprof-replay (the C replay behind pompprof-timeline), and how fast Python's
   OTF2 reader (Debian python3-otf2) merely iterates over the same events, the reason
   the replay is in C.

Prints tables; timing never fails the run (exit status 1 only when a program fails).
Python 3 standard library only (python3-otf2 where the interpreter has it)."""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

EXAMPLES = [  # name, arguments, threads
    ("fib", ["27"], 1),
    ("fib", ["27"], 2),
    ("fib_cutoff", ["44", "10"], 2),
    ("nqueens_cutoff", ["13", "3"], 2),
    ("mergesort", ["8000000"], 2),
    ("sparselu", ["32", "64"], 2),
    ("treewalk", ["13"], 2),
]
BIG_FIB = "29"   # fib(29) through the wrapper: about 14 million trace events
PY_EVENTS = 1_000_000


class Failure(Exception):
    pass


def run(argv, env, cwd=None):
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise Failure("%s exited %d: %s" % (" ".join(argv), proc.returncode,
                                            proc.stderr.strip()[-300:]))
    return wall, proc.stdout


def figures(text):
    return {k: float(v) for k, v in (line.split() for line in text.splitlines() if line)}


def event_path(builddir, env, tmp):
    print("== Event path (one thread, %s)" % "test/unit/trace/bench_trace")
    prog = os.path.join(builddir, "test", "unit", "trace", "bench_trace")
    _, out = run([prog], env)
    plain = figures(out)
    _, out = run([prog, os.path.join(tmp, "bench_trace")], env)
    traced = figures(out)
    _, out = run([prog, os.path.join(tmp, "bench_trace_big")],
                 dict(env, POMPPROF_TRACE_BUFFER="256M"))
    unflushed = figures(out)
    print("%-44s %8.2f ns" % ("event, profile only", plain["event_ns"]))
    print("%-44s %8.2f ns  (+%.2f ns; 8 MiB buffers, flushed)" % (
        "event, profile + trace", traced["event_ns"], traced["event_ns"] - plain["event_ns"]))
    print("%-44s %8.2f ns  (+%.2f ns; 256 MiB buffer, never flushed)" % (
        "event, profile + trace", unflushed["event_ns"],
        unflushed["event_ns"] - plain["event_ns"]))
    print("%-44s %8.2f ns / %.2f ns" % ("task begin+enter+exit+end, without/with trace",
                                        plain["task_ns"], traced["task_ns"]))
    print("%-44s %8.2f B" % ("bytes per event, OTF2 files", traced["bytes_per_event"]))
    print("%-44s %8.2f B" % ("bytes per event, raw buffers", traced["raw_bytes_per_event"]))
    print("%-44s %8.3f s  (%d events)" % ("writing the archive at the end", traced["finalize_s"],
                                          traced["events"]))


def overheads(builddir, env, tmp, reps):
    print("\n== Examples with tracing (median of %d runs; overhead vs plain)" % reps)
    print("%-15s %-8s %3s %9s %9s %9s %8s %8s %10s" % (
        "example", "input", "thr", "plain s", "prof s", "trace s", "prof %", "trace %",
        "events"))
    for name, args, threads in EXAMPLES:
        plain = os.path.join(builddir, "examples", "plain", name)
        prof = os.path.join(builddir, "examples", "prof", name)
        times = {"plain": [], "prof": [], "trace": []}
        events = None
        e = dict(env, OMP_NUM_THREADS=str(threads))
        for i in range(reps):
            for kind in ("plain", "prof", "trace"):
                out = os.path.join(tmp, "%s.%s.%d" % (name, kind, i))
                ee = dict(e, POMPPROF_OUTPUT=out)
                if kind == "trace":
                    ee["POMPPROF_TRACE"] = "1"
                wall, _ = run([plain if kind == "plain" else prof] + args, ee)
                times[kind].append(wall)
                if kind == "trace" and events is None:
                    events = trace_events(builddir, env, out)
                shutil.rmtree(out, ignore_errors=True)
        med = {k: statistics.median(v) for k, v in times.items()}
        print("%-15s %-8s %3d %9.3f %9.3f %9.3f %7.1f%% %7.1f%% %10s" % (
            name, " ".join(args), threads, med["plain"], med["prof"], med["trace"],
            100 * (med["prof"] / med["plain"] - 1), 100 * (med["trace"] / med["plain"] - 1),
            events if events is not None else "-"))


def trace_events(builddir, env, out):
    replay = os.path.join(builddir, "replay", "pompprof-replay")
    _, text = run([replay, os.path.join(out, "traces.otf2")], env)
    return json.loads(text)["trace"]["events"]


def analysis(builddir, env, tmp):
    print("\n== Analysing a trace of more than 10 million events (examples/prof/fib %s, "
          "2 threads)" % BIG_FIB)
    out = os.path.join(tmp, "big")
    wall, _ = run([os.path.join(builddir, "examples", "prof", "fib"), BIG_FIB],
                  dict(env, OMP_NUM_THREADS="2", POMPPROF_OUTPUT=out, POMPPROF_TRACE="1"))
    archive = os.path.join(out, "traces.otf2")
    size = sum(os.path.getsize(os.path.join(out, "traces", f))
               for f in os.listdir(os.path.join(out, "traces")))
    replay = os.path.join(builddir, "replay", "pompprof-replay")
    rss_run = os.path.join(builddir, "examples", "bench", "rss_run")
    rss_file = os.path.join(tmp, "maxrss")
    start = time.perf_counter()
    proc = subprocess.run([rss_run, rss_file, replay, "--pictures", archive], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    replay_wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise Failure("pompprof-replay failed: %s" % proc.stderr.strip())
    data = json.loads(proc.stdout)
    with open(rss_file) as f:
        rss = int(f.read().split()[0])
    events = data["trace"]["events"]
    print("%-44s %8.3f s  (trace: %d events, %.1f MB, %.2f B/event)" % (
        "traced run", wall, events, size / 1e6, size / events))
    print("%-44s %8.3f s  %8.1f MB peak RSS  (%.1f M events/s)" % (
        "pompprof-replay (breakdown, graph, pictures)", replay_wall, rss / 1024.0,
        events / replay_wall / 1e6))
    python = sys.executable  # configure's Python: the one that sees Debian's packages
    code = ("import otf2, sys, time\n"
            "t = time.perf_counter(); n = 0\n"
            "with otf2.reader.open(sys.argv[1]) as tr:\n"
            "    for loc, ev in tr.events:\n"
            "        n += 1\n"
            "        if n >= %d: break\n"
            "print(n, time.perf_counter() - t)\n" % PY_EVENTS)
    proc = subprocess.run([python, "-c", code, archive], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    if proc.returncode != 0:
        print("%-44s %s" % ("python3-otf2 reader", "not available: " +
                            (proc.stderr.strip().splitlines() or ["?"])[-1]))
        return
    n, secs = proc.stdout.split()
    rate = int(n) / float(secs)
    print("%-44s %8.3f s for %s events: %.2f M events/s, %.0f s for the whole trace "
          "(iteration only)" % ("python3-otf2 reader", float(secs), n, rate / 1e6,
                                events / rate))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", required=True)
    args = ap.parse_args()
    try:
        reps = int(os.environ.get("BENCH_REPS", "3"))
    except ValueError:
        reps = 0
    if reps < 1:
        print("trace_bench.py: BENCH_REPS must be a positive integer", file=sys.stderr)
        return 1
    env = dict(os.environ)
    for var in ("POMPPROF_OUTPUT", "POMPPROF_TRACE", "POMPPROF_TRACE_BUFFER",
                "POMPPROF_METRICS", "POMPPROF_ENABLE"):
        env.pop(var, None)
    libdir = os.path.join(args.builddir, ".libs")
    env["LD_LIBRARY_PATH"] = libdir + (":" + env["LD_LIBRARY_PATH"]
                                       if env.get("LD_LIBRARY_PATH") else "")
    tmp = tempfile.mkdtemp(prefix="pompprof-trace-bench.")
    started = time.perf_counter()
    try:
        event_path(args.builddir, env, tmp)
        overheads(args.builddir, env, tmp, reps)
        analysis(args.builddir, env, tmp)
    except Failure as e:
        print("trace_bench.py: %s" % e, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("trace benchmarks took %.0f s" % (time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
