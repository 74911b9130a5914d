#!/usr/bin/env python3
"""Filter files in Score-P's syntax, read by both of pompprof's readers on
the same files: pompprof_tools.filterfile (the wrapper, pompprof-score) and
the library's functions/pp_filter.c (run time and the GCC plugin), through
test/functions/filter_read:

* good files: both read the same patterns (line, kind, EXCLUDE/INCLUDE,
  MANGLED) and decide alike on a set of names: rules over several lines,
  comments, last matching rule wins, file OR name, MANGLED and DEMANGLED,
  backslash-quoted blanks and '#';
* bad files: both refuse each with the same message, naming the file and the
  line: a misspelt keyword (INCLUD, which Score-P's own reader would take as
  one more pattern of the EXCLUDE before it), a keyword in small letters, an
  unknown SCOREP_ keyword, a rule without patterns, a block not closed,
  blocks mixed up, text outside blocks, MANGLED among file rules, a line
  ending in a backslash;
* what compile_time() hands to gcc (only EXCLUDE *TEXT* rules no later
  INCLUDE of their block undoes) and the EXCLUDE rules it cannot;
* write_excludes() quotes what would be read as wildcards, blanks, '#' and
  keywords, and reads back to exactly the names it was given.
"""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.environ["top_srcdir"], "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pompprof_tools import filterfile  # noqa: E402
from functions_common import ScratchTest  # noqa: E402

READER = os.path.join(os.environ["top_builddir"], "test", "functions", "filter_read")

GOOD = """\
SCOREP_REGION_NAMES_BEGIN  # comment
  EXCLUDE util_*
          helper           # continues the rule
  INCLUDE util_mul
  EXCLUDE MANGLED _ZN3geo* DEMANGLED geo::Box::*
  EXCLUDE a\\ b c\\#d
SCOREP_REGION_NAMES_END
SCOREP_FILE_NAMES_BEGIN
  EXCLUDE */lib/*
SCOREP_FILE_NAMES_END
"""
# (name, mangled, file) -> excluded?
DECISIONS = [
    (("util_add", "", ""), True), (("util_mul", "", ""), False), (("helper", "", ""), True),
    (("helper2", "", ""), False), (("main", "", "/src/main.c"), False),
    (("main", "", "/src/lib/main.c"), True), (("util_mul", "", "/x/lib/y.c"), True),
    (("geo::pick(int)", "_ZN3geo4pickEi", ""), True), (("_ZN3geo_x", "", ""), True),
    (("geo::Box::area(int) const", "_ZNK3geo3Box4areaEi", ""), True),
    (("geo::Boxy", "_ZN4geo4BoxyE", ""), False), (("a b", "", ""), True),
    (("a\\ b", "", ""), False), (("c#d", "", ""), True), (("c", "", ""), False),
]

# (text, line, message): every reader refuses the file with "NAME:LINE: message"
BAD = [
    ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE Cell::*\n  INCLUD Cell::interact*\n"
     "SCOREP_REGION_NAMES_END\n", 3, "unknown keyword 'INCLUD'"),
    ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE foo EXLCUDE bar\nSCOREP_REGION_NAMES_END\n", 2,
     "unknown keyword 'EXLCUDE'"),
    ("SCOREP_REGION_NAMES_BEGIN\n  exclude foo\nSCOREP_REGION_NAMES_END\n", 2,
     "unknown keyword 'exclude' (keywords are written in capitals: EXCLUDE)"),
    ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE foo\nSCOREP_REGION_NAME_END\n", 3,
     "unknown keyword 'SCOREP_REGION_NAME_END'"),
    ("SCOREP_REGION_NAMES_BEGIN\n  foo\nSCOREP_REGION_NAMES_END\n", 2,
     "pattern 'foo' before EXCLUDE or INCLUDE"),
    ("EXCLUDE foo\n", 1,
     "'EXCLUDE' outside SCOREP_FILE_NAMES_BEGIN/END and SCOREP_REGION_NAMES_BEGIN/END"),
    ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE\n  INCLUDE foo\nSCOREP_REGION_NAMES_END\n", 2,
     "EXCLUDE without patterns"),
    ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE foo\n  INCLUDE # nothing\nSCOREP_REGION_NAMES_END\n",
     3, "INCLUDE without patterns"),
    ("SCOREP_FILE_NAMES_BEGIN\nEXCLUDE a\nSCOREP_REGION_NAMES_END\n", 3,
     "SCOREP_REGION_NAMES_END without SCOREP_REGION_NAMES_BEGIN"),
    ("# a block left open\nSCOREP_REGION_NAMES_BEGIN\nEXCLUDE a\n", 2,
     "SCOREP_REGION_NAMES_BEGIN is not closed (SCOREP_REGION_NAMES_END missing)"),
    ("SCOREP_REGION_NAMES_BEGIN\nSCOREP_FILE_NAMES_BEGIN\n", 2,
     "SCOREP_FILE_NAMES_BEGIN begins inside another block"),
    ("SCOREP_FILE_NAMES_BEGIN\n  EXCLUDE MANGLED *.c\nSCOREP_FILE_NAMES_END\n", 2,
     "MANGLED applies to region names, not in SCOREP_FILE_NAMES_BEGIN/END"),
    ("SCOREP_REGION_NAMES_BEGIN\n  MANGLED foo\nSCOREP_REGION_NAMES_END\n", 2,
     "MANGLED before EXCLUDE or INCLUDE"),
    ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE foo \\\n  bar\nSCOREP_REGION_NAMES_END\n", 2,
     "a line ends with a backslash (lines cannot be continued that way)"),
    ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE foo\n  DGEMM\nSCOREP_REGION_NAMES_END\n", 3,
     "unknown keyword 'DGEMM'"),
]


