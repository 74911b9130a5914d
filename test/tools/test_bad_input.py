"""Bad input to every tool: one line on stderr naming the problem, exit code 1 (2 for
usage errors), never a traceback."""

import os
import tempfile
import unittest

import toolstest as T
from pompprof_tools.cube import cubex
from pompprof_tools.cube.cubex_write import CubeWriter

TOOLS = ("report", "diff", "scaling")


def args_for(tool, path):
    good = T.golden("tasks_t1")
    if tool == "diff":
        return [good, path]
    if tool == "scaling":
        return [good, path]
    return [path]


class BadInput(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        with open(T.golden("tasks_t2"), "rb") as f:
            data = f.read()
        members = cubex.read_tar_members(data, "golden")
        cases = {"empty.cubex": b"", "text.cubex": b"just some text\n" * 100}
        # cut points: inside the first header, inside remapping.spec, inside each metric's
        # data and index, inside anchor.xml and inside the end-of-archive blocks
        cuts = [100, 5000]
        for name in ("1.data", "1.index", "0.data", "anchor.xml"):
            off, size = members[name]
            cuts.append(off + size // 2)
        cuts.append(len(data) - 100)
        for c in cuts:
            cases["cut%d.cubex" % c] = data[:c]
        cls.cases = {}
        for name, content in cases.items():
            p = os.path.join(d, name)
            with open(p, "wb") as f:
                f.write(content)
            cls.cases[name] = p
        # a well-formed profile without the `time` metric
        w = CubeWriter()
        w.add_cnode(w.add_region("main"))
        w.set_row(w.add_metric("visits", dtype="UINT64"), 0, [1])
        p = os.path.join(d, "notime.cubex")
        w.write(p)
        cls.cases["notime.cubex"] = p
        cls.cases["missing"] = os.path.join(d, "no-such-profile.cubex")
        os.mkdir(os.path.join(d, "emptydir"))
        cls.cases["emptydir"] = os.path.join(d, "emptydir")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check_one_line(self, p, tool, what):
        self.assertEqual(p.returncode, 1, "%s %s: rc %d, %s" % (tool, what, p.returncode, p.stderr))
        self.assertNotIn("Traceback", p.stderr)
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, "%s %s: %r" % (tool, what, p.stderr))
        self.assertTrue(lines[0].startswith("pompprof-%s: " % tool), lines[0])
        self.assertGreater(len(lines[0]), len("pompprof-%s: " % tool) + 5)
        return lines[0]

    def test_bad_files(self):
        # every case through the report; a sample through diff and scaling (same reader,
        # same error path: keeps the test fast)
        sample = ("missing", "text.cubex", "notime.cubex", "emptydir")
        cut_in_data = sorted(n for n in self.cases if n.startswith("cut"))[2]
        for name, path in sorted(self.cases.items()):
            for tool in TOOLS:
                if tool != "report" and name not in sample + (cut_in_data,):
                    continue
                p = T.run_tool(tool, *args_for(tool, path))
                line = self.check_one_line(p, tool, name)
                self.assertIn(os.path.basename(path), line)
        line = self.check_one_line(T.run_tool("report", self.cases["notime.cubex"]), "report",
                                   "notime")
        self.assertIn("time", line)
        line = self.check_one_line(T.run_tool("report", self.cases["cut100.cubex"]), "report",
                                   "cut")
        self.assertIn("truncated", line)

    def test_usage_errors(self):
        for tool in TOOLS:
            p = T.run_tool(tool)
            self.assertEqual(p.returncode, 2, tool)
            self.assertNotIn("Traceback", p.stderr)
            p = T.run_tool(tool, "--help")
            self.assertEqual(p.returncode, 0, tool)
            self.assertIn("usage", p.stdout)
        p = T.run_tool("report", "--top", "0", T.golden("tasks_t1"))
        self.assertEqual(p.returncode, 2)
        p = T.run_tool("report", "--format", "xml", T.golden("tasks_t1"))
        self.assertEqual(p.returncode, 2)


if __name__ == "__main__":
    T.main()
