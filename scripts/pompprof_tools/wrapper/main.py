"""pompprof: compiler wrapper that instruments OpenMP programs for the pompprof
profiler.

  pompprof [wrapper options] [launcher] <compiler> <compiler arguments...>

Compile lines with -fopenmp: every C/C++ and Fortran source is compiled
plainly for the compiler's messages and dependency files, preprocessed with
the user's flags, rewritten where OPARI2 2.0.7 would fail, instrumented by
OPARI2 in a private temporary directory, and the result compiled in its
place (compile.py; doc/wrapper.md describes the pipeline).  Link lines
get a small unit that calls every object's POMP2_Init_reg_* function and
libpompprof, and those of MPI programs libpompprof_mpi (mpi.py).
Everything else (no -fopenmp, -E, --version, configure's probes...) runs
unchanged.

The command line is read in cmdline.py, sources are compiled in
compile.py, the link step is link.py; this module decides.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

from .. import build_config
from . import run as wrapper_run
from .cmdline import (LAUNCHERS, CommandLine, expand_response_files,
                              is_dependency_flag)
from .compile import compile_sources
from . import functions as wrapper_functions
from . import noopenmp
from .. import filterfile
from .link import init_functions_from_nm, libdir, link_additions, needs_pompprof
from .mpi import mpi_link_flags, mpi_use
from .run import note, run

USAGE = """\
usage: pompprof [--verbose] [--keep] [--functions] [--filter=FILE] [--opari2-arg=ARG]...
                COMPILER [ARGS...]
       pompprof run [OPTIONS] -- PROGRAM [ARGS...]   (no rebuild: pompprof run --help)

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
  --functions        also measure the program's functions (pompprof's GCC plugin, else
                     -finstrument-functions; never those of system headers or the
                     C++ standard library); also compiles and links the sources
                     without OpenMP
  --filter=FILE      --functions with a filter file in Score-P's syntax: with the GCC
                     plugin the functions it leaves out are not instrumented; with
                     clang or another compiler what cannot be left out at build time
                     is named once (give POMPPROF_FILTER=FILE when the program runs)
  --help, --version  this text / the version

environment:
  POMPPROF_LIBDIR, POMPPROF_INCDIR  where libpompprof and pompprof.h are
                                    (default: the installation directories)
  POMPPROF_FUNCTIONS=1              as --functions (for build systems)
  POMPPROF_FILTER=FILE              as --filter=FILE
  POMPPROF_GCC_PLUGIN=FILE|no       the GCC plugin to use / none: -finstrument-functions
  POMPPROF_MERGE_CALLS=0            one POMP2 call per task event, also where two
                                    adjacent ones could be one (doc/wrapper.md)
