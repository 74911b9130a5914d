"""Shared by the tests of test/numbers (not a test itself): the build tree's wrapper and
tools, building the programs of test/numbers/progs (a tiled Cholesky with depend, a C++
particle code for --functions, a quicksort with untied tasks and a taskloop) with the
wrapper or plainly, running them (traced or not), and the tools' output as data:
pompprof-report --format json/csv, pompprof-timeline --format json, pompprof-replay."""
import csv
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.environ.get("top_srcdir", "."), "test", "e2e"))
from e2e_env import CC, ENV, OPENMP, TOP_BUILDDIR, TOP_SRCDIR, WRAPPER  # noqa: E402

sys.path.insert(0, os.path.join(TOP_SRCDIR, "scripts"))
sys.path.insert(1, os.path.join(TOP_BUILDDIR, "scripts"))

PROGS = os.path.join(TOP_SRCDIR, "test", "numbers", "progs")
SCRIPTS = os.path.join(TOP_BUILDDIR, "scripts")
REPLAY = os.path.join(TOP_BUILDDIR, "replay", "pompprof-replay")
SCENARIOS = os.path.join(TOP_BUILDDIR, "test", "unit", "trace", "trace_scenarios")
CXX = os.environ.get("CXX", "g++").split()
ENV = dict(ENV)
for var in ("POMPPROF_TRACE", "POMPPROF_TRACE_BUFFER", "POMPPROF_METRICS", "POMPPROF_OUTPUT",
            "POMPPROF_FUNCTIONS", "POMPPROF_FILTER", "OMP_TOOL_LIBRARIES",
            "POMPPROF_VIEW_SHOTS"):   # the tests' own setting, none of the library's
    ENV.pop(var, None)


def have_replay():
    return os.path.isfile(REPLAY)


def build(scratch, source, wrapper=True, functions=False, name=None):
    """test/numbers/progs/<source> built with the wrapper (with --functions) or plainly
    into scratch, -O2 -g; the executable's path."""
    exe = os.path.join(scratch, name or os.path.splitext(source)[0])
    compiler = CXX if source.endswith(".cpp") else CC
    cmd = (([WRAPPER] + (["--functions"] if functions else [])) if wrapper else []) + compiler
    cmd += OPENMP + ["-O2", "-g", os.path.join(PROGS, source), "-o", exe, "-lm"]
    p = subprocess.run(cmd, env=ENV, cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if p.returncode != 0:
        raise AssertionError("building %s: %s" % (source, p.stderr))
    return exe


def run(exe, out, args=(), threads=2, trace=False, env=None):
    """Run exe with its profile (and trace) into out; its stdout."""
    e = dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out)
    if trace:
        e["POMPPROF_TRACE"] = "1"
    e.update(env or {})
    p = subprocess.run([exe] + [str(a) for a in args], env=e, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=600)
    if p.returncode != 0 or p.stderr:
        raise AssertionError("%s exited %d: %s" % (exe, p.returncode, p.stderr))
    return p.stdout


def tool(name, *args, check=True):
    """pompprof-<name> of the build tree; the CompletedProcess (text)."""
    p = subprocess.run([os.path.join(SCRIPTS, "pompprof-" + name)] + [str(a) for a in args],
                       env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=600)
    if check and p.returncode != 0:
        raise AssertionError("pompprof-%s %s: %s" % (name, " ".join(map(str, args)), p.stderr))
    return p


def report(path):
    return json.loads(tool("report", "--format", "json", path).stdout)


def report_csv(path):
    """pompprof-report --format csv as {(section, key, row, field): value text}."""
    rows = csv.DictReader(io.StringIO(tool("report", "--format", "csv", path).stdout))
    return {(r["section"], r["key"], r["row"], r["field"]): r["value"] for r in rows}


def timeline(path, *args):
    return json.loads(tool("timeline", path, "--format", "json", *args).stdout)


def replay(archive, *args):
    p = subprocess.run([REPLAY] + [str(a) for a in args] + [archive], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, timeout=600)
    if p.returncode != 0:
        raise AssertionError("pompprof-replay %s: %s" % (archive, p.stderr))
    return json.loads(p.stdout)


def pragma_lines(source, word):
    """The lines of `#pragma omp task` directives in progs/source followed (on the next
    line) by a call of word: a task construct's line by the kernel it runs."""
    with open(os.path.join(PROGS, source)) as f:
        lines = f.read().splitlines()
    return [i + 1 for i, ln in enumerate(lines[:-1])
            if ln.strip().startswith("#pragma omp task") and lines[i + 1].strip().startswith(word + "(")]
