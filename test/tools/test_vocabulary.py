"""One vocabulary (issue 23): the overhead categories are defined once
(analysis/overhead.py CATEGORIES); pompprof-report, pompprof-scaling, pompprof-diff and
pompprof-timeline use them, their --help texts print the same definitions, the README's
table is the same table, for the same profile report, scaling and diff give the same
total per category, and no tool module spells out categories of its own."""

import ast
import glob
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


    def test_example_plot_uses_the_categories(self):
        """examples/scaling-sparselu.svg (the README's plot, from a real run) names the
        categories of today, no older ones."""
        import re
        with open(os.path.join(T.TOP_SRCDIR, "examples", "scaling-sparselu.svg")) as f:
            texts = set(re.findall(r"<text[^>]*>([^<]*)</text>", f.read()))
        names = {c.name for c in overhead.CATEGORIES if c.name != overhead.MPI}
        self.assertLessEqual(names, texts)
        self.assertFalse({"task management", "fork/join"} & texts)

    def test_diff_compares_the_same_categories(self):
        a, b = T.golden("tasks_t1"), T.golden("tasks_t2")
        d = json.loads(T.run_tool("diff", "--format", "json", a, b, check=True).stdout)
        s = json.loads(T.run_tool("scaling", "--format", "json", a, b, check=True).stdout)
        sa, sb = (row["split"] for row in s["profiles"])    # 1 thread, then 2
        self.assertEqual([r["category"] for r in d["categories"]], s["categories"])
        for r in d["categories"]:
            self.assertEqual(r["column"], overhead.SHORT[r["category"]])
            self.assertAlmostEqual(r["a"], sa[r["category"]], places=12)
            self.assertAlmostEqual(r["b"], sb[r["category"]], places=12)
            self.assertAlmostEqual(r["delta"], sb[r["category"]] - sa[r["category"]], places=12)
        text = T.run_tool("diff", a, b, check=True).stdout
        for c in overhead.CATEGORIES[:5]:
            self.assertRegex(text, r"\n%s +%s " % (c.name, c.short))

    def test_timeline_maps_its_parts_onto_the_categories(self):
        names = {c.name for c in overhead.CATEGORIES}
        for p in overhead.TIMELINE_PARTS:
            self.assertTrue(p.category is None or p.category in names, p.category)
            # a column of the timeline never reuses a category's column name for a part of
            # something else (serial code is the one class both split alike)
            self.assertTrue(p.column not in overhead.SHORT.values()
                            or overhead.SHORT.get(p.category) == p.column, p.column)
        text = T.run_tool("timeline", "--help", check=True).stdout
        self.assertIn(overhead.timeline_legend(), text)
        self.assertIn("measures something other than", text)
        total = {p.key: float(i + 1) for i, p in enumerate(overhead.TIMELINE_OVERHEAD)}
        self.assertEqual(overhead.timeline_categories(total),
                         {"thread management": 1.0 + 2.0, "synchronization": 3.0 + 4.0})
        # the trace's own time is no overhead of the program (issue 34)
        self.assertNotIn("measurement", [p.key for p in overhead.TIMELINE_OVERHEAD])

    def test_the_classes_are_written_down_once(self):
        """doc/trace.md's table of the classes of a thread's time is overhead.CLASSES,
        and the replay's columns are the timeline's parts, in its order."""
        with open(os.path.join(T.TOP_SRCDIR, "doc", "trace.md"), encoding="utf-8") as f:
            self.assertIn(overhead.markdown_classes() + "\n", f.read())
        with open(os.path.join(T.TOP_SRCDIR, "replay", "pp_replay_class.c")) as f:
            import re
            c_keys = re.findall(r'^    \{"(\w+)", "(\w+)", PP_C', f.read(), re.M)
        self.assertEqual([(p.key, p.group) for p in overhead.TIMELINE_PARTS], c_keys)

    def test_no_tool_defines_its_own(self):
        """Outside overhead.py, no list, tuple, set or dict of the tools names two
        categories (by name or column), and no category's name is written out except
        'work' (every tool takes them from overhead.CATEGORIES).  Allowed: a word that
        means something else there."""
        names = {c.name for c in overhead.CATEGORIES}
        words = names | set(overhead.SHORT.values()) | {"taskmgmt", "task management"}
        allowed = {("report_mpi.py", "imbalance"),   # MPI time's spread over ranks
                   ("report.py", "sync"),            # a kind of region table
                   ("report.py", "mpi"), ("report_mpi.py", "mpi"), ("score.py", "mpi"),
                   ("profile_model.py", "mpi"), ("profile_data.py", "mpi")}  # paradigm
        package = os.path.join(T.TOP_SRCDIR, "scripts", "pompprof_tools")
        found = []
        modules = glob.glob(os.path.join(package, "**", "*.py"), recursive=True)
        self.assertGreater(len(modules), 30)
        for path in modules:
            base = os.path.basename(path)
            if base == "overhead.py":
                continue
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
                    elts = node.keys if isinstance(node, ast.Dict) else node.elts
                    hit = [e.value for e in elts if isinstance(e, ast.Constant)
                           and e.value in words]
                    if len(hit) >= 2:
                        found.append("%s:%d %s" % (base, node.lineno, hit))
                if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                        and node.value in words - {"work"}
                        and (base, node.value) not in allowed):
                    found.append("%s:%d %r" % (base, node.lineno, node.value))
        self.assertEqual(found, [])
        # and the test can fail: a module of its own would be found
        tree = ast.parse('CATS = ("synchronization", "imbalance")')
        self.assertTrue(any(isinstance(n, ast.Tuple) and len(
            [e for e in n.elts if e.value in words]) >= 2 for n in ast.walk(tree)))


if __name__ == "__main__":
    T.main()
