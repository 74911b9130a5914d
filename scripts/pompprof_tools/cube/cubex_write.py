"""Writer for CUBE4 profiles (`.cubex`), following the same rules as pompprof's C writer
(doc/cube4-layout.md):

* tar container, cubew padding: every non-empty member is followed by
  ``(size//512 + 1) * 512 - size`` zero bytes, so CubeLib finds the next header;
  member sizes are never multiples of 512 (anchor.xml gets a trailing newline if needed),
  so standard tar tools agree; two zero blocks end the archive;
* ``anchor.xml`` in the exact syntax CubeLib's hand-written parser accepts
  (``<cube version="4.4">``, ``id`` first in ``<metric>``, no self-closing text elements,
  the five XML entities only);
* one ``<id>.data`` + dense ``<id>.index`` per metric, rows in the per-metric enumeration
  (EXCLUSIVE pre-order, INCLUSIVE level-per-parent), little-endian;
* written atomically (temporary file in the target directory, then a hard link / rename);
  an existing file is never overwritten.
"""

import os
import struct
import tempfile
import time

from .cubex import row_enumeration, DATA_MARKER, INDEX_MARKER

__all__ = ["CubeWriter", "WriteError"]

_PACK = {"DOUBLE": "d", "MINDOUBLE": "d", "MAXDOUBLE": "d", "UINT64": "Q", "INT64": "q"}


class WriteError(Exception):
    """The profile could not be written; one line."""


def _esc(text):
    text = str(text).replace("\r", " ").replace("\n", " ")
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("'", "&apos;").replace('"', "&quot;"))


class _WNode:
    __slots__ = ("id", "region", "children", "parameters")

    def __init__(self, cid, region):
        self.id = cid
        self.region = region
        self.children = []
        self.parameters = []


