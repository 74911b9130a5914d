#!/usr/bin/env python3
"""The construct-coverage suite: one small program per OpenMP construct and
clause that gcc 12 accepts (C in c/, C++ in cxx/, Fortran in fortran/), each
built plainly and through the build-tree `pompprof` wrapper.

For every program it checks, and counts:

* built: both builds succeed, and the wrapper's build prints exactly the plain
  build's messages (a program may warn on purpose) plus pompprof notes, which
  must be the ones the program's header expects ("notes=...") and no others;
* identical output: at 1, 2 and 4 threads, stdout, exit status and stderr
  equal the plain build's (the profiled run adds no message at all);
* profile written: every run writes a .cubex that the tools read back;
* measured as expected: the profile has a region for each construct the
  header names ("measured=parallel,task" -> "!$omp parallel @...",
  "!$omp task @..."), none of them "unknown", and the task instances the
  header counts ("instances=task:8": 8 visits of task roots "!$omp task @...",
  at every thread count).

The header is one comment line in each program:
    pompprof-coverage: measured=<words> [notes=<words>] [instances=<word>:<n>,...]
It prints "built N/N, identical output N/N, profile written N/N, measured as
expected N/N, fell back N" (N programs whose wrapper build compiled a file
without measurement) and fails when any count falls short or one fell back.  COVERAGE_OPT (default
-O1) and COVERAGE_THREADS (default "1 2 4") vary the builds for make check-long.
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP_SRCDIR = os.environ.get("top_srcdir")
TOP_BUILDDIR = os.environ.get("top_builddir")
if not TOP_SRCDIR or not TOP_BUILDDIR:
    sys.exit("run through make check (top_srcdir/top_builddir unset)")
sys.path.insert(0, os.path.join(TOP_SRCDIR, "scripts"))
from pompprof_tools.cube import cubex  # noqa: E402

HERE = os.path.join(TOP_SRCDIR, "test", "coverage")
WRAPPER = os.path.join(TOP_BUILDDIR, "scripts", "pompprof")
ENV = dict(os.environ, POMPPROF_LIBDIR=os.path.join(TOP_BUILDDIR, ".libs"),
           POMPPROF_INCDIR=os.path.join(TOP_SRCDIR, "pomp2"), LC_ALL="C")
CC = os.environ.get("CC", "gcc").split()
FC = (os.environ.get("FC") or "gfortran").split()
OPENMP = os.environ.get("OPENMP_CFLAGS", "-fopenmp").split()
OPT = os.environ.get("COVERAGE_OPT", "-O1").split()
THREADS = [int(t) for t in os.environ.get("COVERAGE_THREADS", "1 2 4").split()]
HEADER = re.compile(r"pompprof-coverage:\s*(.*)")
LANGUAGES = (("c", (".c",)), ("cxx", (".cpp",)), ("fortran", (".f90", ".F90", ".f", ".F")))


def cxx_compiler():
    if os.environ.get("CXX"):
        return os.environ["CXX"].split()
    cc = CC[-1]
    return [cc.replace("gcc", "g++") if "gcc" in cc else "g++"]


def compiler_for(lang):
    return {"c": CC, "cxx": cxx_compiler(), "fortran": FC}[lang]


def header(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = HEADER.search(line)
            if m:
                fields = dict(kv.split("=", 1) for kv in m.group(1).replace("*/", "").split()
                              if "=" in kv)
                # "untied_task" stands for the region word "untied task"
                return {k: [w.replace("_", " ") for w in v.split(",") if w]
                        for k, v in fields.items()}
    return None


def without_notes(text):
    return "".join(line for line in text.splitlines(True) if not line.startswith("pompprof:"))


def notes_of(text):
    return [line for line in text.splitlines() if line.startswith("pompprof:")]


def run(cmd, cwd, env=None, timeout=120):
    p = subprocess.run(cmd, cwd=cwd, env=env or ENV, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def region_words(names):
    """'!$omp critical (x) @f.c:3' -> 'critical'; '!$omp parallel @f.c:3' -> 'parallel'."""
    out = set()
    for n in names:
        m = re.match(r"!\$omp (.*?)(?: \(.*\))? @", n)
        if m:
            out.add(m.group(1))
    return out


def check(lang, name, scratch):
    """(counts dict, list of failure texts) for one program."""
    src = os.path.join(HERE, lang, name)
    expect = header(src)
    work = os.path.join(scratch, lang + "-" + name)
    os.makedirs(work)
    counts = dict.fromkeys(("built", "identical", "profile", "measured", "fell_back"), 0)
    fails = []
    if expect is None:
        return counts, ["%s: no pompprof-coverage header" % name]
    cc = compiler_for(lang)
    # both builds see the source under the same short name, a link in their directory
    # (it shows in __FILE__, and a free-form Fortran line must not outgrow 132 columns
    # wherever the checkout lies); its includes are found beside the original
    os.symlink(src, os.path.join(work, name))
    base = cc + OPENMP + OPT + ["-I" + os.path.dirname(src), name]
    p_rc, _, p_err = run(base + ["-o", "plain"], work)
    w_rc, _, w_err = run([WRAPPER] + base + ["-o", "inst"], work)
    notes = notes_of(w_err)
    counts["fell_back"] = int(any("without measurement" in n for n in notes))
    if p_rc != 0:
        fails.append("%s: the plain build fails:\n%s" % (name, p_err))
    elif w_rc != 0:
        fails.append("%s: the wrapper's build fails (%d):\n%s" % (name, w_rc, w_err))
    elif without_notes(w_err) != p_err:
        fails.append("%s: the wrapper's messages differ from the plain build's:\n--- plain\n%s"
                     "--- pompprof\n%s" % (name, p_err, w_err))
    else:
        wanted = expect.get("notes", [])
        missing = [w for w in wanted if not any(w in n for n in notes)]
        unexpected = [n for n in notes if not any(w in n for w in wanted)]
        if missing or unexpected:
            fails.append("%s: notes %s expected, got:\n%s" % (name, wanted, "\n".join(notes)))
        else:
            counts["built"] = 1
    if not counts["built"]:
        return counts, fails
    identical = profiles = measured = True
    for t in THREADS:
        env = dict(ENV, OMP_NUM_THREADS=str(t))
        out = os.path.join(work, "t%d.cubex" % t)
        a = run(["./plain"], work, env)
        b = run(["./inst"], work, dict(env, POMPPROF_OUTPUT=out))
        if a != b:
            identical = False
            fails.append("%s t=%d: plain (rc %d) and profiled (rc %d) runs differ:\n--- plain\n"
                         "%s%s--- profiled\n%s%s" % (name, t, a[0], b[0], a[1], a[2], b[1], b[2]))
        try:
            prof = cubex.load(out)
        except (OSError, cubex.CubexError) as e:
            profiles = False
            fails.append("%s t=%d: no profile read back (%s)" % (name, t, e))
            continue
        names = [r.name for r in prof.regions.values()]
        words = region_words(names)
        missing = [w for w in expect.get("measured", []) if w not in words]
        if missing or any("unknown" in n for n in names):
            measured = False
            fails.append("%s t=%d: regions %s expected, the profile has: %s"
                         % (name, t, missing, sorted(n for n in names if n.startswith("!$omp"))))
        got = task_instances(prof)
        for word, n in (w.rsplit(":", 1) for w in expect.get("instances", [])):
            if got.get(word, 0) != int(n):
                measured = False
                fails.append("%s t=%d: %s %s instances expected, the profile has %d"
                             % (name, t, n, word, got.get(word, 0)))
    counts.update(identical=int(identical), profile=int(profiles), measured=int(measured))
    return counts, fails


def task_instances(prof):
    """{'task': n, ...}: the visits of the task roots, by region word."""
    got = {}
    for c in prof.task_roots():
        for word in region_words([c.region.name]):
            got[word] = got.get(word, 0) + sum(prof.row("visits", c))
    return got


def available(lang):
    """Is the language's compiler there (Fortran: and were the bindings built)?"""
    if lang == "fortran" and os.environ.get("FORTRAN_BINDINGS", "no") != "yes":
        return False
    return shutil.which(compiler_for(lang)[0]) is not None


