"""The pompprof wrapper's argument handling, module by module: how a compiler command
line is classified (compile, link, query; options with values; -o and -x forms;
response files; launchers; Fortran source form and preprocessing), which options each
of the wrapper's passes gets, what the link step adds, and - with a recording stand-in
for the compiler and the real OPARI2 - exactly which commands the wrapper runs for a
given line.  The e2e tests build real programs; these pin down the decisions behind
them.  The rewrites of the source text are tested in test_wrapper_rewrite.py."""

import contextlib
import glob
import io
import os
import shutil
import signal
import subprocess
import tempfile
import unittest

import toolstest as T
from pompprof_tools import build_config
from pompprof_tools.wrapper import main as wrapper
from pompprof_tools.wrapper import cmdline as wc
from pompprof_tools.wrapper import compile as wrapper_compile
from pompprof_tools.wrapper import fortran_output as wfo
from pompprof_tools.wrapper import link as wl
from pompprof_tools.wrapper import run as wrapper_run
from pompprof_tools.wrapper.cmdline import CommandLine

CC = os.environ.get("CC") or "gcc"
STRICT = ["-Wall", "-Wextra", "-Wmissing-prototypes", "-Wstrict-prototypes",
          "-Wold-style-definition", "-Wmissing-declarations", "-Werror"]
STRICT_CXX = ["-Wall", "-Wextra", "-Wmissing-declarations", "-Werror"]

# A compiler stand-in: appends its arguments (one per line, then "--") to $RECORD and
# exits with $RECORD_STATUS.  It writes the -o file as a compiler would: for -E a
# copy of the source (the test sources include nothing), else an empty file.
RECORDER = """#!/bin/sh
for a in "$@"; do printf '%s\\n' "$a"; done >>"$RECORD"
echo -- >>"$RECORD"
out= src= pre=
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift ;;
    -E) pre=1 ;;
    -*) ;;
    *) src=$1 ;;
  esac
  shift
done
if [ -n "$out" ]; then
  if [ -n "$pre" ]; then cp "$src" "$out"; else : >"$out"; fi
fi
exit ${RECORD_STATUS:-0}
"""


class InTempDir(unittest.TestCase):
    """Each test runs in a fresh directory of its own."""

    def setUp(self):
        self._cwd = os.getcwd()
        self._env = dict(os.environ)
        self.dir = tempfile.mkdtemp(prefix="pp_wrapper_args_")
        os.chdir(self.dir)

    def tearDown(self):
        os.chdir(self._cwd)
        os.environ.clear()
        os.environ.update(self._env)
        wrapper_run.verbose = False
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, name, text):
        d = os.path.dirname(name)
        if d:
            os.makedirs(d, exist_ok=True)
        with open(name, "w") as f:
            f.write(text)
        return name


# ---- classification -------------------------------------------------------------------

