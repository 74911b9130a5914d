"""The pompprof wrapper's argument handling, module by module: how a compiler command
line is classified (compile, link, query; options with values; -o forms; response
files; Fortran source form and preprocessing), how OPARI2's output is repaired, what
the link step adds, and - with a recording stand-in for the compiler and the real
OPARI2 - exactly which command the wrapper runs for a given line.  The e2e tests build
real programs; these pin down the decisions behind them."""

import contextlib
import io
import os
import shutil
import signal
import subprocess
import tempfile
import unittest

import toolstest as T
from pompprof_tools import build_config
from pompprof_tools import wrapper
from pompprof_tools import wrapper_cmdline as wc
from pompprof_tools import wrapper_instrument as wi
from pompprof_tools import wrapper_link as wl
from pompprof_tools import wrapper_run
from pompprof_tools.wrapper_cmdline import CommandLine

CC = os.environ.get("CC") or "gcc"

# A compiler stand-in: appends its arguments (one per line, then "--") to $RECORD and
# exits with $RECORD_STATUS.
RECORDER = """#!/bin/sh
for a in "$@"; do printf '%s\\n' "$a"; done >>"$RECORD"
echo -- >>"$RECORD"
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
        for opt in sorted(wc.OPTIONS_WITH_VALUE):
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

    def test_forced_language_is_not_instrumented(self):
        for args in (["-fopenmp", "-x", "c", "-c", "a.c"], ["-fopenmp", "-xc", "-c", "a.c"],
                     ["-fopenmp", "-x", "f95", "-c", "a.f90"]):
            with self.subTest(args):
                cl = CommandLine(args)
                self.assertTrue(cl.language_forced)
                self.assertEqual((cl.instrumented_c, cl.instrumented_fortran), ([], []))

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


# ---- OPARI2's output ------------------------------------------------------------------

class Repairs(InTempDir):
    def test_line_markers_use_the_users_spelling(self):
        self.write("src/x.c", "")
        absolute = os.path.join(self.dir, "src", "x.c")
        text = '#line 1 "%s"\nint a;\n#line 7 "%s"\n#line 2 "other.c"\n' % (absolute, absolute)
        self.assertEqual(wi.spell_line_markers(text, "src/x.c"),
                         '#line 1 "src/x.c"\nint a;\n#line 7 "src/x.c"\n#line 2 "other.c"\n')
        # OPARI2 keeps "dir/../x" as given, joined to the working directory
        dotted = os.path.join(self.dir, "src/../src/x.c")
        self.assertEqual(wi.spell_line_markers('#line 3 "%s"' % dotted, "src/../src/x.c"),
                         '#line 3 "src/../src/x.c"')

    def test_line_markers_without_cpp(self):
        text = '#line 12 "a.f"\n      x = 1\n'
        self.assertEqual(wi.fix_fortran(text, preprocessed=False), '# 12 "a.f"\n      x = 1\n')
        self.assertEqual(wi.fix_fortran(text, preprocessed=True), text)

    def test_include_moves_behind_import(self):
        text = "\n".join([
            "    subroutine s(x)",
            "      include 'a.f90.opari.inc'",
            '#line 5 "a.f90"',
            "      import :: t, &",
            "        u",
            "      type(t) :: x",
            "    end subroutine"])
        self.assertEqual(wi.include_after_imports(text).split("\n"), [
            "    subroutine s(x)",
            '#line 5 "a.f90"',
            "      import :: t, &",
            "        u",
            "      include 'a.f90.opari.inc'",
            '#line 7 "a.f90"',
            "      type(t) :: x",
            "    end subroutine"])
        plain = "      include 'a.f90.opari.inc'\n#line 3 \"a.f90\"\n  interface"
        self.assertEqual(wi.include_after_imports(plain), plain)

    def test_sections_enter_gets_its_string(self):
        call = "      call POMP2_Sections_enter(opari2_region_3)"
        with_ctc = call + "\n      call POMP2_Parallel_fork(opari2_region_3, opari2_ctc_3 )"
        fixed = wi.fix_fortran(with_ctc, preprocessed=True)
        self.assertIn("call POMP2_Sections_enter(opari2_region_3, opari2_ctc_3)", fixed)
        # no string constant for that region in the file: left alone
        self.assertEqual(wi.fix_fortran(call, preprocessed=True), call)


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

    def test_init_functions_from_opari2_files(self):
        self.write("a.c.opari.inc", "void POMP2_Init_reg_ab1_3(void);\n"
                                    "void POMP2_USER_Init_reg_cd_1( void );\n")
        self.assertEqual(wl.init_functions_from_sources(["a.c", "missing.c"]),
                         {"POMP2_Init_reg_ab1_3": 3, "POMP2_USER_Init_reg_cd_1": 1})
        self.write("f.f90", "      end\n      subroutine POMP2_Init_reg_Xy_2()\n")
        self.assertEqual(wl.init_functions_from_fortran(["f.f90", "gone.f90"]),
                         {"pomp2_init_reg_xy_2_": 2})

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
        # it is C (and C++) the compiler accepts, warning-free
        self.write("init.c", text)
        for lang in ("c", "c++"):
            p = subprocess.run([CC, "-x", lang, "-Wall", "-Wextra", "-Werror", "-c", "init.c",
                                "-o", "init.o"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)

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
        extra, status = wl.link_additions("./cc", cl, self.dir, {"POMP2_Init_reg_a_1": 1})
        init_o = os.path.join(self.dir, "pompprof_init_regions.o")
        self.assertEqual((extra, status),
                         ([init_o, "-L/opt/pp/lib", "-Wl,-rpath,/opt/pp/lib", "-lpompprof"], 0))
        with open("record") as f:
            self.assertEqual(f.read().split("\n")[:5],
                             ["-m64", "-c", os.path.join(self.dir, "pompprof_init_regions.c"),
                              "-o", init_o])
        # no -fopenmp on the line: the library needs the OpenMP runtime
        extra, _ = wl.link_additions("./cc", CommandLine(["a.o"]), self.dir, {})
        self.assertEqual(extra[4:], build_config.OPENMP_FLAG.split())
        # a shared library gets no init unit, and the compiler is not asked
        os.unlink("record")
        extra, _ = wl.link_additions("./cc", CommandLine(["-shared", "-fopenmp", "a.o"]),
                                     self.dir, {})
        self.assertEqual(extra, ["-L/opt/pp/lib", "-Wl,-rpath,/opt/pp/lib", "-lpompprof"])
        self.assertFalse(os.path.exists("record"))
        # the init unit does not compile: its status, nothing to add
        os.environ["RECORD_STATUS"] = "4"
        self.assertEqual(wl.link_additions("./cc", cl, self.dir, {}), (None, 4))

    def test_configured_libdir_without_override(self):
        os.environ.pop("POMPPROF_LIBDIR", None)
        self.assertEqual(wl.libdir(), build_config.LIBDIR)
        os.environ.pop("POMPPROF_INCDIR", None)
        self.assertEqual(wrapper.includedir(), build_config.INCLUDEDIR)
        os.environ["POMPPROF_INCDIR"] = "/opt/pp/include"
        self.assertEqual(wrapper.includedir(), "/opt/pp/include")


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
        self.assertEqual(wrapper.main(argv), status)
        if not os.path.exists("record"):
            return []
        with open("record") as f:
            text = f.read()
        os.unlink("record")
        return [chunk.strip("\n").split("\n") if chunk.strip("\n") else []
                for chunk in text.split("--\n")[:-1]]

    def assertNoWorkdirLeft(self):
        self.assertEqual(os.listdir(self.tmp), [])

    def test_plain_lines_run_unchanged(self):
        for args in (["-c", "src/a.c"], ["-fopenmp", "-E", "src/a.c"], ["--version"],
                     ["-fopenmp", "-x", "c", "-c", "src/a.c"], ["-fopenmp", "-v"]):
            with self.subTest(args):
                self.assertEqual(self.runs([self.cc] + args), [args])

    def test_response_file_passes_through_unexpanded(self):
        self.write("args.rsp", "-c src/a.c")
        self.assertEqual(self.runs([self.cc, "@args.rsp"]), [["@args.rsp"]])

    def test_c_compile_line(self):
        (args,) = self.runs([self.cc, "-fopenmp", "-O2", "-c", "src/a.c", "-o", "a.o"])
        cflags = subprocess.run([build_config.OPARI2_CONFIG, "--cflags"], capture_output=True,
                                text=True).stdout.split()
        head = ["-iquote", os.path.join(self.dir, "src")] + cflags + [
            "-I/opt/pp/include", "-DPOMPPROF_INSTRUMENTED=1", "-fopenmp", "-O2", "-c"]
        self.assertEqual(args[:len(head)], head)
        copy = args[len(head)]
        self.assertEqual(os.path.basename(copy), "a.c")
        self.assertNotEqual(os.path.dirname(os.path.abspath(copy)), os.path.join(self.dir, "src"))
        self.assertEqual(args[len(head) + 1:], ["-o", "a.o"])
        self.assertFalse(os.path.exists(copy))          # the work directory is gone
        self.assertNoWorkdirLeft()
        self.assertEqual(sorted(os.listdir("src")), ["a.c", "f.f90"])

    def test_response_file_is_expanded_when_instrumenting(self):
        self.write("args.rsp", "-fopenmp -c src/a.c")
        (args,) = self.runs([self.cc, "@args.rsp", "-o", "a.o"])
        self.assertNotIn("@args.rsp", args)
        self.assertEqual(args[-5:-2], ["-fopenmp", "-c", args[-3]])
        self.assertTrue(args[-3].endswith("/a.c") and args[-3] != "src/a.c")
        self.assertEqual(args[-2:], ["-o", "a.o"])

    def test_fortran_compile_line(self):
        (args,) = self.runs([self.cc, "-fopenmp", "-c", "src/f.f90"])
        self.assertEqual(args[0], "-I" + os.path.join(self.dir, "src"))
        copy = args[-1]
        self.assertEqual(args[1], "-I" + os.path.dirname(copy))
        self.assertEqual(args[2:-1], ["-fopenmp", "-c"])
        self.assertEqual(os.path.basename(copy), "f.f90")

    def test_mixed_c_and_fortran_line(self):
        (args,) = self.runs([self.cc, "-fopenmp", "-c", "src/a.c", "src/f.f90"])
        c_copy, f_copy = args[-2:]
        self.assertEqual(args[-4:-2], ["-fopenmp", "-c"])
        self.assertEqual((os.path.basename(c_copy), os.path.basename(f_copy)), ("a.c", "f.f90"))
        self.assertNotIn("src/a.c", args)
        self.assertNotIn("src/f.f90", args)
        # Fortran include directories first, then the C ones
        self.assertEqual(args[:3], ["-I" + os.path.join(self.dir, "src"),
                                    "-I" + os.path.dirname(f_copy), "-iquote"])

    def test_compile_and_link_line(self):
        invocations = self.runs([self.cc, "-fopenmp", "src/a.c", "-o", "prog"])
        self.assertEqual(len(invocations), 2)
        init, link = invocations
        self.assertEqual(init[0], "-c")
        self.assertTrue(init[1].endswith("/pompprof_init_regions.c"))
        self.assertEqual(link[-6:], ["-o", "prog", init[3], "-L/opt/pp/lib",
                                     "-Wl,-rpath,/opt/pp/lib", "-lpompprof"])

    def test_link_of_uninstrumented_objects_runs_unchanged(self):
        self.write("u.c", "int main(void) { return 0; }\n")
        subprocess.run([CC, "-c", "u.c", "-o", "u.o"], check=True)
        self.assertEqual(self.runs([self.cc, "-fopenmp", "u.o", "-o", "u"]),
                         [["-fopenmp", "u.o", "-o", "u"]])

    def test_compiler_status_passes_through(self):
        os.environ["RECORD_STATUS"] = "3"
        self.runs([self.cc, "-c", "src/a.c"], status=3)
        self.runs([self.cc, "-fopenmp", "-c", "src/a.c"], status=3)
        self.assertNoWorkdirLeft()
        self.write("killed", "#!/bin/sh\nkill -TERM $$\n")
        os.chmod("killed", 0o755)
        self.assertEqual(wrapper.main(["./killed", "-c", "src/a.c"]), 128 + signal.SIGTERM)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(wrapper.main(["./no-such-compiler", "-c", "src/a.c"]), 127)
        self.assertTrue(err.getvalue().startswith("pompprof: cannot run ./no-such-compiler"))

    def test_opari2_failure_stops_before_the_compiler(self):
        status = wrapper.main([self.cc, "-fopenmp", "-c", "src/missing.c"])
        self.assertNotEqual(status, 0)
        self.assertFalse(os.path.exists("record"))
        self.assertNoWorkdirLeft()

    def test_keep_and_opari2_args(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.runs(["--verbose", "--keep", "--opari2-arg=--nodecl", self.cc, "-fopenmp",
                       "-c", "src/a.c"])
        lines = err.getvalue().splitlines()
        opari2 = [ln for ln in lines if ln.startswith("pompprof: %s " % build_config.OPARI2)]
        self.assertEqual(len(opari2), 1)
        self.assertIn(" --omp-tpd --nodecl src/a.c ", opari2[0])
        kept = lines[-1].split("kept intermediate files in ")[1]
        self.assertEqual(os.path.dirname(kept), self.tmp)
        self.assertTrue(os.path.isfile(os.path.join(kept, "src0", "a.c")))
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
