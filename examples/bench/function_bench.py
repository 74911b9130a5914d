#!/usr/bin/env python3
"""function_bench.py: 'make bench-functions' (part of 'make bench').

1. Instructions per function call: BOTS-like fib (examples/fib.c, a task
   per call, no cut-off) at 1 thread under callgrind, the functions build
   (`pompprof --functions`) against the constructs-only build (`pompprof`):
   what measuring one call (enter and exit) adds, as the difference of two
   sizes (fib 18 and 21) so that the start and the end drop out; with
   pompprof's GCC plugin, with gcc's -finstrument-functions
   (POMPPROF_GCC_PLUGIN=no) and with clang's.  Bar: 100 instructions.
2. The event costs this build measured (event-costs.txt, calibration/),
   which pompprof-score uses.
3. Side by side at 1 thread: fib, nqueens, health (BOTS-like) and the C++
   particle code (examples/particles.cpp): plain, constructs only,
   functions, and functions with the filter pompprof-score -g writes (built
   with --filter=FILE): CPU time (user + system) in rounds that run each
   build once, one after the other, at least BENCH_REPS rounds (default 5)
   and more until the plain runs add up to BENCH_SECONDS (default 3) of CPU
   time, at most MAX_ROUNDS; the overhead over plain is the median of the
   rounds' own (each build against the plain run of its round: a load that
   comes and goes moves both); pompprof-score's estimate of the overhead of
   the functions build and of the filtered one (-f FILE), median over the
   profiles of the functions build's runs, with the ratio estimate /
   measured (goal: within 30 %).

Prints figures, never fails on timing (exit status 1 only when a program
fails).  Python 3 standard library only."""

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

CALLGRIND_SIZES = (18, 21)
PROGRAMS = [("fib", "fib.c", ["30"]), ("nqueens", "nqueens.c", ["12"]),
            ("health", "health.c", ["6", "200"]), ("particles", "particles.cpp", ["16", "96", "60"])]
THREADS = 1
MAX_ROUNDS = 25
CFLAGS = ["-O2", "-falign-loops=64"]
INSTR_BAR = 100


def sh(cmd, env=None, cwd=None):
    proc = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    if proc.returncode != 0:
        sys.exit("function_bench: %s failed: %s" % (" ".join(cmd), proc.stderr.strip()[-500:]))
    return proc.stdout


def fib_calls(n):
    """Calls of fib(n) in examples/fib.c: 2 F(n + 1) - 1."""
    a, b = 0, 1
    for _ in range(n + 1):
        a, b = b, a + b
    return 2 * a - 1


def callgrind_ir(exe, n, work, env):
    out = os.path.join(work, "cg.out")
    run_env = dict(env, OMP_NUM_THREADS="1", POMPPROF_OUTPUT=tempfile.mkdtemp(dir=work))
    sh(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, exe, str(n)], env=run_env)
    with open(out) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    sys.exit("function_bench: no callgrind summary")


def instructions(wrapper, cc, omp, src, work, env):
    print("== Instructions per function call: fib at 1 thread, callgrind, functions build "
          "over the constructs-only build")
    print("   (the difference between fib(%d) and fib(%d): %d calls; start and end drop out)"
          % (CALLGRIND_SIZES + (fib_calls(CALLGRIND_SIZES[1]) - fib_calls(CALLGRIND_SIZES[0]),)))
    ways = [("GCC plugin", cc, {}), ("gcc -finstrument-functions", cc,
                                      {"POMPPROF_GCC_PLUGIN": "no"})]
    if shutil.which("clang"):
        ways.append(("clang -finstrument-functions", ["clang"], {}))
    for label, compiler, extra in ways:
        e = dict(env, **extra)
        flags = omp if compiler == cc else ["-fopenmp"]
        cons = os.path.join(work, "fib_cons")
        func = os.path.join(work, "fib_func")
        sh([wrapper] + compiler + flags + CFLAGS + [src, "-o", cons], env=e)
        sh([wrapper, "--functions"] + compiler + flags + CFLAGS + [src, "-o", func], env=e)
        (n1, n2) = CALLGRIND_SIZES
        added = (callgrind_ir(func, n2, work, e) - callgrind_ir(cons, n2, work, e)) - \
            (callgrind_ir(func, n1, work, e) - callgrind_ir(cons, n1, work, e))
        per_call = added / (fib_calls(n2) - fib_calls(n1))
        bar = "" if label != "GCC plugin" else " (bar: at most %d: %s)" % (
            INSTR_BAR, "met" if per_call <= INSTR_BAR else "MISSED")
        print("  %-30s %6.1f instructions per call%s" % (label, per_call, bar))
        sys.stdout.flush()
    print()


def cpu_seconds(cmd, env):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    sh(cmd, env=env)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime


def estimate(score, prof, costs, flt=None):
    """pompprof-score's estimated overhead (%) of the run of prof, or with a filter."""
    args = [score, prof, "--top", "1"] + (["--costs", costs] if costs else [])
    text = sh(args + (["-f", flt] if flt else []))
    if flt:
        return float(re.search(r"with the filter .*: estimated cost \S+ s, ([0-9.]+) %",
                               text).group(1))
    return float(re.search(r"estimated cost of this run \S+ s: ([0-9.]+) %", text).group(1))