class Classification(unittest.TestCase):
    def test_compile_line(self):
        cl = CommandLine(["-fopenmp", "-O2", "-c", "fib.c", "-o", "fib.o"])
        self.assertTrue(cl.openmp)
        self.assertTrue(cl.compile_only)
        self.assertFalse(cl.links)
        self.assertFalse(cl.runs_unchanged)
        self.assertEqual((cl.sources, cl.fortran, cl.objects), ([3], [], []))
        self.assertEqual(cl.output, "fib.o")
        self.assertEqual(cl.instrumented_c, [3])

    def test_link_line(self):
        cl = CommandLine(["-fopenmp", "fib.o", "libx.a", "-L", "lib", "-lm", "-o", "fib"])
        self.assertTrue(cl.links)
        self.assertEqual(cl.objects, ["fib.o", "libx.a"])
        self.assertEqual((cl.sources, cl.instrumented_c), ([], []))
        self.assertEqual(cl.output, "fib")
        self.assertEqual(cl.inputs, 3)      # two files and -lm; "lib" is -L's value

    def test_compile_and_link_line(self):
        cl = CommandLine(["-fopenmp", "a.c", "b.cpp", "c.cxx", "d.C", "e.o", "f.h", "g.s"])
        self.assertTrue(cl.links)
        self.assertEqual(cl.sources, [1, 2, 3, 4])
        self.assertEqual(cl.objects, ["e.o"])
        self.assertEqual(cl.inputs, 7)

    def test_queries_run_unchanged(self):
        for q in ("-E", "-M", "-MM", "-S", "-fsyntax-only", "--version", "-V", "-qversion",
                  "-dumpversion", "-dumpfullversion", "-dumpmachine", "-dumpspecs", "--help",
                  "-###", "-print-file-name=libgomp.so", "--print-search-dirs",
                  "-print-prog-name=ld"):
            with self.subTest(q):
                cl = CommandLine(["-fopenmp", q, "a.c"])
                self.assertTrue(cl.query)
                self.assertTrue(cl.runs_unchanged)
        self.assertFalse(CommandLine(["-fopenmp", "-c", "a.c"]).runs_unchanged)

    def test_lines_without_inputs_run_unchanged(self):
        self.assertTrue(CommandLine(["-fopenmp"]).runs_unchanged)
        self.assertTrue(CommandLine(["-fopenmp", "-v", "-o", "x.c"]).runs_unchanged)
        cl = CommandLine(["-fopenmp", "-lm"])
        self.assertEqual(cl.inputs, 1)
        self.assertFalse(cl.runs_unchanged)

    def test_openmp_spellings(self):
        for opt in ("-fopenmp", "-qopenmp", "-openmp", "-fiopenmp", "-mp", "-fopenmp=libomp"):
            with self.subTest(opt):
                self.assertEqual(CommandLine([opt, "-c", "a.c"]).instrumented_c, [2])
        for opt in ("-fopenmp-simd", "-fno-openmp", "-O2"):
            with self.subTest(opt):
                cl = CommandLine([opt, "-c", "a.c"])
                self.assertFalse(cl.openmp)
                self.assertEqual((cl.sources, cl.instrumented_c), ([2], []))

    def test_options_with_values_do_not_take_inputs(self):
        for opt in sorted(wc.OPTIONS_WITH_VALUE - {"-x"}):
            with self.subTest(opt):
                cl = CommandLine(["-fopenmp", "-c", opt, "value.c", "real.c"])
                self.assertEqual(cl.sources, [4])
                self.assertEqual(cl.inputs, 1)
        # joined values are options too
        cl = CommandLine(["-fopenmp", "-Idir.c", "-DNAME=x.c", "-Wl,y.o", "real.c"])
        self.assertEqual((cl.sources, cl.objects), ([4], []))

    def test_output_forms(self):
        self.assertEqual(CommandLine(["-o", "a.out", "x.c"]).output, "a.out")
        self.assertEqual(CommandLine(["-oprog", "x.c"]).output, "prog")
        self.assertEqual(CommandLine(["-ox", "x.c"]).output, "x")
        self.assertEqual(CommandLine(["-o", "a", "x.c", "-o", "b"]).output, "b")
        cl = CommandLine(["x.c", "-o"])         # dangling -o: the compiler will complain
        self.assertIsNone(cl.output)
        self.assertEqual(cl.sources, [0])
        self.assertIsNone(CommandLine(["-c", "x.c"]).output)

    def test_forced_language(self):
        # -x names the language of the inputs after it, whatever their suffix
        cl = CommandLine(["-fopenmp", "-x", "c", "-c", "a.txt", "b.cpp", "-x", "none", "c.cpp"])
        self.assertEqual(cl.instrumented_c, [4, 5, 8])
        self.assertEqual(cl.languages, {4: "c", 5: "c"})
        self.assertEqual([cl.is_cplusplus(i) for i in (4, 5, 8)], [False, False, True])
        cl = CommandLine(["-fopenmp", "-xc++", "-c", "a.c"])
        self.assertEqual((cl.instrumented_c, cl.is_cplusplus(3)), ([3], True))
        # g++ and its kin compile a .c file as C++
        cl = CommandLine(["-fopenmp", "-c", "a.c", "b.cc"])
        self.assertEqual([cl.is_cplusplus(i, "gcc") for i in (2, 3)], [False, True])
        for driver in ("g++", "/usr/bin/x86_64-linux-gnu-g++-12", "clang++", "mpicxx", "CC"):
            with self.subTest(driver):
                self.assertTrue(cl.is_cplusplus(2, driver))
        self.assertFalse(CommandLine(["-x", "c", "a.c"]).is_cplusplus(2, "g++"))
        cl = CommandLine(["-fopenmp", "-x", "f95-cpp-input", "-c", "a.txt"])
        self.assertEqual(cl.instrumented_fortran, [4])
        self.assertEqual(cl.fortran_kind("a.txt", 4), ("free", True))
        # other languages are not sources: assembler, headers, preprocessed text
        for lang in ("assembler", "c-header", "cpp-output"):
            with self.subTest(lang):
                cl = CommandLine(["-fopenmp", "-x", lang, "-c", "a.c"])
                self.assertEqual((cl.sources, cl.objects), ([], []))

    def test_launchers(self):
        self.assertEqual(wrapper.split_launcher("ccache", ["gcc", "-c", "a.c"]),
                         (["ccache", "gcc"], ["-c", "a.c"]))
        self.assertEqual(wrapper.split_launcher("/usr/bin/sccache", ["g++", "-v"]),
                         (["/usr/bin/sccache", "g++"], ["-v"]))
        self.assertEqual(wrapper.split_launcher("gcc", ["-c", "a.c"]), (["gcc"], ["-c", "a.c"]))
        # ccache's own options are not a compiler
        self.assertEqual(wrapper.split_launcher("ccache", ["-s"]), (["ccache"], ["-s"]))

    def test_dependency_flags(self):
        for a in ("-MD", "-MMD", "-MP", "-MG", "-MF", "-MT", "-MQ", "-MFx.d", "-MTx.o",
                  "-Wp,-MD,x.d", "-Wp,-MMD,x.d"):
            with self.subTest(a):
                self.assertTrue(wc.is_dependency_flag(a))
        for a in ("-M", "-MM", "-Wp,-DX", "-march=native", "-O2"):
            with self.subTest(a):
                self.assertFalse(wc.is_dependency_flag(a))

    def test_options_for_one_source(self):
        args = ["-fopenmp", "-O2", "-Iinc", "-include", "cfg.h", "-x", "c", "a.c", "b.o",
                "-MD", "-MF", "a.d", "-o", "a.o", "-c", "-lm", "-L", "lib", "-Wl,-z,now",
                "-Xlinker", "-q", "-Werror"]
        self.assertEqual(wc.options_only(args),
                         ["-fopenmp", "-O2", "-Iinc", "-include", "cfg.h", "-MD", "-MF",
                          "a.d", "-Werror"])
        self.assertEqual(wrapper_compile.quiet_options(args),
                         ["-fopenmp", "-O2", "-Iinc", "-include", "cfg.h"])

    def test_shared(self):
        self.assertTrue(CommandLine(["-shared", "-fopenmp", "a.o"]).shared)
        self.assertFalse(CommandLine(["-fopenmp", "a.o"]).shared)


