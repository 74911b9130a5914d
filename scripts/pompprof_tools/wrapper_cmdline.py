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

# Options whose value is the next argument (so that value is not an input).
OPTIONS_WITH_VALUE = {
    "-o", "-I", "-D", "-U", "-L", "-l", "-x", "-include", "-imacros", "-isystem",
    "-iquote", "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
    "-isysroot", "-MF", "-MT", "-MQ", "-Xlinker", "-Xassembler", "-Xpreprocessor",
    "-T", "-u", "-e", "-z", "-aux-info", "--param", "-A", "-wrapper", "-dumpbase",
    "-dumpdir", "-Xclang", "-target", "-arch", "-B",
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
        self.language_forced = False
        self.shared = False
        self.fortran_form: str | None = None  # "free"/"fixed" by -ffree-form/-ffixed-form
        self.fortran_cpp: bool | None = None  # True/False by -cpp/-nocpp
        self.inputs = 0
        i = 0
        while i < len(args):
            a = args[i]
            if a in OPTIONS_WITH_VALUE:
                if a == "-o" and i + 1 < len(args):
                    self.output = args[i + 1]
                if a == "-x":
                    self.language_forced = True
                i += 2
                continue
            if a.startswith("-"):
                self._option(a)
                i += 1
                continue
            self.inputs += 1
            if a.endswith(C_SOURCES):
                self.sources.append(i)
            elif a.endswith(FORTRAN_SOURCES):
                self.fortran.append(i)
            elif a.endswith(OBJECTS) or a.endswith(ARCHIVES):
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
        elif a.startswith("-x"):
            self.language_forced = True
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
        """Indexes of the C/C++ sources that go through OPARI2: all of them with OpenMP
        on, none when -x names the language (the suffix may then lie)."""
        return self.sources if self.openmp and not self.language_forced else []

    @property
    def instrumented_fortran(self) -> list[int]:
        return self.fortran if self.openmp and not self.language_forced else []

    @property
    def links(self) -> bool:
        return not self.compile_only

    def fortran_kind(self, source: str) -> tuple[str, bool]:
        """(form, preprocessed) of a Fortran source: from -ffree-form/-ffixed-form and
        -cpp/-nocpp when given, else from its suffix as gfortran decides."""
        form = self.fortran_form or ("fixed" if source.endswith(FORTRAN_FIXED_FORM) else "free")
        preprocessed = self.fortran_cpp if self.fortran_cpp is not None \
            else source.endswith(FORTRAN_PREPROCESSED)
        return form, preprocessed
