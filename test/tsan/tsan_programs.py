#!/usr/bin/env python3
"""The e2e programs of both event sources under ThreadSanitizer (make check-tsan).

Runs only inside the ThreadSanitizer build (test/tsan/check_tsan.sh: the
library and these programs built with clang -fsanitize=thread on LLVM's
libomp).  Every program runs with LLVM's Archer telling TSan the runtime's
synchronisation, and must end as it does without pompprof, with no report
of ThreadSanitizer (TSAN_OPTIONS sets exitcode=66 and the harness's
suppressions), no other line of pompprof's, and a profile that reads back
with the program's regions:

- OPARI2 mode (the wrapper; Archer is the OMPT tool): tasks (nested,
  taskwait, if(0), untied), worksharing, locks, nested parallel regions,
  user regions, untied tasks that yield, dependences traced
  (POMPPROF_TRACE=1), and the function source (-finstrument-functions:
  __cyg_profile_func_enter/exit in libpompprof; pompprof --functions passes
  gcc's exclusion flags, which clang 14 lacks, so a POMPPROF_FILTER leaves
  OpenMP's outlined functions out);
- OMPT mode (plain clang -fopenmp; test/tsan/archer_chain.so loads Archer
  and chains libpompprof_ompt.so behind it): the same tasks, locks, nested
  regions, untied tasks, taskloop, dependences.  (Not test/ompt/progs/
  if0_depend.c: Archer of LLVM 14 dereferences NULL at its taskwait with
  depend clauses, without pompprof too.)

Each at 2 and 4 threads.  Programs with a race of their own are not among
them (TSan would report the program)."""
import os
import shlex
import subprocess
import sys
import tempfile

TOP_SRCDIR = os.environ.get("top_srcdir")
TOP_BUILDDIR = os.environ.get("top_builddir")
if not TOP_SRCDIR or not TOP_BUILDDIR:
    sys.exit("run through make check (top_srcdir/top_builddir unset)")
if not os.environ.get("PP_TSAN_CHAIN"):
    print("SKIP: runs inside make check-tsan only (test/tsan/check_tsan.sh)")
    sys.exit(77)
sys.path.insert(0, os.path.join(TOP_SRCDIR, "scripts"))
from pompprof_tools.cube import cubex  # noqa: E402

CC = shlex.split(os.environ["CC"])  # clang -fsanitize=thread ...
WRAPPER = os.path.join(TOP_BUILDDIR, "scripts", "pompprof")
TOOL = os.path.join(TOP_BUILDDIR, ".libs", "libpompprof_ompt.so")
CHAIN = os.environ["PP_TSAN_CHAIN"]
ARCHER = os.environ.get("PP_TSAN_ARCHER", "/usr/lib/llvm-14/lib/libarcher.so")
ENV = dict(os.environ,
           POMPPROF_LIBDIR=os.path.join(TOP_BUILDDIR, ".libs"),
           POMPPROF_INCDIR=os.path.join(TOP_SRCDIR, "pomp2"),
           OMP_MAX_ACTIVE_LEVELS="2")
ENV.pop("OMP_TOOL_LIBRARIES", None)


def src(*parts):
    return os.path.join(TOP_SRCDIR, "test", *parts)


# (name, source, args, expected regions (name prefixes), extra environment)
CASES = [
    ("tasks", src("e2e", "progs", "tasks.c"), [], ["!$omp task @", "!$omp taskwait"], {}),
    ("worksharing", src("e2e", "progs", "worksharing.c"), [], ["!$omp for @"], {}),
    ("locks", src("e2e", "progs", "locks.c"), [], ["omp_set_lock"], {}),
    ("nested", src("e2e", "progs", "nested.c"), [], ["!$omp parallel @"], {}),
    ("untied", src("ompt", "progs", "untied.c"), ["16", "20000"],
     ["!$omp untied task @|!$omp task @"], {}),
    ("taskloop", src("ompt", "progs", "taskloop.c"), ["200"], ["!$omp taskloop @"], {}),
    ("depend", src("trace", "progs", "depend.c"), [], ["!$omp task @"], {}),
    ("depend_traced", src("trace", "progs", "depend.c"), [], ["!$omp task @"],
     {"POMPPROF_TRACE": "1"}),
]
OPARI2_ONLY = {"user": (src("e2e", "progs", "user.c"), [], ["setup", "work"], {}),
               "functions": (src("functions", "progs", "fig2.c"), ["6", "200"], ["foo"],
                             {"POMPPROF_FILTER": "<outlined>"})}