class Fortran(unittest.TestCase):
    def test_sources_by_suffix(self):
        cl = CommandLine(["-fopenmp", "-c", "a.f90", "b.c", "c.F", "d.for", "e.F08", "m.mod"])
        self.assertEqual(cl.fortran, [2, 4, 5, 6])
        self.assertEqual(cl.sources, [3])
        self.assertEqual(cl.instrumented_fortran, [2, 4, 5, 6])
        self.assertEqual(CommandLine(["-c", "a.f90"]).instrumented_fortran, [])

    def test_form_and_preprocessing_from_the_suffix(self):
        cl = CommandLine(["-c", "x"])
        expected = {"a.f": ("fixed", False), "a.F": ("fixed", True),
                    "a.for": ("fixed", False), "a.FTN": ("fixed", True),
                    "a.fpp": ("fixed", True), "a.f90": ("free", False),
                    "a.F90": ("free", True), "a.f95": ("free", False),
                    "a.F03": ("free", True), "a.f08": ("free", False)}
        for source, kind in expected.items():
            with self.subTest(source):
                self.assertEqual(cl.fortran_kind(source), kind)

    def test_options_override_the_suffix(self):
        self.assertEqual(CommandLine(["-ffree-form"]).fortran_kind("a.f"), ("free", False))
        self.assertEqual(CommandLine(["-ffixed-form"]).fortran_kind("a.F90"), ("fixed", True))
        self.assertEqual(CommandLine(["-cpp"]).fortran_kind("a.f90"), ("free", True))
        self.assertEqual(CommandLine(["-nocpp"]).fortran_kind("a.F"), ("fixed", False))
        # the last one wins, as for the compiler
        self.assertEqual(CommandLine(["-cpp", "-nocpp"]).fortran_kind("a.f90")[1], False)
        self.assertEqual(CommandLine(["-ffixed-form", "-ffree-form"]).fortran_kind("a.f")[0],
                         "free")