class CubeWriter:
    """Collect definitions and values, then write() them as one .cubex file."""

    def __init__(self):
        self.attrs = []
        self.metrics = []       # dicts
        self.regions = []       # dicts
        self.cnodes = []        # _WNode, id = index
        self.roots = []
        self.locations = ["Master thread"]
        self.values = {}        # metric id -> {cnode id: [values]}

    def add_attr(self, key, value):
        self.attrs.append((key, value))

    def add_metric(self, uniq_name, disp_name=None, dtype="DOUBLE", mtype="EXCLUSIVE",
                   unit="", descr=""):
        if dtype not in _PACK:
            raise WriteError("unsupported dtype %s" % dtype)
        if mtype == "INCLUSIVE" and dtype in ("MINDOUBLE", "MAXDOUBLE"):
            raise WriteError("an INCLUSIVE metric cannot have dtype %s" % dtype)
        mid = len(self.metrics)
        self.metrics.append({"id": mid, "uniq_name": uniq_name, "disp_name": disp_name or uniq_name,
                             "dtype": dtype, "type": mtype, "unit": unit, "descr": descr})
        self.values[mid] = {}
        return mid

    def add_region(self, name, mod="", begin=-1, end=-1, paradigm="user", role="function",
                   mangled_name=None, descr=""):
        rid = len(self.regions)
        self.regions.append({"id": rid, "name": name, "mangled": mangled_name or name,
                             "mod": mod, "begin": begin if begin > 0 else -1,
                             "end": end if end > 0 else -1, "paradigm": paradigm,
                             "role": role, "descr": descr})
        return rid

    def add_cnode(self, region_id, parent_id=None, parameters=()):
        """parameters: (type, key, value) triples, type "numeric" or "string"."""
        if not 0 <= region_id < len(self.regions):
            raise WriteError("cnode refers to undefined region %d" % region_id)
        node = _WNode(len(self.cnodes), region_id)
        node.parameters = list(parameters)
        self.cnodes.append(node)
        if parent_id is None:
            self.roots.append(node)
        else:
            self.cnodes[parent_id].children.append(node)
        return node.id

    def set_locations(self, names):
        if not names:
            raise WriteError("a profile needs at least one location")
        self.locations = list(names)

    def set_row(self, metric_id, cnode_id, values):
        """Values of one cnode, one per location, in the metric's stored flavour."""
        if len(values) != len(self.locations):
            raise WriteError("row of %d values for %d locations"
                             % (len(values), len(self.locations)))
        self.values[metric_id][cnode_id] = list(values)

    # ---- serialisation -----------------------------------------------------------
    def anchor_xml(self):
        out = ['<?xml version="1.0" encoding="UTF-8"?>', "", '<cube version="4.4">',
               '<attr key="CubePL Version" value="1.1"/>',
               '<attr key="Cube Version" value="4.8.2"/>',
               '<attr key="Cube anchor.xml syntax version" value="4.4"/>']
        for k, v in self.attrs:
            out.append('<attr key="%s" value="%s"/>' % (_esc(k), _esc(v)))
        out += ["<doc>", "<mirrors>", "</mirrors>", "</doc>", "<metrics>"]
        for m in self.metrics:
            out += ['<metric id="%d" type="%s">' % (m["id"], m["type"]),
                    "<disp_name>%s</disp_name>" % _esc(m["disp_name"]),
                    "<uniq_name>%s</uniq_name>" % _esc(m["uniq_name"]),
                    "<dtype>%s</dtype>" % m["dtype"],
                    "<uom>%s</uom>" % _esc(m["unit"]),
                    "<url></url>",
                    "<descr>%s</descr>" % _esc(m["descr"]),
                    "</metric>"]
        out += ["</metrics>", "<program>"]
        for r in self.regions:
            out += ['<region id="%d" mod="%s" begin="%d" end="%d">'
                    % (r["id"], _esc(r["mod"]), r["begin"], r["end"]),
                    "<name>%s</name>" % _esc(r["name"]),
                    "<mangled_name>%s</mangled_name>" % _esc(r["mangled"]),
                    "<paradigm>%s</paradigm>" % _esc(r["paradigm"]),
                    "<role>%s</role>" % _esc(r["role"]),
                    "<url></url>",
                    "<descr>%s</descr>" % _esc(r["descr"]),
                    "</region>"]
        # iterative nesting keeps deep trees off the recursion limit
        for root in self.roots:
            stack = [(root, False)]
            while stack:
                n, closing = stack.pop()
                if closing:
                    out.append("</cnode>")
                    continue
                out.append('<cnode id="%d" calleeId="%d">' % (n.id, n.region))
                out += ['<parameter partype="%s" parkey="%s" parvalue="%s" />'
                        % (_esc(t), _esc(k), _esc(v)) for t, k, v in n.parameters]
                stack.append((n, True))
                for ch in reversed(n.children):
                    stack.append((ch, False))
        out += ["</program>", "<system>", '<systemtreenode Id="0">', "<name>machine</name>",
                "<class>machine</class>", '<systemtreenode Id="1">', "<name>node</name>",
                "<class>node</class>", '<locationgroup Id="0">', "<name>Process</name>",
                "<rank>0</rank>", "<type>process</type>"]
        for i, name in enumerate(self.locations):
            out += ['<location Id="%d">' % i, "<name>%s</name>" % _esc(name),
                    "<rank>%d</rank>" % i, "<type>thread</type>", "</location>"]
        out += ["</locationgroup>", "</systemtreenode>", "</systemtreenode>",
                "<topologies>", "</topologies>", "</system>", "</cube>"]
        text = ("\n".join(out) + "\n").encode("utf-8")
        if len(text) % 512 == 0:
            text += b"\n"           # keep standard tar tools and CubeLib in agreement
        return text

    def _metric_members(self, m):
        code = _PACK[m["dtype"]]
        nloc = len(self.locations)
        zero = [0.0 if code == "d" else 0] * nloc
        row = struct.Struct("<%d%s" % (nloc, code))
        parts = [DATA_MARKER]
        vals = self.values[m["id"]]
        for n in row_enumeration(self.roots, m["type"]):
            v = vals.get(n.id, zero)
            if code != "d":
                v = [int(x) for x in v]
            parts.append(row.pack(*v))
        index = INDEX_MARKER + struct.pack("<IHB", 1, 0, 3)
        return b"".join(parts), index

    @staticmethod
    def _tar_header(name, size, mtime):
        hdr = bytearray(512)
        raw = name.encode("utf-8")
        if len(raw) > 99:
            raise WriteError("member name too long: %s" % name)
        hdr[0:len(raw)] = raw
        hdr[100:108] = b"0000600\0"
        hdr[108:116] = b"0000000\0"
        hdr[116:124] = b"0000000\0"
        hdr[124:136] = b"%011o\0" % size
        hdr[136:148] = b"%011o\0" % mtime
        hdr[148:156] = b" " * 8
        hdr[156:157] = b"0"
        hdr[257:263] = b"ustar\0"
        hdr[263:265] = b"00"
        hdr[265:271] = b"nouser"
        hdr[297:302] = b"users"
        hdr[148:156] = b"%06o\0 " % sum(hdr)
        return bytes(hdr)

    def to_bytes(self):
        if not self.roots:
            raise WriteError("a profile needs at least one call-tree node")
        mtime = int(time.time())
        members = []
        for m in self.metrics:
            data, index = self._metric_members(m)
            members.append(("%d.data" % m["id"], data))
            members.append(("%d.index" % m["id"], index))
        members.append(("anchor.xml", self.anchor_xml()))
        out = []
        for name, content in members:
            out.append(self._tar_header(name, len(content), mtime))
            out.append(content)
            if content:
                out.append(b"\0" * ((len(content) // 512 + 1) * 512 - len(content)))
        out.append(b"\0" * 1024)
        return b"".join(out)

    def write(self, path):
        """Write atomically; refuse to overwrite an existing file."""
        if os.path.lexists(path):
            raise WriteError("%s already exists; not overwriting it" % path)
        data = self.to_bytes()
        directory = os.path.dirname(os.path.abspath(path))
        try:
            fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".",
                                       suffix=".tmp", dir=directory)
        except OSError as e:
            raise WriteError("cannot write %s: %s" % (path, e.strerror or e)) from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o644)
            try:
                os.link(tmp, path)          # fails if path appeared meanwhile
            except FileExistsError:
                raise WriteError("%s already exists; not overwriting it" % path) from None
            except OSError:
                # no hard links on this file system: rename after a last check
                if os.path.lexists(path):
                    raise WriteError("%s already exists; not overwriting it" % path) from None
                os.rename(tmp, path)
        except OSError as e:
            raise WriteError("cannot write %s: %s" % (path, e.strerror or e)) from None
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