# clang's -finstrument-functions instruments OpenMP's outlined functions too
# (gcc's exclusion flags, which pompprof --functions passes, clang 14 lacks):
# their enter and exit fall on both sides of the parallel region's begin and
# end, so the run filters them out
OUTLINED_FILTER = ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE .omp_outlined* .omp_task_entry*\n"
                   "SCOREP_REGION_NAMES_END\n")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def build(scratch, name, source, mode):
    exe = os.path.join(scratch, "%s_%s" % (name, mode))
    flags = ["-g", "-O1"]
    if name == "functions":
        flags.append("-finstrument-functions")
    if mode == "opari2":
        cmd = [WRAPPER] + CC + ["-fopenmp"] + flags + [source, "-o", exe]
    elif mode == "plain":
        cmd = CC + ["-fopenmp"] + flags + ["-I" + os.path.join(TOP_SRCDIR, "pomp2"), source,
                                           "-o", exe]
    else:
        cmd = CC + ["-fopenmp"] + flags + [source, "-o", exe]
    p = subprocess.run(cmd, env=ENV, cwd=scratch, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        fail("building %s (%s): %s\n%s" % (name, mode, " ".join(cmd), p.stderr))
    return exe


def run(exe, args, threads, env):
    p = subprocess.run([exe] + args, env=dict(ENV, OMP_NUM_THREADS=str(threads), **env),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=600)
    return p


def check_report(what, p, plain):
    if "ThreadSanitizer" in p.stderr:
        fail("%s: ThreadSanitizer reports:\n%s" % (what, p.stderr[-12000:]))
    if p.returncode != plain.returncode:
        fail("%s: exit status %d, %d without pompprof\n%s" % (what, p.returncode,
                                                              plain.returncode, p.stderr))
    ours = [line for line in p.stderr.splitlines() if line.startswith("pompprof:")]
    if ours:
        fail("%s: unexpected lines of pompprof: %s" % (what, ours))


def check_profile(what, out, regions):
    try:
        cube = cubex.load(out)
    except cubex.CubexError as e:
        fail("%s: the profile does not read back: %s" % (what, e))
    names = {c.region.name for c in cube.cnodes_in_order()}
    for r in regions:  # name prefixes, alternatives separated by |
        visited = [c for c in cube.cnodes_in_order()
                   if any(c.region.name.startswith(a) for a in r.split("|"))
                   and sum(cube.row("visits", c)) > 0]
        if not visited:
            fail("%s: no visited region %s in the profile (has %s)" % (what, r, sorted(names)))


def main():
    scratch = tempfile.mkdtemp(prefix="tsan_programs_", dir=os.path.join(TOP_BUILDDIR, "test",
                                                                          "tsan"))
    cases = [(n, s, a, r, e, m) for (n, s, a, r, e) in CASES for m in ("opari2", "ompt")]
    cases += [(n, s, a, r, e, "opari2") for n, (s, a, r, e) in OPARI2_ONLY.items()]
    runs = 0
    for name, source, args, regions, extra, mode in cases:
        plain = build(scratch, name, source, "plain")
        exe = build(scratch, name, source, mode)
        for threads in (2, 4):
            what = "%s (%s mode, %d threads)" % (name, mode, threads)
            ref = run(plain, args, threads, {"OMP_TOOL_LIBRARIES": ARCHER})
            if "ThreadSanitizer" in ref.stderr:
                fail("%s: the program itself races without pompprof:\n%s" % (what, ref.stderr))
            out = os.path.join(scratch, "%s-%s-%d" % (name, mode, threads))
            env = dict(extra, POMPPROF_OUTPUT=out)
            if env.get("POMPPROF_FILTER") == "<outlined>":
                env["POMPPROF_FILTER"] = os.path.join(scratch, "outlined.filter")
                with open(env["POMPPROF_FILTER"], "w") as f:
                    f.write(OUTLINED_FILTER)
            if mode == "ompt":
                env.update(OMP_TOOL_LIBRARIES=CHAIN, PP_TSAN_CHAINED_TOOL=TOOL)
            else:
                env.update(OMP_TOOL_LIBRARIES=ARCHER)
            p = run(exe, args, threads, env)
            check_report(what, p, ref)
            check_profile(what, out, regions)
            runs += 1
            print("ok: " + what)
    subprocess.run(["rm", "-rf", scratch])
    print("PASS: %d runs of both event sources, no report of ThreadSanitizer" % runs)


main()
