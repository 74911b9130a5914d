#!/usr/bin/env python3
"""mpi_bench.py: the 'make bench-mpi' figures of the MPI layer (doc/mpi.md, "Cost").

1. Overhead of the hybrid example (examples/hybrid.c) at 1, 2, 4 and 8 ranks x 2
   threads: plain and pompprof builds, BENCH_REPS runs of each (default 3, interleaved),
   the median wall time of the whole mpirun command (start, run, and for pompprof the
   ranks' unification and the write of the profile), the median of the program's own
   time for its steps, both ratios, and the profile's size.
2. The unification at 8, 32 and 64 ranks x 2 threads (examples/bench/unify_ranks.c,
   about a thousand call paths): the merge rounds' time and the write's on rank 0
   (its POMPPROF_VERBOSE=1 line), MPI_Finalize's time (the most on any rank), the
   largest buffer rank 0 held, the peak memory MPI_Finalize added on rank 0 and the
   most on any other rank, and the profile's size; then how each grows with the ranks.

Everything is oversubscribed: up to 64 ranks of 2 threads share this machine's cores.
Waiting ranks yield and OpenMP threads sleep (OMP_WAIT_POLICY=passive) instead of
spinning, or the figures would measure the scheduler.  Timing never fails the run
(exit status 1 only when a program fails).  Python 3 standard library only."""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HYBRID_ARGS = ["4000000", "200", "64"]  # cells, steps, blocks (tasks) per rank and step
HYBRID_RANKS = (1, 2, 4, 8)
UNIFY_RANKS = (8, 32, 64)
THREADS = 2
TIMEOUT = 600

VERBOSE_LINE = re.compile(r"the profiles of (\d+) ranks unified in ([0-9.]+) s \(largest buffer "
                          r"on rank 0: (\d+) bytes\), written in ([0-9.]+) s")
RANK_LINE = re.compile(r"^rank (\d+) rss_kib (-?\d+) peak_added_kib (-?\d+) finalize_s ([0-9.]+)$",
                       re.M)
STEPS_LINE = re.compile(r"steps took ([0-9.]+) s")


class Failure(Exception):
    pass


def mpi_env():
    env = dict(os.environ, OMP_NUM_THREADS=str(THREADS), OMP_WAIT_POLICY="passive",
               OMPI_MCA_hwloc_base_binding_policy="none",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_mpi_yield_when_idle="1")
    if os.geteuid() == 0:  # Open MPI refuses root unless told (a test box)
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for name in ("POMPPROF_OUTPUT", "POMPPROF_VERBOSE", "POMPPROF_METRICS", "POMPPROF_TRACE"):
        env.pop(name, None)
    return env


