"""What a compiler command line asks for, as far as the pompprof wrapper cares:
its sources, objects, output and mode (query, compile only, link), and whether
OpenMP is on.  Pure functions of the arguments (response files aside), so the
wrapper's decisions can be tested without running a compiler."""

from __future__ import annotations

import os
import shlex

C_SOURCES = (".c", ".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C")
FORTRAN_SOURCES = (".f", ".F", ".for", ".FOR", ".ftn", ".FTN", ".f90", ".F90", ".f95",
                   ".F95", ".f03", ".F03", ".f08", ".F08", ".fpp", ".FPP")
# Fortran suffixes whose default source form is fixed (gfortran's rules).
FORTRAN_FIXED_FORM = (".f", ".F", ".for", ".FOR", ".ftn", ".FTN", ".fpp", ".FPP")
# Fortran suffixes the compiler runs the C preprocessor on by default.
FORTRAN_PREPROCESSED = (".F", ".FOR", ".FTN", ".F90", ".F95", ".F03", ".F08", ".fpp", ".FPP")
OBJECTS = (".o", ".obj", ".lo")
ARCHIVES = (".a",)

# -x languages the wrapper instruments: C, C++ and Fortran (with or without cpp).
C_LANGUAGES = ("c", "c++")
FORTRAN_LANGUAGES = ("f77", "f95", "f77-cpp-input", "f95-cpp-input")
# Compiler launchers: `pompprof ccache gcc ...` runs every step through the launcher.
LAUNCHERS = ("ccache", "sccache", "distcc", "icecc")

# Options whose value is the next argument (so that value is not an input).
OPTIONS_WITH_VALUE = {
    "-o", "-I", "-D", "-U", "-L", "-l", "-x", "-include", "-imacros", "-isystem",
    "-iquote", "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
    "-isysroot", "-MF", "-MT", "-MQ", "-Xlinker", "-Xassembler", "-Xpreprocessor",
    "-T", "-u", "-e", "-z", "-aux-info", "--param", "-A", "-wrapper", "-dumpbase",
    "-dumpdir", "-Xclang", "-target", "-arch", "-B", "-J",
}
# With any of these the compiler does not compile+link: run it unchanged.
QUERY_OPTIONS = {"-E", "-M", "-MM", "-S", "-fsyntax-only", "--version", "-V", "-qversion",
                 "-dumpversion", "-dumpfullversion", "-dumpmachine", "-dumpspecs", "--help",
                 "-###"}
OPENMP_OPTIONS = {"-fopenmp", "-qopenmp", "-openmp", "-fiopenmp", "-mp"}

# A response file naming itself must not expand forever (gcc stops too).
RESPONSE_FILE_DEPTH = 10


def expand_response_files(args: list[str], depth: int = 0) -> list[str]:
    """Expand @file arguments as gcc does (a missing file stays literal)."""
    out = []
    for a in args:
        if a.startswith("@") and len(a) > 1 and depth < RESPONSE_FILE_DEPTH \
                and os.path.isfile(a[1:]):
            try:
                with open(a[1:], encoding="utf-8", errors="surrogateescape") as f:
                    words = shlex.split(f.read(), posix=True)
            except (OSError, ValueError):
                out.append(a)
                continue
            out.extend(expand_response_files(words, depth + 1))
        else:
            out.append(a)
    return out


