"""The wrapper's compile step, per source, in four passes:

1. plain: the user's own compile of the source, stopped after the compiler
   proper (-S) and written where the object goes.  It prints exactly the
   messages of a plain build (front end and optimizer alike, macro-expansion
   notes included), writes the dependency file of a plain build (-MD & co.
   name the user's files) and decides success: when it fails, so does the
   wrapper, with the same status.
2. preprocess: the compiler's own preprocessor with the user's flags (-E, quiet).
3. instrument: rewrites for OPARI2, OPARI2, its output made compilable
   (rewrite, instrument; Fortran: fortran, fortran_text, fortran_output), the
   dependences recorded (c_depend; fortran_depend, fortran_depend_marks), and
   what was lost said where OPARI2's output is not as expected (tally).
4. compile: the instrumented text with the user's flags, quiet (-w, no -Werror,
   no dependency output), to the object the plain pass wrote.

When pass 3 or 4 fails where the plain pass succeeded (a construct OPARI2
cannot handle, or a bug of ours), the source is compiled plainly instead, with
one pompprof line saying so: the build never fails where a plain one works.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from dataclasses import dataclass

from .. import build_config
from . import cmdline as wc
from .cmdline import CommandLine
from .ctext import TextError
from . import fortran, fortran_depend, fortran_depend_marks, fortran_output, fortran_text
from .instrument import (absolute_markers, finish_c, opari2_failure, run_opari2,
                         spellings, user_markers)
from .rewrite import prepare
from .run import note, run, run_quiet
from .tally import Tally


@dataclass
class Source:
    index: int                   # in the (expanded) argument list
    path: str
    fortran: bool
    cplusplus: bool
    object: str                  # where its object goes


def includedir() -> str:
    """Where pompprof.h is: $POMPPROF_INCDIR (uninstalled builds) or the installation."""
    return os.environ.get("POMPPROF_INCDIR") or build_config.INCLUDEDIR


def pompprof_h_flags(src: "Source") -> list[str]:
    """<pompprof.h> is found (after the user's own directories) and its calls are
    live: the plain pass and the preprocessor see the code the object will have.
    Fortran has no header, but a preprocessed source (.F90) can guard its calls
    of pompprof_parameter_* with #ifdef POMPPROF_INSTRUMENTED alike."""
    return ["-DPOMPPROF_INSTRUMENTED=1"] + ([] if src.fortran else ["-I" + includedir()])


def object_name(source: str, cl: CommandLine) -> str:
    """Where `-c` puts source's object: -o, else its base name with .o."""
    if cl.output and len(cl.sources) + len(cl.fortran) == 1:
        return cl.output
    return os.path.splitext(os.path.basename(source))[0] + ".o"


def dependency_flags_for_link_line(source: str, cl: CommandLine) -> list[str]:
    """On a compile+link line the plain pass writes to the work directory; name
    the dependency file and target as gcc does for the line itself."""
    args = cl.args
    if not any(a in ("-MD", "-MMD") for a in args):
        return []
    flags = []
    stem = os.path.splitext(cl.output if cl.output else os.path.basename(source))[0]
    if not any(a.startswith("-MF") for a in args):
        flags += ["-MF", stem + ".d"]
    if not any(a.startswith(("-MT", "-MQ")) for a in args):
        flags += ["-MT", cl.output or stem + ".o"]
    return flags


# What OPARI2 would change: OpenMP and POMP directives, OpenMP lock calls.
OPARI2_WORK = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+p?omp\b|\bomp_(?:init|destroy|set|unset|test)"
                         r"_(?:nest_)?lock\s*\(", re.M)


def needs_opari2(text: str) -> bool:
    return OPARI2_WORK.search(text) is not None


def quiet_options(args: list[str]) -> list[str]:
    """The user's options for the wrapper's own compiles: no dependency output,
    no warnings turned into errors (the plain pass has shown every message)."""
    return wc.options_only(args, lambda a: wc.is_dependency_flag(a)
                           or a.startswith(wc.ERROR_FLAGS) or a.startswith("-fopt-info"))


