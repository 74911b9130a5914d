#!/usr/bin/env python3
"""trace_mpi_bench.py: the 'make bench-trace-mpi' figures of a hybrid job's one trace
(doc/trace.md, "Hybrid traces: cost").

The hybrid example (examples/hybrid.c: per rank and step two MPI_Sendrecv and a number of
OpenMP tasks, an MPI_Allreduce every 10 steps) at 2, 8 and 32 ranks x 2 threads, all
oversubscribed on this machine's cores, with POMPPROF_TRACE=1 and POMPPROF_VERBOSE=1:

- the whole mpirun command, untraced (profile only) and traced;
- the time rank 0 says the job's archive took at MPI_Finalize (its POMPPROF_VERBOSE
  line: every rank converting its threads, then the definitions unified and written);
- the archive: its events, its size on disk;
- pompprof-timeline on it: the breakdown (JSON) and the pictures (PNG), wall time and
  the replay's peak memory (the largest child's maximum resident set).

Timing never fails the run (exit status 1 only when a program fails).  Python 3
standard library only."""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

RANKS = (2, 8, 32)
THREADS = 2
HYBRID_ARGS = ["400000", "60", "32"]  # cells, steps, tasks per rank and step
TIMEOUT = 900
WRITE_LINE = re.compile(r"the job's trace of (\d+) ranks written in ([0-9.]+) s \(rank 0's "
                        r"events ([0-9.]+) s, the definitions ([0-9.]+) s\)")


# runs its arguments, then prints the largest resident set of its children (KiB)
PEAK = ("import resource, subprocess, sys\n"
        "p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, universal_newlines=True)\n"
        "sys.stdout.write(p.stdout + '\\n%d\\n' % "
        "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.exit(p.returncode)\n")


class Failure(Exception):
    pass


def mpi_env():
    env = dict(os.environ, OMP_NUM_THREADS=str(THREADS), OMP_WAIT_POLICY="passive",
               OMPI_MCA_hwloc_base_binding_policy="none",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_mpi_yield_when_idle="1")
    if os.geteuid() == 0:  # Open MPI refuses root unless told (a test box)
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for name in ("POMPPROF_OUTPUT", "POMPPROF_VERBOSE", "POMPPROF_TRACE", "POMPPROF_METRICS"):
        env.pop(name, None)
    return env


def run(cmd, env=None):
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=TIMEOUT)
    if p.returncode != 0:
        raise Failure("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    return time.monotonic() - t0, p


def archive_bytes(out):
    total = 0
    for root, _, files in os.walk(out):
        for f in files:
            if f.startswith("traces") or os.path.basename(root) == "traces":
                total += os.path.getsize(os.path.join(root, f))
    return total


def bench(args, work):
    exe = os.path.join(args.builddir, "examples", "prof", "hybrid")
    timeline = os.path.join(args.builddir, "scripts", "pompprof-timeline")
    rows = []
    for ranks in RANKS:
        cmd = [args.mpirun, "--oversubscribe", "-np", str(ranks), exe] + HYBRID_ARGS
        plain_out = os.path.join(work, "profile%d" % ranks)
        untraced, _ = run(cmd, dict(mpi_env(), POMPPROF_OUTPUT=plain_out))
        out = os.path.join(work, "trace%d" % ranks)
        traced, p = run(cmd, dict(mpi_env(), POMPPROF_OUTPUT=out, POMPPROF_TRACE="1",
                                  POMPPROF_VERBOSE="1"))
        m = WRITE_LINE.search(p.stderr)
        if not m:
            raise Failure("%d ranks: no line on the trace's writing in\n%s" % (ranks, p.stderr))
        # the analysis's own peak: its largest process (the replay, or Python), measured
        # in a process of its own (this one's children include the jobs)
        analyse, p = run([sys.executable, "-c", PEAK, timeline, out, "--format", "json"])
        out_json, peak = p.stdout.rsplit("\n", 2)[0], int(p.stdout.rsplit("\n", 2)[1])
        data = json.loads(out_json)
        draw, _ = run([timeline, out, "--png", os.path.join(work, "t%d.png" % ranks)])
        rows.append({"ranks": ranks, "untraced": untraced, "traced": traced,
                     "write": float(m.group(2)), "events_s": float(m.group(3)),
                     "defs_s": float(m.group(4)), "events": data["trace"]["events"],
                     "bytes": archive_bytes(out), "analyse": analyse, "draw": draw,
                     "peak_kib": peak, "messages": data["mpi"]["matched"]})
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(plain_out, ignore_errors=True)
    return rows


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builddir", required=True)
    ap.add_argument("--mpirun", default="mpirun")
    args = ap.parse_args(argv)
    work = tempfile.mkdtemp(prefix="pp-bench-trace-mpi-")
    try:
        rows = bench(args, work)
    except (Failure, subprocess.TimeoutExpired) as e:
        print("trace_mpi_bench: %s" % e)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("Hybrid job traced (examples/hybrid.c %s, %d threads per rank, oversubscribed on %d "
          "cores)" % (" ".join(HYBRID_ARGS), THREADS, os.cpu_count()))
    print("untraced, traced: the whole mpirun; write: the archive at MPI_Finalize (of it: rank "
          "0 converting its threads, the definitions); analyse: pompprof-timeline's breakdown; "
          "draw: its PNG; peak: the analysis's largest process")
    print("%5s %9s %9s %9s %9s %9s %9s %9s %10s %9s %9s %9s" % (
        "ranks", "untraced", "traced", "write", "rank 0", "defs", "events", "messages",
        "archive", "analyse", "draw", "peak"))
    print("%5s %9s %9s %9s %9s %9s %9s %9s %10s %9s %9s %9s" % (
        "", "s", "s", "s", "s", "s", "", "", "MiB", "s", "s", "MiB"))
    for r in rows:
        print("%5d %9.3f %9.3f %9.3f %9.3f %9.3f %9d %9d %10.2f %9.3f %9.3f %9.1f" % (
            r["ranks"], r["untraced"], r["traced"], r["write"], r["events_s"], r["defs_s"],
            r["events"], r["messages"], r["bytes"] / 2**20, r["analyse"], r["draw"],
            r["peak_kib"] / 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
