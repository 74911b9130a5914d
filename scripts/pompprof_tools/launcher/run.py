"""pompprof run: run a program measured through OMPT, with no rebuild.

  pompprof run [--runtime=llvm|native] [--output=DIR] [--trace] [--metrics=LIST]
               [--verbose] -- PROGRAM [ARGS...]

The tool library (libpompprof_ompt.so) is named in OMP_TOOL_LIBRARIES; the
OpenMP runtime loads it and it feeds the same engine as OPARI2 mode, so the
profile (and with --trace the OTF2 trace) are those of OPARI2 mode.  OMPT needs a
runtime that implements it: LLVM's libomp does, gcc's libgomp does not.  A
program that needs libgomp therefore runs on Debian's libomp, preloaded (it
provides libgomp's GOMP_* entry points): --runtime=llvm, the default for such
programs, said once on stderr; --runtime=native keeps libgomp (nothing is
measured then).  The program's own output and exit status are untouched: the
program replaces this process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from .. import build_config

USAGE = """\
usage: pompprof run [--runtime=llvm|native] [--output=DIR] [--trace]
                    [--metrics=LIST] [--verbose] -- PROGRAM [ARGS...]

Run an OpenMP program measured through the OpenMP tools interface (OMPT), with
no rebuild.  Writes the same profile as a program built with the pompprof
wrapper (see POMPPROF_OUTPUT).

options:
  --runtime=llvm     run a program built for libgomp (gcc) on LLVM's libomp,
                     which implements OMPT (the default for such programs)
  --runtime=native   keep the program's runtime (libgomp has no OMPT: nothing
                     is measured)
  --output=DIR       where the profile goes (POMPPROF_OUTPUT)
  --trace            also write an OTF2 trace (POMPPROF_TRACE=1)
  --metrics=LIST     PAPI counters (POMPPROF_METRICS)
  --verbose          print the environment set and the command run
  --help             this text

All POMPPROF_* settings in the environment apply as for an instrumented program.
"""

LIBOMP_DIRS = ("/usr/lib/llvm-14/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
               "/usr/local/lib", "/usr/lib")


def note(msg: str) -> None:
    sys.stderr.write("pompprof: %s\n" % msg)


def tool_library() -> str:
    """libpompprof_ompt.so: $POMPPROF_LIBDIR (uninstalled builds) or the installation."""
    d = os.environ.get("POMPPROF_LIBDIR") or build_config.LIBDIR
    return os.path.join(d, "libpompprof_ompt.so")


def find_libomp() -> str | None:
    for d in LIBOMP_DIRS:
        p = os.path.join(d, "libomp.so.5")
        if os.path.exists(p):
            return p
    return None


def openmp_runtimes(program: str) -> set[str]:
    """The OpenMP runtimes the program loads ("gomp", "omp"), from ldd."""
    try:
        out = subprocess.run(["ldd", program], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True).stdout
    except OSError:
        return set()
    found = set()
    for line in out.splitlines():
        name = line.strip().split(" ", 1)[0]
        if name.startswith("libgomp.so"):
            found.add("gomp")
        elif name.startswith(("libomp.so", "libiomp5.so")):
            found.add("omp")
    return found


def parse(argv: list[str]):
    """(options dict, program argv) or (exit status, None)."""
    opts = {"runtime": None, "output": None, "trace": False, "metrics": None, "verbose": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("--"):
            break
        if a == "--help":
            sys.stdout.write(USAGE)
            return 0, None
        if a.startswith("--runtime="):
            opts["runtime"] = a.split("=", 1)[1]
            if opts["runtime"] not in ("llvm", "native"):
                note("--runtime takes llvm or native, not %r" % opts["runtime"])
                return 2, None
        elif a.startswith("--output="):
            opts["output"] = a.split("=", 1)[1]
        elif a == "--trace":
            opts["trace"] = True
        elif a.startswith("--metrics="):
            opts["metrics"] = a.split("=", 1)[1]
        elif a == "--verbose":
            opts["verbose"] = True
        else:
            note("unknown option %s (see pompprof run --help)" % a)
            return 2, None
        i += 1
    if i >= len(argv):
        sys.stderr.write(USAGE)
        return 2, None
    return opts, argv[i:]


def main(argv: list[str]) -> int:
    opts, command = parse(argv)
    if command is None:
        return opts
    tool = tool_library()
    if not os.path.exists(tool):
        note("%s not found: this pompprof was built without the OMPT tool "
             "(install the Debian package libomp-14-dev and configure again)" % tool)
        return 1
    program = shutil.which(command[0]) or command[0]
    if not os.path.exists(program):
        note("%s: no such program" % command[0])
        return 127
    env = dict(os.environ)
    env["OMP_TOOL_LIBRARIES"] = tool
    if opts["output"]:
        env["POMPPROF_OUTPUT"] = opts["output"]
    if opts["trace"]:
        env["POMPPROF_TRACE"] = "1"
    if opts["metrics"]:
        env["POMPPROF_METRICS"] = opts["metrics"]
    runtimes = openmp_runtimes(program)
    runtime = opts["runtime"] or ("llvm" if "gomp" in runtimes and "omp" not in runtimes
                                  else "native")
    if runtime == "llvm" and "omp" not in runtimes:
        libomp = find_libomp()
        if not libomp:
            note("LLVM's libomp (libomp.so.5) not found: install the Debian package libomp5-14")
            return 1
        env["LD_PRELOAD"] = libomp + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
        note("%s is built for libgomp; it runs on LLVM's libomp (%s), which implements OMPT "
             "(--runtime=llvm)" % (command[0], libomp))
    elif "gomp" in runtimes and "omp" not in runtimes:
        note("%s runs on libgomp, which has no OMPT: nothing is measured (--runtime=native)"
             % command[0])
    if opts["verbose"]:
        for k in ("OMP_TOOL_LIBRARIES", "LD_PRELOAD", "POMPPROF_OUTPUT", "POMPPROF_TRACE",
                  "POMPPROF_METRICS"):
            if k in env and env.get(k) != os.environ.get(k):
                note("%s=%s" % (k, env[k]))
        note("running %s" % " ".join(command))
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(program, command, env)
    except OSError as e:
        note("cannot run %s: %s" % (command[0], e.strerror or e))
        return 126
    return 0  # not reached