class FilterFile(ScratchTest):
    prefix = "pp_fn_filterfile_"

    def library(self, path, *triples):
        args = [READER, path]
        for name, mangled, file in triples:
            args += [name, mangled or "-", file or "-"]
        proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        return proc.returncode, proc.stdout.splitlines()

    def test_good_file_alike(self):
        path = self.write("good.filter", GOOD)
        f = filterfile.load(path)
        rc, lines = self.library(path, *[t for t, _ in DECISIONS])
        self.assertEqual(rc, 0, lines)
        python_rules = ["%d %s %s %s %s" % (r.line, "files" if r.file else "regions",
                                            "exclude" if r.exclude else "include",
                                            "mangled" if r.mangled else "plain", r.pattern)
                        for r in f.rules]
        self.assertEqual(lines[:len(f.rules)], python_rules)
        self.assertEqual(python_rules, [
            "2 regions exclude plain util_*", "3 regions exclude plain helper",
            "4 regions include plain util_mul", "5 regions exclude mangled _ZN3geo*",
            "5 regions exclude plain geo::Box::*", "6 regions exclude plain a\\ b",
            "6 regions exclude plain c\\#d", "9 files exclude plain */lib/*"])
        c_decisions = lines[len(f.rules):]
        for (triple, expected), c in zip(DECISIONS, c_decisions):
            with self.subTest(name=triple):
                self.assertEqual(f.excludes(*triple), expected)
                self.assertEqual(c, "excluded" if expected else "included")
        self.assertEqual(len(c_decisions), len(DECISIONS))

    def test_bad_files_alike(self):
        for i, (text, line, what) in enumerate(BAD):
            with self.subTest(text=text):
                path = self.write("bad%d.filter" % i, text)
                expected = "%s:%d: %s" % (path, line, what)
                with self.assertRaises(filterfile.FilterError) as cm:
                    filterfile.load(path)
                self.assertEqual(str(cm.exception), expected)
                rc, lines = self.library(path)
                self.assertEqual((rc, lines), (1, [expected]))

    def test_capitals_as_patterns(self):
        """A pattern in capitals is read as one where it cannot be taken for a
        keyword: after a pattern on its line, unless one or two letters off a
        keyword; a first letter in brackets, anywhere."""
        text = ("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE foo DGEMM\n  [D]GEMM2\n"
                "SCOREP_REGION_NAMES_END\n")
        path = self.write("capitals.filter", text)
        f = filterfile.load(path)
        self.assertEqual([r.pattern for r in f.rules], ["foo", "DGEMM", "[D]GEMM2"])
        rc, lines = self.library(path, ("DGEMM2", "", ""))
        self.assertEqual((rc, lines[-1]), (0, "excluded"))

    def test_compile_time(self):
        f = filterfile.parse("""
            SCOREP_FILE_NAMES_BEGIN
              EXCLUDE *generated* */a?c/*
            SCOREP_FILE_NAMES_END
            SCOREP_REGION_NAMES_BEGIN
              EXCLUDE *small* *mid* exact
              INCLUDE *middle*
              EXCLUDE *late*
            SCOREP_REGION_NAMES_END
        """)
        # *mid* is undone for *middle* by the later INCLUDE: not for gcc
        files, names, rest = f.compile_time()
        self.assertEqual((files, names), (["generated"], ["late"]))
        self.assertEqual([(r.line, r.text()) for r in rest],
                         [(3, "EXCLUDE */a?c/*"), (6, "EXCLUDE *small*"), (6, "EXCLUDE *mid*"),
                          (6, "EXCLUDE exact")])
        g = filterfile.parse("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE *a,b* *x\\ y*\n"
                             "SCOREP_REGION_NAMES_END\n")
        self.assertEqual(g.compile_time()[:2], ([], []))

    def test_write_excludes_reads_back(self):
        names = ["rec", "geo::twice<int>(int)", "a*b", "operator[](int)",
                 "main::{lambda(int)#1}::operator()(int) const", "INCLUDES", "EXCLUDE",
                 "back\\slash"]
        text = filterfile.write_excludes(names, "two\nlines")
        self.assertTrue(text.startswith("# two\n# lines\n"))
        path = self.write("written.filter", text)
        f = filterfile.load(path)
        others = ["recx", "axxb", "geo::twice<long>(long)", "operator[](long)",
                  "main::{lambda(int)#1}::operator()(int)  const", "INCLUDE", "backxslash"]
        for n in names:
            self.assertTrue(f.excludes(n), n)
        for other in others:
            self.assertFalse(f.excludes(other), other)
        # the library reads what pompprof-score writes alike
        rc, lines = self.library(path, *[(n, "", "") for n in names + others])
        self.assertEqual(rc, 0, lines)
        self.assertEqual(lines[-len(names + others):],
                         ["excluded"] * len(names) + ["included"] * len(others))


if __name__ == "__main__":
    unittest.main()
