#!/usr/bin/env python3
"""function_bench.py: 'make bench-functions' (part of 'make bench').

1. Event costs: builds examples/bench/function_overhead.c with
   `pompprof --functions` and runs it (CPU time, medians); prints the cost of a
   function's enter/exit pair next to an OpenMP construct's and writes them to
   event-costs.txt in the build directory, where pompprof-score reads them.
2. Side by side, on fib (a task per call, no cut-off), nqueens, sparselu and
   health (examples/health.c): the plain build, constructs only (pompprof),
   functions (pompprof --functions) and functions with the filter
   pompprof-score -g writes for the program (built with --filter=FILE and run
   with POMPPROF_FILTER=FILE): median CPU time (user + system) of BENCH_REPS
   runs (default 3, interleaved) on one thread -- what the program and the
   measurement cost, which the other work of a busy machine changes less than
   the wall time --, overhead over plain, function events per second.

Prints figures, never fails on timing (exit status 1 only when a program
fails).  Python 3 stdlib only."""

import argparse
import datetime
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

PROGRAMS = [("fib", ["30"]), ("nqueens", ["12"]), ("sparselu", ["32", "64"]),
            ("health", ["6", "200"])]
THREADS = 1
CFLAGS = ["-std=gnu11", "-O2", "-falign-loops=64"]
COST_FILTER = ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE leaf_filtered rec_filtered work_filtered\n"
               "SCOREP_REGION_NAMES_END\n")


def sh(cmd, env=None, cwd=None):
    proc = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    if proc.returncode != 0:
        sys.exit("function_bench: %s failed: %s" % (" ".join(cmd), proc.stderr.strip()[-500:]))
    return proc.stdout


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
    omp = os.environ.get("OPENMP_CFLAGS", "-fopenmp").split()
    work = tempfile.mkdtemp(prefix="pp_fbench_")
    try:
        # ---- 1. event costs ------------------------------------------------------
        opari = sh(["opari2-config", "--cflags"]).split()
        exe = os.path.join(work, "function_overhead")
        sh([wrapper, "--functions"] + cc + omp + ["-O2"] + opari
           + [os.path.join(s, "examples", "bench", "function_overhead.c"), "-o", exe], env=env)
        flt = os.path.join(work, "cost.filter")
        with open(flt, "w") as f:
            f.write(COST_FILTER)
        out = sh([exe], env=dict(env, POMPPROF_FILTER=flt, OMP_NUM_THREADS="1",
                                 POMPPROF_OUTPUT=os.path.join(work, "cost-profile")))
        costs = dict(line.split() for line in out.splitlines() if len(line.split()) == 2)
        print("Event costs (ns of CPU time, examples/bench/function_overhead.c)")
        for label, key in (("function enter/exit pair, recursion with a small leaf",
                            "function_pair_ns"),
                           ("function enter/exit pair, empty leaf in a loop", "leaf_pair_ns"),
                           ("function left out by POMPPROF_FILTER (table lookup)",
                            "filtered_pair_ns"),
                           ("OpenMP construct enter/exit pair (POMP2_Atomic_*)",
                            "construct_pair_ns")):
            print("  %-54s: %8s" % (label, costs[key]))
        target = os.path.join(b, "event-costs.txt")
        with open(target, "w") as f:
            f.write("# measured by make bench on %s, %s (pompprof-score reads this file)\n"
                    % (platform.node(), datetime.datetime.now().isoformat(timespec="seconds")))
            for k in ("function_pair_ns", "filtered_pair_ns", "construct_pair_ns",
                      "leaf_pair_ns", "plain_call_ns"):
                f.write("%s %s\n" % (k, costs[k]))
        print("  written to %s\n" % target)

        # ---- 2. side by side -----------------------------------------------------
        reps = int(os.environ.get("BENCH_REPS", "3"))
        print("Side by side: median CPU time of %d runs, %d thread; overhead over plain"
              % (reps, THREADS))
        print("%-9s %9s %11s %11s %13s %12s  %s" % ("program", "plain[s]", "constructs",
                                                    "functions", "funcs+filter", "fn events/s",
                                                    "excluded by -g"))
        for name, pargs in PROGRAMS:
            src = os.path.join(s, "examples", name + ".c")
            exes = {}
            base = [src, "-lm"] + CFLAGS + omp
            exes["plain"] = os.path.join(work, name + ".plain")
            sh(cc + base + ["-o", exes["plain"]])
            exes["constructs"] = os.path.join(work, name + ".constructs")
            sh([wrapper] + cc + base + ["-o", exes["constructs"]], env=env)
            exes["functions"] = os.path.join(work, name + ".functions")
            sh([wrapper, "--functions"] + cc + base + ["-o", exes["functions"]], env=env)
            # a profile with functions, the filter -g writes for it, the build with it
            prof = os.path.join(work, name + ".profile")
            renv = dict(env, OMP_NUM_THREADS=str(THREADS), POMPPROF_OUTPUT=prof)
            sh([exes["functions"]] + pargs, env=renv)
            gen = os.path.join(work, name + ".filter")
            sh([score, prof, "-g", gen], env=env)
            with open(gen) as f:
                excluded = re.findall(r"^\s*EXCLUDE (\S+)", f.read(), re.M)
            exes["filtered"] = os.path.join(work, name + ".filtered")
            sh([wrapper, "--filter=" + gen] + cc + base + ["-o", exes["filtered"]], env=env)
            times = {k: [] for k in exes}
            for r in range(reps):
                for k, e in exes.items():
                    renv = dict(env, OMP_NUM_THREADS=str(THREADS),
                                POMPPROF_OUTPUT=os.path.join(work, "%s.%s.%d" % (name, k, r)))
                    if k == "filtered":
                        renv["POMPPROF_FILTER"] = gen
                    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                    sh([e] + pargs, env=renv)
                    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                    times[k].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            med = {k: statistics.median(v) for k, v in times.items()}
            # function events of the unfiltered run: 2 per visit of a function
            fun_visits = 0
            for line in sh([score, prof, "--top", "1"], env=env).splitlines():
                if line.startswith("FUN "):
                    fun_visits = parse_count(line.split()[1])
            pct = {k: 100.0 * (med[k] / med["plain"] - 1.0) for k in med}
            print("%-9s %9.3f %10.1f%% %10.1f%% %12.1f%% %12s  %s" % (
                name, med["plain"], pct["constructs"], pct["functions"], pct["filtered"],
                "%.3g" % (2 * fun_visits / med["functions"]), " ".join(excluded) or "-"))
        print("\n(funcs+filter: built with --filter=FILE, run with POMPPROF_FILTER=FILE; goal: "
              "within 10 % of constructs only)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def parse_count(text):
    units = {"M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
    if text and text[-1] in units:
        return float(text[:-1]) * units[text[-1]]
    return float(text)


if __name__ == "__main__":
    main()