class ResponseFiles(InTempDir):
    def test_expanded_in_place_with_quoting(self):
        self.write("args.rsp", '-fopenmp -DX="a b"\n  src/x.c\n')
        self.assertEqual(wc.expand_response_files(["-c", "@args.rsp", "-o", "x.o"]),
                         ["-c", "-fopenmp", "-DX=a b", "src/x.c", "-o", "x.o"])

    def test_nested(self):
        self.write("outer.rsp", "-O2 @inner.rsp -g")
        self.write("inner.rsp", "-c 'y z.c'")
        self.assertEqual(wc.expand_response_files(["@outer.rsp"]),
                         ["-O2", "-c", "y z.c", "-g"])

    def test_missing_and_bare_stay_literal(self):
        self.assertEqual(wc.expand_response_files(["@nope.rsp", "@", "a.c"]),
                         ["@nope.rsp", "@", "a.c"])
        os.mkdir("dir.rsp")
        self.assertEqual(wc.expand_response_files(["@dir.rsp"]), ["@dir.rsp"])

    def test_unbalanced_quote_stays_literal(self):
        self.write("bad.rsp", '-DX="unterminated\n')
        self.assertEqual(wc.expand_response_files(["@bad.rsp", "-c"]), ["@bad.rsp", "-c"])

    def test_self_reference_stops(self):
        self.write("loop.rsp", "-g @loop.rsp")
        out = wc.expand_response_files(["@loop.rsp"])
        self.assertEqual(out, ["-g"] * wc.RESPONSE_FILE_DEPTH + ["@loop.rsp"])

    def test_classified_after_expansion(self):
        self.write("args.rsp", "-fopenmp -c a.c -o a.o")
        cl = CommandLine(wc.expand_response_files(["@args.rsp"]))
        self.assertEqual((cl.instrumented_c, cl.output, cl.compile_only), ([2], "a.o", True))


# ---- OPARI2's Fortran output ---------------------------------------------------------

class FortranRepairs(unittest.TestCase):
    def test_include_moves_behind_import(self):
        text = "\n".join([
            "    subroutine s(x)",
            "      include 'a.f90.opari.inc'",
            '#line 5 "a.f90"',
            "      import :: t, &",
            "        u",
            "      type(t) :: x",
            "    end subroutine"])
        self.assertEqual(wfo.include_after_imports(text).split("\n"), [
            "    subroutine s(x)",
            '#line 5 "a.f90"',
            "      import :: t, &",
            "        u",
            "      include 'a.f90.opari.inc'",
            '#line 7 "a.f90"',
            "      type(t) :: x",
            "    end subroutine"])
        plain = "      include 'a.f90.opari.inc'\n#line 3 \"a.f90\"\n  interface"
        self.assertEqual(wfo.include_after_imports(plain), plain)

    def test_sections_enter_gets_its_string(self):
        call = "      call POMP2_Sections_enter(opari2_region_3)"
        with_ctc = call + "\n      call POMP2_Parallel_fork(opari2_region_3, opari2_ctc_3 )"
        fixed = wfo.fix_fortran(with_ctc)
        self.assertIn("call POMP2_Sections_enter(opari2_region_3, opari2_ctc_3)", fixed)
        # no string constant for that region in the file: left alone
        self.assertEqual(wfo.fix_fortran(call), call)


# ---- the link step --------------------------------------------------------------------

