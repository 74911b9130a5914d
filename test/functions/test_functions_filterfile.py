#!/usr/bin/env python3
"""pompprof_tools.filterfile, the Score-P filter syntax as the wrapper and
pompprof-score read it (the library's reader, functions/pp_filter.c, is
checked through real runs in test_functions_filter.py):

* rules over several lines, comments, last matching rule wins, file OR name;
* MANGLED matches the link name (the name where there is none);
* what compile_time() hands to gcc: only EXCLUDE *TEXT* rules no later
  INCLUDE of their block undoes;
* errors name file and line;
* write_excludes() escapes what would be read as wildcards, and reads back
  to exactly the names it was given.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.environ["top_srcdir"], "scripts"))
from pompprof_tools import filterfile  # noqa: E402


class FilterFile(unittest.TestCase):
    def test_rules(self):
        f = filterfile.parse("""
            SCOREP_REGION_NAMES_BEGIN  # comment
              EXCLUDE util_*
                      helper           # continues the rule
              INCLUDE util_mul
              EXCLUDE MANGLED _ZN3geo*
            SCOREP_REGION_NAMES_END
            SCOREP_FILE_NAMES_BEGIN
              EXCLUDE */lib/*
            SCOREP_FILE_NAMES_END
        """)
        self.assertTrue(f.excludes("util_add"))
        self.assertFalse(f.excludes("util_mul"))
        self.assertTrue(f.excludes("helper"))
        self.assertFalse(f.excludes("helper2"))
        self.assertFalse(f.excludes("main", file="/src/main.c"))
        self.assertTrue(f.excludes("main", file="/src/lib/main.c"))
        self.assertFalse(f.excludes("util_mul", file="/src/main.c"))
        self.assertTrue(f.excludes("util_mul", file="/x/lib/y.c"))   # file OR name
        self.assertTrue(f.excludes("geo::pick(int)", mangled="_ZN3geo4pickEi"))
        self.assertTrue(f.excludes("_ZN3geo_x"))                      # no link name: the name

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
        self.assertEqual(f.compile_time(), (["generated"], ["late"]))
        g = filterfile.parse("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE *a,b* *x y*\n"
                             "SCOREP_REGION_NAMES_END\n")
        self.assertEqual(g.compile_time(), ([], []))

    def test_errors(self):
        for text, line, what in (
                ("SCOREP_REGION_NAMES_BEGIN\n  foo\nSCOREP_REGION_NAMES_END\n", 2,
                 "a pattern before EXCLUDE or INCLUDE"),
                ("EXCLUDE foo\n", 1, "text outside"),
                ("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE\nSCOREP_REGION_NAMES_END\n", 3,
                 "a rule without patterns"),
                ("SCOREP_FILE_NAMES_BEGIN\nEXCLUDE a\nSCOREP_REGION_NAMES_END\n", 3,
                 "a block ends that did not begin")):
            with self.subTest(text=text):
                with self.assertRaises(filterfile.FilterError) as cm:
                    filterfile.parse(text, "my.filter")
                self.assertIn("my.filter:%d: %s" % (line, what), str(cm.exception))
        with self.assertRaises(filterfile.FilterError) as cm:
            filterfile.parse("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE a\n", "f")
        self.assertIn("not closed", str(cm.exception))

    def test_write_excludes_reads_back(self):
        names = ["rec", "geo::twice<int>(int)", "a*b", "operator[](int)",
                 "main::{lambda(int)#1}::operator()(int) const"]
        text = filterfile.write_excludes(names, "two\nlines")
        self.assertTrue(text.startswith("# two\n# lines\n"))
        f = filterfile.parse(text)
        for n in names:
            self.assertTrue(f.excludes(n), n)
        for other in ("recx", "axxb", "geo::twice<long>(long)", "operator[](long)"):
            self.assertFalse(f.excludes(other), other)


if __name__ == "__main__":
    unittest.main()
