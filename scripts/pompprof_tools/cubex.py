"""Reader for CUBE4 profiles (`.cubex`), as written by pompprof and by the reference
implementation (Score-P 8.4 / cubew 4.8.2).

The rules are those of doc/cube4-layout.md, as CubeLib applies them:

* Container: a tar archive.  Members are located the way CubeLib does it (next header at
  ``pos + 512 + (size//512 + 1) * 512`` for a non-empty member, i.e. cubew's padding that
  always adds at least one byte), but standard tar padding is accepted too: when the two
  rules disagree (member size a multiple of 512) the standard position is taken if a valid
  ustar header (magic and checksum) sits there.  The last occurrence of a name wins.
* ``anchor.xml``: definitions (metrics, regions, call tree, system tree, attributes).
* ``<id>.data`` / ``<id>.index``: per metric, rows of one value per location; the row of a
  cnode is found through the per-metric enumeration of the call tree (EXCLUSIVE: pre-order;
  INCLUSIVE and SIMPLE: level-per-parent order), dense or sparse index, byte order
  from the index's endianness marker.  A metric without both members reads as all zero
  (CubeLib does the same); a member shorter than its index demands is an error.

Call-tree semantics (CubeLib's): a direct child of a root cnode whose region is named
``TASKS`` with role ``artificial`` is split off as the root of the task tree.  It is not a
child of the root in the main tree, so it is *not* subtracted when the root's exclusive
value is computed, and it does not count into the root's inclusive value of an EXCLUSIVE
metric.

What ``cube_dump`` prints (checked against the golden dumps in test/tools/golden):
``-z stored`` prints, per cnode and location, the raw stored value for EXCLUSIVE metrics
(e.g. Score-P's 7.1e9 filler in ``min_time`` of never-visited paths) but the *exclusive*
value for INCLUSIVE metrics (stored minus the stored values of the main-tree children);
``-z excl -t aggr`` prints exclusive values summed over all locations.

Every problem with the input raises :class:`CubexError` with a one-line message.
"""

from __future__ import annotations

import glob
import gzip
import os
import struct
import zlib
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

__all__ = ["CubexError", "Cube", "Metric", "Region", "Cnode", "Location",
           "load", "resolve_profile_path", "row_enumeration"]

TAR_BLOCK = 512
DATA_MARKER = b"CUBEX.DATA"
ZDATA_MARKER = b"ZCUBEX.DATA"
INDEX_MARKER = b"CUBEX.INDEX"
INDEX_DENSE = 3
INDEX_SPARSE = 1
DATA_TYPES = ("INCLUSIVE", "EXCLUSIVE", "SIMPLE")


class CubexError(Exception):
    """A profile cannot be read; str() is one line naming the file and the problem."""


# dtype name -> (struct code, element size, aggregation over locations)
_DTYPES = {}
for _names, _code, _size, _aggr in (
        (("DOUBLE", "FLOAT"), "d", 8, "sum"),
        (("MINDOUBLE",), "d", 8, "min"),
        (("MAXDOUBLE",), "d", 8, "max"),
        (("UINT64", "UNSIGNED INTEGER"), "Q", 8, "sum"),
        (("INT64", "INTEGER", "SIGNED INTEGER"), "q", 8, "sum"),
        (("UINT32", "UNSIGNED INT"), "I", 4, "sum"),
        (("INT32", "INT", "SIGNED INT"), "i", 4, "sum"),
        (("UINT16", "UNSIGNED SHORT INT", "SHORT UNSIGNED INT"), "H", 2, "sum"),
        (("INT16", "SHORT INT", "SIGNED SHORT INT"), "h", 2, "sum"),
        (("UINT8", "CHAR", "UNSIGNED CHAR"), "B", 1, "sum"),
        (("INT8", "SIGNED CHAR"), "b", 1, "sum"),
        (("TAU_ATOMIC",), "Idddd", 36, "sum")):
    for _n in _names:
        _DTYPES[_n] = (_code, _size, _aggr)


