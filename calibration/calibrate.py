#!/usr/bin/env python3
"""calibrate.py: event-costs.txt, what one measured event costs on this
machine (calibration/local.mk runs it once, when pompprof is built).

  calibrate.py --plugin EXE --address EXE --plain EXE --filter FILE -o OUT

EXE are calibration/event_costs.c built with `pompprof --functions` (with
the GCC plugin where the build has it, and with -finstrument-functions) and
plainly.  The per-event figures are the programs' own (see event_costs.c),
each the median over PROCESSES runs of the program: the machine's speed
for task code drifts over seconds, so one run of the program is a draw (on
a test machine, fib's shape read 26 to 49 ns in twenty runs), as the runs
of a profiled program are, and the median is what a run meets most often.
Beside them run_fixed_ns: what pompprof adds to a run once, whatever it
measures -- loading and starting the library, writing the profile -- the
least CPU time of `EXE --nothing` (one parallel region) measured against
the plain build, over REPEATS runs each.  Python 3 standard library only."""

import argparse
import datetime
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile

REPEATS = 7
PROCESSES = 5
# the -finstrument-functions build gives two figures, of function calls only
# (steadier than tasks): fewer runs
ADDRESS_PROCESSES = 3


def run(exe, args, env):
    proc = subprocess.run([exe] + args, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    if proc.returncode != 0:
        sys.exit("calibrate.py: %s failed: %s" % (exe, proc.stderr.strip()[-300:]))
    return proc.stdout


def cpu_seconds(exe, env):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    run(exe, ["--nothing"], env)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime


def figures(text):
    return [line.split() for line in text.splitlines() if len(line.split()) == 2]


def median_figures(exe, env, processes):
    """Each figure's median over that many runs of exe, in the first run's
    order."""
    runs = [figures(run(exe, [], env)) for _ in range(processes)]
    lines = []
    for name, _ in runs[0]:
        values = [float(v) for r in runs for k, v in r if k == name]
        lines.append([name, "%.2f" % statistics.median(values)])
    return lines


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--plugin", "--address", "--plain", "--filter", "-o"):
        ap.add_argument(opt, required=True)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="pompprof-calibrate-")
    try:
        env = dict(os.environ, OMP_NUM_THREADS="1", POMPPROF_FILTER=a.filter,
                   POMPPROF_OUTPUT=os.path.join(work, "out"))
        lines = median_figures(a.plugin, env, PROCESSES)
        lines += [[k.replace("_ns", "_address_ns"), v]
                  for k, v in median_figures(a.address, env, ADDRESS_PROCESSES)
                  if k in ("function_pair_ns", "filtered_pair_ns")]
        fixed = []
        for r in range(REPEATS):
            env["POMPPROF_OUTPUT"] = os.path.join(work, "nothing%d" % r)
            fixed.append(cpu_seconds(a.plugin, env) - cpu_seconds(a.plain, env))
        lines.append(["run_fixed_ns", "%.0f" % max(min(fixed) * 1e9, 0.0)])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    with open(a.o + ".tmp", "w") as f:
        f.write("# what one event costs, ns of CPU time (calibration/event_costs.c), measured when\n"
                "# pompprof was built on %s, %s: pompprof-score reads it\n"
                % (socket.gethostname(),
                   datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")))
        for k, v in lines:
            f.write("%s %s\n" % (k, v))
    os.replace(a.o + ".tmp", a.o)


if __name__ == "__main__":
    main()