class LinkStep(InTempDir):
    def test_init_function_names(self):
        cases = {"POMP2_Init_reg_k2a9_4": ("POMP2_Init_reg_k2a9_4", "4"),
                 "_POMP2_Init_reg_x_12": ("POMP2_Init_reg_x_12", "12"),
                 "pomp2_init_reg_kbz_1_": ("pomp2_init_reg_kbz_1_", "1"),
                 "POMP2_USER_Init_reg_y_3": ("POMP2_USER_Init_reg_y_3", "3")}
        for symbol, groups in cases.items():
            with self.subTest(symbol):
                self.assertEqual(wl.INIT_REG.fullmatch(symbol).groups(), groups)
        for symbol in ("POMP2_Init_reg_x_0", "POMP2_Init_regions", "POMP2_Init_reg_x"):
            with self.subTest(symbol):
                self.assertIsNone(wl.INIT_REG.fullmatch(symbol))

    def test_init_functions_from_objects(self):
        self.write("u.c", "void POMP2_Init_reg_q7_5(void) {}\nvoid other(void) {}\n")
        subprocess.run([CC, "-c", "u.c", "-o", "u.o"], check=True)
        subprocess.run(["ar", "rc", "libu.a", "u.o"], check=True)
        self.assertEqual(wl.init_functions_from_nm(["u.o"]), {"POMP2_Init_reg_q7_5": 5})
        self.assertEqual(wl.init_functions_from_nm(["libu.a"]), {"POMP2_Init_reg_q7_5": 5})
        self.assertEqual(wl.init_functions_from_nm([]), {})
        self.assertFalse(wl.needs_pompprof(["u.o"]))
        self.write("v.c", "void POMP2_Parallel_fork(void); void f(void) { POMP2_Parallel_fork(); }")
        subprocess.run([CC, "-c", "v.c", "-o", "v.o"], check=True)
        self.assertTrue(wl.needs_pompprof(["u.o", "v.o"]))

    def test_init_unit(self):
        functions = {"POMP2_Init_reg_a_2": 2, "pomp2_init_reg_b_3_": 3,
                     "POMP2_USER_Init_reg_c_1": 1}
        text = wl.init_unit_text(functions)
        regions = text.split("void POMP2_Init_regions(void)\n{")[1].split("}")[0]
        self.assertEqual(regions.split(), ["POMP2_Init_reg_a_2();", "pomp2_init_reg_b_3_();"])
        user = text.split("void POMP2_USER_Init_regions(void)\n{")[1].split("}")[0]
        self.assertEqual(user.split(), ["POMP2_USER_Init_reg_c_1();"])
        self.assertIn("size_t POMP2_Get_num_regions(void)\n{\n    return 5;", text)
        self.assertIn("size_t POMP2_USER_Get_num_regions(void)\n{\n    return 1;", text)
        # it is C (and C++) the compiler accepts without a single warning
        self.write("init.c", text)
        for lang in ("c", "c++"):
            flags = STRICT if lang == "c" else STRICT_CXX
            p = subprocess.run([CC, "-x", lang] + flags + ["-c", "init.c", "-o", "init.o"],
                               capture_output=True, text=True)
            self.assertEqual((p.returncode, p.stderr), (0, ""))
            # and it refers to libpompprof, which --as-needed then keeps
            self.assertIn(" U POMP2_Get_opari2_version", subprocess.run(
                ["nm", "init.o"], capture_output=True, text=True).stdout)

    def test_target_flags(self):
        self.assertEqual(wl.target_flags(["-m64", "-O2", "-fPIC", "-pthread", "--sysroot=/x",
                                          "-fsanitize=address", "-g", "-fpie", "-I/m"]),
                         ["-m64", "-fPIC", "-pthread", "--sysroot=/x", "-fsanitize=address",
                          "-fpie"])

    def test_link_additions(self):
        self.write("cc", RECORDER)
        os.chmod("cc", 0o755)
        os.environ["RECORD"] = os.path.join(self.dir, "record")
        os.environ["POMPPROF_LIBDIR"] = "/opt/pp/lib"
        cl = CommandLine(["-m64", "-fopenmp", "a.o"])
        extra, status = wl.link_additions(["./cc"], cl, self.dir, {"POMP2_Init_reg_a_1": 1})
        init_o = os.path.join(self.dir, "pompprof_init_regions.o")
        self.assertEqual((extra, status),
                         ([init_o, "-L/opt/pp/lib", "-Wl,-rpath,/opt/pp/lib", "-lpompprof"], 0))
        with open("record") as f:
            self.assertEqual(f.read().split("\n")[:5],
                             ["-m64", "-c", os.path.join(self.dir, "pompprof_init_regions.c"),
                              "-o", init_o])
        # no -fopenmp on the line: the library needs the OpenMP runtime
        extra, _ = wl.link_additions(["./cc"], CommandLine(["a.o"]), self.dir, {})
        self.assertEqual(extra[4:], build_config.OPENMP_FLAG.split())
        # a shared library gets no init unit, and the compiler is not asked
        os.unlink("record")
        extra, _ = wl.link_additions(["./cc"], CommandLine(["-shared", "-fopenmp", "a.o"]),
                                     self.dir, {})
        self.assertEqual(extra, ["-L/opt/pp/lib", "-Wl,-rpath,/opt/pp/lib", "-lpompprof"])
        self.assertFalse(os.path.exists("record"))
        # the init unit does not compile: its status, nothing to add
        os.environ["RECORD_STATUS"] = "4"
        self.assertEqual(wl.link_additions(["./cc"], cl, self.dir, {}), (None, 4))

    def test_configured_directories_without_override(self):
        os.environ.pop("POMPPROF_LIBDIR", None)
        self.assertEqual(wl.libdir(), build_config.LIBDIR)
        os.environ.pop("POMPPROF_INCDIR", None)
        self.assertEqual(wrapper_compile.includedir(), build_config.INCLUDEDIR)
        os.environ["POMPPROF_INCDIR"] = "/opt/pp/include"
        self.assertEqual(wrapper_compile.includedir(), "/opt/pp/include")


# ---- whole command lines, with a recording compiler -------------------------------------

