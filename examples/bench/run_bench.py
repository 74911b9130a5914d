#!/usr/bin/env python3
"""run_bench.py: the 'make bench' harness for pompprof's examples.

Three parts, each printed as a table and appended to a CSV file:

1. Overhead: every example at its larger input, 1 and 2 threads, plain and
   instrumented build, BENCH_REPS runs each (default 5, interleaved so that
   drifting machine load hits both alike): median wall time, overhead %,
   profile size, peak RSS (of the program alone, through rss_run).
2. Micro-benchmark: nanoseconds per enter+exit pair, task, taskwait and timer
   read (examples/bench/pomp2_overhead).
3. Memory: peak RSS of 10^6 vs 10^7 trivial tasks (examples/bench/manytasks).

The bars are reported as "met"/"MISSED"; timing never fails the run (exit
status 1 only when a program fails or cannot be run).  Python 3 stdlib only.
"""

import argparse
import csv
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# name, larger-input arguments, bar on overhead % (None = no bar) and the
# thread counts the bar applies to.  "Cut-off" examples (coarse tasks, at
# least ~20 us each) must stay below 3 %; fib without cut-off (a task per
# call, the worst case) below 150 % on one thread.
EXAMPLES = [
    ("fib", ["32"], 150.0, (1,)),
    ("fib_cutoff", ["44", "10"], 3.0, (1, 2)),
    ("nqueens", ["12"], None, ()),
    ("nqueens_cutoff", ["13", "3"], 3.0, (1, 2)),
    ("nqueens_depth", ["12"], None, ()),
    ("mergesort", ["8000000"], 3.0, (1, 2)),
    ("sparselu", ["32", "64"], 3.0, (1, 2)),
    ("treewalk", ["13"], 3.0, (1, 2)),
    ("prodcons", ["3000"], 3.0, (1, 2)),
    ("worksharing", ["20000"], 3.0, (1, 2)),
]
THREADS = (1, 2)
ENTER_EXIT_BAR = 2.5    # enter+exit pair <= 2.5 x two timer reads
RSS_BAR = 1.10          # RSS(10^7 tasks) <= 1.10 x RSS(10^6 tasks)
MANY_TASKS = (1_000_000, 10_000_000)


class RunError(Exception):
    """A benchmark program failed; the message says which and how."""