def mpirun(mpirun_cmd, ranks, argv, env):
    """(wall seconds, stdout, stderr) of one job."""
    cmd = [mpirun_cmd, "--oversubscribe", "-np", str(ranks)] + argv
    start = time.perf_counter()
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise Failure("%s did not end within %d s" % (" ".join(cmd), TIMEOUT)) from None
    wall = time.perf_counter() - start
    if p.returncode != 0:
        raise Failure("%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()[-300:]))
    return wall, p.stdout, p.stderr


def profile_size(directory):
    path = os.path.join(directory, "profile.cubex")
    if not os.path.isfile(path):
        raise Failure("no profile.cubex in %s" % directory)
    return os.path.getsize(path)


def human(n):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return ("%d %s" % (n, unit)) if unit == "B" else ("%.1f %s" % (n, unit))
        n /= 1024.0
    return str(n)


def overhead(args, env, tmp):
    plain = os.path.join(args.builddir, "examples", "plain", "hybrid")
    prof = os.path.join(args.builddir, "examples", "prof", "hybrid")
    print("== Overhead of the hybrid example (examples/hybrid.c %s; %d threads per rank; "
          "median of %d runs)" % (" ".join(HYBRID_ARGS), THREADS, args.reps))
    print("%5s %10s %10s %6s %10s %10s %6s %10s" % ("ranks", "plain s", "pompprof s", "ratio",
                                                 "steps s", "steps s", "ratio", "profile"))
    print("%5s %10s %10s %6s %10s %10s %6s %10s" % ("", "(mpirun)", "(mpirun)", "",
                                                 "plain", "pompprof", "", ""))
    for ranks in HYBRID_RANKS:
        walls = {"plain": [], "prof": []}
        steps = {"plain": [], "prof": []}
        outputs, size = set(), 0
        for rep in range(args.reps):
            for kind, prog in (("plain", plain), ("prof", prof)):
                out = os.path.join(tmp, "hybrid-%d-%d" % (ranks, rep))
                e = dict(env, POMPPROF_OUTPUT=out) if kind == "prof" else env
                wall, stdout, stderr = mpirun(args.mpirun, ranks, [prog] + HYBRID_ARGS, e)
                m = STEPS_LINE.search(stderr)
                if not m:
                    raise Failure("hybrid printed no time: %s" % stderr.strip()[-300:])
                walls[kind].append(wall)
                steps[kind].append(float(m.group(1)))
                outputs.add(stdout)
                if kind == "prof":
                    size = profile_size(out)
                    shutil.rmtree(out, ignore_errors=True)
        if len(outputs) != 1:
            raise Failure("the plain and pompprof builds printed different results at %d ranks"
                          % ranks)
        wp, wf = statistics.median(walls["plain"]), statistics.median(walls["prof"])
        sp, sf = statistics.median(steps["plain"]), statistics.median(steps["prof"])
        print("%5d %10.3f %10.3f %6.3f %10.3f %10.3f %6.3f %10s"
              % (ranks, wp, wf, wf / wp, sp, sf, sf / sp, human(size)))
    print()


def unification_run(args, env, tmp, ranks, rep):
    prog = os.path.join(args.builddir, "examples", "bench", "unify_ranks")
    out = os.path.join(tmp, "unify-%d-%d" % (ranks, rep))
    _, stdout, stderr = mpirun(args.mpirun, ranks, [prog],
                               dict(env, POMPPROF_OUTPUT=out, POMPPROF_VERBOSE="1"))
    m = VERBOSE_LINE.search(stderr)
    rows = {int(r[0]): (int(r[1]), int(r[2]), float(r[3])) for r in RANK_LINE.findall(stdout)}
    if not m or int(m.group(1)) != ranks or sorted(rows) != list(range(ranks)):
        raise Failure("unify_ranks at %d ranks: no figures (%s)" % (ranks, stderr.strip()[-300:]))
    size = profile_size(out)
    shutil.rmtree(out, ignore_errors=True)
    added = [rows[r][1] for r in range(ranks)]
    return {"unify": float(m.group(2)), "buffer": int(m.group(3)), "write": float(m.group(4)),
            "finalize": max(rows[r][2] for r in rows), "rss0": rows[0][0],
            "added0": added[0], "added_other": max(added[1:]) if ranks > 1 else 0,
            "size": size}


def unification(args, env, tmp):
    print("== Unification at MPI_Finalize (examples/bench/unify_ranks.c; %d threads per rank; "
          "median of %d runs)" % (THREADS, args.reps))
    print("%5s %5s %9s %9s %10s %11s %11s %11s %11s" % (
        "ranks", "locs", "merge s", "write s", "finalize s", "rank-0 buf", "rank-0 peak",
        "other peak", "profile"))
    results = []
    for ranks in UNIFY_RANKS:
        runs = [unification_run(args, env, tmp, ranks, rep) for rep in range(args.reps)]
        r = {k: statistics.median(x[k] for x in runs) for k in runs[0]}
        r["ranks"] = ranks
        results.append(r)
        if r["added0"] < 0:
            peak0 = other = "n/a"
        else:
            peak0, other = human(r["added0"] * 1024), human(r["added_other"] * 1024)
        print("%5d %5d %9.4f %9.4f %10.4f %11s %11s %11s %11s" % (
            ranks, ranks * THREADS, r["unify"], r["write"], r["finalize"], human(r["buffer"]),
            peak0, other, human(r["size"])))
    print("(merge: the log2(ranks) rounds until rank 0 holds every rank's profile; write: rank 0 "
          "writes the file;\n peak: what MPI_Finalize added to the rank's resident memory "
          "(VmHWM after minus VmRSS before);\n rank 0's process held %s before)"
          % human(results[-1]["rss0"] * 1024))
    print()
    print("Growth from one rank count to the next:")
    for a, b in zip(results, results[1:]):
        def ratio(key):
            return ("%.2fx" % (b[key] / a[key])) if a[key] > 0 else "n/a"
        print("  %2d -> %2d ranks (%.0fx): merge %s, write %s, rank-0 buffer %s, rank-0 peak %s, "
              "profile %s" % (a["ranks"], b["ranks"], b["ranks"] / a["ranks"], ratio("unify"),
                              ratio("write"), ratio("buffer"), ratio("added0"), ratio("size")))
    last = results[-1]
    locs = last["ranks"] * THREADS
    print("  per location at %d ranks: buffer %s, profile %s, rank-0 peak %s"
          % (last["ranks"], human(last["buffer"] / locs), human(last["size"] / locs),
             human(last["added0"] * 1024 / locs) if last["added0"] >= 0 else "n/a"))
    scale = 10000 * THREADS / locs
    print("  linear in locations, 10,000 ranks x %d threads of this program would need: "
          "rank-0 buffer %s, profile %s, rank-0 peak %s" % (
              THREADS, human(last["buffer"] * scale), human(last["size"] * scale),
              human(last["added0"] * 1024 * scale) if last["added0"] >= 0 else "n/a"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--reps", type=int, default=int(os.environ.get("BENCH_REPS", "3")))
    args = ap.parse_args()
    args.reps = max(1, args.reps)
    env = mpi_env()
    tmp = tempfile.mkdtemp(prefix="pompprof-bench-mpi.")
    start = time.perf_counter()
    try:
        overhead(args, env, tmp)
        unification(args, env, tmp)
    except Failure as e:
        print("bench-mpi: %s" % e, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("\nbench-mpi took %.0f s" % (time.perf_counter() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
