#!/usr/bin/env python3
"""bench_tools.py: how pompprof-report, -diff and -scaling scale with the profile size
(part of `make bench`; prints figures, never fails on them).

For 500, 5,000 and 50,000 task constructs, synth_profile.py writes two profiles of the
same made-up program (4 and 2 threads, with two counters); each tool runs once on them
as a command, and its wall time, CPU time (user + system) and peak RSS are printed.  The
last columns give the growth over the next smaller size: linear tools grow about 10x.

    bench_tools.py [--sizes 500,5000,50000] [--builddir DIR]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synth_profile  # noqa: E402


def measure(argv, env):
    """Run argv (output discarded); (wall s, CPU s, peak RSS KiB, exit status)."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE, env=env)
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.stderr.write("%s failed (%d): %s\n" % (" ".join(argv), code,
                                                   err.decode(errors="replace").strip()))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, code


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="500,5000,50000")
    ap.add_argument("--builddir", default=os.path.join(HERE, "..", ".."))
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    scripts = os.path.join(os.path.abspath(args.builddir), "scripts")
    tools = {t: os.path.join(scripts, "pompprof-" + t) for t in ("report", "diff", "scaling")}
    missing = [p for p in tools.values() if not os.path.exists(p)]
    if missing:
        print("bench_tools.py: %s not built (run make first)" % missing[0])
        return 1
    env = dict(os.environ)
    tmp = tempfile.mkdtemp(prefix="pompprof-bench-tools.")
    print("== Tools: time and peak memory against the profile size (task constructs)")
    print("%-8s %9s %-8s %8s %8s %9s %8s %8s" % ("constr.", "paths", "tool", "wall s",
                                                "cpu s", "RSS MB", "cpu x", "RSS x"))
    failed = 0
    last = {}
    try:
        for n in sizes:
            a = os.path.join(tmp, "a%d.cubex" % n)
            b = os.path.join(tmp, "b%d.cubex" % n)
            paths = synth_profile.write_profile(a, n, 4, counters=True, seed=1)
            synth_profile.write_profile(b, n, 2, counters=True, seed=2)
            runs = {"report": [tools["report"], a],
                    "diff": [tools["diff"], a, b],
                    "scaling": [tools["scaling"], a, b]}
            for tool, cmd in runs.items():
                wall, cpu, rss, code = measure(cmd, env)
                failed += code != 0
                grow = ""
                if tool in last:
                    pcpu, prss = last[tool]
                    grow = "%8.1f %8.1f" % (cpu / pcpu if pcpu else 0, rss / prss if prss else 0)
                last[tool] = (cpu, rss)
                print("%-8d %9d %-8s %8.2f %8.2f %9.1f %s" % (n, paths, tool, wall, cpu,
                                                             rss / 1024.0, grow))
                sys.stdout.flush()
            os.unlink(a)
            os.unlink(b)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("(cpu x, RSS x: growth over the previous size; x10 constructs = 10x for linear tools)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