class Compile:
    """The passes for the sources of one command line."""

    def __init__(self, compiler: list[str], cl: CommandLine, workdir: str,
                 opari2_args: list[str]):
        self.compiler = compiler          # [launcher,] compiler
        self.cl = cl
        self.workdir = workdir
        self.opari2_args = opari2_args

    def sources(self) -> list[Source]:
        cl = self.cl
        out = []
        for i in sorted(cl.instrumented_c + cl.instrumented_fortran):
            path = cl.args[i]
            if cl.compile_only:
                obj = object_name(path, cl)
            else:
                base = os.path.splitext(os.path.basename(path))[0] + ".o"
                obj = os.path.join(self.workdir, "obj%d" % i, base)
                os.makedirs(os.path.dirname(obj), exist_ok=True)
            fortran = i in cl.fortran
            out.append(Source(i, path, fortran,
                              not fortran and cl.is_cplusplus(i, self.compiler[-1]), obj))
        return out

    def language(self, src: Source) -> list[str]:
        lang = self.cl.languages.get(src.index)
        return ["-x", lang] if lang else []

    # ---- pass 1 -----------------------------------------------------------------
    def plain_output(self, src: Source) -> str:
        """Where the plain pass writes its assembly."""
        if self.cl.compile_only:
            return src.object
        return os.path.join(self.workdir, "plain%d.s" % src.index)

    def plain_pass(self, src: Source) -> int:
        cl = self.cl
        out = self.plain_output(src)
        extra = [] if cl.compile_only else dependency_flags_for_link_line(src.path, cl)
        return run(self.compiler + wc.options_only(cl.args) + pompprof_h_flags(src) + extra
                   + self.language(src) + [src.path, "-S", "-o", out])

    def plain_object(self, src: Source) -> int:
        """The fallback: the source compiled as without pompprof."""
        return run(self.compiler + quiet_options(self.cl.args) + pompprof_h_flags(src)
                   + self.language(src) + [src.path, "-c", "-o", src.object])

    # ---- pass 2 ---------------------------------------------------------------------
    def preprocess(self, src: Source, out: str) -> bool:
        def drop(a: str) -> bool:
            return wc.is_dependency_flag(a) or a in wc.PREPROCESS_OUTPUT_FLAGS \
                or a.startswith(("-save-temps", "-fdump-", "-fopt-info")) \
                or a.startswith(wc.ERROR_FLAGS) or a in ("-cpp", "-nocpp")
        cmd = self.compiler[-1:] + wc.options_only(self.cl.args, drop) + pompprof_h_flags(src) \
            + ["-w"] \
            + self.language(src) + (["-cpp"] if src.fortran else [])
        status, output = run_quiet(cmd + ["-E", src.path, "-o", out])
        if status != 0:
            note("%s: cannot preprocess it for instrumentation (%s); compiled without "
                 "measurement" % (src.path, output.strip().splitlines()[-1:] or status))
        return status == 0

    # ---- pass 3 ---------------------------------------------------------------------
    def instrument(self, src: Source) -> tuple[str | None, list[str]]:
        """(the instrumented text's path, extra compile options), or (None, [])
        after a note saying why not."""
        subdir = os.path.join(self.workdir, "src%d" % src.index)
        os.makedirs(subdir, exist_ok=True)
        if src.fortran:
            return self.instrument_fortran(src, subdir)
        return self.instrument_c(src, subdir), []

    def instrument_c(self, src: Source, subdir: str) -> str | None:
        base = os.path.splitext(os.path.basename(src.path))[0]
        suffix = ".ii" if src.cplusplus else ".i"
        pre = os.path.join(subdir, base + ".pre" + suffix)
        if not self.preprocess(src, pre):
            return None
        text = read(pre)
        try:
            prepared = prepare(text, src.path, src.cplusplus)
        except TextError as e:
            note("%s: cannot read the preprocessed source (%s); compiled without measurement"
                 % (src.path, e))
            return None
        if not prepared.regions and not needs_opari2(prepared.text):
            return pre          # nothing to instrument: compiled as preprocessed
        opari_in = os.path.join(subdir, base + (".opari.cpp" if src.cplusplus else ".opari.c"))
        opari_out = os.path.join(subdir, base + ".out" + suffix)
        names = spellings(prepared.text)
        write(opari_in, absolute_markers(prepared.text))
        failure = run_opari2(opari_in, opari_out, ["--c++" if src.cplusplus else "--c"],
                             self.opari2_args)
        if failure:
            note(opari2_failure(failure, names, src.path))
            return None
        inc_path = os.path.join(subdir, os.path.basename(opari_in) + ".opari.inc")
        inc = read(inc_path) if os.path.isfile(inc_path) else ""
        target = os.path.join(subdir, base + suffix)
        unit_id = hashlib.sha1(("%s\0%s\0%s" % (os.path.abspath(src.path), os.path.abspath(
            src.object), prepared.text)).encode("utf-8", "surrogateescape")).hexdigest()[:16]
        tally = Tally()
        write(target, finish_c(read(opari_out), inc, prepared, src.cplusplus, unit_id, names,
                               tally))
        for n in prepared.notes:
            note(n)
        tally.report(src.path)
        return target

    def instrument_fortran(self, src: Source, subdir: str) -> tuple[str | None, list[str]]:
        form, preprocessed = self.cl.fortran_kind(src.path, src.index)
        # the copy's suffix must not ask for cpp again, nor change the form
        base, ext = os.path.splitext(os.path.basename(src.path))
        ext = ".f" if form == "fixed" else ".f90"
        if preprocessed:
            pre = os.path.join(subdir, base + ".pre" + ext)
            if not self.preprocess(src, pre):
                return None, []
            text = read(pre)
        else:
            text = read(src.path)
        prepared = fortran.prepare(text, src.path, form == "fixed",
                                   fortran_text.include_dirs(self.cl.args))
        names = spellings(prepared.text)
        opari_in = os.path.join(subdir, base + ".opari" + ext)
        write(opari_in, absolute_markers(prepared.text))
        target = os.path.join(subdir, base + ext)
        language = ["--f77", "--fix-form"] if form == "fixed" else ["--f90", "--free-form"]
        failure = run_opari2(opari_in, target, language, self.opari2_args)
        if failure:
            note(opari2_failure(failure, names, src.path, fortran=True))
            return None, []
        inc_path = os.path.join(subdir, os.path.basename(opari_in) + ".opari.inc")
        out = fortran_output.restore_hidden(read(target), prepared.hidden)
        fixed = form == "fixed"
        tally = Tally()
        if os.path.isfile(inc_path):
            out, inc = fortran_output.own_regions(out, read(inc_path), prepared, fixed, tally)
            write(inc_path, fortran_depend_marks.mark(
                fortran_output.fix_include(inc), tally,
                fortran_depend_marks.task_constructs(prepared.text, fixed)))
        out = fortran_depend.insert(out, fixed, prepared.notes, tally,
                                    fortran_depend.constructs(prepared.text, fixed))
        write(target, user_markers(fortran_output.fix_fortran(out), names))
        for n in prepared.notes:
            note(n)
        tally.report(src.path)
        # INCLUDE lines of the user's files are looked up next to the original first
        return target, ["-I" + os.path.dirname(os.path.abspath(src.path)), "-I" + subdir,
                        "-nocpp"]

    # ---- pass 4 ---------------------------------------------------------------------
    def compile_instrumented(self, src: Source, path: str, extra: list[str]) -> bool:
        if src.fortran:
            lang = ["-x", "f77" if path.endswith(".f") else "f95"]
            opts = [o for o in quiet_options(self.cl.args) if o not in ("-cpp", "-nocpp")]
        else:
            lang = ["-x", "c++-cpp-output" if src.cplusplus else "cpp-output"]
            opts = quiet_options(self.cl.args)
        status, output = run_quiet(self.compiler + opts + extra + ["-w"] + lang
                                   + [path, "-c", "-o", src.object])
        if status == 0:
            # what a quiet compile still says (the assembler's messages) is the user's
            sys.stderr.write(output)
            return True
        note("%s: the instrumented source does not compile (a pompprof bug; `pompprof "
             "--keep` keeps it); compiled without measurement" % src.path)
        for line in output.strip().splitlines()[:5]:
            note("  " + line)
        return False


def read(path: str) -> str:
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


def compile_sources(compiler: list[str], cl: CommandLine, workdir: str,
                    opari2_args: list[str], unit_flags=None) -> tuple[int, list[Source]]:
    """Compile every instrumented source of the line; return (status, sources).
    The status is the first failing plain pass's (gcc goes on with the other
    sources of a -c line, and so do we), else 0.  unit_flags(source, assembly
    of its plain pass, is C++, is Fortran): more options for its instrumented
    compile (pompprof --filter: the functions of that unit gcc leaves out)."""
    c = Compile(compiler, cl, workdir, opari2_args)
    status = 0
    done = []
    for src in c.sources():
        st = c.plain_pass(src)
        if st != 0:
            status = status or st
            continue
        path, extra = c.instrument(src)
        if path is not None and unit_flags is not None:
            extra = extra + unit_flags(src.path, c.plain_output(src), src.cplusplus, src.fortran)
        if path is None or not c.compile_instrumented(src, path, extra):
            st = c.plain_object(src)
            if st != 0:
                status = status or st
                continue
        done.append(src)
    return status, done
