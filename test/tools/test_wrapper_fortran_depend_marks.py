"""The wrapper marks Fortran task constructs with depend clauses in OPARI2's region
strings (scripts/pompprof_tools/wrapper/fortran_depend_marks.py; C and C++ get the mark
from the directive facts).  On real OPARI2 output, free and fixed form (a directive
continued over two lines): exactly the tasks with a depend clause get hasDepend=1, every
region string's length prefix stays right (the library rejects strings where it is
wrong), LEN stays OPARI2's margin above it, the lines fit fixed form, the include still
compiles, and the pass counts the tasks it marked against those of the source.  The
same on OPARI2's output reformatted (pieces of other lengths, other spacing): the same
strings marked, in pieces no longer than the reformatted ones.  On strings in a form
the pass does not read (apostrophes), it marks nothing and its count falls short."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import toolstest as T
from pompprof_tools import build_config
from pompprof_tools.wrapper import fortran_depend_marks as marks
from pompprof_tools.wrapper.tally import Tally

# the reformatting of test_e2e_opari2_layout.py's OPARI2
sys.path.insert(0, os.path.join(T.TOP_SRCDIR, "test", "e2e"))
from reformat_opari2 import inc_spacing  # noqa: E402

FREE = """program p
  integer :: a, b
  a = 0
  b = 0
!$omp parallel
!$omp single
!$omp task depend(out:a) &
!$omp& shared(a)
  a = 1
!$omp end task
!$omp task shared(b)
  b = 1
!$omp end task
!$omp taskwait
!$omp end single
!$omp end parallel
  print *, a + b
end program
"""
FIXED = """      program p
      integer a, b
      a = 0
      b = 0
!$omp parallel
!$omp single
!$omp task depend(out:a)
!$omp& shared(a)
      a = 1
!$omp end task
!$omp task shared(b)
      b = 1
!$omp end task
!$omp task depend(in:a) depend(inout:b)
      b = a + b
!$omp end task
!$omp taskwait
!$omp end single
!$omp end parallel
      print *, a + b
      end program
"""
# (source, OPARI2's options, form is fixed, which tasks have depend clauses)
CASES = {"free": ("f.f90", FREE, ["--f90", "--free-form"], False, [True, False]),
         "fixed": ("g.f", FIXED, ["--f77", "--fix-form"], True, [True, False, True])}


def f_strings(text):
    """(LEN, string) of each region string of an include file, in order: the pieces
    after `opari2_ctc_<n> =` up to the blank line that ends OPARI2's declaration."""
    out = []
    for m in re.finditer(r"opari2_ctc_(\d+)\s*=(.*?)(?:\n\n|\Z)", text, re.S | re.I):
        length = re.search(r"CHARACTER\s*(?:\(\s*LEN\s*=\s*|\*)(\d+)[^\n]*opari2_ctc_%s\b"
                           % m.group(1), text, re.I)
        out.append((int(length.group(1)), "".join(re.findall(r'"([^"\n]*)"', m.group(2)))))
    return out


def pieces(text):
    return re.findall(r'"([^"\n]*)"', text)


class FortranDependMarks(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pp_depend_")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def opari2(self, name, text, args=()):
        src = os.path.join(self.tmp, name)
        with open(src, "w") as f:
            f.write(text)
        out = os.path.join(self.tmp, "out", name)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run([build_config.OPARI2, "--omp-tpd"] + list(args) + [src, out],
                       check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        with open(out + ".opari.inc") as f:
            return out + ".opari.inc", f.read()

    def assertLengths(self, strings):
        """The prefix counts the whole string (or, as OPARI2 2.0.7 counts, the rest
        plus three: one off once the prefix has three digits; both are accepted)."""
        for s in strings:
            declared, rest = s.split("*", 1)
            self.assertIn(int(declared), (len(s), len(rest) + 3), s)

    def assertCompiles(self, inc, fixed):
        fc = shutil.which(os.environ.get("FC") or "gfortran")
        if not fc:
            self.skipTest("no Fortran compiler")
        unit = os.path.join(self.tmp, "u.f" if fixed else "u.f90")
        with open(unit, "w") as f:
            f.write("      subroutine s()\n      include '%s'\n      end subroutine\n" % inc)
        p = subprocess.run([fc, "-c", unit, "-o", os.path.join(self.tmp, "u.o")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stderr)

    def check(self, case, reformat=None):
        """Mark OPARI2's include of CASES[case] (reformatted by reformat); the marked
        text, after the checks of the module's docstring."""
        name, source, args, fixed, depend = CASES[case]
        path, original = self.opari2(name, source, args)
        if reformat:
            original = reformat(original, fixed)
        before = f_strings(original)
        tally = Tally()
        text = marks.mark(original, tally, marks.task_constructs(source, fixed))
        self.assertEqual(tally.as_dict()["fortran_depend_marks"],
                         {"expected": sum(depend), "matched": sum(depend)})
        self.assertEqual(tally.shortfalls(name), [])
        self.assertEqual(marks.mark(text), text)  # no second mark
        with open(path, "w") as f:
            f.write(text)
        after = f_strings(text)
        self.assertEqual(len(after), len(before))
        self.assertLengths(s for _, s in after)
        margin = {n - len(s) for n, s in before}
        self.assertEqual({n - len(s) for n, s in after}, margin)
        tasks = [s for _, s in after if "regionType=task*" in s]
        self.assertEqual(["hasDepend=1" in s for s in tasks], depend)
        for (_, old), (_, new) in zip(before, after):
            if "hasDepend=1" in new:
                self.assertEqual(new.split("*", 1)[1], old.split("*", 1)[1][:-1] + "hasDepend=1**")
            else:
                self.assertEqual(new, old)
        for line in text.splitlines():
            self.assertLessEqual(len(line), 72, line)
        widest = max(len(p) for p in pieces(original))
        self.assertTrue(all(len(p) <= widest for p in pieces(text)))
        self.assertCompiles(path, fixed)
        return text

    def test_free(self):
        self.check("free")

    def test_fixed(self):
        self.check("fixed")

    def test_reformatted(self):
        """Pieces of OPARI2's own length are no constant of the pass: shorter and
        longer ones, other spacing, in both forms."""
        for case in CASES:
            for width in (20, 40, 61):
                with self.subTest(case=case, width=width):
                    text = self.check(case, lambda t, fixed: inc_spacing(t, fixed, width))
                    self.assertEqual(max(len(p) for p in pieces(text)), width)

    def test_unknown_layout(self):
        """Strings between apostrophes: nothing marked, and the count says so."""
        name, source, args, fixed, depend = CASES["free"]
        _, original = self.opari2(name, source, args)
        quoted = re.sub(r'"([^"\n]*)"', r"'\1'", original)
        tally = Tally()
        self.assertEqual(marks.mark(quoted, tally, marks.task_constructs(source, fixed)),
                         quoted)
        self.assertEqual(tally.as_dict()["fortran_depend_marks"], {"expected": 1, "matched": 0})
        lost = tally.shortfalls("f.f90")
        self.assertEqual(len(lost), 1)
        self.assertTrue(lost[0].startswith("f.f90: 1 of 1 task constructs with depend clauses "
                                           "not recognised in OPARI2's output"), lost[0])


if __name__ == "__main__":
    unittest.main()
