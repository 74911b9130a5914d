"""The definitions of a CUBE4 profile: metrics, regions, call tree, system tree, as
``anchor.xml`` holds them (doc/cube4-layout.md), and the one error the reader raises.

anchor.xml is read as a stream (expat) straight into these objects, without a document
tree in between: a profile with hundreds of thousands of call paths has an anchor.xml of
tens of megabytes, whose element tree alone would take gigabytes.  The rules are
CubeLib's: top-level ``<attr>``s, nested ``<metric>``s (type EXCLUSIVE when absent or
unknown), ``<region>``s, nested ``<cnode>``s (document order is child order), system-tree
nodes holding location groups holding locations; a text element's first occurrence
counts, newlines in it read as spaces.
"""

from __future__ import annotations

import os
import xml.parsers.expat
from dataclasses import dataclass, field

__all__ = ["CubexError", "Metric", "Region", "Cnode", "Location", "Anchor", "parse_anchor",
           "DTYPES", "DATA_TYPES"]

DATA_TYPES = ("INCLUSIVE", "EXCLUSIVE", "SIMPLE")
_METRIC_TYPES = DATA_TYPES + ("POSTDERIVED", "PREDERIVED_INCLUSIVE", "PREDERIVED_EXCLUSIVE")


class CubexError(Exception):
    """A profile cannot be read; str() is one line naming the file and the problem."""


# dtype name -> (struct code, element size, aggregation over locations)
DTYPES = {}
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
        DTYPES[_n] = (_code, _size, _aggr)


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
        return DTYPES.get(self.dtype, ("d", 8, "sum"))[2]

    @property
    def is_integer(self) -> bool:
        return DTYPES.get(self.dtype, ("d",))[0] in "QqIiHhBb"

    def __repr__(self):
        return "Metric(%d, %r, %s, %s)" % (self.id, self.uniq_name, self.dtype, self.type)


# Regions and cnodes come by the hundred thousand: slotted (no per-object dict), every
# field given by the parser (a slotted dataclass can have no defaults before Python 3.10).
@dataclass(eq=False, repr=False)
class Region:
    """A source region (function, OpenMP construct, ...); ``mod`` is its file."""
    __slots__ = ("id", "name", "mangled_name", "mod", "begin", "end", "paradigm", "role",
                 "url", "descr", "attrs")
    id: int
    name: str
    mangled_name: str
    mod: str
    begin: int
    end: int
    paradigm: str
    role: str
    url: str
    descr: str
    attrs: dict[str, str]

    @property
    def file(self) -> str:
        """Base name of the source file ('' when none)."""
        return os.path.basename(self.mod) if self.mod else ""

    def __repr__(self):
        return "Region(%d, %r, %s)" % (self.id, self.name, self.role)


@dataclass(eq=False, repr=False)
class Cnode:
    """A call path: a region called from its parent's call path (None for a root)."""
    __slots__ = ("id", "region", "parent", "line", "mod", "children", "parameters", "attrs")
    id: int
    region: Region
    parent: Cnode | None
    line: int
    mod: str
    children: list[Cnode]                       # document order, TASKS included
    parameters: list[tuple[str, str, str]]      # type, key, value
    attrs: dict[str, str]

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
    node_name: str = ""         # the system tree node holding its process (a host)

    def __repr__(self):
        return "Location(%d, %r)" % (self.id, self.name)



@dataclass(eq=False, repr=False)
class Anchor:
    """Everything anchor.xml defines."""
    version: str
    attrs: dict[str, str]
    metrics: list[Metric]
    regions: dict[int, Region]
    cnodes: dict[int, Cnode]
    roots: list[Cnode]
    locations: list[Location]   # sorted by id


# text elements read per definition: tag -> key in the collected texts
_TEXTS = {"metric": ("disp_name", "uniq_name", "dtype", "uom", "url", "descr"),
          "region": ("name", "mangled_name", "paradigm", "role", "url", "descr"),
          "systemtreenode": ("name",),
          "locationgroup": ("name", "rank", "type"),
          "location": ("name", "rank", "type")}