class Commands(InTempDir):
    def setUp(self):
        super().setUp()
        self.write("cc", RECORDER)
        os.chmod("cc", 0o755)
        self.cc = os.path.join(self.dir, "cc")
        os.environ["RECORD"] = os.path.join(self.dir, "record")
        os.environ["POMPPROF_INCDIR"] = "/opt/pp/include"
        os.environ["POMPPROF_LIBDIR"] = "/opt/pp/lib"
        os.environ.pop("RECORD_STATUS", None)
        # the wrapper's work directories go here, apart from other tests running meanwhile
        self.tmp = os.path.join(self.dir, "tmp")
        os.mkdir(self.tmp)
        tempfile.tempdir = self.tmp
        self.write("src/a.c", "int main(void)\n{\n#pragma omp parallel\n    ;\n    return 0;\n}\n")
        self.write("src/f.f90", "program f\n!$omp parallel\n!$omp end parallel\nend program\n")

    def tearDown(self):
        tempfile.tempdir = None
        super().tearDown()

    def runs(self, argv, status=0):
        """The compiler invocations of `pompprof <argv>` (lists of arguments)."""
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(wrapper.main(argv), status, err.getvalue())
        self.stderr = err.getvalue()
        if not os.path.exists("record"):
            return []
        with open("record") as f:
            text = f.read()
        os.unlink("record")
        return [chunk.strip("\n").split("\n") if chunk.strip("\n") else []
                for chunk in text.split("--\n")[:-1]]

    def assertNoWorkdirLeft(self):
        self.assertEqual(os.listdir(self.tmp), [])

    PP_H = ["-DPOMPPROF_INSTRUMENTED=1", "-I/opt/pp/include"]

    # src/a.c holds OpenMP directives: a line without -fopenmp that compiles it runs as
    # written, then the wrapper preprocesses it with -fopenmp to see whether they count
    # (wrapper/noopenmp.py: the note about the missing flag)
    NOOMP_CHECK = ["-fopenmp", "-w", "-E", "src/a.c", "-o", "-"]

    def test_plain_lines_run_unchanged(self):
        for args, after in ((["-c", "src/a.c"], [self.NOOMP_CHECK]),
                            (["-fopenmp", "-E", "src/a.c"], []), (["--version"], []),
                            (["-fopenmp", "-S", "src/a.c"], []), (["-fopenmp", "-v"], [])):
            with self.subTest(args):
                self.assertEqual(self.runs([self.cc] + args), [args] + after)

    def test_response_file_passes_through_unexpanded(self):
        self.write("args.rsp", "-c src/a.c")
        self.assertEqual(self.runs([self.cc, "@args.rsp"]), [["@args.rsp"], self.NOOMP_CHECK])

    def test_c_compile_line(self):
        plain, pre, compile_ = self.runs([self.cc, "-fopenmp", "-O2", "-MMD", "-Werror", "-c",
                                          "src/a.c", "-o", "a.o"])
        # 1. the user's compile, stopped after the compiler proper, at the object's place
        self.assertEqual(plain, ["-fopenmp", "-O2", "-MMD", "-Werror"] + self.PP_H
                         + ["src/a.c", "-S", "-o", "a.o"])
        # 2. the compiler's preprocessor, quiet, without dependency output
        self.assertEqual(pre[:4] + pre[-5:], ["-fopenmp", "-O2"] + self.PP_H
                         + ["-w", "-E", "src/a.c", "-o", pre[-1]])
        self.assertTrue(pre[-1].startswith(self.tmp))
        # 4. the instrumented text, quiet, to the object
        self.assertEqual(compile_[:4], ["-fopenmp", "-O2", "-w", "-x"])
        self.assertEqual(compile_[4], "cpp-output")
        self.assertEqual(os.path.basename(compile_[5]), "a.i")
        self.assertEqual(compile_[6:], ["-c", "-o", "a.o"])
        self.assertNoWorkdirLeft()
        self.assertEqual(sorted(os.listdir("src")), ["a.c", "f.f90"])
        self.assertEqual(self.stderr, "")

    def test_forced_language_and_cplusplus(self):
        self.write("src/b.txt", "int main()\n{\n#pragma omp parallel\n    ;\n    return 0;\n}\n")
        plain, pre, compile_ = self.runs([self.cc, "-fopenmp", "-x", "c++", "-c", "src/b.txt"])
        self.assertEqual(plain[-6:], ["-x", "c++", "src/b.txt", "-S", "-o", "b.o"])
        self.assertEqual(pre[-6:-2], ["-x", "c++", "-E", "src/b.txt"])
        self.assertEqual(compile_[-6:-4], ["-x", "c++-cpp-output"])
        self.assertEqual(os.path.basename(compile_[-4]), "b.ii")

    def test_response_file_is_expanded_when_instrumenting(self):
        self.write("args.rsp", "-fopenmp -c src/a.c")
        invocations = self.runs([self.cc, "@args.rsp", "-o", "a.o"])
        self.assertEqual(len(invocations), 3)
        for args in invocations:
            self.assertNotIn("@args.rsp", args)
        self.assertEqual(invocations[0][-4:], ["src/a.c", "-S", "-o", "a.o"])

    def test_fortran_compile_line(self):
        plain, compile_ = self.runs([self.cc, "-fopenmp", "-c", "src/f.f90"])
        # POMPPROF_INSTRUMENTED: a preprocessed source can guard its pompprof calls
        self.assertEqual(plain, ["-fopenmp", "-DPOMPPROF_INSTRUMENTED=1", "src/f.f90", "-S",
                                 "-o", "f.o"])
        copy = compile_[-4]
        self.assertEqual(os.path.basename(copy), "f.f90")
        self.assertEqual(compile_[:4], ["-fopenmp", "-I" + os.path.join(self.dir, "src"),
                                        "-I" + os.path.dirname(copy), "-nocpp"])
        self.assertEqual(compile_[4:7], ["-w", "-x", "f95"])

    def test_mixed_c_and_fortran_line(self):
        invocations = self.runs([self.cc, "-fopenmp", "-c", "src/a.c", "src/f.f90"])
        self.assertEqual([a[-4:] for a in invocations if "-S" in a],
                         [["src/a.c", "-S", "-o", "a.o"], ["src/f.f90", "-S", "-o", "f.o"]])
        self.assertEqual([a[-2:] for a in invocations if "-c" in a], [["-o", "a.o"], ["-o", "f.o"]])

    def test_compile_and_link_line(self):
        invocations = self.runs([self.cc, "-fopenmp", "src/a.c", "-o", "prog"])
        plain, pre, compile_, init, link = invocations
        self.assertEqual(plain[-3:-1], ["-S", "-o"])
        obj = compile_[-1]
        self.assertTrue(obj.startswith(self.tmp) and obj.endswith("/a.o"))
        self.assertEqual(init[0], "-c")
        self.assertTrue(init[1].endswith("/pompprof_init_regions.c"))
        self.assertEqual(link, ["-fopenmp", obj, "-o", "prog", init[3], "-L/opt/pp/lib",
                                "-Wl,-rpath,/opt/pp/lib", "-lpompprof"])

    def test_link_with_openmp_always_gets_the_library(self):
        # an OpenMP program without instrumented code still writes a profile
        self.write("u.c", "int main(void) { return 0; }\n")
        subprocess.run([CC, "-c", "u.c", "-o", "u.o"], check=True)
        init, link = self.runs([self.cc, "-fopenmp", "u.o", "-o", "u"])
        self.assertEqual(link[:3], ["-fopenmp", "u.o", "-o"])
        self.assertEqual(link[-1], "-lpompprof")
        # without OpenMP and without instrumented objects: the plain link
        self.assertEqual(self.runs([self.cc, "u.o", "-o", "u"]), [["u.o", "-o", "u"]])

    def test_compiler_status_passes_through(self):
        os.environ["RECORD_STATUS"] = "3"
        self.runs([self.cc, "-c", "src/a.c"], status=3)
        # the plain pass fails: nothing else runs
        self.assertEqual(len(self.runs([self.cc, "-fopenmp", "-c", "src/a.c"], status=3)), 1)
        self.assertNoWorkdirLeft()
        self.write("killed", "#!/bin/sh\nkill -TERM $$\n")
        os.chmod("killed", 0o755)
        self.assertEqual(wrapper.main(["./killed", "-c", "src/a.c"]), 128 + signal.SIGTERM)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(wrapper.main(["./no-such-compiler", "-c", "src/a.c"]), 127)
        self.assertTrue(err.getvalue().startswith("pompprof: cannot run ./no-such-compiler"))

    def test_opari2_failure_compiles_the_source_plainly(self):
        # a construct OPARI2 cannot read: one pompprof line with file:line, then the
        # plain compile (the build never fails where a plain one works)
        self.write("src/bad.c", "int main(void)\n{\n#pragma omp parallel\n    {\n"
                                "#pragma pomp inst end(nothing_began)\n    }\n    return 0;\n}\n")
        invocations = self.runs([self.cc, "-fopenmp", "-c", "src/bad.c", "-o", "bad.o"])
        self.assertEqual(invocations[-1][-3:], ["-c", "-o", "bad.o"])
        self.assertEqual(invocations[-1][-4], "src/bad.c")
        lines = self.stderr.splitlines()
        self.assertEqual(len(lines), 1, self.stderr)
        self.assertRegex(lines[0], r"^pompprof: src/bad\.c(:\d+)?: OPARI2 cannot instrument "
                                   r"this .*compiled without measurement")
        self.assertNoWorkdirLeft()

    def test_other_inputs_of_a_compile_line(self):
        self.write("src/s.s", "")
        invocations = self.runs([self.cc, "-fopenmp", "-c", "src/a.c", "src/s.s"])
        self.assertEqual(invocations[-1], ["-fopenmp", "-c", "src/s.s"])
        self.assertEqual(len(invocations), 4)
        # -o with several inputs: gcc's own refusal
        self.assertEqual(self.runs([self.cc, "-fopenmp", "-c", "src/a.c", "src/s.s", "-o", "x.o"]),
                         [["-fopenmp", "-c", "src/a.c", "src/s.s", "-o", "x.o"]])

    def test_opari2_only_where_there_is_something_to_instrument(self):
        self.write("src/plain.c", "int f(int x)\n{\n    return x + 1;\n}\n")
        self.write("src/loop.c", "void g(int *a)\n{\n#pragma omp taskloop\n"
                                 "    for (int i = 0; i < 8; i++) a[i] = i;\n}\n")
        *_, compile_ = self.runs(["--verbose", "--keep", self.cc, "-fopenmp", "-c",
                                  "src/plain.c"])
        self.assertNotIn(build_config.OPARI2, self.stderr)
        self.assertTrue(compile_[-4].endswith("/plain.pre.i"))
        shutil.rmtree(self.stderr.splitlines()[-1].split("kept intermediate files in ")[1])
        # a taskloop alone is the wrapper's own instrumentation, still through OPARI2
        *_, compile_ = self.runs(["--keep", self.cc, "-fopenmp", "-c", "src/loop.c"])
        with open(compile_[-4]) as f:
            text = f.read()
        self.assertIn("POMP2_Taskwait_begin(pompprof_handle_1()", text)
        self.assertIn("#pragma omp taskloop", text)
        shutil.rmtree(self.stderr.splitlines()[-1].split("kept intermediate files in ")[1])

    def test_keep_and_opari2_args(self):
        self.runs(["--verbose", "--keep", "--opari2-arg=--nodecl", self.cc, "-fopenmp",
                   "-c", "src/a.c"])
        lines = self.stderr.splitlines()
        opari2 = [ln for ln in lines if ln.startswith("pompprof: %s " % build_config.OPARI2)]
        self.assertEqual(len(opari2), 1)
        self.assertIn(" --omp-tpd --omp-task-untied=no-warn --c --nodecl ", opari2[0])
        kept = lines[-1].split("kept intermediate files in ")[1]
        self.assertEqual(os.path.dirname(kept), self.tmp)
        copies = glob.glob(os.path.join(kept, "src*", "a.i"))
        self.assertEqual(len(copies), 1)
        with open(copies[0]) as f:
            self.assertIn("POMP2_Parallel_fork", f.read())
        shutil.rmtree(kept)