@dataclass(eq=False, repr=False)
class Metric:
    """One metric definition.  ``type`` is INCLUSIVE, EXCLUSIVE, SIMPLE or a derived type."""
    id: int
    uniq_name: str
    disp_name: str
    dtype: str
    type: str
    unit: str
    descr: str
    url: str = ""
    viztype: str = "NORMAL"
    parent: Metric | None = None
    children: list[Metric] = field(default_factory=list)
    attrs: dict[str, str] = field(default_factory=dict)
    has_data: bool = False      # True when .data/.index members were present

    @property
    def aggregation(self) -> str:
        """How values combine over locations and subtrees: 'sum', 'min' or 'max'."""
        return _DTYPES.get(self.dtype, ("d", 8, "sum"))[2]

    @property
    def is_integer(self) -> bool:
        return _DTYPES.get(self.dtype, ("d",))[0] in "QqIiHhBb"

    def __repr__(self):
        return "Metric(%d, %r, %s, %s)" % (self.id, self.uniq_name, self.dtype, self.type)


@dataclass(eq=False, repr=False)
class Region:
    """A source region (function, OpenMP construct, ...); ``mod`` is its file."""
    id: int
    name: str
    mangled_name: str
    mod: str
    begin: int
    end: int
    paradigm: str
    role: str
    url: str = ""
    descr: str = ""
    attrs: dict[str, str] = field(default_factory=dict)

    @property
    def file(self) -> str:
        """Base name of the source file ('' when none)."""
        return os.path.basename(self.mod) if self.mod else ""

    def __repr__(self):
        return "Region(%d, %r, %s)" % (self.id, self.name, self.role)


@dataclass(eq=False, repr=False)
class Cnode:
    """A call path: a region called from its parent's call path (None for a root)."""
    id: int
    region: Region
    parent: Cnode | None = None
    line: int = -1
    mod: str = ""
    children: list[Cnode] = field(default_factory=list)   # document order, TASKS included
    parameters: list[tuple[str, str, str]] = field(default_factory=list)  # type, key, value
    attrs: dict[str, str] = field(default_factory=dict)

    @property
    def depth(self) -> int:
        d, n = 0, self.parent
        while n is not None:
            d, n = d + 1, n.parent
        return d

    def __repr__(self):
        return "Cnode(%d, %r)" % (self.id, self.region.name)


@dataclass(eq=False, repr=False)
class Location:
    """A thread: one column of every metric's rows."""
    id: int
    name: str
    rank: int
    type: str
    group_name: str = ""
    group_rank: int = 0

    def __repr__(self):
        return "Location(%d, %r)" % (self.id, self.name)


def resolve_profile_path(path: str) -> str:
    """A profile directory (profile.cubex or exactly one *.cubex inside) or a file path."""
    if os.path.isdir(path):
        candidate = os.path.join(path, "profile.cubex")
        if os.path.isfile(candidate):
            return candidate
        found = sorted(p for p in glob.glob(os.path.join(glob.escape(path), "*.cubex"))
                       if os.path.isfile(p))
        if len(found) == 1:
            return found[0]
        if not found:
            raise CubexError("%s: directory holds no .cubex file" % path)
        raise CubexError("%s: directory holds %d .cubex files (%s); name one"
                         % (path, len(found), ", ".join(os.path.basename(p) for p in found)))
    if not os.path.exists(path):
        # CubeLib accepts the name without the extension
        if not path.endswith(".cubex") and os.path.isfile(path + ".cubex"):
            return path + ".cubex"
        raise CubexError("%s: no such file or directory" % path)
    if not os.path.isfile(path):
        raise CubexError("%s: not a regular file" % path)
    return path


def load(path: str) -> Cube:
    """Read a profile (directory or .cubex file) and return a :class:`Cube`."""
    return Cube(resolve_profile_path(path))


# --------------------------------------------------------------------------- tar

def _octal(field):
    """Parse a tar numeric field (octal text, or GNU base-256); None when malformed."""
    if field and field[0] & 0x80:
        value = field[0] & 0x3F
        for b in field[1:]:
            value = (value << 8) | b
        return value
    text = field.split(b"\0", 1)[0].strip(b" ")
    if not text:
        return 0
    try:
        return int(text.decode("ascii"), 8)
    except (UnicodeDecodeError, ValueError):
        return None


