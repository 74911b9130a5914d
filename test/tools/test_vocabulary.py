"""One vocabulary (issue 23): the overhead categories are defined once
(analysis/overhead.py CATEGORIES); pompprof-report and pompprof-scaling use them, their
--help texts print the same definitions, the README's table is the same table, and for
the same profile the two tools give the same total per category."""

import json
import os
import unittest

import toolstest as T
from pompprof_tools.analysis import overhead


class Vocabulary(unittest.TestCase):
    def test_readme_table_is_the_definitions(self):
        with open(os.path.join(T.TOP_SRCDIR, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        self.assertIn(overhead.markdown_table() + "\n", readme)

    def test_help_texts_define_the_categories_alike(self):
        legend = overhead.legend()
        for tool in ("report", "scaling"):
            text = T.run_tool(tool, "--help", check=True).stdout
            self.assertIn(legend, text, tool)
        # taskwait waiting is synchronization in both (it was task management in one)
        sync = [c for c in overhead.CATEGORIES if c.name == "synchronization"][0]
        self.assertIn("taskwait", sync.components)
        self.assertEqual(sum(c.components.count("taskwait") for c in overhead.CATEGORIES), 1)

    def test_report_and_scaling_agree_per_category(self):
        for prog in ("tasks", "worksharing"):
            s = json.loads(T.run_tool("scaling", "--format", "json", T.golden(prog + "_t1"),
                                      T.golden(prog + "_t2"), check=True).stdout)
            self.assertEqual(s["categories"][:5], [c.name for c in overhead.CATEGORIES][:5])
            for row, name in zip(s["profiles"], (prog + "_t1", prog + "_t2")):
                r = json.loads(T.run_tool("report", "--format", "json", T.golden(name),
                                          check=True).stdout)
                cats = r["overhead"]["program"]["categories"]
                self.assertEqual(set(cats), {c.name for c in overhead.CATEGORIES})
                for c in s["categories"]:
                    self.assertAlmostEqual(cats[c]["time"], row["split"][c], places=12,
                                           msg="%s %s" % (name, c))
                # the taskwait waiting is in both tools' synchronization
                self.assertGreater(cats["synchronization"]["time"], 0.0)


if __name__ == "__main__":
    T.main()
