"""Text output that reads right at any size: counts never cut into another number, names
shortened in the middle so that file and line stay, every region of a large profile in
the flat profile once, diff paths that tell the call tree from the task trees."""

import json
import os
import re
import tempfile
import unittest

import toolstest as T
from pompprof_tools.analysis import textfmt as tf
from pompprof_tools.cube.cubex_write import CubeWriter


def strassen_profile(path, constructs=19, instances=10_000_000):
    """One parallel region whose single creates `constructs` tasks of a long-named file,
    each with `instances` instances (no time to speak of)."""
    w = CubeWriter()
    w.set_locations(["Master thread"])
    visits = w.add_metric("visits", "Visits", "UINT64", "EXCLUSIVE", "occ")
    time = w.add_metric("time", "Time", "DOUBLE", "INCLUSIVE", "sec")
    root = w.add_cnode(w.add_region("strassen", "", -1, -1, "measurement", "artificial"))
    par = w.add_cnode(w.add_region("!$omp parallel @strassen-task.c:1", "strassen-task.c", 1, 900,
                                   "openmp", "parallel"), root)
    tasks = w.add_cnode(w.add_region("TASKS", "", -1, -1, "openmp", "artificial"), root)
    w.set_row(visits, root, [1])
    w.set_row(visits, par, [1])
    total = 0.0
    for k in range(constructs):
        line = 100 + 37 * k
        name = "!$omp task @strassen-task.c:%d" % line
        r = w.add_region(name, "strassen-task.c", line, line + 3, "openmp", "task")
        stub = w.add_cnode(r, par)
        body = w.add_cnode(r, tasks)
        t = 0.001 * (k + 1)
        total += t
        for c in (stub, body):
            w.set_row(visits, c, [instances])
            w.set_row(time, c, [t])
    w.set_row(time, tasks, [total])
    w.set_row(time, par, [total + 0.5])
    w.set_row(time, root, [total + 1.0])
    w.write(path)


class Formatting(unittest.TestCase):
    def test_counts(self):
        cases = {0: "0", 999999: "999999", 1000000: "1.00M", 10_000_000: "10.0M",
                 123_456_789: "123M", 999_500_000: "1.00G", 4.2e12: "4.20T", -2_500_000: "-2.50M"}
        for value, text in cases.items():
            self.assertEqual(tf.fmt_count(value), text, value)
            self.assertLessEqual(len(text), 6)

    def test_names_keep_their_end(self):
        names = ["!$omp task @strassen-task.c:%d" % (100 + k) for k in range(19)]
        short = [tf.shorten(n, 24) for n in names]
        self.assertEqual(len(set(short)), 19)
        for n, s in zip(names, short):
            self.assertLessEqual(len(s), 24)
            self.assertTrue(s.endswith(n.split(":")[-1]), s)
            self.assertIn("..", s)
        self.assertEqual(tf.shorten("short", 24), "short")

    def test_fold_never_cuts_a_word(self):
        """tf.fold, the one folder of the tools' lists: a label's items, a diff's call
        path, a legend; every word whole, every line within the width unless one word
        alone passes it, no line without a word."""
        items = ["PAPI_TOT_INS = item %d" % k for k in range(12)]
        words = [w + "," for w in items[:-1]] + items[-1:]
        lines = tf.fold(words, "counters  :", " " * 12, width=60)
        self.assertEqual(lines[0], "counters  : PAPI_TOT_INS = item 0, PAPI_TOT_INS = item 1,")
        self.assertEqual(lines[1], " " * 12 + "PAPI_TOT_INS = item 2, PAPI_TOT_INS = item 3,")
        self.assertEqual(" ".join(ln.strip() for ln in lines),
                         "counters  : " + ", ".join(items))
        self.assertTrue(all(len(ln) <= 60 for ln in lines))
        path = ["main", "!$omp parallel @a.c:10", "!$omp task @a.c:20", "f" * 50]
        lines = tf.fold([path[0]] + ["/ " + n for n in path[1:]], "  12 ", " " * 6, width=60)
        self.assertEqual(lines, ["  12  main / !$omp parallel @a.c:10 / !$omp task @a.c:20",
                                 "      / " + "f" * 50])
        self.assertEqual(tf.fold(["a", "b" * 30, "c"], sep="; ", width=20),
                         ["a", "b" * 30, "c"])
        self.assertEqual(tf.fold(["x" * 30, "y"], "label:", "      ", width=20),
                         ["label: " + "x" * 30, "      y"])
        self.assertEqual(tf.fold([], "label:"), ["label:"])
        self.assertEqual(tf.fold(["a", "b"], sep="; "), ["a; b"])


