"""pompprof run: run an OpenMP program measured as it is, with no rebuild.

  pompprof run [--runtime=native|llvm] [--output=DIR] [--trace] [--metrics=LIST]
               [--verbose] -- PROGRAM [ARGS...]

On the program's own runtime (--runtime=native, the default):
- a program built for libgomp (gcc, gfortran) gets libpompprof_gomp.so
  preloaded, which interposes libgomp's entry points;
- a program on LLVM's libomp (clang) gets libpompprof_ompt.so preloaded:
  libomp finds its ompt_start_tool and calls it through the OpenMP tools
  interface (a run in which libomp never starts says so).
Either feeds the same engine as a program built with the pompprof wrapper, so
the profile (and with --trace the OTF2 trace) are those of the rebuild.

--runtime=llvm runs a program built for libgomp on Debian's libomp instead
(preloaded: it provides libgomp's GOMP_* entry points), measured through OMPT;
refused, with the reason in one line, when the program imports entry points
that libomp lacks or calls one in a way libomp aborts on (a loop with scan).

A program that loads no OpenMP runtime when it starts gets libpompprof_gomp.so
too: a libgomp it loads later (dlopen: a plugin, a Python extension) is
measured from its first entry point on; at its end a program that never
loaded one says so in one line.

An MPI program runs under its launcher, pompprof run after it (mpirun -np 4
pompprof run -- ./prog): the library preloaded then holds the MPI layer too
(with_mpi), so its MPI calls are regions and the ranks write one profile
(and one trace) together, as a program built with the wrapper does.

A file that is no dynamically linked program (a script, a static binary)
runs unmeasured, with one line saying so and where pompprof run goes
instead.  Otherwise nothing of pompprof's is printed unless --verbose (the
measurement libraries print their own lines, e.g. a run that measured
nothing).  The program's own output and exit status are untouched: the
program replaces this process.
"""

from __future__ import annotations

import os
import shutil
import sys

from .. import build_config
from . import runtimes

USAGE = """\
usage: pompprof run [--runtime=native|llvm] [--output=DIR] [--trace]
                    [--metrics=LIST] [--verbose] -- PROGRAM [ARGS...]

Run an OpenMP program measured as it is, with no rebuild.  Writes the same
profile as a program built with the pompprof wrapper (see POMPPROF_OUTPUT).

options:
  --runtime=native   measure the program on its own OpenMP runtime (the default):
                     libgomp (gcc, gfortran) through libpompprof_gomp.so, which
                     interposes libgomp's entry points; LLVM's libomp (clang)
                     through the OpenMP tools interface (OMPT)
  --runtime=llvm     run a program built for libgomp on LLVM's libomp instead,
                     measured through OMPT; refused when the program needs what
                     libomp lacks (entry points it does not export, scan)
  --output=DIR       where the profile goes (POMPPROF_OUTPUT)
  --trace            also write an OTF2 trace (POMPPROF_TRACE=1)
  --metrics=LIST     PAPI counters (POMPPROF_METRICS)
  --verbose          print the runtime chosen, the environment set and the
                     command run
  --help             this text

An MPI program: mpirun -np 4 pompprof run -- ./prog.  Its MPI calls are
measured and the ranks write one profile together.

A program that loads no OpenMP runtime at its start is measured once it loads
libgomp (dlopen); one that never does says so in one line at its end.
The program's output and exit status are its own.  All POMPPROF_* settings in
the environment apply as for an instrumented program.
"""

LIBOMP_DIRS = ("/usr/lib/llvm-14/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
               "/usr/local/lib", "/usr/lib")


def note(msg: str) -> None:
    sys.stderr.write("pompprof: %s\n" % msg)


def library(name: str) -> str:
    """A measurement library: $POMPPROF_LIBDIR (uninstalled builds) or the installation."""
    d = os.environ.get("POMPPROF_LIBDIR") or build_config.LIBDIR
    return os.path.join(d, name)


def find_libomp() -> str | None:
    for d in LIBOMP_DIRS:
        p = os.path.join(d, "libomp.so.5")
        if os.path.exists(p):
            return p
    return None


def parse(argv: list[str]):
    """(options dict, program argv) or (exit status, None)."""
    opts = {"runtime": "native", "output": None, "trace": False, "metrics": None,
            "verbose": False}
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
                note("--runtime takes native or llvm, not %r" % opts["runtime"])
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


def preload(env: dict, path: str) -> None:
    env["LD_PRELOAD"] = path + (":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")


