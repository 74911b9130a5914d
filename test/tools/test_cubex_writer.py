"""The Python .cubex writer: the worked example of the format document reads back
number by number, with CubeLib's TASKS semantics, cubew padding and no overwriting."""

import os
import tarfile
import tempfile
import unittest

import toolstest as T
from pompprof_tools.cube import cubex
from pompprof_tools.cube.cubex_write import CubeWriter, WriteError


def example():
    """The worked example: prog -> parallel -> task stub, TASKS -> task body."""
    w = CubeWriter()
    prog = w.add_region("prog", paradigm="measurement", role="artificial")
    par = w.add_region("!$omp parallel @prog.c:4", "prog.c", 4, 12, "openmp", "parallel")
    task = w.add_region("!$omp task @prog.c:7", "prog.c", 7, 9, "openmp", "task")
    tasks = w.add_region("TASKS", paradigm="openmp", role="artificial")
    c0 = w.add_cnode(prog)
    c1 = w.add_cnode(par, c0)
    c2 = w.add_cnode(task, c1)
    c3 = w.add_cnode(tasks, c0)
    c4 = w.add_cnode(task, c3)
    w.set_locations(["Master thread", "OMP thread 1"])
    visits = w.add_metric("visits", "Visits", "UINT64", "EXCLUSIVE", "occ")
    time = w.add_metric("time", "Time", "DOUBLE", "INCLUSIVE", "sec")
    # distinct values per cnode so that a wrong row order shows
    times = {c0: [1.0, 0.8], c1: [0.8, 0.75], c2: [0.0, 0.5], c3: [0.0, 0.45], c4: [0.0, 0.45]}
    vis = {c0: [1, 0], c1: [1, 1], c2: [0, 1], c3: [0, 0], c4: [0, 1]}
    for c in times:
        w.set_row(time, c, times[c])
        w.set_row(visits, c, vis[c])
    return w, times, vis


class WriterTest(unittest.TestCase):
    def test_roundtrip(self):
        w, times, vis = example()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "ex.cubex")
            w.write(path)
            cube = cubex.load(path)
            for c in times:
                self.assertEqual(list(cube.row("time", c)), times[c])
                self.assertEqual(list(cube.row("visits", c)), vis[c])
            # root exclusive: TASKS is split off, not subtracted
            self.assertAlmostEqual(cube.exclusive("time", 0, 0), 0.2)
            self.assertAlmostEqual(cube.exclusive("time", 0, 1), 0.05)
            self.assertEqual(cube.inclusive("visits", 0, 1), 2)     # TASKS visits not in it
            self.assertEqual([c.id for c in cube.task_roots()], [4])
            # standard tar tools see every member: no member size is a multiple of 512
            with tarfile.open(path) as tf:
                names = tf.getnames()
                self.assertEqual(sorted(names), ["0.data", "0.index", "1.data", "1.index",
                                                 "anchor.xml"])
                self.assertTrue(all(m.size % 512 for m in tf.getmembers()))
            # cubew padding: a 90-byte 1.data is followed by 422 zero bytes
            with open(path, "rb") as f:
                data = f.read()
            self.assertEqual(len(data) % 512, 0)
            members = cubex.read_tar_members(data, path)
            off, size = members["1.data"]
            self.assertEqual(size, 10 + 5 * 2 * 8)
            self.assertEqual(data[off + size:off + 512], b"\0" * (512 - size))
            # the anchor starts exactly the way CubeLib's parser wants it
            off, size = members["anchor.xml"]
            self.assertTrue(data[off:off + size].startswith(
                b'<?xml version="1.0" encoding="UTF-8"?>\n\n<cube version="4.4">\n'))

    def test_refuses_to_overwrite(self):
        w, _, _ = example()
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "ex.cubex")
            with open(path, "wb") as f:
                f.write(b"old")
            with self.assertRaises(WriteError):
                w.write(path)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), b"old")
            self.assertEqual(os.listdir(tmp), ["ex.cubex"])

    def test_anchor_padding(self):
        """An anchor.xml whose length is a multiple of 512 gets one extra byte."""
        w, _, _ = example()
        base = len(w.anchor_xml())
        w.add_attr("pad", "x" * (512 - (base + len('<attr key="pad" value=""/>\n')) % 512))
        text = w.anchor_xml()
        self.assertEqual(len(text) % 512, 1)        # 512 * k + the extra newline
        self.assertTrue(text.endswith(b"</cube>\n\n"))

    def test_rejects_bad_definitions(self):
        w = CubeWriter()
        with self.assertRaises(WriteError):
            w.add_metric("m", dtype="MINDOUBLE", mtype="INCLUSIVE")
        with self.assertRaises(WriteError):
            w.add_cnode(3)


if __name__ == "__main__":
    T.main()
