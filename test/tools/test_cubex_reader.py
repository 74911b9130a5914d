"""The .cubex reader reproduces every number of the golden cube_dump outputs and follows
CubeLib's container rules (padding quirk, sparse/dense index, byte order, row order)."""

import os
import re
import struct
import tempfile
import unittest

import toolstest as T
from pompprof_tools.cube import cubex


def tar_header(name, size):
    hdr = bytearray(512)
    hdr[0:len(name)] = name.encode()
    hdr[100:108] = b"0000600\0"
    hdr[124:136] = b"%011o\0" % size
    hdr[136:148] = b"%011o\0" % 0
    hdr[148:156] = b" " * 8
    hdr[156:157] = b"0"
    hdr[257:263] = b"ustar\0"
    hdr[263:265] = b"00"
    hdr[148:156] = b"%06o\0 " % sum(hdr)
    return bytes(hdr)


def members_of(path):
    with open(path, "rb") as f:
        data = f.read()
    table = cubex.read_tar_members(data, path)
    return {n: data[o:o + s] for n, (o, s) in table.items()}


def build_tar(members, standard_padding):
    out = []
    for name, content in members:
        out.append(tar_header(name, len(content)))
        out.append(content)
        if standard_padding:
            out.append(b"\0" * (-len(content) % 512))
        elif content:
            out.append(b"\0" * ((len(content) // 512 + 1) * 512 - len(content)))
    out.append(b"\0" * 1024)
    return b"".join(out)


class GoldenValues(unittest.TestCase):
    def test_stored_values_match_dump(self):
        """cube_dump -z stored: raw value for EXCLUSIVE metrics, exclusive value (stored
        minus main-tree children, TASKS not subtracted) for INCLUSIVE ones."""
        for name in T.GOLDEN_NAMES:
            cube = cubex.load(T.golden(name))
            rows, metrics = T.read_values_csv(name)
            self.assertEqual(len(rows), len(cube.cnodes) * cube.nlocs, name)
            checked = 0
            for (cid, loc), vals in rows.items():
                for mname in metrics:
                    m = cube.metric(mname)
                    got = (cube.exclusive(m, cid, loc) if m.type == "INCLUSIVE"
                           else cube.stored(m, cid, loc))
                    T.assert_printed(self, vals[mname], got,
                                     "%s cnode %d loc %d %s" % (name, cid, loc, mname))
                    checked += 1
            self.assertGreater(checked, 100)

    def test_exclusive_aggregated_match_dump(self):
        """cube_dump -z excl -t aggr: exclusive values summed over locations."""
        for name in T.GOLDEN_NAMES:
            cube = cubex.load(T.golden(name))
            vte = T.read_vte(name)
            self.assertEqual(set(vte["time"]), set(cube.cnodes), name)
            for mname in ("visits", "time"):
                for cid, text in vte[mname].items():
                    got = cube.aggregate(mname, cube.exclusive_row(mname, cid))
                    T.assert_printed(self, text, got, "%s %s cnode %d" % (name, mname, cid))

    def test_call_tree_matches_structure_dump(self):
        """Parent of every cnode as cube_dump -w prints the call tree and task tree."""
        pat = re.compile(r"^(.*?)  \[ \( id=(\d+),")
        for name in T.GOLDEN_NAMES:
            cube = cubex.load(T.golden(name))
            with open(T.golden(name, "structure.txt")) as f:
                text = f.read()
            for section in ("CALL TREE", "TASKS TREE"):
                if section not in text:
                    continue
                body = text.split(section, 1)[1].split("\n", 1)[1]
                body = body.split("\n\n", 1)[0].split("\n -----", 1)[0]  # next section
                body = "header\n" + body
                stack = []
                seen = 0
                for ln in body.splitlines()[1:]:
                    idx = ln.find("|-")
                    m = pat.match(ln[idx + 2:] if idx >= 0 else ln)
                    if not m:
                        continue
                    # below the root every level indents by "|  " (more siblings follow)
                    # or "  " (last child)
                    depth, i, prefix = (0, 0, "") if idx < 0 else (1, 0, ln[2:idx])
                    while i < len(prefix):
                        i += 3 if prefix[i] == "|" else 2
                        depth += 1
                    cid = int(m.group(2))
                    node = cube.cnodes[cid]
                    self.assertEqual(node.region.name, m.group(1), "%s cnode %d" % (name, cid))
                    del stack[depth:]
                    if stack:
                        self.assertIs(node.parent, cube.cnodes[stack[-1]],
                                      "%s %s cnode %d" % (name, section, cid))
                        if section == "CALL TREE":
                            self.assertIn(node, cube.main_children(stack[-1]))
                    stack.append(cid)
                    seen += 1
                self.assertGreater(seen, 3, "%s %s" % (name, section))

    def test_tasks_node_split_off(self):
        cube = cubex.load(T.golden("tasks_t2"))
        root = cube.roots[0]
        tasks = cube.tasks_nodes()
        self.assertEqual(len(tasks), 1)
        self.assertNotIn(tasks[0], cube.main_children(root))
        self.assertEqual(len(cube.task_roots()), 3)
        # root exclusive = stored - parallel only (TASKS not subtracted)
        par = [c for c in root.children if c.region.role == "parallel"][0]
        self.assertAlmostEqual(cube.exclusive("time", root, 0),
                               cube.stored("time", root, 0) - cube.stored("time", par, 0))

    def test_profile_directory(self):
        with tempfile.TemporaryDirectory() as d:
            with open(T.golden("tasks_t1"), "rb") as f:
                data = f.read()
            with open(os.path.join(d, "profile.cubex"), "wb") as f:
                f.write(data)
            self.assertEqual(len(cubex.load(d).cnodes), len(cubex.load(T.golden("tasks_t1")).cnodes))


class Container(unittest.TestCase):
    def _roundtrip(self, members, standard):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "x.cubex")
            with open(p, "wb") as f:
                f.write(build_tar(members, standard))
            return cubex.load(p)

    def _reference(self):
        ref = cubex.load(T.golden("tasks_t2"))
        return ref, {(m, c): ref.row(m, c) for m in ("visits", "time", "min_time", "max_time")
                     for c in ref.cnodes}

    def test_padding_variants_with_512_multiple(self):
        """anchor.xml padded to a multiple of 512 and placed first: with cubew padding
        (extra zero block) and with standard tar padding the following members stay visible."""
        ref, values = self._reference()
        mem = members_of(T.golden("tasks_t2"))
        anchor = mem["anchor.xml"] + b" " * (-len(mem["anchor.xml"]) % 512)
        self.assertEqual(len(anchor) % 512, 0)
        order = [("anchor.xml", anchor)] + [(n, mem[n]) for n in
                                             ("1.data", "1.index", "3.data", "3.index",
                                              "2.data", "2.index", "0.data", "0.index")]
        for standard in (False, True):
            cube = self._roundtrip(order, standard)
            for (m, c), row in values.items():
                self.assertEqual(cube.row(m, c), row, "standard=%s %s %d" % (standard, m, c))

    def test_big_endian_member(self):
        ref, values = self._reference()
        mem = members_of(T.golden("tasks_t2"))
        n = len(ref.cnodes)
        swapped_index = (b"CUBEX.INDEX" + struct.pack(">IHB", 1, 0, 1) + struct.pack(">I", n)
                         + struct.pack(">%dI" % n, *range(n)))
        body = mem["1.data"][10:]
        vals = struct.unpack("<%dd" % (len(body) // 8), body)
        swapped_data = b"CUBEX.DATA" + struct.pack(">%dd" % len(vals), *vals)
        order = [(k, v) for k, v in mem.items() if k not in ("1.data", "1.index")]
        order += [("1.data", swapped_data), ("1.index", swapped_index)]
        cube = self._roundtrip(order, False)
        for c in ref.cnodes:
            self.assertEqual(cube.row("time", c), values[("time", c)])

    def test_dense_index(self):
        ref, values = self._reference()
        mem = members_of(T.golden("tasks_t2"))
        mem["0.index"] = b"CUBEX.INDEX" + struct.pack("<IHB", 1, 0, 3)
        cube = self._roundtrip(list(mem.items()), False)
        for c in ref.cnodes:
            self.assertEqual(cube.row("visits", c), values[("visits", c)])

    def test_row_enumeration_orders(self):
        class N:
            def __init__(self, i, kids=()):
                self.id, self.children = i, list(kids)
        tree = [N(0, [N(1, [N(2)]), N(3, [N(4)])])]
        self.assertEqual([n.id for n in cubex.row_enumeration(tree, "INCLUSIVE")],
                         [0, 1, 3, 2, 4])
        self.assertEqual([n.id for n in cubex.row_enumeration(tree, "EXCLUSIVE")],
                         [0, 1, 2, 3, 4])

    def test_missing_members_read_as_zero(self):
        cube = cubex.load(T.golden("tasks_t2"))
        self.assertFalse(cube.metric("bytes_put").has_data)
        self.assertEqual(cube.row("bytes_put", 0), (0, 0))

    def test_errors_are_one_line(self):
        data = open(T.golden("tasks_t1"), "rb").read()
        mem = members_of(T.golden("tasks_t1"))
        cases = {
            "empty": b"",
            "text": b"hello, this is not a profile\n" * 40,
            "cut header": data[:700],
            "cut data": data[:len(data) - 15000],
            "cut end": data[:len(data) - 100],
            "no anchor": build_tar([(k, v) for k, v in mem.items() if k != "anchor.xml"], False),
            "bad xml": build_tar([(k, v) for k, v in mem.items() if k != "anchor.xml"]
                                 + [("anchor.xml", mem["anchor.xml"][:-300])], False),
            "short data": build_tar([(k, (v[:-8] if k == "1.data" else v))
                                     for k, v in mem.items()], False),
            "index without data": build_tar([(k, v) for k, v in mem.items() if k != "1.data"],
                                            False),
        }
        with tempfile.TemporaryDirectory() as d:
            for what, content in cases.items():
                p = os.path.join(d, what.replace(" ", "_") + ".cubex")
                with open(p, "wb") as f:
                    f.write(content)
                with self.assertRaises(cubex.CubexError, msg=what) as cm:
                    cubex.load(p)
                self.assertNotIn("\n", str(cm.exception), what)
                self.assertIn(p, str(cm.exception), what)
            with self.assertRaises(cubex.CubexError):
                cubex.load(os.path.join(d, "does-not-exist"))
            with self.assertRaises(cubex.CubexError):
                cubex.load(d)       # several .cubex files in it


if __name__ == "__main__":
    T.main()
