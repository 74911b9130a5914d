"""pompprof-scaling on the golden 1- and 2-thread profiles: table, consistent split,
a parseable stacked-area SVG."""

import json
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

import toolstest as T
from pompprof_tools.cube import cubex

SVG = "{http://www.w3.org/2000/svg}"


class ScalingTest(unittest.TestCase):
    def test_table_and_svg(self):
        for prog in ("tasks", "worksharing"):
            with tempfile.TemporaryDirectory() as tmp:
                svg = os.path.join(tmp, "s.svg")
                # given in reverse order: the tool sorts by thread count
                p = T.run_tool("scaling", T.golden(prog + "_t2"), T.golden(prog + "_t1"),
                               "--svg", svg, check=True)
                lines = p.stdout.splitlines()
                self.assertTrue(all(len(ln) <= 100 for ln in lines))
                table = [ln.split() for ln in lines if ln[:1].isdigit()]
                self.assertEqual([r[0] for r in table[:2]], ["1", "2"])
                root = ET.parse(svg).getroot()
                self.assertEqual(root.tag, SVG + "svg")
                polys = root.findall(SVG + "polygon")
                self.assertEqual(len(polys), 6)     # the report's categories (issue 23, 34)
                texts = [t.text for t in root.iter(SVG + "text")]
                for label in ("1", "2", "threads", "work", "serial", "imbalance",
                              "thread management"):
                    self.assertIn(label, texts)

    def test_numbers(self):
        p = T.run_tool("scaling", "--format", "json", T.golden("tasks_t1"),
                       T.golden("tasks_t2"), check=True)
        d = json.loads(p.stdout)
        rows = d["profiles"]
        self.assertEqual([r["threads"] for r in rows], [1, 2])
        self.assertEqual(rows[0]["speedup"], 1.0)
        for r, name in zip(rows, ("tasks_t1", "tasks_t2")):
            cube = cubex.load(T.golden(name))
            wall = max(cube.inclusive_row("time", 0))
            self.assertAlmostEqual(r["wall"], wall, places=12)
            self.assertAlmostEqual(sum(r["split"].values()), r["total"], places=12)
            self.assertGreaterEqual(r["total"], sum(cube.inclusive_row("time", 0)) - 1e-12)
        self.assertAlmostEqual(rows[1]["speedup"], rows[0]["wall"] / rows[1]["wall"])
        self.assertAlmostEqual(rows[1]["efficiency"], rows[1]["speedup"] / 2)
        # the same report definitions: the report's overhead total equals scaling's total
        rep = json.loads(T.run_tool("report", "--format", "json", T.golden("tasks_t2"),
                                    check=True).stdout)
        self.assertAlmostEqual(rep["overhead"]["program"]["total"], rows[1]["total"], places=12)
        self.assertAlmostEqual(rep["overhead"]["program"]["categories"]["work"]["time"],
                               rows[1]["split"]["work"], places=12)
        tasks = d["tasks"]
        self.assertEqual(sorted(m["instances"] for m in tasks["!$omp task @tasks.c:28"]), [4, 4])
        self.assertEqual(len(d["parallel_regions"]["!$omp parallel @tasks.c:20"]), 2)


if __name__ == "__main__":
    T.main()