class _Parser:
    """expat callbacks building the definitions; `stack` holds, per open element, its tag
    and the object it defines (or None)."""

    def __init__(self, where):
        self.where = where
        self.version = ""
        self.attrs = {}
        self.metrics, self.metric_ids = [], {}
        self.regions, self.cnodes, self.roots = {}, {}, []
        self.callee = []            # (cnode, region id): resolved once all regions are known
        self.locations, self.location_ids = [], set()
        self.sections = set()
        self.metric_count = 0       # <metric>s directly below <metrics>
        self.stack = []             # (tag, object or None, texts dict or None)
        self.text = None            # character data of the open text element
        self.text_depth = 0         # its depth in the stack

    def fail(self, msg):
        raise CubexError("%s: anchor.xml: %s" % (self.where, msg))

    def int_attr(self, tag, attrs, names, default=None):
        for n in names:
            v = attrs.get(n)
            if v is not None:
                try:
                    return int(v.strip())
                except ValueError:
                    self.fail("<%s> has a non-integer %s=\"%s\"" % (tag, n, v))
        if default is None:
            self.fail("<%s> without %s attribute" % (tag, names[0]))
        return default

    def int_text(self, tag, texts):
        t = texts.get(tag)
        if t is None:
            return 0
        try:
            return int(t.strip())
        except ValueError:
            self.fail("<%s> is not an integer: %r" % (tag, t))

    # ---- expat callbacks ----------------------------------------------------------
    def start(self, tag, attrs):
        parent = self.stack[-1] if self.stack else None
        ptag = parent[0] if parent else None
        obj, texts = None, None
        if parent is None:
            if tag != "cube":
                self.fail("root element is <%s>, not <cube>" % tag)
            self.version = attrs.get("version", "")
        elif tag == "attr" and ptag in ("cube", "metric", "region", "cnode"):
            target = self.attrs if ptag == "cube" else parent[1].attrs if parent[1] else None
            if target is not None:
                target[attrs.get("key", "")] = attrs.get("value", "")
        elif tag in ("metrics", "program", "system") and ptag == "cube":
            self.sections.add(tag)
        elif tag == "metric" and ptag in ("metrics", "metric"):
            obj = self.start_metric(attrs, parent[1] if ptag == "metric" else None)
            self.metric_count += ptag == "metrics"
            texts = {}
        elif tag == "region" and ptag == "program":
            rid = self.int_attr(tag, attrs, ("id",))
            if rid < 0 or rid in self.regions:
                self.fail("bad or duplicate region id %d" % rid)
            obj = Region(rid, "", "", attrs.get("mod", ""),
                         self.int_attr(tag, attrs, ("begin",), -1),
                         self.int_attr(tag, attrs, ("end",), -1), "unknown", "unknown", "", "",
                         {})
            self.regions[rid] = obj
            texts = {}
        elif tag == "cnode" and ptag in ("program", "cnode"):
            obj = self.start_cnode(attrs, parent[1] if ptag == "cnode" else None)
        elif tag == "parameter" and ptag == "cnode" and parent[1] is not None:
            parent[1].parameters.append((attrs.get("partype", ""), attrs.get("parkey", ""),
                                         attrs.get("parvalue", "")))
        elif tag == "systemtreenode" and ptag in ("system", "systemtreenode"):
            texts = {}
        elif tag == "locationgroup" and ptag == "systemtreenode":
            texts = {}
        elif tag == "location" and ptag == "locationgroup" and parent[2] is not None:
            lid = self.int_attr(tag, attrs, ("Id", "id"))
            if lid < 0 or lid in self.location_ids:
                self.fail("bad or duplicate location id %d" % lid)
            self.location_ids.add(lid)
            obj, texts = lid, {}
        elif ptag in _TEXTS and tag in _TEXTS[ptag] and parent[2] is not None \
                and tag not in parent[2] and self.text is None:
            self.text = []
            self.text_depth = len(self.stack) + 1
        self.stack.append((tag, obj, texts))

    def start_metric(self, attrs, parent):
        mid = self.int_attr("metric", attrs, ("id",))
        if mid < 0 or mid in self.metric_ids:
            self.fail("bad or duplicate metric id %d" % mid)
        mtype = attrs.get("type", "EXCLUSIVE")
        if mtype == "DERIVED":
            mtype = "POSTDERIVED"
        if mtype not in _METRIC_TYPES:
            mtype = "EXCLUSIVE"     # CubeLib's fallback
        m = Metric(mid, "", "", "DOUBLE", mtype, "", "", "",
                   attrs.get("viztype", "NORMAL").upper(), parent)
        self.metrics.append(m)
        self.metric_ids[mid] = m
        if parent is not None:
            parent.children.append(m)
        return m

    def start_cnode(self, attrs, parent):
        cid = self.int_attr("cnode", attrs, ("id",))
        rid = self.int_attr("cnode", attrs, ("calleeId",))
        if cid < 0 or cid in self.cnodes:
            self.fail("bad or duplicate cnode id %d" % cid)
        c = Cnode(cid, None, parent, self.int_attr("cnode", attrs, ("line",), -1),
                  attrs.get("mod", ""), [], [], {})
        self.callee.append((c, rid))
        self.cnodes[cid] = c
        if parent is None:
            self.roots.append(c)
        else:
            parent.children.append(c)
        return c

    def chars(self, data):
        if self.text is not None:
            self.text.append(data)

    def end(self, tag):
        depth = len(self.stack)
        _, obj, texts = self.stack.pop()
        if self.text is not None:
            if depth == self.text_depth:    # the text element itself ends
                text = "".join(self.text).replace("\n", " ")
                self.text = None
                if text:
                    self.stack[-1][2][tag] = text
            return
        if texts is None:
            return
        if tag == "metric":
            obj.disp_name = texts.get("disp_name", "")
            obj.uniq_name = texts.get("uniq_name", "")
            obj.dtype = texts.get("dtype", "DOUBLE").strip()
            obj.unit = texts.get("uom", "")
            obj.url = texts.get("url", "")
            obj.descr = texts.get("descr", "")
        elif tag == "region":
            obj.name = texts.get("name", "")
            obj.mangled_name = texts.get("mangled_name", obj.name)
            obj.paradigm = texts.get("paradigm", "unknown")
            obj.role = texts.get("role", "unknown")
            obj.url = texts.get("url", "")
            obj.descr = texts.get("descr", "")
        elif tag == "location":
            gname, grank = self.stack[-1][2].get("name", ""), self.int_text("rank",
                                                                            self.stack[-1][2])
            node = self.stack[-2][2] if len(self.stack) > 1 else None
            self.locations.append(Location(obj, texts.get("name", ""),
                                           self.int_text("rank", texts),
                                           texts.get("type", "thread"), gname, grank,
                                           (node or {}).get("name", "")))

    def finish(self):
        if "metrics" not in self.sections or not self.metric_count:
            self.fail("defines no metric")
        if "program" not in self.sections:
            self.fail("has no <program>")
        for c, rid in self.callee:
            region = self.regions.get(rid)
            if region is None:
                self.fail("cnode %d calls undefined region %d" % (c.id, rid))
            c.region = region
        if not self.roots:
            self.fail("defines no call-tree node")
        if "system" not in self.sections:
            self.fail("has no <system>")
        if not self.locations:
            self.fail("defines no location")
        self.locations.sort(key=lambda loc: loc.id)
        return Anchor(self.version, self.attrs, self.metrics, self.regions, self.cnodes,
                      self.roots, self.locations)


def parse_anchor(text: bytes, where: str) -> Anchor:
    """The definitions in anchor.xml (bytes); CubexError with one line when it is not
    well-formed or lacks what a profile needs."""
    p = _Parser(where)
    x = xml.parsers.expat.ParserCreate()
    x.StartElementHandler = p.start
    x.EndElementHandler = p.end
    x.CharacterDataHandler = p.chars
    x.buffer_text = True
    try:
        x.Parse(text, True)
    except xml.parsers.expat.ExpatError as e:
        raise CubexError("%s: anchor.xml is not well-formed XML (%s)" % (where, e)) from None
    except (LookupError, ValueError) as e:
        # e.g. an unknown encoding in the XML declaration
        raise CubexError("%s: anchor.xml cannot be decoded (%s)" % (where, e)) from None
    return p.finish()