"""


def opari2_options_from(wrapper_opts: list[str]) -> list[str]:
    return [o.split("=", 1)[1] for o in wrapper_opts if o.startswith("--opari2-arg=")]


def split_launcher(compiler: str, argv: list[str]) -> tuple[list[str], list[str]]:
    """`ccache gcc ...`: ([ccache, gcc], the arguments); else ([compiler], argv)."""
    if os.path.basename(compiler) in LAUNCHERS and argv and not argv[0].startswith("-"):
        return [compiler, argv[0]], argv[1:]
    return [compiler], argv


def _functions_flags(compiler_cmd, args, cl, wrapper_opts):
    """--functions: the line with the flags that instrument its functions (and what the
    filter leaves out at compile time): (args, command line, filter or None, the exit
    status when the line needed no OPARI2 work and was run already, else None)."""
    flt = None
    path = wrapper_functions.filter_path(wrapper_opts)
    if path:
        try:
            flt = filterfile.load(path)
        except filterfile.FilterError as e:
            note("%s; no function is left out at compile time" % e)
    plain_c = not cl.fortran and not any(cl.is_cplusplus(i, compiler_cmd[-1])
                                         for i in cl.sources)
    args = args + wrapper_functions.compile_flags(args, compiler_cmd, flt=flt,
                                                  filter_file=path, plain_c=plain_c)
    cl = CommandLine(args)
    if not cl.openmp and (cl.compile_only or not needs_pompprof(cl.objects)):
        # no OPARI2 work: the line as written, its functions instrumented
        # and, when it links, libpompprof added (objects with POMP2 calls
        # take the link step below, for their region initialisation)
        extra = [] if cl.compile_only else \
            ["-L" + libdir(), "-Wl,-rpath," + libdir(), "-lpompprof"]
        return args, cl, flt, run(compiler_cmd + args + extra)
    return args, cl, flt, None


def _link(compiler_cmd, cl, args, compiled, workdir) -> int:
    """The link step of a line whose sources were compiled instrumented: the objects in
    place of the sources, libpompprof and what the objects need."""
    objects = {src.index: src.object for src in compiled}
    link_args = []
    for i, a in enumerate(args):
        if i in objects:
            link_args += ["-x", "none", objects[i], "-x", cl.languages[i]] \
                if i in cl.languages else [objects[i]]
        elif not is_dependency_flag(a) or not compiled:
            link_args.append(a)
    linked = cl.objects + list(objects.values())
    functions = init_functions_from_nm(linked)
    if not functions and not cl.shared and not mpi_use(compiler_cmd, args, linked)[0]:
        # forgetting -fopenmp when compiling gives a serial program whose profile
        # says "parallel coverage 0 %" and nothing else: say it now, once (also
        # right for a program whose constructs are all ones pompprof does not measure;
        # an MPI program has its MPI calls measured, or its own line about them)
        note("no OpenMP construct of %s is measured: none of its objects was "
             "instrumented (were its sources compiled through pompprof with -fopenmp?)"
             % (cl.output or "a.out"))
    extra, status = link_additions(compiler_cmd, cl, workdir, functions)
    if extra is None:
        return status
    first = mpi_link_flags(compiler_cmd, args, linked, libdir())
    return run(compiler_cmd + first + link_args + extra)


def build(compiler: str, argv: list[str], wrapper_opts: list[str]) -> int:
    """One compiler line through pompprof: its exit status."""
    passthrough = [compiler] + argv
    compiler_cmd, argv = split_launcher(compiler, argv)
    args = expand_response_files(argv)
    cl = CommandLine(args)

    if cl.runs_unchanged:
        return run(passthrough)
    flt = None
    if wrapper_functions.enabled(wrapper_opts) and (cl.sources or cl.fortran):
        args, cl, flt, status = _functions_flags(compiler_cmd, args, cl, wrapper_opts)
        if status is not None:
            return status
    sources = cl.instrumented_c + cl.instrumented_fortran
    if not sources and not (cl.links and (cl.openmp or needs_pompprof(cl.objects))):
        status = run(passthrough)
        missing = noopenmp.without_openmp(compiler_cmd, cl) if status == 0 else None
        if missing:
            note(missing)  # after the compiler's own output, which stays as it was
        return status

    if cl.compile_only and cl.output and len(cl.input_indexes) > 1:
        return run(passthrough)     # gcc refuses -o with several inputs: its message
    workdir = tempfile.mkdtemp(prefix="pompprof-")
    try:
        status, compiled = compile_sources(
            compiler_cmd, cl, workdir, opari2_options_from(wrapper_opts),
            wrapper_functions.unit_flags_for(flt, compiler_cmd, args) if flt is not None else None)
        if cl.compile_only:
            # other inputs of the line (assembler, preprocessed files) as written
            others = set(cl.input_indexes) - set(sources)
            if others:
                rest = [a for i, a in enumerate(args) if i not in sources]
                status = run(compiler_cmd + rest) or status
            return status
        if status != 0:
            return status
        return _link(compiler_cmd, cl, args, compiled, workdir)
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
        elif opt in ("--keep", "--functions") or opt.startswith(("--opari2-arg=", "--filter=")):
            wrapper_opts.append(opt)
        elif opt == "--filter" and i + 1 < len(argv):
            i += 1
            wrapper_opts.append("--filter=" + argv[i])
        else:
            note("unknown option %s (see pompprof --help)" % opt)
            return 2, wrapper_opts, i
        i += 1
    if i >= len(argv):
        sys.stderr.write(USAGE)
        return 2, wrapper_opts, i
    return None, wrapper_opts, i


def main(argv: list[str]) -> int:
    if argv and argv[0] == "run":       # measure without rebuilding (OMPT)
        from ..launcher.run import main as run_main
        return run_main(argv[1:])
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
