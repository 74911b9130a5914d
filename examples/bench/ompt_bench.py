#!/usr/bin/env python3
"""ompt_bench.py: 'make bench-ompt', what each event source costs, side by side.

1. Instructions per task (callgrind, the whole run, 1 thread): fib without
   cut-off (examples/fib.c, a task per call) at n=15 and n=20, whose
   difference is 19,918 tasks, so start-up, the profile write and the
   runtime's own first-touch costs cancel out: the marginal instructions per
   task that each way of measuring adds over its baseline:
     rebuild        the pompprof gcc rebuild (OPARI2, libgomp) over plain gcc
     OMPT clang     clang -fopenmp with libpompprof_ompt.so over the same
                    binary with an OMPT tool whose callbacks are empty
                    (ompt_empty_tool.c: what libomp costs when a tool
                    listens, which is not ours to cut)
     OMPT gcc       the plain gcc binary on libomp (LD_PRELOAD) the same way
   and, for the OMPT clang row, where the instructions go: the OMPT layer
   (ompt/), the engine (profile/), the clock, the rest.
2. Wall time relative to plain: BOTS-like fib (no cut-off), nqueens, health,
   uts and floorplan at 1 and 2 threads, each measured build against the same
   binary on the same runtime unmeasured, all builds in every round
   (BENCH_REPS rounds, default 3; paired medians of measured / plain).

Prints figures; never fails on timing (exit status 1 only when a program
fails).  Another way of measuring gets its row by an entry in ROWS (and its
wall-time column by one in WALL_BUILDS): the libgomp interposer's (a gcc
binary measured on libgomp, over plain gcc) goes there.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import task_cost  # noqa: E402  (callgrind's output parser, fib's task count)

LIBOMP = next((p for p in ("/usr/lib/llvm-14/lib/libomp.so.5",
                           "/usr/lib/x86_64-linux-gnu/libomp.so.5") if os.path.exists(p)), None)
SIZES = (15, 20)  # fib sizes whose difference is the marginal cost
INSTR_BAR = 300   # issue 29: at most 300 instructions added per task

# ---- builds -------------------------------------------------------------------------


class Builds:
    """The example programs built every way, in a scratch directory."""

    def __init__(self, builddir, srcdir, scratch):
        self.builddir, self.srcdir, self.scratch = builddir, srcdir, scratch
        self.tool = os.path.join(builddir, ".libs", "libpompprof_ompt.so")
        self.empty = os.path.join(scratch, "ompt_empty_tool.so")
        self.clang = shutil.which("clang")
        self.wrapper_env = dict(os.environ, POMPPROF_LIBDIR=os.path.join(builddir, ".libs"),
                                POMPPROF_INCDIR=os.path.join(srcdir, "pomp2"))
        self.made = {}

    def usable(self):
        return os.path.exists(self.tool) and LIBOMP and self.clang

    def empty_tool(self):
        if not os.path.exists(self.empty):
            subprocess.run([self.clang, "-O2", "-shared", "-fPIC",
                            os.path.join(HERE, "ompt_empty_tool.c"), "-o", self.empty],
                           check=True)
        return self.empty

    def exe(self, name, compiler):
        """The example program `name` (its source in examples/) built by 'gcc', 'clang'
        or 'rebuild' (the wrapper)."""
        key = (name, compiler)
        if key not in self.made:
            out = os.path.join(self.scratch, "%s_%s" % (name, compiler))
            flags = ["-std=gnu11", "-O2", "-fopenmp",
                     os.path.join(self.srcdir, "examples", name + ".c"), "-lm", "-o", out]
            cmd = {"gcc": ["gcc"], "clang": [self.clang],
                   "rebuild": [os.path.join(self.builddir, "scripts", "pompprof"), "gcc"]}[compiler]
            subprocess.run(cmd + flags, check=True, env=self.wrapper_env,
                           stdout=subprocess.DEVNULL)
            self.made[key] = out
        return self.made[key]

    def env(self, how, threads, output):
        """The environment of a run: 'plain', 'libomp' (LD_PRELOAD), 'ompt'
        (libomp's own program with our tool), 'ompt-libomp' (a gcc program on
        libomp with our tool), 'empty', 'empty-libomp' (the empty tool)."""
        env = dict(os.environ, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=output)
        for var in ("OMP_TOOL_LIBRARIES", "LD_PRELOAD", "POMPPROF_TRACE", "POMPPROF_METRICS"):
            env.pop(var, None)
        if how.endswith("libomp"):
            env["LD_PRELOAD"] = LIBOMP
        if how.startswith("ompt"):
            env["OMP_TOOL_LIBRARIES"] = self.tool
        if how.startswith("empty"):
            env["OMP_TOOL_LIBRARIES"] = self.empty_tool()
        return env


# ---- 1. instructions per task -------------------------------------------------------

# (label, what is measured, its baseline): each a (compiler, environment) of
# Builds.exe and Builds.env.  The libgomp interposer's row goes here too.
ROWS = [
    ("rebuild (OPARI2) over plain gcc", ("rebuild", "plain"), ("gcc", "plain")),
    ("OMPT clang over the empty tool", ("clang", "ompt"), ("clang", "empty")),
    ("OMPT gcc on libomp over the empty tool", ("gcc", "ompt-libomp"), ("gcc", "empty-libomp")),
]

OMPT_GROUPS = [("layer", "OMPT layer (ompt/)"), ("engine", "engine (profile/)"),
               ("clock", "clock (lib/pp_timer.h)"), ("startend", "library start and end"),
               ("runtime", "libomp"), ("other", "libc, loader, other")]


def ompt_group(program, ob, fl, fi, fn):
    """The group of one cost line of an OMPT run (task_cost.parse_callgrind)."""
    base = os.path.basename(ob)
    if "libpompprof_ompt" in base:
        if "pp_timer" in fi or "ia32intrin" in fi:
            return "clock"
        source = os.path.basename(fl)  # the checkout's own path may hold "ompt/"
        if source.startswith("pp_ompt_"):
            return "layer"
        if source.startswith("pp_profile_") and source not in task_cost.START_END_FILES:
            return "engine"
        return "startend"
    if "libomp" in base:
        return "runtime"
    return "other"


def callgrind(builds, spec, n, label):
    compiler, how = spec
    exe = builds.exe("fib", compiler)
    out = os.path.join(builds.scratch, "callgrind.%s.%d" % (label, n))
    env = builds.env(how, 1, os.path.join(builds.scratch, "profile.%s.%d" % (label, n)))
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, exe, str(n)],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode != 0 or "OK" not in r.stdout.split():
        raise RuntimeError("fib (%s, %s) under callgrind failed: %s"
                           % (compiler, how, r.stderr.strip().splitlines()[-1:]))
    return out


def marginal(builds, spec, label):
    """Instructions of fib(20) less fib(15) of one way of running, per task,
    and the same by group (an OMPT run's)."""
    lo, hi = (callgrind(builds, spec, n, label) for n in SIZES)
    tasks = task_cost.fib_tasks(SIZES[1]) - task_cost.fib_tasks(SIZES[0])
    total = (task_cost.callgrind_total(hi) - task_cost.callgrind_total(lo)) / tasks
    groups = {}
    for sign, path in ((-1, lo), (1, hi)):
        for (group, _), costs in task_cost.parse_callgrind(path, "fib", ompt_group).items():
            groups[group] = groups.get(group, 0) + sign * costs[0]
    return total, {g: v / tasks for g, v in groups.items()}


def instructions(builds):
    tasks = task_cost.fib_tasks(SIZES[1]) - task_cost.fib_tasks(SIZES[0])
    print("== Instructions added per task: fib without cut-off, 1 thread, fib(%d) less fib(%d)"
          " (%d tasks), callgrind" % (SIZES[1], SIZES[0], tasks))
    print("%-45s %10s %10s %10s" % ("", "measured", "baseline", "added"))
    detail = None
    for label, measured, baseline in ROWS:
        tag = label.split()[0] + "_" + label.split()[1]
        m, m_groups = marginal(builds, measured, tag + "_m")
        b, b_groups = marginal(builds, baseline, tag + "_b")
        print("%-45s %10.1f %10.1f %10.1f   (bar %d: %s)" % (
            label, m, b, m - b, INSTR_BAR, "met" if m - b <= INSTR_BAR else "MISSED"))
        if measured == ("clang", "ompt"):
            detail = (m_groups, b_groups)
        sys.stdout.flush()
    if detail:
        print("\nOMPT clang, where the added instructions go (per task):")
        m_groups, b_groups = detail
        for g, text in OMPT_GROUPS:
            print("  %-30s %8.1f" % (text, m_groups.get(g, 0.0) - b_groups.get(g, 0.0)))
    print()


# ---- 2. wall time -------------------------------------------------------------------

# (each some 10^5 to 10^6 tasks: 0.02-0.1 s plain at one thread)
WALL_PROGRAMS = [("fib", ["27"]), ("nqueens", ["10"]), ("health", ["6", "60"]),
                 ("uts", ["5000"]), ("floorplan", ["6"])]
# (column, measured (compiler, environment), its plain baseline); the libgomp
# interposer's column goes here too.
WALL_BUILDS = [
    ("rebuild", ("rebuild", "plain"), ("gcc", "plain")),
    ("OMPT gcc", ("gcc", "ompt-libomp"), ("gcc", "libomp")),
    ("OMPT clang", ("clang", "ompt"), ("clang", "plain")),
]


def timed(argv, env):
    t0 = time.perf_counter()
    p = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       universal_newlines=True)
    t = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError("%s failed (status %d): %s" % (argv[0], p.returncode,
                                                          p.stderr.strip()))
    return t