class CommandLine:
    """The facts of one (response-file expanded) argument list."""

    def __init__(self, args: list[str]):
        self.args = args
        self.sources: list[int] = []      # indexes of C/C++ sources in args
        self.fortran: list[int] = []      # indexes of Fortran sources
        self.objects: list[str] = []      # object files and archives (inputs to nm)
        self.output: str | None = None
        self.compile_only = False
        self.query = False
        self.openmp = False
        self.languages: dict[int, str] = {}  # input index -> its -x language (if any)
        self.shared = False
        self.fortran_form: str | None = None  # "free"/"fixed" by -ffree-form/-ffixed-form
        self.fortran_cpp: bool | None = None  # True/False by -cpp/-nocpp
        self.inputs = 0
        self.input_indexes: list[int] = []   # files (not -l) in args
        language = None
        i = 0
        while i < len(args):
            a = args[i]
            if a in OPTIONS_WITH_VALUE:
                if a == "-o" and i + 1 < len(args):
                    self.output = args[i + 1]
                if a == "-x" and i + 1 < len(args):
                    language = None if args[i + 1] == "none" else args[i + 1]
                i += 2
                continue
            if a.startswith("-x") and len(a) > 2:
                language = None if a[2:] == "none" else a[2:]
            if a.startswith("-") and a != "-":
                self._option(a)
                i += 1
                continue
            self.inputs += 1
            self.input_indexes.append(i)
            if language:
                self.languages[i] = language
            if language in C_LANGUAGES or (language is None and a.endswith(C_SOURCES)):
                self.sources.append(i)
            elif language in FORTRAN_LANGUAGES or (language is None
                                                   and a.endswith(FORTRAN_SOURCES)):
                self.fortran.append(i)
            elif language is None and (a.endswith(OBJECTS) or a.endswith(ARCHIVES)):
                self.objects.append(a)
            i += 1

    def _option(self, a: str) -> None:
        """An option that takes no separate value."""
        if a == "-c":
            self.compile_only = True
        elif a in QUERY_OPTIONS or a.startswith("-print-") or a.startswith("--print"):
            self.query = True
        elif a in OPENMP_OPTIONS or a.startswith("-fopenmp="):
            self.openmp = True
        elif a == "-shared":
            self.shared = True
        elif a in ("-ffree-form", "-ffixed-form"):
            self.fortran_form = a[2:-5]
        elif a in ("-cpp", "-nocpp"):
            self.fortran_cpp = a == "-cpp"
        elif a.startswith("-o") and len(a) > 2:
            self.output = a[2:]
        elif a.startswith("-l") and len(a) > 2:
            self.inputs += 1

    # ---- the wrapper's decisions ----------------------------------------------------
    @property
    def runs_unchanged(self) -> bool:
        """Queries (-E, --version, ...) and lines without inputs are not the wrapper's."""
        return self.query or self.inputs == 0

    @property
    def instrumented_c(self) -> list[int]:
        """Indexes of the C/C++ sources that go through OPARI2: all of them with OpenMP on."""
        return self.sources if self.openmp else []

    @property
    def instrumented_fortran(self) -> list[int]:
        return self.fortran if self.openmp else []

    def is_cplusplus(self, i: int, compiler: str = "gcc") -> bool:
        """Is the C-family source at index i C++?  By -x, else as the driver decides:
        g++ and the like compile a .c file as C++ too."""
        lang = self.languages.get(i)
        if lang:
            return lang == "c++"
        return not self.args[i].endswith(".c") or is_cplusplus_driver(compiler)

    @property
    def links(self) -> bool:
        return not self.compile_only

    def fortran_kind(self, source: str, index: int | None = None) -> tuple[str, bool]:
        """(form, preprocessed) of a Fortran source: from -ffree-form/-ffixed-form,
        -cpp/-nocpp and -x when given, else from its suffix as gfortran decides."""
        lang = self.languages.get(index) if index is not None else None
        fixed = lang == "f77" or lang == "f77-cpp-input" if lang else \
            source.endswith(FORTRAN_FIXED_FORM)
        form = self.fortran_form or ("fixed" if fixed else "free")
        if self.fortran_cpp is not None:
            preprocessed = self.fortran_cpp
        elif lang:
            preprocessed = lang.endswith("-cpp-input")
        else:
            preprocessed = source.endswith(FORTRAN_PREPROCESSED)
        return form, preprocessed


CPLUSPLUS_DRIVERS = ("CC", "mpicxx", "mpiCC", "icpc", "icpx")


def is_cplusplus_driver(compiler: str) -> bool:
    """g++, c++, clang++, x86_64-linux-gnu-g++-12, mpic++, mpicxx...?"""
    name = os.path.basename(compiler)
    return "++" in name or name in CPLUSPLUS_DRIVERS


# ---- the command lines of the wrapper's steps ------------------------------------------
# Dependency output: made by the plain pass only (it names the user's files).
DEPENDENCY_FLAGS = {"-MD", "-MMD", "-MP", "-MG"}
DEPENDENCY_FLAGS_WITH_VALUE = {"-MF", "-MT", "-MQ"}
# Options that change what `-E` writes (markers, comments, macros): not for the
# wrapper's own preprocessing.
PREPROCESS_OUTPUT_FLAGS = {"-P", "-C", "-CC", "-dD", "-dM", "-dN", "-dI", "-dU",
                           "-fdirectives-only", "-H", "-save-temps"}
# Warnings the plain pass has shown; the instrumented steps stay quiet.
ERROR_FLAGS = ("-Werror", "-pedantic-errors", "-Wfatal-errors")


def is_dependency_flag(a: str) -> bool:
    """-MD & co. (with a joined value or not), also when passed as -Wp,-MD,file."""
    return a in DEPENDENCY_FLAGS or a.startswith(("-MF", "-MT", "-MQ")) \
        or (a.startswith("-Wp,") and a[4:].startswith("-M"))


def options_only(args: list[str], drop=lambda a: False) -> list[str]:
    """The options of args for compiling one source: no inputs, no -o, -c or -x
    (the callers add their own), no linker options, and none that drop()
    rejects (each with its value)."""
    out = []
    i = 0
    while i < len(args):
        a = args[i]
        width = 2 if a in OPTIONS_WITH_VALUE or a in DEPENDENCY_FLAGS_WITH_VALUE else 1
        own = a in ("-o", "-x", "-c") or (a.startswith(("-o", "-x")) and len(a) > 2)
        linker = a.startswith(("-l", "-Wl,")) or a in ("-L", "-Xlinker") \
            or (a.startswith("-L") and len(a) > 2)
        if a.startswith("-") and a != "-" and not own and not linker and not drop(a):
            out += args[i:i + width]
        i += width
    return out