class WrapperOptions(unittest.TestCase):
    def tearDown(self):
        wrapper_run.verbose = False

    def call(self, argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            result = wrapper.parse_options(argv)
        return result, out.getvalue(), err.getvalue()

    def test_options_before_the_compiler(self):
        (done, opts, i), _, _ = self.call(["--verbose", "--keep", "--opari2-arg=--x=1", "gcc",
                                           "--help"])
        self.assertEqual((done, opts, i), (None, ["--keep", "--opari2-arg=--x=1"], 3))
        self.assertTrue(wrapper_run.verbose)
        self.assertEqual(wrapper.opari2_options_from(opts), ["--x=1"])

    def test_help_version_errors(self):
        (done, _, _), out, _ = self.call(["--help"])
        self.assertEqual(done, 0)
        self.assertTrue(out.startswith("usage: pompprof "))
        (done, _, _), out, _ = self.call(["--version"])
        self.assertEqual((done, out), (0, "pompprof %s\n" % build_config.VERSION))
        (done, _, _), _, err = self.call(["--bogus", "gcc"])
        self.assertEqual(done, 2)
        self.assertEqual(err, "pompprof: unknown option --bogus (see pompprof --help)\n")
        (done, _, _), out, err = self.call(["--keep"])
        self.assertEqual((done, out), (2, ""))
        self.assertTrue(err.startswith("usage: pompprof "))
        self.assertFalse(wrapper_run.verbose)


if __name__ == "__main__":
    T.main()