def run_once(rss_run, argv, env, outdir):
    """Run argv once; returns (wall s, CPU s, peak RSS in KiB, stdout text).

    The program runs under the small rss_run helper, which forks it and
    reports its own peak RSS (from the program's exec on: measuring straight
    from Python would include the interpreter's size, see rss_run.c).  stdout
    goes to a file, so a full pipe can never block the program."""
    out_path = os.path.join(outdir, "stdout")
    err_path = os.path.join(outdir, "stderr")
    rss_path = os.path.join(outdir, "maxrss")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        try:
            status = subprocess.call([rss_run, rss_path] + argv, env=env,
                                     stdout=out, stderr=err)
        except OSError as e:
            raise RunError("cannot run %s: %s" % (rss_run, e.strerror)) from None
        wall = time.perf_counter() - start
    with open(out_path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if status != 0:
        with open(err_path, encoding="utf-8", errors="replace") as f:
            err_text = f.read().strip().splitlines()
        raise RunError("%s exited with status %d%s" % (
            " ".join(argv), status, (": " + err_text[-1]) if err_text else ""))
    try:
        with open(rss_path) as f:
            rss_text, cpu_text = f.read().split()
        rss, cpu = int(rss_text), float(cpu_text)
    except (OSError, ValueError):
        raise RunError("%s: no figures from rss_run" % " ".join(argv)) from None
    return wall, cpu, rss, text


def find_profile(directory):
    """Size in bytes of the .cubex file written into directory, or None."""
    for root, _, files in os.walk(directory):
        for name in files:
            if name.endswith(".cubex"):
                return os.path.getsize(os.path.join(root, name))
    return None


class Bench:
    def __init__(self, builddir, reps, csv_path):
        self.builddir = builddir
        self.reps = reps
        self.csv_path = csv_path
        self.rows = []          # CSV rows of this run
        self.bars = []          # (description, met: bool|None, detail)
        self.errors = []
        self.date = datetime.datetime.now().isoformat(timespec="seconds")
        self.tmp = tempfile.mkdtemp(prefix="pompprof-bench.")
        self.base_env = dict(os.environ)
        libdir = os.path.join(builddir, ".libs")
        old = self.base_env.get("LD_LIBRARY_PATH")
        self.base_env["LD_LIBRARY_PATH"] = libdir + (":" + old if old else "")
        for var in ("POMPPROF_OUTPUT", "POMPPROF_ENABLE", "POMPPROF_METRICS",
                    "POMPPROF_MAX_DEPTH", "POMPPROF_MEMORY", "POMPPROF_VERBOSE"):
            self.base_env.pop(var, None)
        self.run_counter = 0
        self.rss_run = os.path.join(builddir, "examples", "bench", "rss_run")

    def record(self, benchmark, inp, threads, metric, value):
        self.rows.append({"date": self.date, "host": platform.node(),
                          "benchmark": benchmark, "input": inp,
                          "threads": threads, "metric": metric,
                          "value": value})

    def bar(self, description, met, detail):
        self.bars.append((description, met, detail))

    def fresh_dir(self):
        self.run_counter += 1
        path = os.path.join(self.tmp, "run%05d" % self.run_counter)
        os.mkdir(path)
        return path

    def run(self, argv, threads, profiled):
        """One run; returns (wall, cpu, maxrss, stdout, profile bytes or None)."""
        env = dict(self.base_env, OMP_NUM_THREADS=str(threads))
        rundir = self.fresh_dir()
        if profiled:
            env["POMPPROF_OUTPUT"] = os.path.join(rundir, "profile")
            os.mkdir(env["POMPPROF_OUTPUT"])
        wall, cpu, rss, text = run_once(self.rss_run, argv, env, rundir)
        size = find_profile(rundir) if profiled else None
        shutil.rmtree(rundir, ignore_errors=True)
        return wall, cpu, rss, text, size

    # ---- 1. overhead of the examples ------------------------------------
    def overhead(self):
        print("== Overhead: examples at their larger input, median of %d runs"
              % self.reps)
        print("(overhead: of the median wall times; 'min': of the fastest runs;"
              " 'cpu': of the median CPU times\n user+system -- the last two are"
              " less sensitive to load from other processes)")
        header = ("%-15s %-11s %3s %7s %7s %8s %7s %7s %10s %9s %9s" % (
            "example", "input", "thr", "plain s", "prof s", "overhead",
            "min", "cpu", "profile B", "RSS pl KB", "RSS pr KB"))
        print(header)
        print("-" * len(header))
        for name, args, limit, bar_threads in EXAMPLES:
            plain = os.path.join(self.builddir, "examples", "plain", name)
            prof = os.path.join(self.builddir, "examples", "prof", name)
            inp = " ".join(args)
            for threads in THREADS:
                try:
                    result = self.measure_pair(plain, prof, args, threads)
                except RunError as e:
                    self.errors.append(str(e))
                    print("%-15s %-11s %3d  FAILED: %s" % (name, inp, threads, e))
                    continue
                tp, tq, min_p, min_q, cpu_p, cpu_q, size, rss_p, rss_q = result
                over = (tq / tp - 1.0) * 100.0
                over_min = (min_q / min_p - 1.0) * 100.0
                over_cpu = (cpu_q / cpu_p - 1.0) * 100.0
                print("%-15s %-11s %3d %7.3f %7.3f %7.1f%% %6.1f%% %6.1f%% %10s %9d %9d"
                      % (name, inp, threads, tp, tq, over, over_min, over_cpu,
                         size if size is not None else "none", rss_p, rss_q))
                sys.stdout.flush()
                for metric, value in (("plain_median_s", "%.4f" % tp),
                                      ("prof_median_s", "%.4f" % tq),
                                      ("overhead_pct", "%.2f" % over),
                                      ("plain_min_s", "%.4f" % min_p),
                                      ("prof_min_s", "%.4f" % min_q),
                                      ("overhead_min_pct", "%.2f" % over_min),
                                      ("plain_cpu_median_s", "%.4f" % cpu_p),
                                      ("prof_cpu_median_s", "%.4f" % cpu_q),
                                      ("overhead_cpu_pct", "%.2f" % over_cpu),
                                      ("profile_bytes", size),
                                      ("plain_maxrss_kb", rss_p),
                                      ("prof_maxrss_kb", rss_q)):
                    self.record(name, inp, threads, metric, value)
                if size is None:
                    self.errors.append("%s (%d threads) wrote no profile"
                                       % (name, threads))
                if limit is not None and threads in bar_threads:
                    self.bar("%s, %d thread%s: overhead < %g%%" % (
                        name, threads, "s" if threads > 1 else "", limit),
                        over < limit, "%.1f%% (fastest runs %.1f%%, cpu %.1f%%)"
                        % (over, over_min, over_cpu))

    def measure_pair(self, plain, prof, args, threads):
        """Interleaved runs of both builds; medians and the check of output."""
        times_p, times_q, sizes, rss_p, rss_q = [], [], [], [], []
        cpu_p, cpu_q = [], []
        for _ in range(self.reps):
            tp, cp, rp, out_p, _ = self.run([plain] + args, threads, False)
            tq, cq, rq, out_q, size = self.run([prof] + args, threads, True)
            if out_p != out_q:
                raise RunError("%s: output differs between plain and profiled "
                               "build" % os.path.basename(plain))
            if "OK" not in out_p.split():
                raise RunError("%s: self-check failed" % os.path.basename(plain))
            times_p.append(tp)
            times_q.append(tq)
            cpu_p.append(cp)
            cpu_q.append(cq)
            rss_p.append(rp)
            rss_q.append(rq)
            if size is not None:
                sizes.append(size)
        return (statistics.median(times_p), statistics.median(times_q),
                min(times_p), min(times_q),
                statistics.median(cpu_p), statistics.median(cpu_q),
                max(sizes) if sizes else None, max(rss_p), max(rss_q))

    # ---- 2. micro-benchmark -------------------------------------------------
    def micro(self):
        print("\n== Micro-benchmark: POMP2 entry points called directly, 1 thread")
        exe = os.path.join(self.builddir, "examples", "bench", "pomp2_overhead")
        try:
            _, _, _, text, _ = self.run([exe], 1, True)
        except RunError as e:
            self.errors.append(str(e))
            print("FAILED: %s" % e)
            return
        values = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2:
                values[parts[0]] = parts[1]
        labels = [("timer_read_ns", "one timer read (%s)"
                   % values.get("timer_source", "?")),
                  ("enter_exit_ns", "region enter+exit pair (atomic)"),
                  ("user_region_ns", "user region begin+end pair"),
                  ("task_ns", "task create_begin+begin+end+create_end"),
                  ("taskwait_ns", "taskwait begin+end, no children")]
        for key, label in labels:
            if key in values:
                print("%-45s %8s ns" % (label, values[key]))
                self.record("micro", "", 1, key, values[key])
        try:
            ratio = float(values["enter_exit_ns"]) / (
                2.0 * float(values["timer_read_ns"]))
        except (KeyError, ValueError, ZeroDivisionError):
            self.errors.append("micro-benchmark output incomplete: %r" % text)
            return
        print("%-45s %8.2f" % ("enter+exit / (2 x timer read)", ratio))
        self.record("micro", "", 1, "enter_exit_per_two_timer_reads",
                    "%.3f" % ratio)
        self.bar("enter+exit pair <= %.1f x two timer reads" % ENTER_EXIT_BAR,
                 ratio <= ENTER_EXIT_BAR, "%.2f x" % ratio)

    # ---- 3. memory with many tasks --------------------------------------------
    def memory(self):
        print("\n== Memory: n trivial tasks created inside single, 2 threads")
        bench_dir = os.path.join(self.builddir, "examples", "bench")
        rss = {}
        print("%-12s %10s %10s %10s %11s" % ("tasks", "plain s", "prof s",
                                              "RSS pl KB", "RSS prof KB"))
        for n in MANY_TASKS:
            try:
                tp, _, rp, out_p, _ = self.run(
                    [os.path.join(bench_dir, "manytasks_plain"), str(n)], 2, False)
                tq, _, rq, out_q, _ = self.run(
                    [os.path.join(bench_dir, "manytasks"), str(n)], 2, True)
            except RunError as e:
                self.errors.append(str(e))
                print("FAILED: %s" % e)
                return
            if out_p != out_q or "OK" not in out_q.split():
                self.errors.append("manytasks %d: wrong output" % n)
            rss[n] = rq
            print("%-12d %10.2f %10.2f %10d %11d" % (n, tp, tq, rp, rq))
            for metric, value in (("plain_s", "%.3f" % tp), ("prof_s", "%.3f" % tq),
                                  ("plain_maxrss_kb", rp), ("prof_maxrss_kb", rq)):
                self.record("manytasks", str(n), 2, metric, value)
        small, large = MANY_TASKS
        ratio = rss[large] / rss[small]
        print("%-45s %8.3f" % ("RSS(%d tasks) / RSS(%d tasks)" % (large, small),
                               ratio))
        self.record("manytasks", "", 2, "rss_ratio", "%.3f" % ratio)
        self.bar("RSS(10^7 tasks) within %d%% of RSS(10^6 tasks)"
                 % round((RSS_BAR - 1) * 100), ratio <= RSS_BAR,
                 "%+.1f%%" % ((ratio - 1) * 100))

    # ---- output -------------------------------------------------------------
    def summary(self):
        print("\n== Bars (reported, never fatal)")
        for description, met, detail in self.bars:
            print("%-6s %-48s %s" % ("met" if met else "MISSED", description,
                                     detail))
        for e in self.errors:
            print("ERROR: %s" % e)

    def write_csv(self):
        fields = ["date", "host", "benchmark", "input", "threads", "metric",
                  "value"]
        new_file = not os.path.exists(self.csv_path) or \
            os.path.getsize(self.csv_path) == 0
        with open(self.csv_path, "a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            if new_file:
                writer.writeheader()
            writer.writerows(self.rows)
        print("\nresults appended to %s" % self.csv_path)

    def cleanup(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builddir", default=os.getcwd(),
                        help="the configured build tree (default: .)")
    parser.add_argument("--csv", default=None,
                        help="CSV file to append to (default: "
                             "BUILDDIR/bench-results.csv)")
    parser.add_argument("--reps", type=int, default=None,
                        help="runs per configuration (default: $BENCH_REPS or 5)")
    parser.add_argument("--only", choices=["overhead", "micro", "memory"],
                        action="append", help="run only these parts")
    args = parser.parse_args()

    reps = args.reps
    if reps is None:
        try:
            reps = int(os.environ.get("BENCH_REPS", "5"))
        except ValueError:
            print("run_bench.py: BENCH_REPS must be a positive integer",
                  file=sys.stderr)
            return 2
    if reps < 1:
        print("run_bench.py: the number of runs must be positive", file=sys.stderr)
        return 2
    builddir = os.path.abspath(args.builddir)
    csv_path = args.csv or os.path.join(builddir, "bench-results.csv")
    parts = args.only or ["overhead", "micro", "memory"]

    bench = Bench(builddir, reps, csv_path)
    started = time.perf_counter()
    try:
        if "overhead" in parts:
            bench.overhead()
        if "micro" in parts:
            bench.micro()
        if "memory" in parts:
            bench.memory()
        bench.summary()
        try:
            bench.write_csv()
        except OSError as e:
            print("run_bench.py: cannot write %s: %s" % (csv_path, e),
                  file=sys.stderr)
            return 1
    except KeyboardInterrupt:
        print("\nrun_bench.py: interrupted", file=sys.stderr)
        return 130
    finally:
        bench.cleanup()
    print("benchmarks took %.0f s" % (time.perf_counter() - started))
    return 1 if bench.errors else 0


if __name__ == "__main__":
    sys.exit(main())
