"""A source with OpenMP directives compiled without -fopenmp (doc/wrapper.md): the
wrapper runs the line as written (the compiler's output and exit status are its own)
and adds one `pompprof:` line naming the sources whose directives the missing flag
drops -- and says nothing where there is nothing to say: directives in comments or
under `#if 0`, simd directives alone, a line with -fopenmp, a compile that fails.
A directive from a macro (`_Pragma`) counts.  Real gcc and gfortran."""

import os
import shutil
import subprocess
import tempfile
import unittest

import toolstest as T

WRAPPER = os.path.join(T.TOP_BUILDDIR or "", "scripts", "pompprof")
CC = (os.environ.get("CC") or "gcc").split()
FC = (os.environ.get("FC") or "gfortran").split()
NOTE = "pompprof: %s has OpenMP directives, but the line has no -fopenmp"

SOURCES = {
    "par.c": "#include <stdio.h>\nint main(void)\n{\n    int unused;\n#pragma omp parallel\n"
             "    puts(\"hi\");\n    return 0;\n}\n",
    "quiet.c": "#include <stdio.h>\n/*\n#pragma omp parallel\n*/\nint main(void)\n{\n"
               "#if 0\n#pragma omp parallel\n#endif\n    int s = 0;\n#pragma omp simd\n"
               "    for (int i = 0; i < 8; i++)\n        s += i;\n    return s;\n}\n",
    "macro.c": "#define PARALLEL _Pragma(\"omp parallel\")\nint main(void)\n{\n    PARALLEL\n"
               "    { }\n    return 0;\n}\n",
    "broken.c": "#pragma omp parallel\nint main(void) { return x; }\n",
    "free.f90": "program p\n!$omp parallel\nprint *, 'hi'\n!$omp end parallel\nend program\n",
    "fixed.f": "      program p\nc$omp parallel\n      print *, 'hi'\nc$omp end parallel\n"
               "      end\n",
    "cond.f90": "program p\n!$ print *, 'only with OpenMP'\nprint *, 'hi'\nend program\n",
}


@unittest.skipUnless(T.TOP_BUILDDIR, "needs the build tree (make check)")
class NoOpenMP(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pp_noomp_")
        for name, text in SOURCES.items():
            with open(os.path.join(self.dir, name), "w") as f:
                f.write(text)
        self.env = dict(os.environ, POMPPROF_LIBDIR=os.path.join(T.TOP_BUILDDIR, ".libs"),
                        POMPPROF_INCDIR=os.path.join(T.TOP_SRCDIR, "pomp2"))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def compile(self, args, wrapped=True):
        cmd = ([WRAPPER] if wrapped else []) + args
        p = subprocess.run(cmd, cwd=self.dir, env=self.env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        return p.returncode, p.stdout, p.stderr

    def assert_same_plus(self, args, note):
        """The wrapper's result is the compiler's, plus the note (None: nothing)."""
        status, out, err = self.compile(args)
        p_status, p_out, p_err = self.compile(args, wrapped=False)
        self.assertEqual((status, out), (p_status, p_out))
        extra = [l for l in err.splitlines() if l.startswith("pompprof:")]
        self.assertEqual([l for l in err.splitlines() if not l.startswith("pompprof:")],
                         p_err.splitlines())
        if note is None:
            self.assertEqual(extra, [])
        else:
            self.assertEqual(len(extra), 1, err)
            self.assertTrue(extra[0].startswith(note), extra[0])
            self.assertIn("add -fopenmp", extra[0])

    def test_c_with_directives(self):
        # the compiler's own warning (an unused variable) stays as it was
        self.assert_same_plus(CC + ["-Wall", "-c", "par.c", "-o", "par.o"], NOTE % "par.c")
        self.assert_same_plus(CC + ["par.c", "-o", "par"], NOTE % "par.c")

    def test_macro(self):
        self.assert_same_plus(CC + ["-c", "macro.c", "-o", "macro.o"], NOTE % "macro.c")

    def test_nothing_to_say(self):
        self.assert_same_plus(CC + ["-c", "quiet.c", "-o", "quiet.o"], None)
        self.assert_same_plus(CC + ["-c", "broken.c", "-o", "broken.o"], None)
        self.assert_same_plus(FC + ["-c", "cond.f90", "-o", "cond.o"], None)
        status, _, err = self.compile(CC + ["-fopenmp", "-c", "par.c", "-o", "par.o"])
        self.assertEqual(status, 0)
        self.assertNotIn("no -fopenmp", err)

    def test_fortran(self):
        self.assert_same_plus(FC + ["-c", "free.f90", "-o", "free.o"], NOTE % "free.f90")
        self.assert_same_plus(FC + ["-c", "fixed.f", "-o", "fixed.o"], NOTE % "fixed.f")

    def test_several_sources_one_line(self):
        status, _, err = self.compile(CC + ["-c", "par.c", "macro.c", "quiet.c"])
        self.assertEqual(status, 0)
        notes = [l for l in err.splitlines() if l.startswith("pompprof:")]
        self.assertEqual(len(notes), 1, err)
        self.assertTrue(notes[0].startswith("pompprof: par.c, macro.c have OpenMP directives"),
                        notes[0])


if __name__ == "__main__":
    unittest.main()
