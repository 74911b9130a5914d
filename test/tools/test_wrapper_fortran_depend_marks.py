"""The wrapper marks Fortran task constructs with depend clauses in OPARI2's region
strings (scripts/pompprof_tools/wrapper/fortran_depend_marks.py; C and C++ get the mark from the
directive facts).  On real OPARI2 output (free form, a directive continued over two
lines): exactly the tasks with a depend clause get hasDepend=1, every region string's
length prefix stays right (the library rejects strings where it is wrong), LEN stays
OPARI2's margin above it, the lines fit fixed form, and the include still compiles."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

import toolstest as T  # noqa: F401  (sets sys.path)
from pompprof_tools import build_config
from pompprof_tools.wrapper import fortran_depend_marks as marks

F_SOURCE = """program p
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


def f_strings(text):
    out = []
    for m in re.finditer(r'CHARACTER \(LEN=(\d+)\), parameter :: opari2_ctc_\d+ =&\n'
                         r'((?: *"[^"\n]*"//&\n)* *"[^"\n]*"\n)', text, re.I):
        out.append((int(m.group(1)), "".join(re.findall(r'"([^"\n]*)"', m.group(2)))))
    return out


class WrapperDepend(unittest.TestCase):
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
        return out + ".opari.inc"

    def assertLengths(self, strings):
        """The prefix counts the whole string (or, as OPARI2 2.0.7 counts, the rest
        plus three: one off once the prefix has three digits; both are accepted)."""
        for s in strings:
            declared, rest = s.split("*", 1)
            self.assertIn(int(declared), (len(s), len(rest) + 3), s)

    def test_fortran(self):
        inc = self.opari2("f.f90", F_SOURCE, ["--f90", "--free-form"])
        with open(inc) as f:
            original = f.read()
        before = f_strings(original)
        text = marks.mark_depend_clauses(original)
        self.assertEqual(marks.mark_depend_clauses(text), text)  # no second mark
        with open(inc, "w") as f:
            f.write(text)
        after = f_strings(text)
        self.assertEqual(len(after), len(before))
        self.assertLengths(s for _, s in after)
        margin = {l - len(s) for l, s in before}
        self.assertEqual({l - len(s) for l, s in after}, margin)
        tasks = [s for _, s in after if "regionType=task*" in s]
        self.assertEqual(["hasDepend=1" in s for s in tasks], [True, False])
        for line in text.splitlines():
            self.assertLessEqual(len(line), 72, line)
        fc = shutil.which(os.environ.get("FC") or "gfortran")
        if not fc:
            self.skipTest("no Fortran compiler")
        unit = os.path.join(self.tmp, "u.f90")
        with open(unit, "w") as f:
            f.write("subroutine s()\n  include '%s'\nend subroutine\n" % inc)
        p = subprocess.run([fc, "-c", unit, "-o", os.path.join(self.tmp, "u.o")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    unittest.main()