def _is_ustar_header(data, pos):
    """True when a complete header with ustar magic and a correct checksum starts at pos."""
    if pos + TAR_BLOCK > len(data):
        return False
    hdr = data[pos:pos + TAR_BLOCK]
    if hdr[257:262] != b"ustar":
        return False
    stored = _octal(hdr[148:156])
    if stored is None:
        return False
    return stored == sum(hdr[:148]) + 8 * 0x20 + sum(hdr[156:])


def read_tar_members(data, where):
    """Map member name -> (offset, size) following CubeLib's walk (see module doc)."""
    if not data:
        raise CubexError("%s: empty file" % where)
    if len(data) < TAR_BLOCK:
        raise CubexError("%s: not a .cubex file or truncated (only %d bytes)"
                         % (where, len(data)))
    if data[257:262] != b"ustar":
        raise CubexError("%s: not a .cubex file (no tar header)" % where)
    members = {}
    pos, end = 0, len(data)
    closed = False
    pax_size = None
    while pos < end:
        if pos + TAR_BLOCK > end:
            raise CubexError("%s: truncated (file ends inside a tar header at byte %d)"
                             % (where, pos))
        hdr = data[pos:pos + TAR_BLOCK]
        if hdr[0] == 0:                 # zero block: padding or end of archive
            closed = True
            pos += TAR_BLOCK
            continue
        closed = False
        if hdr[257:262] != b"ustar":
            raise CubexError("%s: corrupt tar header at byte %d" % (where, pos))
        name = hdr[:100].split(b"\0", 1)[0].decode("utf-8", "replace")
        size = _octal(hdr[124:136])
        if size is None:
            raise CubexError("%s: corrupt size field in tar header of '%s'" % (where, name))
        start = pos + TAR_BLOCK
        if start + size > end:
            raise CubexError("%s: truncated member '%s' (%d of %d bytes present)"
                             % (where, name, max(0, end - start), size))
        if hdr[156:157] == b"x":        # PAX header: carries the size of the next member
            record = data[start:start + size].decode("ascii", "replace")
            pax_size = None
            for line in record.split("\n"):
                _, _, kv = line.partition(" ")
                if kv.startswith("size="):
                    try:
                        pax_size = int(kv[5:])
                    except ValueError:
                        raise CubexError("%s: corrupt PAX header before byte %d"
                                         % (where, pos)) from None
            pos = start + -(-size // TAR_BLOCK) * TAR_BLOCK
            continue
        if pax_size is not None:
            size, pax_size = pax_size, None
            if start + size > end:
                raise CubexError("%s: truncated member '%s' (%d of %d bytes present)"
                                 % (where, name, max(0, end - start), size))
        members[name] = (start, size)
        if size == 0:
            nxt = start
        else:
            nxt = start + (size // TAR_BLOCK + 1) * TAR_BLOCK
            standard = start + -(-size // TAR_BLOCK) * TAR_BLOCK
            if standard != nxt and _is_ustar_header(data, standard):
                nxt = standard
        if nxt > end:
            raise CubexError("%s: truncated after member '%s' (padding missing)" % (where, name))
        pos = nxt
    if not closed:
        raise CubexError("%s: truncated (no end-of-archive block)" % where)
    return members


# --------------------------------------------------------------------------- XML helpers

def _int_attr(elem, names, where, default=None):
    for n in names:
        v = elem.get(n)
        if v is not None:
            try:
                return int(v.strip())
            except ValueError:
                raise CubexError("%s: anchor.xml: <%s> has a non-integer %s=\"%s\""
                                 % (where, elem.tag, n, v)) from None
    if default is None:
        raise CubexError("%s: anchor.xml: <%s> without %s attribute"
                         % (where, elem.tag, names[0]))
    return default


def _text(elem, tag, default=""):
    child = elem.find(tag)
    if child is None or child.text is None:
        return default
    return child.text.replace("\n", " ")


def _int_text(elem, tag, where, default=0):
    t = _text(elem, tag, None)
    if t is None:
        return default
    try:
        return int(t.strip())
    except ValueError:
        raise CubexError("%s: anchor.xml: <%s> is not an integer: %r" % (where, tag, t)) from None


def _in_preorder(top, tag, add):
    """add(elem, what add returned for its parent, None at the top) for the elements top
    and every <tag> nested in them, in document pre-order.  Iterative: a call tree can be
    nested far deeper than Python's recursion limit."""
    pending = [(e, None) for e in reversed(top)]
    while pending:
        elem, parent = pending.pop()
        made = add(elem, parent)
        pending.extend((ch, made) for ch in reversed(elem.findall(tag)))


def row_enumeration(roots: list, mtype: str) -> list:
    """Cnodes in the order of their rows for a metric of type mtype (format doc 3.3).

    CubeLib 4.8 has no order of its own for SIMPLE metrics: it treats them as
    INCLUSIVE (verified with cube_dump), so they share the level-per-parent order.
    Both walks are iterative: call trees can be far deeper than Python's stack."""
    order = []
    if mtype in ("INCLUSIVE", "SIMPLE"):
        for r in roots:
            order.append(r)
            # visit(n) = emit all children of n, then visit each child in turn
            stack = [r]
            while stack:
                n = stack.pop()
                order.extend(n.children)
                stack.extend(reversed(n.children))
    else:
        stack = list(reversed(roots))
        while stack:
            n = stack.pop()
            order.append(n)
            stack.extend(reversed(n.children))
    return order


# --------------------------------------------------------------------------- the cube

class Cube:
    """A loaded profile: definitions plus stored values.

    Metric arguments may be a :class:`Metric`, its uniq_name or its id; cnode arguments a
    :class:`Cnode` or its id; locations are ids (columns).
    """

    def __init__(self, path: str):
        self.path = path
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise CubexError("%s: cannot read: %s" % (path, e.strerror or e)) from None
        members = read_tar_members(data, path)
        self.member_names = list(members)
        if "anchor.xml" not in members:
            raise CubexError("%s: no anchor.xml member (not a CUBE4 profile)" % path)
        off, size = members["anchor.xml"]
        anchor = data[off:off + size]
        if anchor[:2] == b"\x1f\x8b":
            try:
                anchor = gzip.decompress(anchor)
            except (OSError, EOFError, zlib.error):
                raise CubexError("%s: compressed anchor.xml is corrupt" % path) from None
        self._parse_anchor(anchor)
        self._rows = {}
        for m in self.metrics:
            if m.type in DATA_TYPES:
                self._load_metric(m, data, members)
        self._memo = {}

    # ---- definitions -------------------------------------------------------------
    def _parse_anchor(self, text):
        where = self.path
        try:
            root = ET.fromstring(text)
        except ET.ParseError as e:
            raise CubexError("%s: anchor.xml is not well-formed XML (%s)" % (where, e)) from None
        except (LookupError, ValueError) as e:
            # e.g. an unknown encoding in the XML declaration
            raise CubexError("%s: anchor.xml cannot be decoded (%s)" % (where, e)) from None
        if root.tag != "cube":
            raise CubexError("%s: anchor.xml: root element is <%s>, not <cube>" % (where, root.tag))
        self.version = root.get("version", "")
        self.attrs: dict[str, str] = {}
        for a in root.findall("attr"):
            self.attrs[a.get("key", "")] = a.get("value", "")

        # metrics
        self.metrics: list[Metric] = []
        self._metric_by_id = {}
        self._metric_by_name = {}
        mets = root.find("metrics")
        if mets is None or mets.find("metric") is None:
            raise CubexError("%s: anchor.xml defines no metric" % where)

        def add_metric(elem, parent):
            mid = _int_attr(elem, ("id",), where)
            if mid < 0 or mid in self._metric_by_id:
                raise CubexError("%s: anchor.xml: bad or duplicate metric id %d" % (where, mid))
            mtype = elem.get("type", "EXCLUSIVE")
            if mtype == "DERIVED":
                mtype = "POSTDERIVED"
            if mtype not in DATA_TYPES + ("POSTDERIVED", "PREDERIVED_INCLUSIVE",
                                          "PREDERIVED_EXCLUSIVE"):
                mtype = "EXCLUSIVE"     # CubeLib's fallback
            m = Metric(mid, _text(elem, "uniq_name"), _text(elem, "disp_name"),
                       _text(elem, "dtype", "DOUBLE").strip(), mtype, _text(elem, "uom"),
                       _text(elem, "descr"), _text(elem, "url"),
                       elem.get("viztype", "NORMAL").upper(), parent)
            for a in elem.findall("attr"):
                m.attrs[a.get("key", "")] = a.get("value", "")
            self.metrics.append(m)
            self._metric_by_id[mid] = m
            self._metric_by_name.setdefault(m.uniq_name, m)
            if parent is not None:
                parent.children.append(m)
            return m

        _in_preorder(mets.findall("metric"), "metric", add_metric)

        # regions and call tree
        prog = root.find("program")
        if prog is None:
            raise CubexError("%s: anchor.xml has no <program>" % where)
        self.regions: dict[int, Region] = {}
        for e in prog.findall("region"):
            rid = _int_attr(e, ("id",), where)
            if rid < 0 or rid in self.regions:
                raise CubexError("%s: anchor.xml: bad or duplicate region id %d" % (where, rid))
            name = _text(e, "name")
            r = Region(rid, name, _text(e, "mangled_name", name), e.get("mod", ""),
                       _int_attr(e, ("begin",), where, -1), _int_attr(e, ("end",), where, -1),
                       _text(e, "paradigm", "unknown"), _text(e, "role", "unknown"),
                       _text(e, "url"), _text(e, "descr"))
            for a in e.findall("attr"):
                r.attrs[a.get("key", "")] = a.get("value", "")
            self.regions[rid] = r
        self.cnodes: dict[int, Cnode] = {}
        self.roots: list[Cnode] = []

        def add_cnode(elem, parent):
            cid = _int_attr(elem, ("id",), where)
            rid = _int_attr(elem, ("calleeId",), where)
            if cid < 0 or cid in self.cnodes:
                raise CubexError("%s: anchor.xml: bad or duplicate cnode id %d" % (where, cid))
            if rid not in self.regions:
                raise CubexError("%s: anchor.xml: cnode %d calls undefined region %d"
                                 % (where, cid, rid))
            c = Cnode(cid, self.regions[rid], parent, _int_attr(elem, ("line",), where, -1),
                      elem.get("mod", ""))
            for p in elem.findall("parameter"):
                c.parameters.append((p.get("partype", ""), p.get("parkey", ""),
                                     p.get("parvalue", "")))
            for a in elem.findall("attr"):
                c.attrs[a.get("key", "")] = a.get("value", "")
            self.cnodes[cid] = c
            if parent is None:
                self.roots.append(c)
            else:
                parent.children.append(c)
            return c

        _in_preorder(prog.findall("cnode"), "cnode", add_cnode)
        if not self.roots:
            raise CubexError("%s: anchor.xml defines no call-tree node" % where)

        # system tree
        system = root.find("system")
        if system is None:
            raise CubexError("%s: anchor.xml has no <system>" % where)
        self.locations: list[Location] = []
        seen = set()

        def add_groups(elem, _parent):      # locations do not depend on the nesting
            for g in elem.findall("locationgroup"):
                gname, grank = _text(g, "name"), _int_text(g, "rank", where)
                for le in g.findall("location"):
                    lid = _int_attr(le, ("Id", "id"), where)
                    if lid < 0 or lid in seen:
                        raise CubexError("%s: anchor.xml: bad or duplicate location id %d"
                                         % (where, lid))
                    seen.add(lid)
                    self.locations.append(Location(lid, _text(le, "name"),
                                                   _int_text(le, "rank", where),
                                                   _text(le, "type", "thread"), gname, grank))

        _in_preorder(system.findall("systemtreenode"), "systemtreenode", add_groups)
        if not self.locations:
            raise CubexError("%s: anchor.xml defines no location" % where)
        self.locations.sort(key=lambda loc: loc.id)
        self.nlocs = self.locations[-1].id + 1

    # ---- metric data --------------------------------------------------------------
    def _load_metric(self, m, data, members):
        where = self.path
        prefix = "ghost_" if m.viztype == "GHOST" else ""
        dname, iname = "%s%d.data" % (prefix, m.id), "%s%d.index" % (prefix, m.id)
        if dname not in members and iname not in members:
            self._rows[m.id] = {}           # CubeLib: all values zero
            return
        if dname not in members or iname not in members:
            raise CubexError("%s: metric '%s': member %s is missing"
                             % (where, m.uniq_name, iname if dname in members else dname))
        if m.dtype not in _DTYPES:
            raise CubexError("%s: metric '%s' has unsupported dtype %s"
                             % (where, m.uniq_name, m.dtype))
        code, esize, _ = _DTYPES[m.dtype]
        ioff, isize = members[iname]
        index = data[ioff:ioff + isize]
        if len(index) < 18 or index[:11] != INDEX_MARKER:
            raise CubexError("%s: metric '%s': %s is not a CUBE index" % (where, m.uniq_name, iname))
        if index[11:15] == b"\x01\x00\x00\x00":
            endian = "<"
        elif index[11:15] == b"\x00\x00\x00\x01":
            endian = ">"
        else:
            raise CubexError("%s: metric '%s': bad endianness marker in %s"
                             % (where, m.uniq_name, iname))
        order = row_enumeration(self.roots, m.type)
        ncnodes = len(order)
        fmt = index[17]
        if fmt == INDEX_DENSE:
            positions = list(range(ncnodes))
        elif fmt == INDEX_SPARSE:
            if len(index) < 22:
                raise CubexError("%s: metric '%s': %s is truncated" % (where, m.uniq_name, iname))
            (n,) = struct.unpack_from(endian + "I", index, 18)
            if len(index) < 22 + 4 * n:
                raise CubexError("%s: metric '%s': %s is truncated (%d of %d positions)"
                                 % (where, m.uniq_name, iname, (len(index) - 22) // 4, n))
            positions = list(struct.unpack_from("%s%dI" % (endian, n), index, 22))
            if any(p >= ncnodes for p in positions):
                raise CubexError("%s: metric '%s': %s names a row beyond the %d call paths"
                                 % (where, m.uniq_name, iname, ncnodes))
        else:
            raise CubexError("%s: metric '%s': unsupported index format %d in %s"
                             % (where, m.uniq_name, fmt, iname))
        doff, dsize = members[dname]
        body = data[doff:doff + dsize]
        rowsize = self.nlocs * esize
        need = len(positions) * rowsize
        if body[:11] == ZDATA_MARKER:
            body = self._inflate(body, need, m, dname, endian)
        elif body[:10] == DATA_MARKER:
            body = body[10:]
        else:
            raise CubexError("%s: metric '%s': %s has no CUBEX.DATA marker"
                             % (where, m.uniq_name, dname))
        if len(body) < need:
            raise CubexError("%s: metric '%s': %s is truncated (%d of %d value bytes)"
                             % (where, m.uniq_name, dname, len(body), need))
        rows = {}
        if code == "Idddd":
            # TAU_ATOMIC tuples: use the sum component
            tup = struct.Struct(endian + "Idddd")
            for k, p in enumerate(positions):
                base = k * rowsize
                rows[order[p].id] = tuple(tup.unpack_from(body, base + i * esize)[3]
                                          for i in range(self.nlocs))
        else:
            st = struct.Struct("%s%d%s" % (endian, self.nlocs, code))
            for k, p in enumerate(positions):
                rows[order[p].id] = st.unpack_from(body, k * rowsize)
        self._rows[m.id] = rows
        m.has_data = True

    def _inflate(self, body, need, m, dname, endian):
        where = self.path
        try:
            (n,) = struct.unpack_from(endian + "Q", body, 11)
            table = struct.unpack_from("%s%dQ" % (endian, 3 * n), body, 19)
            blobs = 19 + 24 * n
            out = bytearray(need)
            for k in range(n):
                ustart, cstart, csize = table[3 * k:3 * k + 3]
                chunk = zlib.decompress(body[blobs + cstart:blobs + cstart + csize])
                out[ustart:ustart + len(chunk)] = chunk
            return bytes(out[:need]) if len(out) >= need else bytes(out)
        except (struct.error, zlib.error, ValueError, OverflowError, MemoryError):
            raise CubexError("%s: metric '%s': compressed %s is corrupt or truncated"
                             % (where, m.uniq_name, dname)) from None

    # ---- lookup ---------------------------------------------------------------------
    def metric(self, key: Metric | str | int) -> Metric:
        """A Metric by object, uniq_name or id; CubexError when absent."""
        if isinstance(key, Metric):
            return key
        m = self._metric_by_id.get(key) if isinstance(key, int) else self._metric_by_name.get(key)
        if m is None:
            raise CubexError("%s: no metric '%s' in this profile" % (self.path, key))
        return m

    def has_metric(self, name: str) -> bool:
        return name in self._metric_by_name

    def cnode(self, key: Cnode | int) -> Cnode:
        return key if isinstance(key, Cnode) else self.cnodes[key]

    def cnodes_in_order(self) -> list[Cnode]:
        """All cnodes in depth-first pre-order of the full tree (TASKS included)."""
        return row_enumeration(self.roots, "EXCLUSIVE")

    # ---- the TASKS convention -----------------------------------------------------
    @staticmethod
    def is_tasks_node(c: Cnode) -> bool:
        return (c.parent is not None and c.parent.parent is None
                and c.region.name == "TASKS" and c.region.role == "artificial")

    def main_children(self, c: Cnode | int) -> list[Cnode]:
        """Children in CubeLib's view: a root loses its TASKS children."""
        c = self.cnode(c)
        if c.parent is None:
            return [ch for ch in c.children if not self.is_tasks_node(ch)]
        return list(c.children)

    def tasks_nodes(self) -> list[Cnode]:
        return [ch for r in self.roots for ch in r.children if self.is_tasks_node(ch)]

    def task_roots(self) -> list[Cnode]:
        """The roots of the task tree: children of the TASKS nodes."""
        return [t for n in self.tasks_nodes() for t in n.children]

    # ---- values ---------------------------------------------------------------------
    def _zero(self, m):
        return 0 if m.is_integer else 0.0

    def row(self, metric: Metric | str | int, cnode: Cnode | int) -> tuple:
        """Stored values of one cnode, one per location (zeros where nothing is stored)."""
        m = self.metric(metric)
        if m.id not in self._rows:
            raise CubexError("%s: metric '%s' has no stored data (type %s)"
                             % (self.path, m.uniq_name, m.type))
        r = self._rows[m.id].get(self.cnode(cnode).id)
        return r if r is not None else (self._zero(m),) * self.nlocs

    def stored(self, metric: Metric | str | int, cnode: Cnode | int, loc: int):
        return self.row(metric, cnode)[loc]

    def exclusive_row(self, metric: Metric | str | int, cnode: Cnode | int) -> list:
        m, c = self.metric(metric), self.cnode(cnode)
        key = ("x", m.id, c.id)
        if key not in self._memo:
            out = list(self.row(m, c))
            if m.type in ("INCLUSIVE", "SIMPLE"):   # CubeLib treats SIMPLE as INCLUSIVE
                for ch in self.main_children(c):
                    r = self.row(m, ch)
                    for i in range(self.nlocs):
                        out[i] -= r[i]
            self._memo[key] = out
        return self._memo[key]

    def inclusive_row(self, metric: Metric | str | int, cnode: Cnode | int) -> list:
        m, c = self.metric(metric), self.cnode(cnode)
        if m.type in ("INCLUSIVE", "SIMPLE"):
            return list(self.row(m, c))
        key = ("i", m.id, c.id)
        if key not in self._memo:
            comb = {"sum": lambda a, b: a + b, "min": min, "max": max}[m.aggregation]
            # children before parents (reversed pre-order), without recursion
            order, stack = [], [c]
            while stack:
                n = stack.pop()
                order.append(n)
                stack.extend(self.main_children(n))
            for n in reversed(order):
                nkey = ("i", m.id, n.id)
                if nkey in self._memo:
                    continue
                out = list(self.row(m, n))
                for ch in self.main_children(n):
                    r = self._memo[("i", m.id, ch.id)]
                    for i in range(self.nlocs):
                        out[i] = comb(out[i], r[i])
                self._memo[nkey] = out
        return self._memo[key]

    def exclusive(self, metric: Metric | str | int, cnode: Cnode | int, loc: int):
        return self.exclusive_row(metric, cnode)[loc]

    def inclusive(self, metric: Metric | str | int, cnode: Cnode | int, loc: int):
        return self.inclusive_row(metric, cnode)[loc]

    def aggregate(self, metric, values):
        """Combine per-location values the way the metric's dtype says (sum/min/max)."""
        m = self.metric(metric)
        values = list(values)
        if not values:
            return self._zero(m)
        return {"sum": sum, "min": min, "max": max}[m.aggregation](values)
