#!/usr/bin/env python3
"""PAPI counters end to end, with real counts.

Page faults are what this kind of machine can count without hardware counters: PAPI's
perf_event component counts the kernel's software events (perf::PAGE-FAULTS, ...) for
real.  Each task of test/e2e/progs/prof_pagefaults.c maps N fresh pages and touches each
once, so it takes N page faults.  Checked at 1, 2 and 4 threads:

* below TASKS, the task construct has N page faults per instance within 5 %, and the
  stubs where the instances ran hold the same counts;
* the counter is a metric of its own (EXCLUSIVE UINT64, PAPI's name and description, a
  link into the README's metric table), and no value is negative the way cube_sanity
  computes it (test/tools/sanity_rule.py), except the program root's time;
* events PAPI cannot count, repeated names and names beyond pompprof's limit are left
  out with one pompprof: line naming each and why, the program's output unchanged;
* pompprof-report shows the counter in its flat profile and call trees.

Skips (exit 77, with one line saying why) where pompprof was built without PAPI or
PAPI has no access to perf_event here.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_env import ENV, TOP_BUILDDIR, TOP_SRCDIR, build, cubex  # noqa: E402
sys.path.insert(0, os.path.join(TOP_SRCDIR, "test", "tools"))
import sanity_rule  # noqa: E402

REPORT = os.path.join(TOP_BUILDDIR, "scripts", "pompprof-report")
ENV = {k: v for k, v in ENV.items() if k not in ("POMPPROF_METRICS", "POMPPROF_OUTPUT",
                                                   "POMPPROF_VERBOSE", "POMPPROF_ENABLE")}
EVENT = "perf::PAGE-FAULTS"
TASKS, PAGES = 16, 256
failures = []


def check(ok, what):
    print("%s: %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        failures.append(what)


def skip(why):
    print("SKIP: %s" % why)
    sys.exit(77)


def have_papi():
    with open(os.path.join(TOP_BUILDDIR, "config.h")) as f:
        return re.search(r"^#define PP_HAVE_PAPI 1", f.read(), re.M) is not None


def run(exe, threads, metrics, scratch):
    out = tempfile.mkdtemp(dir=scratch)
    env = dict(ENV, OMP_NUM_THREADS=str(threads), POMPPROF_OUTPUT=out, POMPPROF_METRICS=metrics)
    proc = subprocess.run([exe, str(TASKS), str(PAGES)], env=env, capture_output=True, text=True)
    return proc, out


def counter(cube):
    (m,) = [m for m in cube.metrics if m.disp_name == EVENT]
    return m


def check_run(exe, threads, plain, scratch):
    """A run on `threads` threads counting EVENT: the program's output unchanged, the
    counter's metric, its counts below the task construct and at its stubs, the
    profile's sanity; at 2 threads the text report's counter columns."""
    proc, out = run(exe, threads, EVENT, scratch)
    check(proc.returncode == 0 and proc.stdout == plain.stdout and not proc.stderr,
          "%d threads: output unchanged, no message" % threads)
    cube = cubex.load(out)
    m = counter(cube)
    check((m.type, m.dtype, m.uniq_name, m.unit) == ("EXCLUSIVE", "UINT64",
                                                    "perf::PAGE_FAULTS", "#"),
          "counter metric %r %s %s" % (m.uniq_name, m.type, m.dtype))
    check(m.url == "@mirror@README.md#metric-counters" and EVENT in m.descr,
          "counter link and description: %s / %s" % (m.url, m.descr))
    (root,) = cube.task_roots()
    instances = sum(cube.row("visits", root))
    faults = sum(cube.inclusive_row(m, root))
    per = faults / instances if instances else 0
    print("%d threads: %d instances, %d page faults below the task construct, "
          "%.2f per instance" % (threads, instances, faults, per))
    check(instances == TASKS, "%d instances of the task construct" % instances)
    check(0.95 * PAGES <= per <= 1.05 * PAGES,
          "%.2f page faults per instance, %d +- 5 %% expected" % (per, PAGES))
    stubs = [c for c in cube.cnodes_in_order() if c.region.name == root.region.name
             and c is not root and not any(a is cube.tasks_nodes()[0]
                                           for a in ancestors(c))]
    at_stubs = sum(sum(cube.inclusive_row(m, s)) for s in stubs)
    check(abs(at_stubs - faults) <= 0.05 * faults,
          "stubs hold %d page faults, the task construct %d" % (at_stubs, faults))
    rest = {f for f in sanity_rule.findings(cube)
            if f[:3] != ("exclusive", "time", cube.roots[0].id)}
    check(not rest, "cube_sanity's rule: nothing but the root's time %s"
          % sanity_rule.describe(cube, rest))
    if threads == 2:
        check_report_text(out, faults)


def check_report_text(out, faults):
    """pompprof-report names the counter, gives it a column and shows its counts."""
    report = subprocess.run([REPORT, out], capture_output=True, text=True)
    check(report.returncode == 0, "pompprof-report runs: %s" % report.stderr.strip())
    text = report.stdout
    check("PAGE-FAULTS = %s" % EVENT in text, "the header names the counter")
    flat = text[text.index("Flat profile"):text.index("Call tree")]
    check(re.search(r"^thread .* PAGE-FAULTS$", flat, re.M) is not None,
          "the flat profile has a column for the counter")
    tree = text[text.index("Task trees"):text.index("Tasks (seconds)")]
    check(re.search(r" %d .*!\$omp task @prof_pagefaults" % faults, tree)
          is not None, "the task tree shows the %d page faults" % faults)


def check_left_out(exe, plain, scratch):
    """Events that cannot be counted, and more than pompprof counts at once: each one
    counted or named on one line."""
    # names that cannot be counted: one line naming each, and why
    names = [EVENT, "NO_SUCH_EVENT_X", EVENT] + ["perf::TASK-CLOCK"]
    proc, out = run(exe, 2, ",".join(names), scratch)
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("pompprof: ")]
    check(proc.stdout == plain.stdout and len(lines) == 1 and len(proc.stderr.splitlines()) == 1,
          "one pompprof: line for the events left out: %r" % proc.stderr)
    line = lines[0] if lines else ""
    check("NO_SUCH_EVENT_X (unknown to PAPI" in line and "%s (named twice)" % EVENT in line,
          "the line names each event left out and why")
    kept = [m.disp_name for m in cubex.load(out).metrics if m.unit == "#"]
    check(kept == [EVENT, "perf::TASK-CLOCK"], "counted: %s" % kept)
    # more names than pompprof counts at once: each one counted or named
    aliases = ["perf::PAGE-FAULTS", "perf::PERF_COUNT_SW_PAGE_FAULTS", "perf::FAULTS",
               "perf::MINOR-FAULTS", "perf::PERF_COUNT_SW_PAGE_FAULTS_MIN",
               "perf::MAJOR-FAULTS", "perf::PERF_COUNT_SW_PAGE_FAULTS_MAJ",
               "perf::TASK-CLOCK", "perf::PERF_COUNT_SW_TASK_CLOCK", "perf::CPU-CLOCK",
               "perf::PERF_COUNT_SW_CPU_CLOCK", "perf::CONTEXT-SWITCHES", "perf::CS",
               "perf::PERF_COUNT_SW_CONTEXT_SWITCHES", "perf::CPU-MIGRATIONS",
               "perf::MIGRATIONS", "perf::PERF_COUNT_SW_CPU_MIGRATIONS"]
    proc, out = run(exe, 1, ",".join(aliases), scratch)
    kept = [m.disp_name for m in cubex.load(out).metrics if m.unit == "#"]
    line = proc.stderr.strip()
    missing = [a for a in aliases if a not in kept and ("%s (" % a) not in line]
    check(len(kept) <= 16 and len(proc.stderr.splitlines()) == 1 and not missing,
          "%d of %d events counted, the others named: %s" % (len(kept), len(aliases), line))
    check(len(kept) < 16 or "(pompprof counts at most 16 events)" in line,
          "the limit is named")


def main():
    if not have_papi():
        skip("pompprof was built without PAPI (configure found no libpapi)")
    try:
        with open("/proc/sys/kernel/perf_event_paranoid") as f:
            paranoid = int(f.read())
    except (OSError, ValueError):
        skip("no hardware counters here: no /proc/sys/kernel/perf_event_paranoid (no "
             "perf_event on this system)")
    if paranoid > 2:
        skip("no hardware counters here: perf_event_paranoid is %d (unprivileged processes "
             "cannot count events)" % paranoid)
    scratch = tempfile.mkdtemp(prefix="pp_e2e_ctr_")
    try:
        exe = build(scratch, "prof_pagefaults.c")
        plain = subprocess.run([exe, str(TASKS), str(PAGES)], env=dict(ENV, POMPPROF_ENABLE="0"),
                               capture_output=True, text=True)
        proc, _ = run(exe, 1, EVENT, scratch)
        if proc.stderr:
            skip("no hardware counters here: PAPI cannot count %s (%s)"
                 % (EVENT, proc.stderr.strip()))
        for threads in (1, 2, 4):
            check_run(exe, threads, plain, scratch)
        check_left_out(exe, plain, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    return 0


def ancestors(c):
    while c.parent is not None:
        c = c.parent
        yield c


if __name__ == "__main__":
    sys.exit(main())
