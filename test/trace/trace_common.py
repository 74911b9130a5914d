"""Helpers of the trace tests: build a program with the build-tree wrapper (the trees and
the compiler from test/e2e/e2e_env.py), run it with POMPPROF_TRACE=1, read its trace back
with otf2-print (Debian otf2-tools) and with pompprof-timeline."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.environ.get("top_srcdir", "."), "test", "e2e"))
from e2e_env import CC, ENV, OPENMP, TOP_BUILDDIR, TOP_SRCDIR, WRAPPER  # noqa: E402
from e2e_env import PROGS as E2E_PROGS  # noqa: E402

PROGS = os.path.join(TOP_SRCDIR, "test", "trace", "progs")
EXAMPLES = os.path.join(TOP_SRCDIR, "examples")
TIMELINE = os.path.join(TOP_BUILDDIR, "scripts", "pompprof-timeline")
ENV = dict(ENV)
for var in ("POMPPROF_TRACE", "POMPPROF_TRACE_BUFFER", "POMPPROF_METRICS", "POMPPROF_OUTPUT"):
    ENV.pop(var, None)


def build(scratch, source, profiled=True):
    """Compile source (a path) into scratch, through the wrapper unless profiled is
    False; returns the executable."""
    exe = os.path.join(scratch, os.path.splitext(os.path.basename(source))[0]
                       + ("" if profiled else "_plain"))
    fortran = source.endswith(".f90")
    compiler = (os.environ.get("FC") or "gfortran").split() if fortran else CC
    cmd = ([WRAPPER] if profiled else []) + compiler + OPENMP + ["-O2", "-I" + PROGS, source,
                                                               "-o", exe, "-lm"]
    subprocess.run(cmd, env=ENV, check=True, cwd=scratch)
    return exe


def run(exe, out_dir, threads=2, args=(), env=None, trace=True, check=True):
    """Run exe; returns the CompletedProcess (text output)."""
    e = dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out_dir)
    if trace:
        e["POMPPROF_TRACE"] = "1"
    e.update(env or {})
    proc = subprocess.run([exe] + [str(a) for a in args], env=e, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    if check and (proc.returncode != 0 or proc.stderr):
        raise AssertionError("%s exited %d, stderr: %r" % (exe, proc.returncode, proc.stderr))
    return proc


class Events:
    """A trace as otf2-print shows it: rows (event, location, attribute text)."""

    def __init__(self, archive):
        proc = subprocess.run(["otf2-print", archive], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
        if proc.returncode != 0 or proc.stderr:
            raise AssertionError("otf2-print %s failed (%d): %s"
                                 % (archive, proc.returncode, proc.stderr.strip()))
        self.rows = []
        for line in proc.stdout.splitlines():
            parts = line.split(None, 3)
            if len(parts) >= 3 and parts[0].isupper() and parts[1].isdigit():
                self.rows.append((parts[0], int(parts[1]), parts[3] if len(parts) > 3 else ""))

    def count(self, event, loc=None, text=None):
        return sum(1 for e, l, a in self.rows
                   if e == event and (loc is None or l == loc) and (text is None or text in a))

    def locations(self):
        return sorted({l for _, l, _ in self.rows})


def timeline(path, *args):
    """pompprof-timeline's JSON result for the trace in path."""
    proc = subprocess.run([TIMELINE, path, "--format", "json"] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    if proc.returncode != 0:
        raise AssertionError("pompprof-timeline %s failed: %s" % (path, proc.stderr.strip()))
    return json.loads(proc.stdout)


def fib_task_calls(n):
    """Calls of a task-per-call fib with n >= 2 (each creates two tasks)."""
    calls = [0, 0]
    for k in range(2, n + 1):
        calls.append(1 + calls[k - 1] + calls[k - 2])
    return calls[n]


def dot_edges(path):
    """The instance edges (a, b) of a pompprof-replay --dot file."""
    with open(path) as f:
        return {(int(a), int(b)) for a, b in re.findall(r"^  t(\d+) -> t(\d+)", f.read(), re.M)}


def read_report(path):
    """The "key value" lines a ground-truth program wrote (GT_REPORT)."""
    values = {}
    with open(path) as f:
        for line in f:
            k, v = line.split()
            values[k] = float(v)
    return values