class ReportText(unittest.TestCase):
    def test_many_instances_and_similar_names(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "s.cubex")
            strassen_profile(path)
            text = T.run_tool("report", path, check=True).stdout
            self.assertNotIn("~", text)                     # nothing cut
            self.assertNotIn("100000", text)                # not the old truncation
            tasks = text[text.index("Tasks (seconds)"):text.index("Overhead analysis")]
            rows = [ln for ln in tasks.splitlines() if re.match(r"R\d{4} ", ln)]
            self.assertEqual(len(rows), 19)
            names = {ln[:30].strip() for ln in rows}
            self.assertEqual(len(names), 19, names)         # 19 distinct constructs
            for ln in rows:
                self.assertRegex(ln, r"strassen-task\.c:\d+\s+10\.0M ")
            tree = text[text.index("Task trees"):text.index("Tasks (seconds)")]
            self.assertEqual(len(re.findall(r" 10\.0M  +!\$omp task @strassen-task\.c:\d+$",
                                            tree, re.M)), 19)

    def test_every_region_once_in_a_large_flat_profile(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "s.cubex")
            strassen_profile(path, constructs=150, instances=3)
            text = T.run_tool("report", path, check=True).stdout
            flat = text[text.index("Flat profile"):text.index("Call tree")]
            ids = re.findall(r"(?m)^(R\d{4}) ", flat)
            self.assertEqual(len(ids), len(set(ids)))
            self.assertEqual(len(ids), 150 + 2)             # tasks, parallel, program
            self.assertIn("The other regions, less expensive", flat)
            self.assertTrue(all(len(ln) <= 100 for ln in text.splitlines()))


class LongPaths(unittest.TestCase):
    """Profiles that lie deep (a checkout 150 characters down): every line of report,
    diff and scaling still fits 100 columns, and the file's own name stays."""

    def test_tools_fit_wherever_the_profiles_lie(self):
        with tempfile.TemporaryDirectory() as tmp:
            deep = os.path.join(tmp, *(["a-rather-long-directory-name-%d" % k for k in range(5)]))
            os.makedirs(deep)
            self.assertGreater(len(deep), 150)
            a, b = os.path.join(deep, "one.cubex"), os.path.join(deep, "two.cubex")
            strassen_profile(a, constructs=3, instances=5)
            strassen_profile(b, constructs=3, instances=7)
            for tool, args in (("report", [a]), ("diff", [a, b]), ("scaling", [a, b])):
                text = T.run_tool(tool, *args, check=True).stdout
                long_lines = [ln for ln in text.splitlines() if len(ln) > 100]
                self.assertEqual(long_lines, [], tool)
                self.assertIn("one.cubex", text, tool)

    def test_shown_path(self):
        cwd = os.getcwd()
        inside = os.path.join(cwd, "x", "p.cubex")
        self.assertEqual(tf.shown_path(inside, 100), os.path.join("x", "p.cubex"))
        far = "/" + "/".join(["d%03d" % k for k in range(40)]) + "/profile.cubex"
        short = tf.shown_path(far, 60)
        self.assertLessEqual(len(short), 60)
        self.assertTrue(short.endswith("/profile.cubex"), short)
        self.assertTrue(short.startswith(far[:10]), short)
        self.assertIn("..", short)


class DiffText(unittest.TestCase):
    def test_call_tree_and_task_tree_copies_differ(self):
        p = T.run_tool("diff", T.golden("tasks_t1"), T.golden("tasks_t2"), "--top", "60",
                       check=True)
        text = p.stdout
        self.assertTrue(all(len(ln) <= 100 for ln in text.splitlines()))
        rows = re.findall(r"(?m)^ +(\d+) (task @tasks\.c:28) +(call|TASKS) +Time ", text)
        self.assertEqual({r[2] for r in rows}, {"call", "TASKS"})
        listing = text[text.index("call paths (from the root"):]
        paths = {}
        for m in re.finditer(r"(?m)^ +(\d+)  (.*(?:\n {6}.*)*)", listing):
            paths[m.group(1)] = " ".join(m.group(2).split())
        for number, _, tree in rows:
            path = paths[number]
            self.assertTrue(path.endswith("!$omp task @tasks.c:28"), path)
            self.assertEqual(" / TASKS / " in path, tree == "TASKS", path)
        d = json.loads(T.run_tool("diff", "--format", "json", T.golden("tasks_t1"),
                                  T.golden("tasks_t2"), check=True).stdout)
        for r in d["rows"]:
            self.assertEqual(r["tree"] == "TASKS", "TASKS" in r["path"], r["path"])


if __name__ == "__main__":
    unittest.main()
