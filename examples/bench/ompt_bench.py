#!/usr/bin/env python3
"""ompt_bench.py: 'make bench-ompt', the two event sources side by side.

The same example sources, each run at 1 and 2 threads:
  plain gcc        gcc -fopenmp, libgomp            (OPARI2 mode's baseline)
  OPARI2           the pompprof wrapper, libgomp
  plain gcc/libomp the gcc binary on preloaded libomp (OMPT mode's baseline)
  OMPT gcc         the gcc binary on libomp with libpompprof_ompt.so
  plain clang      clang -fopenmp, libomp
  OMPT clang       the clang binary with libpompprof_ompt.so
Median wall time of BENCH_REPS runs (default 3, interleaved), overhead against
the source's own baseline (same binary and runtime), and the cost per event:
(measured - baseline) / events, where events are read from the profile (two
per visit of a region, two per task instance: begin and end, plus its
creation's two).  fib without cut-off is the worst case (a task per call);
the cut-off examples are what programs should look like.  Prints, never
fails on timing (exit status 1 only when a program fails).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PROGRAMS = [("fib", ["27"]), ("fib_cutoff", ["40", "10"]), ("nqueens_cutoff", ["12", "3"]),
            ("worksharing", ["20000"])]
LIBOMP = next((p for p in ("/usr/lib/llvm-14/lib/libomp.so.5",
                           "/usr/lib/x86_64-linux-gnu/libomp.so.5") if os.path.exists(p)), None)


def build(cmd, out, env=None):
    subprocess.run(cmd + ["-o", out], check=True, env=env, stdout=subprocess.DEVNULL)
    return out


def timed(argv, env):
    t0 = time.perf_counter()
    p = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       universal_newlines=True)
    t = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit("ompt_bench: %s failed: %s" % (argv[0], p.stderr.strip()))
    return t


def events_of(profile_dir, builddir):
    """Events the profile stands for: 2 per region visit and per task instance."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))), "scripts"))
    from pompprof_tools.cube import cubex
    cube = cubex.load(profile_dir)
    tasks = sum(sum(cube.row("visits", c)) for c in cube.task_roots())
    visits = sum(sum(cube.row("visits", c)) for c in cube.cnodes_in_order()
                 if c.parent is not None and c not in cube.task_roots()
                 and not cube.is_tasks_node(c))
    return tasks, 2 * (visits + tasks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--srcdir", required=True)
    a = ap.parse_args()
    tool = os.path.join(a.builddir, ".libs", "libpompprof_ompt.so")
    clang = shutil.which("clang")
    if not (os.path.exists(tool) and LIBOMP and clang):
        print("bench-ompt: needs libpompprof_ompt.so, libomp and clang (libomp-14-dev, clang)")
        return 0
    reps = int(os.environ.get("BENCH_REPS", "3"))
    scratch = tempfile.mkdtemp(prefix="pp_ompt_bench_")
    wrapper_env = dict(os.environ, POMPPROF_LIBDIR=os.path.join(a.builddir, ".libs"),
                       POMPPROF_INCDIR=os.path.join(a.srcdir, "pomp2"))
    try:
        print("OMPT mode vs OPARI2 mode (median of %d runs; overhead against the same binary on "
              "the same runtime unmeasured; ns per event = added time / events)" % reps)
        print("%-15s %3s %-11s %9s %9s %8s %10s %9s" % ("program", "thr", "source", "plain s",
                                                         "measured", "overhd%", "events",
                                                         "ns/event"))
        for name, args in PROGRAMS:
            src = os.path.join(a.srcdir, "examples", name + ".c")
            flags = ["-std=gnu11", "-O2", "-fopenmp", src, "-lm"]
            gcc = build(["gcc"] + flags, os.path.join(scratch, name + "_gcc"))
            opari = build([os.path.join(a.builddir, "scripts", "pompprof"), "gcc"] + flags,
                          os.path.join(scratch, name + "_opari2"), wrapper_env)
            cl = build([clang] + flags, os.path.join(scratch, name + "_clang"))
            for threads in (1, 2):
                base = dict(os.environ, OMP_NUM_THREADS=str(threads))
                on_omp = dict(base, LD_PRELOAD=LIBOMP)
                out = lambda tag: os.path.join(scratch, "%s_%s_%d" % (name, tag, threads))
                cases = [
                    ("OPARI2", [gcc], base, [opari], base),
                    ("OMPT gcc", [gcc], on_omp, [gcc], dict(on_omp, OMP_TOOL_LIBRARIES=tool)),
                    ("OMPT clang", [cl], base, [cl], dict(base, OMP_TOOL_LIBRARIES=tool)),
                ]
                times = {c[0]: ([], []) for c in cases}
                for _ in range(reps):
                    for tag, pa, penv, ma, menv in cases:
                        times[tag][0].append(timed(pa + args, penv))
                        menv = dict(menv, POMPPROF_OUTPUT=out(tag.replace(" ", "_")))
                        shutil.rmtree(menv["POMPPROF_OUTPUT"], ignore_errors=True)
                        times[tag][1].append(timed(ma + args, menv))
                for tag, *_ in cases:
                    plain = statistics.median(times[tag][0])
                    measured = statistics.median(times[tag][1])
                    _, events = events_of(out(tag.replace(" ", "_")), a.builddir)
                    per = (measured - plain) / events * 1e9 if events else 0.0
                    print("%-15s %3d %-11s %9.4f %9.4f %8.1f %10d %9.1f"
                          % (name, threads, tag, plain, measured,
                             100.0 * (measured - plain) / plain, events, per))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
