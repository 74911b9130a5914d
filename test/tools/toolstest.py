"""Helpers shared by the tool tests (not a test itself).

Finds the package through $top_srcdir (set by the Automake harness), falling back to the
location of this file, reads the golden dumps, runs the tools as subprocesses (the
commands in $top_builddir/scripts when there is a build tree)."""

import os
import re
import subprocess
import sys
import unittest

TOP_SRCDIR = os.environ.get("top_srcdir") or os.path.abspath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TOP_BUILDDIR = os.environ.get("top_builddir")
SCRIPTS = os.path.join(TOP_SRCDIR, "scripts")
GOLDEN = os.path.join(TOP_SRCDIR, "test", "tools", "golden")
GOLDEN_NAMES = ("tasks_t1", "tasks_t2", "worksharing_t1", "worksharing_t2")
PYTHON = os.environ.get("PYTHON3") or sys.executable

if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)
# the build tree's scripts/pompprof_tools holds build_config.py (the wrapper needs it)
if TOP_BUILDDIR:
    sys.path.insert(1, os.path.join(TOP_BUILDDIR, "scripts"))


def golden(name, ext="cubex"):
    return os.path.join(GOLDEN, "%s.%s" % (name, ext))


def read_values_csv(name):
    """cube_dump -z stored -s csv2: {(cnode, thread): {metric: text}}, metric names."""
    with open(golden(name, "values-stored.csv")) as f:
        lines = [ln.rstrip("\n") for ln in f if ln.strip()]
    header = [h.strip() for h in lines[0].split(",")]
    metrics = header[2:]
    out = {}
    for ln in lines[1:]:
        cells = [c.strip() for c in ln.split(",")]
        out[(int(cells[0]), int(cells[1]))] = dict(zip(metrics, cells[2:]))
    return out, metrics


def read_vte(name):
    """cube_dump -m visits,time -z excl -t aggr: {metric: {cnode: text}}."""
    out = {}
    current = None
    pat = re.compile(r"^(.*)\(id=(\d+)\)\s+(\S+)$")
    with open(golden(name, "visits-time-exclusive.txt")) as f:
        for ln in f:
            ln = ln.rstrip("\n")
            m = re.match(r"Print out the data of the metric (\S+)", ln)
            if m:
                current = out.setdefault(m.group(1), {})
                continue
            m = pat.match(ln)
            if m and current is not None:
                current[int(m.group(2))] = m.group(3)
    return out


def printed_tolerance(text):
    """Half a unit in the last printed digit of a %g-style number."""
    mant = text.lower().split("e")[0].lstrip("-+")
    exp = int(text.lower().split("e")[1]) if "e" in text.lower() else 0
    decimals = len(mant.split(".")[1]) if "." in mant else 0
    return 0.5 * 10.0 ** (exp - decimals) * 1.000001 + 1e-300


def assert_printed(tc, text, value, what):
    """value equals the printed number text within its printed precision."""
    expected = float(text)
    tol = printed_tolerance(text)
    tc.assertLessEqual(abs(float(value) - expected), tol,
                       "%s: got %r, dump says %s" % (what, value, text))


def run_tool(tool, *args, check=False, cwd=None):
    """Run pompprof-<tool> (in the directory cwd): the command make built (its stub must
    find the package by itself), or `python3 -m pompprof_tools.<tool>` when there is no
    build tree."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    command = os.path.join(TOP_BUILDDIR, "scripts", "pompprof-%s" % tool) if TOP_BUILDDIR else ""
    if os.access(command, os.X_OK):
        cmd = [command]
    else:
        cmd = [PYTHON, "-m", "pompprof_tools.%s" % tool]
        env["PYTHONPATH"] = SCRIPTS
    p = subprocess.run(cmd + [str(a) for a in args], capture_output=True,
                       text=True, env=env, timeout=120, cwd=cwd)
    if check and p.returncode != 0:
        raise AssertionError("%s %s failed (%d): %s" % (tool, args, p.returncode, p.stderr))
    return p


def main():
    """unittest.main that makes the process exit non-zero on any failure or error."""
    prog = unittest.main(module="__main__", exit=False, verbosity=2)
    res = prog.result
    sys.exit(0 if res.wasSuccessful() and res.testsRun > 0 else 1)