def side_by_side(wrapper, score, cc, cxx, omp, srcdir, work, env, reps, seconds, costs):
    print("== Side by side: CPU time, %d thread, in rounds (each build once per round, at least "
          "%d rounds, more until plain adds up to %.0f s); overhead over plain: the median of "
          "the rounds'; pompprof-score's estimate (median over the functions runs' profiles)"
          % (THREADS, reps, seconds))
    head = "%-10s %6s %9s %10s %10s %9s %6s %12s %9s %6s  %s" % (
        "program", "rounds", "plain[s]", "constructs", "functions", "estimate", "ratio",
        "funcs+filter", "estimate", "ratio", "excluded by -g")
    print(head)
    print("-" * len(head))
    for name, source, pargs in PROGRAMS:
        src = os.path.join(srcdir, "examples", source)
        compiler = cxx if source.endswith(".cpp") else cc + ["-std=gnu11"]
        base = compiler + omp + CFLAGS + [src, "-lm"]
        exes = {k: os.path.join(work, "%s.%s" % (name, k)) for k in
                ("plain", "constructs", "functions", "filtered")}
        sh(base + ["-o", exes["plain"]])
        sh([wrapper] + base + ["-o", exes["constructs"]], env=env)
        sh([wrapper, "--functions"] + base + ["-o", exes["functions"]], env=env)
        renv = dict(env, OMP_NUM_THREADS=str(THREADS))
        prof = os.path.join(work, name + ".profile")
        sh([exes["functions"]] + pargs, env=dict(renv, POMPPROF_OUTPUT=prof))
        gen = os.path.join(work, name + ".filter")
        sh([score, prof, "-g", gen], env=env)
        with open(gen) as f:
            excluded = re.findall(r"^\s*EXCLUDE (.+)$", f.read(), re.M)
        sh([wrapper, "--filter=" + gen] + base + ["-o", exes["filtered"]], env=env)
        times = {k: [] for k in exes}
        est_all, est_filtered = [], []
        r = 0
        while r < MAX_ROUNDS and (r < reps or sum(times["plain"]) < seconds):
            for k, e in exes.items():
                out = os.path.join(work, "%s.%s.%d" % (name, k, r))
                times[k].append(cpu_seconds([e] + pargs, dict(renv, POMPPROF_OUTPUT=out)))
                if k == "functions":
                    est_all.append(estimate(score, out, costs))
                    est_filtered.append(estimate(score, out, costs, gen))
                shutil.rmtree(out, ignore_errors=True)
            r += 1
        pct = {k: 100.0 * statistics.median(t / p - 1.0 for t, p in zip(v, times["plain"]))
               for k, v in times.items()}
        e_all, e_f = statistics.median(est_all), statistics.median(est_filtered)
        print("%-10s %6d %9.3f %9.1f%% %9.1f%% %8.1f%% %6.2f %11.1f%% %8.1f%% %6.2f  %s" % (
            name, r, statistics.median(times["plain"]), pct["constructs"], pct["functions"],
            e_all, e_all / pct["functions"] if pct["functions"] > 0 else float("nan"),
            pct["filtered"], e_f, e_f / pct["filtered"] if pct["filtered"] > 0 else float("nan"),
            " ".join(excluded) or "-"))
        sys.stdout.flush()
    print("\n(funcs+filter: built with --filter=FILE, the filter pompprof-score -g wrote from a "
          "functions run; ratio: estimate / measured, goal within 30 %)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--srcdir", required=True)
    args = ap.parse_args()
    b, s = args.builddir, args.srcdir
    wrapper = os.path.join(b, "scripts", "pompprof")
    score = os.path.join(b, "scripts", "pompprof-score")
    env = dict(os.environ, POMPPROF_LIBDIR=os.path.join(b, ".libs"),
               POMPPROF_INCDIR=os.path.join(s, "pomp2"))
    cc = os.environ.get("CC", "gcc").split()
    cxx = os.environ.get("CXX", "g++").split()
    omp = os.environ.get("OPENMP_CFLAGS", "-fopenmp").split()
    work = tempfile.mkdtemp(prefix="pp_fbench_")
    try:
        if shutil.which("valgrind"):
            instructions(wrapper, cc, omp, os.path.join(s, "examples", "fib.c"), work, env)
        else:
            print("== Instructions per function call: no valgrind\n")
        print("== Event costs of this build (%s)" % os.path.join(b, "event-costs.txt"))
        with open(os.path.join(b, "event-costs.txt")) as f:
            sys.stdout.write("".join("  " + line for line in f if not line.startswith("#")))
        print()
        # this build's figures, not an installed pompprof's
        side_by_side(wrapper, score, cc, cxx, omp, s, work, env,
                     int(os.environ.get("BENCH_REPS", "5")),
                     float(os.environ.get("BENCH_SECONDS", "3")), os.path.join(b, "event-costs.txt"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