def on_libomp(program: str, name: str, env: dict) -> int | None:
    """Prepare a libgomp program to run on libomp with OMPT (--runtime=llvm);
    an exit status when refused."""
    libomp = find_libomp()
    if not libomp:
        note("LLVM's libomp (libomp.so.5) not found: install the Debian package libomp5-14")
        return 1
    missing = runtimes.missing_in(program, libomp)
    if missing:
        note("%s cannot run on LLVM's libomp (%s): it imports %s, which libomp does not "
             "export (run it on libgomp: drop --runtime=llvm)"
             % (name, libomp, ", ".join(missing)))
        return 1
    scans = runtimes.scan_users(program)
    if scans:
        note("%s cannot run on LLVM's libomp (%s): %s %s a loop with scan, on which libomp's "
             "libgomp layer aborts (run it on libgomp: drop --runtime=llvm)"
             % (name, libomp, " and ".join(os.path.basename(f) for f in scans),
                "calls" if len(scans) == 1 else "call"))
        return 1
    preload(env, libomp)
    return None


def with_mpi(tool: str, route: str, program: str, name: str, libs: list[str]):
    """The measurement library for an MPI program: the event source's with the
    MPI layer in it (libpompprof_gomp_mpi.so, ..._mpif.so for MPI calls from
    Fortran, libpompprof_ompt_mpi.so), so that the ranks write one profile
    together, as a program built with the wrapper does.  (tool, route)."""
    bindings = runtimes.mpi_bindings(program, libs)
    if not bindings or runtimes.links_pompprof(program, libs):
        return tool, route  # (a program built with the wrapper has the layer linked in)
    source = "gomp" if tool.endswith("gomp.so") else "ompt"
    fortran = "fortran" in bindings and source == "gomp"
    mpi_tool = library("libpompprof_%s%s.so" % (source, "_mpif" if fortran else "_mpi"))
    if not os.path.exists(mpi_tool):
        note("%s calls MPI, but this pompprof was built without MPI support: its MPI calls are "
             "not measured and every rank writes a profile of its own" % name)
        return tool, route
    if "fortran" in bindings and not fortran:
        note("%s calls MPI from Fortran: on LLVM's libomp those calls are not measured and "
             "every rank writes a profile of its own (on libgomp they are measured: drop "
             "--runtime=llvm)" % name)
    return mpi_tool, route + "; MPI calls measured, one profile for the job"


def event_source(found: set[str], libs: list[str], runtime: str, name: str):
    """(the measurement library, the route in words) for a program that loads
    the OpenMP runtimes `found` and the libraries `libs`; (None, None) when
    it cannot be measured (said in one line)."""
    if not found and not libs:
        note("nothing measured: %s is no dynamically linked program (a script, or a static "
             "binary): it runs unmeasured (put pompprof run in front of the OpenMP program it "
             "starts)" % name)
        return None, None
    if not found:
        # a program that may load libgomp later (a plugin, a Python extension):
        # the interposer waits for it, and says at the end if it never came
        return (library("libpompprof_gomp.so"),
                "libgomp, its entry points interposed, once the program loads it")
    if "omp" in found or runtime == "llvm":
        return library("libpompprof_ompt.so"), "OMPT on LLVM's libomp"
    return library("libpompprof_gomp.so"), "libgomp, its entry points interposed"


def main(argv: list[str]) -> int:
    opts, command = parse(argv)
    if command is None:
        return opts
    program = shutil.which(command[0]) or command[0]
    if not os.path.exists(program):
        note("%s: no such program" % command[0])
        return 127
    env = dict(os.environ)
    if opts["output"]:
        env["POMPPROF_OUTPUT"] = opts["output"]
    if opts["trace"]:
        env["POMPPROF_TRACE"] = "1"
    if opts["metrics"]:
        env["POMPPROF_METRICS"] = opts["metrics"]
    if os.path.basename(command[0]) in runtimes.MPI_LAUNCHERS:
        note("%s starts the processes of an MPI job: put pompprof run after it and its "
             "options, e.g. %s -np 4 pompprof run -- ./prog" % (command[0], command[0]))
        return 2
    libs = runtimes.loaded_libraries(program)
    found = runtimes.openmp_runtimes(program, libs)
    tool, route = event_source(found, libs, opts["runtime"], command[0])
    if tool:
        tool, route = with_mpi(tool, route, program, command[0], libs)
    if tool and not os.path.exists(tool):
        note("%s not found: this pompprof was built without it%s"
             % (tool, " (install the Debian package libomp-14-dev and configure again)"
                if tool.endswith("ompt.so") else ""))
        return 1
    if tool and "_gomp" in os.path.basename(tool):
        preload(env, tool)
        if not found:
            env["POMPPROF_RUN_PID"] = str(os.getpid())
    elif tool:
        if "omp" not in found:
            refused = on_libomp(program, command[0], env)
            if refused is not None:
                return refused
            route += ", preloaded in place of libgomp"
        # preloaded, not named in OMP_TOOL_LIBRARIES: libomp finds a preloaded
        # ompt_start_tool first; a run in which libomp never starts (and so
        # never starts the tool) still says that nothing was measured (the
        # program replaces this process: only it says so); and the program
        # sees the environment it would see (omp_display_env prints
        # OMP_TOOL_LIBRARIES)
        preload(env, tool)
        env["POMPPROF_RUN_PID"] = str(os.getpid())
    if opts["verbose"]:
        if route:
            note("%s is measured on %s" % (command[0], route))
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