def programs():
    for lang, suffixes in LANGUAGES:
        if not available(lang):
            print("skipped: %s (no compiler)" % lang)
            continue
        d = os.path.join(HERE, lang)
        for name in sorted(os.listdir(d)):
            if name.endswith(suffixes):
                yield lang, name


def main():
    start = time.time()
    scratch = tempfile.mkdtemp(prefix="pp_coverage_")
    todo = list(programs())
    only = os.environ.get("COVERAGE_ONLY")
    if only:
        todo = [p for p in todo if re.search(only, p[1])]
    totals = dict.fromkeys(("built", "identical", "profile", "measured", "fell_back"), 0)
    per_lang = {}
    failures = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for (lang, name), (counts, fails) in zip(
                    todo, pool.map(lambda p: check(p[0], p[1], scratch), todo)):
                per_lang[lang] = per_lang.get(lang, 0) + 1
                for k, v in counts.items():
                    totals[k] += v
                failures += fails
                print("%-4s %-40s %s" % ("ok" if not fails else "FAIL", lang + "/" + name,
                                         " ".join("%s=%d" % kv for kv in counts.items())))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    n = len(todo)
    print("coverage: %d programs (%s): built %d/%d, identical output %d/%d, profile written "
          "%d/%d, measured as expected %d/%d, fell back %d (%.0f s, threads %s, %s)"
          % (n, ", ".join("%s %d" % kv for kv in per_lang.items()), totals["built"], n,
             totals["identical"], n, totals["profile"], n, totals["measured"], n,
             totals["fell_back"], time.time() - start, " ".join(map(str, THREADS)), " ".join(OPT)))
    return 1 if failures or totals["fell_back"] or not n else 0


if __name__ == "__main__":
    sys.exit(main())
