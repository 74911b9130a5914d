"""pompprof: compiler wrapper that instruments OpenMP programs for the pompprof
profiler.

  pompprof [wrapper options] <compiler> <compiler arguments...>

Compile lines with -fopenmp: every C/C++ and Fortran source goes through
`opari2 --omp-tpd` into a private temporary directory and the instrumented
copy is compiled in its place (objects land where the compiler would put
them, messages point at the user's file).  Link lines: a small unit that
calls every object's POMP2_Init_reg_* function (POMP2_Init_regions) is
compiled and linked together with -lpompprof.  Everything else (no -fopenmp,
-E, --version, configure's probes...) runs unchanged.

The command line is read in wrapper_cmdline, sources are instrumented in
wrapper_instrument, the link step is wrapper_link; this module decides.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

from . import build_config
from . import wrapper_run
from .wrapper_cmdline import CommandLine, expand_response_files
from .wrapper_instrument import instrument
from .wrapper_link import (init_functions_from_fortran, init_functions_from_nm,
                           init_functions_from_sources, link_additions, needs_pompprof)
from .wrapper_run import capture, note, run

USAGE = """\
usage: pompprof [--verbose] [--keep] [--opari2-arg=ARG]... COMPILER [ARGS...]

Build an OpenMP program for profiling with pompprof, e.g.
  pompprof gcc -fopenmp -O2 -c fib.c        # instrument with OPARI2, compile
  pompprof gcc -fopenmp fib.o -o fib        # link with libpompprof
  make CC="pompprof gcc"                    # or ./configure CC="pompprof gcc"
Running the program writes a profile (.cubex); see POMPPROF_OUTPUT.

Only compile lines with -fopenmp (or -qopenmp, -fopenmp=...) are instrumented;
others, and queries such as -E or --version, run the compiler unchanged.
The compiler's messages and exit status pass through unchanged.

wrapper options (before the compiler):
  --verbose          print every command pompprof runs on stderr
  --keep             keep the instrumented sources and print where they are
  --opari2-arg=ARG   pass ARG to opari2 (e.g. --omp-task-untied=keep)
  --help, --version  this text / the version

environment:
  POMPPROF_LIBDIR, POMPPROF_INCDIR  where libpompprof and pompprof.h are
                                    (default: the installation directories)
"""


def includedir() -> str:
    """Where pompprof.h is: $POMPPROF_INCDIR (uninstalled builds) or the installation."""
    return os.environ.get("POMPPROF_INCDIR") or build_config.INCLUDEDIR


def opari2_options_from(wrapper_opts: list[str]) -> list[str]:
    return [o.split("=", 1)[1] for o in wrapper_opts if o.startswith("--opari2-arg=")]


def build(compiler: str, argv: list[str], wrapper_opts: list[str]) -> int:
    args = expand_response_files(argv)
    cl = CommandLine(args)
    passthrough = [compiler] + argv

    if cl.runs_unchanged:
        return run(passthrough)
    c_sources, fortran_sources = cl.instrumented_c, cl.instrumented_fortran
    if not c_sources and not fortran_sources \
            and not (cl.links and cl.objects and needs_pompprof(cl.objects)):
        return run(passthrough)

    workdir = tempfile.mkdtemp(prefix="pompprof-")
    try:
        new_args = list(args)
        opari2_args = opari2_options_from(wrapper_opts)
        instrumented = []
        if c_sources:
            for n, i in enumerate(c_sources):
                target, status = instrument(args[i], workdir, n, opari2_args)
                if target is None:
                    return status
                new_args[i] = target
                instrumented.append(target)
            # the instrumented copy lives elsewhere: keep "x.h" next to the
            # source reachable, searched first as for the original file
            dirs: list[str] = []
            for i in c_sources:
                d = os.path.dirname(os.path.abspath(args[i]))
                if d not in dirs:
                    dirs.append(d)
            opari2_cflags = (capture([build_config.OPARI2_CONFIG, "--cflags"]) or "").split()
            new_args = (sum([["-iquote", d] for d in dirs], [])
                        + opari2_cflags + ["-I" + includedir(), "-DPOMPPROF_INSTRUMENTED=1"]
                        + new_args)
        instrumented_fortran = []
        if fortran_sources:
            include_dirs: list[str] = []
            for n, i in enumerate(fortran_sources):
                source = args[i]
                target, status = instrument(source, workdir, len(c_sources) + n, opari2_args,
                                            fortran=cl.fortran_kind(source))
                if target is None:
                    return status
                new_args[len(new_args) - len(args) + i] = target  # after the C flags
                instrumented_fortran.append(target)
                # INCLUDE lines and #include of the user's files are looked
                # up next to the original first, as in a plain build; the
                # OPARI2 include file next to the copy
                for d in (os.path.dirname(os.path.abspath(source)), os.path.dirname(target)):
                    if d not in include_dirs:
                        include_dirs.append(d)
            new_args = ["-I" + d for d in include_dirs] + new_args
        if cl.links:
            functions = init_functions_from_sources(instrumented)
            functions.update(init_functions_from_fortran(instrumented_fortran))
            functions.update(init_functions_from_nm(cl.objects))
            extra, status = link_additions(compiler, cl, workdir, functions)
            if extra is None:
                return status
            new_args += extra
        return run([compiler] + new_args)
    finally:
        if "--keep" in wrapper_opts:
            note("kept intermediate files in %s" % workdir)
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def parse_options(argv: list[str]) -> tuple[int | None, list[str], int]:
    """The wrapper's own options before the compiler: (exit status when the wrapper
    is done already, e.g. after --help, else None; the options build() needs; index
    of the compiler in argv).  Sets wrapper_run.verbose for --verbose."""
    wrapper_opts = []
    i = 0
    while i < len(argv) and argv[i].startswith("--"):
        opt = argv[i]
        if opt == "--help":
            sys.stdout.write(USAGE)
            return 0, wrapper_opts, i
        if opt == "--version":
            sys.stdout.write("pompprof %s\n" % build_config.VERSION)
            return 0, wrapper_opts, i
        if opt == "--verbose":
            wrapper_run.verbose = True
        elif opt == "--keep" or opt.startswith("--opari2-arg="):
            wrapper_opts.append(opt)
        else:
            note("unknown option %s (see pompprof --help)" % opt)
            return 2, wrapper_opts, i
        i += 1
    if i >= len(argv):
        sys.stderr.write(USAGE)
        return 2, wrapper_opts, i
    return None, wrapper_opts, i


def main(argv: list[str]) -> int:
    done, wrapper_opts, i = parse_options(argv)
    if done is not None:
        return done
    return build(argv[i], argv[i + 1:], wrapper_opts)


def entry() -> int:
    """The `pompprof` command."""
    try:
        return main(sys.argv[1:])
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(entry())