def wall(builds, reps):
    print("== Wall time relative to plain (same binary, same runtime): paired median of %d "
          "rounds, every build in each round" % reps)
    print("%-10s %-6s %3s %10s" % ("program", "input", "thr", "plain gcc") +
          "".join("%12s" % col for col, _, _ in WALL_BUILDS))
    for name, args in WALL_PROGRAMS:
        for threads in (1, 2):
            ratios = {col: [] for col, _, _ in WALL_BUILDS}
            plain_gcc = []
            for _ in range(reps):
                for col, (mc, mh), (bc, bh) in WALL_BUILDS:
                    out = tempfile.mkdtemp(dir=builds.scratch)
                    base = timed([builds.exe(name, bc)] + args, builds.env(bh, threads, out))
                    meas = timed([builds.exe(name, mc)] + args, builds.env(mh, threads, out))
                    shutil.rmtree(out, ignore_errors=True)
                    ratios[col].append(meas / base)
                    if (bc, bh) == ("gcc", "plain"):
                        plain_gcc.append(base)
            print("%-10s %-6s %3d %9.3fs" % (name, " ".join(args), threads,
                                             statistics.median(plain_gcc)) +
                  "".join("%11.2fx" % statistics.median(ratios[col]) for col, _, _ in WALL_BUILDS))
            sys.stdout.flush()
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--only", action="append", choices=["instructions", "wall"])
    ap.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", "3")))
    a = ap.parse_args()
    scratch = tempfile.mkdtemp(prefix="pp_ompt_bench_")
    builds = Builds(os.path.abspath(a.builddir), os.path.abspath(a.srcdir), scratch)
    if not builds.usable():
        print("bench-ompt: needs libpompprof_ompt.so, libomp and clang (libomp-14-dev, clang)")
        return 0
    parts = a.only or ["instructions", "wall"]
    try:
        if "instructions" in parts:
            if shutil.which("valgrind"):
                instructions(builds)
            else:
                print("== Instructions added per task: skipped (no valgrind)")
        if "wall" in parts:
            wall(builds, max(1, a.reps))
    except (RuntimeError, OSError, subprocess.CalledProcessError) as e:
        print("ompt_bench.py: %s" % e, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
